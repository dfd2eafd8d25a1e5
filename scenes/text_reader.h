#pragma once

// What the text loaders share: whole-file reading, numbers parsed with
// from_chars and checked, a reader of whitespace-separated tokens line by
// line whose errors carry the line number, and the polygon and index checks
// every mesh format needs. Internal to scenes/.

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "algorithms/common/mesh.h"
#include "algorithms/common/points.h"
#include "scenes/mesh_io.h"

namespace adj::scenes::detail {

// Triangle indices are uint32, so no file may declare more vertices than
// they can address; faces get the same bound so that no count can wrap.
inline constexpr std::uint64_t kMaxCount =
    std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint64_t kAnyCount =
    std::numeric_limits<std::uint64_t>::max();

// A token as error messages show it: quoted, cut short and with control
// bytes replaced, since a binary file fed to a text parser yields long
// tokens of garbage.
inline std::string Quote(std::string_view token) {
  constexpr std::size_t kMaxShown = 40;
  std::string quoted = "'";
  for (const char c : token.substr(0, kMaxShown)) {
    quoted += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  }
  if (token.size() > kMaxShown) quoted += "...";
  return quoted + "'";
}

// Enough room for `declared` records, but no more than the rest of the text
// can hold when each record takes at least `min_record_bytes`: a header that
// lies about its counts must not make us allocate gigabytes.
inline std::size_t ReserveBound(std::uint64_t declared,
                                std::size_t remaining_bytes,
                                std::size_t min_record_bytes) {
  return static_cast<std::size_t>(std::min<std::uint64_t>(
      declared, remaining_bytes / min_record_bytes + 1));
}

inline void Reserve(Points& points, std::size_t n) {
  points.x.reserve(n);
  points.y.reserve(n);
  points.z.reserve(n);
}

inline std::string ReadAll(std::istream& in, const std::string& name) {
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw ParseError(name, 0, "read error");
  return text;
}

enum class NumberStatus { kOk, kSyntax, kNotFinite, kOverflow, kNegative };

// from_chars accepts no leading '+', which some exporters write.
inline std::string_view StripPlus(std::string_view token) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '-' &&
      token[1] != '+') {
    token.remove_prefix(1);
  }
  return token;
}

// from_chars reports underflow and overflow alike as out of range. An
// underflow is a fine coordinate (it rounds to zero) and an overflow is not,
// so tell them apart by the decimal order of magnitude of the token, which
// from_chars has already found well formed.
inline bool IsUnderflow(std::string_view token) {
  std::size_t i = 0;
  if (i < token.size() && (token[i] == '-' || token[i] == '+')) ++i;
  std::int64_t integer_digits = 0;  // from the first nonzero one
  std::int64_t fraction_zeros = 0;  // before the first nonzero digit
  bool significant = false;
  bool in_fraction = false;
  for (; i < token.size(); ++i) {
    const char c = token[i];
    if (c == '.') {
      in_fraction = true;
    } else if (c >= '0' && c <= '9') {
      if (!in_fraction) {
        if (significant || c != '0') {
          significant = true;
          ++integer_digits;
        }
      } else if (!significant) {
        if (c == '0') {
          ++fraction_zeros;
        } else {
          significant = true;
        }
      }
    } else {
      break;
    }
  }
  std::int64_t order =
      integer_digits > 0 ? integer_digits - 1 : -(fraction_zeros + 1);
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < token.size() && (token[i] == '-' || token[i] == '+')) {
      negative = token[i] == '-';
      ++i;
    }
    // Saturates: any exponent past 10^12 decides the sign of the order alone.
    std::int64_t exponent = 0;
    for (; i < token.size() && token[i] >= '0' && token[i] <= '9'; ++i) {
      exponent = std::min<std::int64_t>(exponent * 10 + (token[i] - '0'),
                                        1'000'000'000'000);
    }
    order += negative ? -exponent : exponent;
  }
  return order < 0;
}

// Parsed as float directly rather than through double: from_chars rounds
// correctly once, so every float written in shortest form reads back exactly
// and values just past FLT_MAX that round to it are accepted.
inline NumberStatus ToFloat(std::string_view token, float* value) {
  token = StripPlus(token);
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, *value);
  if (ec == std::errc::invalid_argument || ptr != end) {
    return NumberStatus::kSyntax;
  }
  if (ec == std::errc::result_out_of_range) {
    if (!IsUnderflow(token)) return NumberStatus::kOverflow;
    *value = token[0] == '-' ? -0.0f : 0.0f;
    return NumberStatus::kOk;
  }
  return std::isfinite(*value) ? NumberStatus::kOk : NumberStatus::kNotFinite;
}

// kOverflow: above `max`, or too large for uint64.
inline NumberStatus ToUnsigned(std::string_view token, std::uint64_t max,
                               std::uint64_t* value) {
  bool negative = false;
  if (!token.empty() && token[0] == '-') {
    negative = true;
    token.remove_prefix(1);
  } else {
    token = StripPlus(token);
  }
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, *value);
  if (ec == std::errc::invalid_argument || ptr != end) {
    return NumberStatus::kSyntax;
  }
  if (negative && (ec != std::errc() || *value != 0)) {
    return NumberStatus::kNegative;
  }
  if (ec == std::errc::result_out_of_range || *value > max) {
    return NumberStatus::kOverflow;
  }
  return NumberStatus::kOk;
}

inline NumberStatus ToSigned(std::string_view token, std::int64_t* value) {
  token = StripPlus(token);
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, *value);
  if (ec == std::errc::invalid_argument || ptr != end) {
    return NumberStatus::kSyntax;
  }
  if (ec == std::errc::result_out_of_range) return NumberStatus::kOverflow;
  return NumberStatus::kOk;
}

// The text of a file cut into lines and each line into whitespace-separated
// tokens, with the line number every error message needs.
class LineReader {
 public:
  LineReader(std::string text, std::string name, bool hash_comments)
      : text_(std::move(text)),
        name_(std::move(name)),
        hash_comments_(hash_comments) {}

  // Moves to the next line with at least one token. At the end of the text
  // it returns false and line() becomes the one after the last line, which
  // is where a truncated file is reported.
  bool Next() {
    tokens_.clear();
    while (pos_ < text_.size()) {
      std::size_t end = text_.find('\n', pos_);
      if (end == std::string::npos) end = text_.size();
      std::string_view line(text_.data() + pos_, end - pos_);
      pos_ = std::min(end + 1, text_.size());
      ++line_;
      if (hash_comments_) line = line.substr(0, line.find('#'));
      Split(line);
      if (!tokens_.empty()) return true;
    }
    if (!at_end_) {
      at_end_ = true;
      ++line_;
    }
    return false;
  }

  std::span<const std::string_view> tokens() const { return tokens_; }
  std::size_t line() const { return line_; }
  std::size_t remaining_bytes() const { return text_.size() - pos_; }
  // The offset of the first byte after the current line, where a binary
  // body after a text header begins.
  std::size_t next_line_offset() const { return pos_; }
  std::string_view text() const { return text_; }

  [[noreturn]] void Fail(const std::string& reason) const {
    FailAt(line_, reason);
  }
  [[noreturn]] void FailAt(std::size_t line, const std::string& reason) const {
    throw ParseError(name_, line, reason);
  }
  [[noreturn]] void FailTruncated(std::uint64_t missing,
                                  std::string_view what) const {
    Fail("unexpected end of file: expected " + std::to_string(missing) +
         " more " + std::string(what));
  }

  // `what` names the field in messages, e.g. "x coordinate".
  float Float(std::string_view token, std::string_view what) const {
    float value = 0;
    switch (ToFloat(token, &value)) {
      case NumberStatus::kOk:
        return value;
      case NumberStatus::kNotFinite:
        Fail(std::string(what) + " " + Quote(token) + " is not finite");
      case NumberStatus::kOverflow:
        Fail(std::string(what) + " " + Quote(token) + " overflows float");
      default:
        Fail(std::string(what) + " " + Quote(token) + " is not a number");
    }
  }

  std::uint64_t Unsigned(std::string_view token, std::string_view what,
                         std::uint64_t max = kAnyCount) const {
    std::uint64_t value = 0;
    switch (ToUnsigned(token, max, &value)) {
      case NumberStatus::kOk:
        return value;
      case NumberStatus::kNegative:
        Fail(std::string(what) + " " + Quote(token) + " is negative");
      case NumberStatus::kOverflow:
        Fail(std::string(what) + " " + Quote(token) + " is too large" +
             (max == kMaxCount ? " (32-bit indices allow at most " +
                                     std::to_string(max) + ")"
                               : std::string()));
      default:
        Fail(std::string(what) + " " + Quote(token) + " is not an integer");
    }
  }

  std::int64_t Signed(std::string_view token, std::string_view what) const {
    std::int64_t value = 0;
    switch (ToSigned(token, &value)) {
      case NumberStatus::kOk:
        return value;
      case NumberStatus::kOverflow:
        Fail(std::string(what) + " " + Quote(token) + " is too large");
      default:
        Fail(std::string(what) + " " + Quote(token) + " is not an integer");
    }
  }

  // Checks that a record has at least `needed` fields.
  void NeedFields(std::size_t needed, std::string_view what) const {
    if (tokens_.size() < needed) {
      Fail("expected " + std::string(what) + ", found " +
           std::to_string(tokens_.size()) + " field" +
           (tokens_.size() == 1 ? "" : "s"));
    }
  }

 private:
  // Space, \t, \v, \f and \r (so CRLF files read as LF ones); \n never
  // reaches here.
  static bool IsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

  void Split(std::string_view line) {
    const char* p = line.data();
    const char* const end = p + line.size();
    while (true) {
      while (p != end && IsSpace(*p)) ++p;
      if (p == end) return;
      const char* const start = p;
      while (p != end && !IsSpace(*p)) ++p;
      tokens_.emplace_back(start, static_cast<std::size_t>(p - start));
    }
  }

  std::string text_;
  std::string name_;
  bool hash_comments_;
  std::size_t pos_ = 0;
  std::size_t line_ = 0;
  bool at_end_ = false;
  std::vector<std::string_view> tokens_;
};

inline void PushXyz(const LineReader& reader,
                    std::span<const std::string_view> xyz, Points& points) {
  points.PushBack(reader.Float(xyz[0], "x coordinate"),
                  reader.Float(xyz[1], "y coordinate"),
                  reader.Float(xyz[2], "z coordinate"));
}

// Appends the fan (v0, v1, v2), (v0, v2, v3), ... of a polygon.
inline void PushFan(std::span<const std::uint32_t> polygon,
                    std::vector<Triangle>& triangles) {
  for (std::size_t i = 2; i < polygon.size(); ++i) {
    triangles.push_back({polygon[0], polygon[i - 1], polygon[i]});
  }
}

inline void CheckPolygonSize(const LineReader& reader, std::uint64_t size) {
  if (size < 3) {
    reader.Fail("face with " + std::to_string(size) +
                " vertices: at least 3 are needed");
  }
}

inline std::uint32_t IndexBelow(const LineReader& reader,
                                std::string_view token,
                                std::uint64_t vertices) {
  const std::uint64_t index = reader.Unsigned(token, "vertex index");
  if (index >= vertices) {
    reader.Fail("vertex index " + std::to_string(index) +
                " is out of range: the file declares " +
                std::to_string(vertices) + " vertices");
  }
  return static_cast<std::uint32_t>(index);
}

}  // namespace adj::scenes::detail
