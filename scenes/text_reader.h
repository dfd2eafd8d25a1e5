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

#include "algorithms/common/errors.h"
#include "algorithms/common/memory_budget.h"
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

// Every format refuses a file that holds no vertex (or point): no bytes,
// only comments or white space, or a header declaring none. A mesh of
// vertices without faces still loads (a PLY or OFF point set), since
// LoadPoints reads meshes for their vertices.
inline constexpr std::string_view kEmptyMesh =
    "an empty mesh is refused: a mesh needs at least one vertex";

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

// Reads the whole stream, refusing with ResourceError once it goes on past
// the memory budget: a stream may be endless (a pipe, /dev/zero behind a
// stream), so its length is known only by reading, and the text is all
// held at once. The string grows by hand, never past the budget, since
// its own doubling could take twice what was asked.
inline std::string ReadAll(std::istream& in, const std::string& name) {
  const std::uint64_t budget = memory::Budget();
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0) {
    const auto got = static_cast<std::size_t>(in.gcount());
    if (text.size() + got > budget) {
      throw ResourceError(name + ": byte " + std::to_string(budget) +
                          ": the input goes on past the memory budget of " +
                          memory::Describe(budget) + " (" +
                          std::to_string(budget) +
                          " bytes; --max-memory on the command line, "
                          "adjacent.set_memory_budget in Python)");
    }
    if (text.size() + got > text.capacity()) {
      text.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(
          std::max(text.size() + got, 2 * text.capacity()), budget)));
    }
    text.append(buffer, got);
  }
  if (in.bad()) throw ParseError(name, 0, "read error");
  return text;
}

// What a load holds: the file's text and the arrays of its result.
// std::vector's own doubling would allocate unasked, so the parsers grow
// the arrays only through here, which asks memory::Require for the bytes
// the load would hold after the growth (the text, every array at its new
// capacity and `other`, e.g. STL's welding map) before allocating. Growth
// stays geometric, so the budget is asked O(log n) times per array.
// `reader` is a LineReader or ByteReader: it names the file and the line or
// byte offset in the message.
class LoadMemory {
 public:
  LoadMemory(std::size_t text_bytes, Points& points,
             std::vector<Triangle>* triangles = nullptr)
      : text_bytes_(text_bytes), points_(points), triangles_(triangles) {}

  // Room for `count` points in all: exactly `count` for a declared count
  // (already bounded by ReserveBound), at least double the capacity when
  // growing for a push.
  template <typename Reader>
  void ReservePoints(std::size_t count, const Reader& reader,
                     bool exact = true) {
    const std::size_t capacity = points_.x.capacity();
    if (count <= capacity) return;
    const std::size_t wanted = exact ? count : std::max(count, 2 * capacity);
    Ask(wanted, TriangleCapacity(), other_bytes_, reader);
    points_.x.reserve(wanted);
    points_.y.reserve(wanted);
    points_.z.reserve(wanted);
  }

  template <typename Reader>
  void ReserveTriangles(std::size_t count, const Reader& reader,
                        bool exact = true) {
    const std::size_t capacity = TriangleCapacity();
    if (count <= capacity) return;
    const std::size_t wanted = exact ? count : std::max(count, 2 * capacity);
    Ask(points_.x.capacity(), wanted, other_bytes_, reader);
    triangles_->reserve(wanted);
  }

  // Before a structure other than the arrays grows to `bytes`.
  template <typename Reader>
  void ReserveOther(std::uint64_t bytes, const Reader& reader) {
    if (bytes <= other_bytes_) return;
    Ask(points_.x.capacity(), TriangleCapacity(), bytes, reader);
    other_bytes_ = bytes;
  }

  template <typename Reader>
  void PushPoint(float x, float y, float z, const Reader& reader) {
    if (points_.size() == points_.x.capacity()) {
      ReservePoints(points_.size() + 1, reader, /*exact=*/false);
    }
    points_.PushBack(x, y, z);
  }

  // Room for `more` triangles after those held.
  template <typename Reader>
  void TriangleRoom(std::size_t more, const Reader& reader) {
    ReserveTriangles(triangles_->size() + more, reader, /*exact=*/false);
  }

  std::vector<Triangle>& triangles() { return *triangles_; }

 private:
  static constexpr std::uint64_t kPointBytes = 3 * sizeof(float);

  std::size_t TriangleCapacity() const {
    return triangles_ == nullptr ? 0 : triangles_->capacity();
  }

  template <typename Reader>
  void Ask(std::size_t points, std::size_t triangles, std::uint64_t other,
           const Reader& reader) const {
    // Saturating: a sum past 2^64 is refused, never wrapped into a small one.
    std::uint64_t total = text_bytes_;
    for (const std::uint64_t bytes :
         {memory::Bytes(points, kPointBytes),
          memory::Bytes(triangles, sizeof(Triangle)), other}) {
      total = bytes > std::numeric_limits<std::uint64_t>::max() - total
                  ? std::numeric_limits<std::uint64_t>::max()
                  : total + bytes;
    }
    memory::Require(
        total, reader.Where() + ": the file (" + std::to_string(text_bytes_) +
                   " bytes) and room for " + std::to_string(points) +
                   " vertices and " + std::to_string(triangles) + " triangles");
  }

  std::uint64_t text_bytes_;
  Points& points_;
  std::vector<Triangle>* triangles_;
  std::uint64_t other_bytes_ = 0;
};

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
  // "<name>:<line>", how every message of this reader begins.
  std::string Where() const { return name_ + ":" + std::to_string(line_); }
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

// The parsers of ply.cc and stl.cc on a file's whole text, which LoadMesh
// reads itself (bounded, regular files only) and the public Parse* read
// from their stream.
Mesh PlyFromText(std::string text, const std::string& name);
Mesh StlFromText(std::string text, const std::string& name);

inline void PushXyz(const LineReader& reader,
                    std::span<const std::string_view> xyz, LoadMemory& memory) {
  memory.PushPoint(reader.Float(xyz[0], "x coordinate"),
                   reader.Float(xyz[1], "y coordinate"),
                   reader.Float(xyz[2], "z coordinate"), reader);
}

// Appends the fan (v0, v1, v2), (v0, v2, v3), ... of a polygon.
template <typename Reader>
void PushFan(std::span<const std::uint32_t> polygon, LoadMemory& memory,
             const Reader& reader) {
  if (polygon.size() < 3) return;
  memory.TriangleRoom(polygon.size() - 2, reader);
  std::vector<Triangle>& triangles = memory.triangles();
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
