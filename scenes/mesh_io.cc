#include "scenes/mesh_io.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace adj::scenes {

ParseError::ParseError(std::string name, std::size_t line,
                       const std::string& reason)
    : Error(name + ":" + std::to_string(line) + ": " + reason),
      name_(std::move(name)),
      line_(line) {}

namespace {

// Triangle indices are uint32, so no file may declare more vertices than
// they can address; faces get the same bound so that no count can wrap.
constexpr std::uint64_t kMaxCount = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kAnyCount = std::numeric_limits<std::uint64_t>::max();

// A token as error messages show it: quoted, cut short and with control
// bytes replaced, since a binary file fed to a text parser yields long
// tokens of garbage.
std::string Quote(std::string_view token) {
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
std::size_t ReserveBound(std::uint64_t declared, std::size_t remaining_bytes,
                         std::size_t min_record_bytes) {
  return static_cast<std::size_t>(std::min<std::uint64_t>(
      declared, remaining_bytes / min_record_bytes + 1));
}

void Reserve(Points& points, std::size_t n) {
  points.x.reserve(n);
  points.y.reserve(n);
  points.z.reserve(n);
}

std::string ReadAll(std::istream& in, const std::string& name) {
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
std::string_view StripPlus(std::string_view token) {
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
bool IsUnderflow(std::string_view token) {
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
NumberStatus ToFloat(std::string_view token, float* value) {
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
NumberStatus ToUnsigned(std::string_view token, std::uint64_t max,
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

NumberStatus ToSigned(std::string_view token, std::int64_t* value) {
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

void PushXyz(const LineReader& reader, std::span<const std::string_view> xyz,
             Points& points) {
  points.PushBack(reader.Float(xyz[0], "x coordinate"),
                  reader.Float(xyz[1], "y coordinate"),
                  reader.Float(xyz[2], "z coordinate"));
}

// Appends the fan (v0, v1, v2), (v0, v2, v3), ... of a polygon.
void PushFan(std::span<const std::uint32_t> polygon,
             std::vector<Triangle>& triangles) {
  for (std::size_t i = 2; i < polygon.size(); ++i) {
    triangles.push_back({polygon[0], polygon[i - 1], polygon[i]});
  }
}

void CheckPolygonSize(const LineReader& reader, std::uint64_t size) {
  if (size < 3) {
    reader.Fail("face with " + std::to_string(size) +
                " vertices: at least 3 are needed");
  }
}

std::uint32_t IndexBelow(const LineReader& reader, std::string_view token,
                         std::uint64_t vertices) {
  const std::uint64_t index = reader.Unsigned(token, "vertex index");
  if (index >= vertices) {
    reader.Fail("vertex index " + std::to_string(index) +
                " is out of range: the file declares " +
                std::to_string(vertices) + " vertices");
  }
  return static_cast<std::uint32_t>(index);
}

// ---------------------------------------------------------------- OFF

void CheckOffKeyword(const LineReader& reader, std::string_view keyword) {
  if (!keyword.ends_with("OFF")) {
    reader.Fail("expected the OFF keyword, found " + Quote(keyword));
  }
  std::string_view prefix = keyword.substr(0, keyword.size() - 3);
  for (const std::string_view optional : {"ST", "C", "N"}) {
    if (prefix.starts_with(optional)) prefix.remove_prefix(optional.size());
  }
  if (prefix.empty()) return;
  if (prefix.find_first_not_of("4n") == std::string_view::npos) {
    reader.Fail(Quote(keyword) +
                ": 4OFF and nOFF (vertices of other dimensions than 3) are "
                "not supported");
  }
  reader.Fail("unknown OFF keyword " + Quote(keyword));
}

}  // namespace

Mesh ParseOff(std::istream& in, const std::string& name) {
  LineReader reader(ReadAll(in, name), name, /*hash_comments=*/true);
  if (!reader.Next()) reader.Fail("empty file: expected the OFF keyword");
  CheckOffKeyword(reader, reader.tokens()[0]);
  std::span<const std::string_view> counts = reader.tokens().subspan(1);
  if (!counts.empty() && counts[0] == "BINARY") {
    reader.Fail("binary OFF is not supported");
  }
  if (counts.empty()) {
    if (!reader.Next()) {
      reader.Fail(
          "unexpected end of file: expected the vertex and face counts");
    }
    counts = reader.tokens();
  }
  if (counts.size() < 2 || counts.size() > 3) {
    reader.Fail("expected 'vertices faces edges' counts, found " +
                std::to_string(counts.size()) + " fields");
  }
  const std::uint64_t vertices =
      reader.Unsigned(counts[0], "vertex count", kMaxCount);
  const std::uint64_t faces =
      reader.Unsigned(counts[1], "face count", kMaxCount);
  if (counts.size() == 3) reader.Unsigned(counts[2], "edge count");

  Mesh mesh;
  Reserve(mesh.positions, ReserveBound(vertices, reader.remaining_bytes(), 6));
  for (std::uint64_t i = 0; i < vertices; ++i) {
    if (!reader.Next()) reader.FailTruncated(vertices - i, "vertices");
    reader.NeedFields(3, "vertex 'x y z'");
    PushXyz(reader, reader.tokens(), mesh.positions);
  }

  mesh.triangles.reserve(ReserveBound(faces, reader.remaining_bytes(), 8));
  std::vector<std::uint32_t> polygon;
  for (std::uint64_t f = 0; f < faces; ++f) {
    if (!reader.Next()) reader.FailTruncated(faces - f, "faces");
    const std::span<const std::string_view> tokens = reader.tokens();
    const std::uint64_t size =
        reader.Unsigned(tokens[0], "face vertex count", kMaxCount);
    CheckPolygonSize(reader, size);
    if (tokens.size() - 1 < size) {
      reader.Fail("face declares " + std::to_string(size) +
                  " vertices but lists " + std::to_string(tokens.size() - 1));
    }
    polygon.clear();
    for (std::size_t j = 1; j <= size; ++j) {
      polygon.push_back(IndexBelow(reader, tokens[j], vertices));
    }
    PushFan(polygon, mesh.triangles);
  }
  return mesh;
}

// ---------------------------------------------------------------- OBJ

namespace {

// Resolves one face reference ("a", "a/t", "a//n", "a/t/n") against the
// vertices defined so far.
std::uint32_t ObjIndex(const LineReader& reader, std::string_view reference,
                       std::size_t defined) {
  const std::string_view digits = reference.substr(0, reference.find('/'));
  if (digits.empty()) {
    reader.Fail("face reference " + Quote(reference) + " has no vertex index");
  }
  const std::int64_t index = reader.Signed(digits, "vertex index");
  if (index == 0) {
    reader.Fail("vertex index 0 is invalid: OBJ indices start at 1");
  }
  if (index > 0) {
    if (static_cast<std::uint64_t>(index) > defined) {
      reader.Fail("vertex index " + std::to_string(index) +
                  " is out of range: " + std::to_string(defined) +
                  " vertices are defined above this face");
    }
    return static_cast<std::uint32_t>(index - 1);
  }
  // -(index + 1) + 1 is |index| without overflowing at INT64_MIN.
  const std::uint64_t back = static_cast<std::uint64_t>(-(index + 1)) + 1;
  if (back > defined) {
    reader.Fail("relative vertex index " + std::to_string(index) +
                " is out of range: " + std::to_string(defined) +
                " vertices are defined above this face");
  }
  return static_cast<std::uint32_t>(defined - back);
}

}  // namespace

Mesh ParseObj(std::istream& in, const std::string& name) {
  LineReader reader(ReadAll(in, name), name, /*hash_comments=*/true);
  Mesh mesh;
  std::vector<std::uint32_t> polygon;
  while (reader.Next()) {
    const std::span<const std::string_view> tokens = reader.tokens();
    if (tokens[0] == "v") {
      reader.NeedFields(4, "'v x y z'");
      if (mesh.particles() == kMaxCount) {
        reader.Fail("more than " + std::to_string(kMaxCount) +
                    " vertices: 32-bit indices cannot address them");
      }
      PushXyz(reader, tokens.subspan(1), mesh.positions);
    } else if (tokens[0] == "f") {
      CheckPolygonSize(reader, tokens.size() - 1);
      polygon.clear();
      for (const std::string_view reference : tokens.subspan(1)) {
        polygon.push_back(ObjIndex(reader, reference, mesh.particles()));
      }
      PushFan(polygon, mesh.triangles);
    }
    // Everything else (vt, vn, g, o, s, usemtl, mtllib, l, p, ...) carries
    // nothing a triangle mesh of positions needs.
  }
  return mesh;
}

// ---------------------------------------------------------------- PLY

namespace {

struct PlyProperty {
  std::string name;
  bool is_list = false;
  bool integer = false;  // of the values, for a list of its entries
  std::size_t line = 0;
};

struct PlyElement {
  std::string name;
  std::uint64_t count = 0;
  std::size_t line = 0;
  std::vector<PlyProperty> properties;
};

// Type names of PLY 1.0, both the original and the sized spellings.
std::optional<bool> IsIntegerType(std::string_view type) {
  for (const std::string_view integer :
       {"char", "uchar", "short", "ushort", "int", "uint", "int8", "uint8",
        "int16", "uint16", "int32", "uint32"}) {
    if (type == integer) return true;
  }
  for (const std::string_view real :
       {"float", "double", "float32", "float64"}) {
    if (type == real) return false;
  }
  return std::nullopt;
}

bool CheckedIsIntegerType(const LineReader& reader, std::string_view type) {
  const std::optional<bool> integer = IsIntegerType(type);
  if (!integer) reader.Fail("unknown PLY property type " + Quote(type));
  return *integer;
}

std::vector<PlyElement> ReadPlyHeader(LineReader& reader) {
  if (!reader.Next() || reader.tokens().size() != 1 ||
      reader.tokens()[0] != "ply") {
    reader.Fail("expected the 'ply' magic line");
  }
  bool has_format = false;
  std::vector<PlyElement> elements;
  while (true) {
    if (!reader.Next()) {
      reader.Fail("unexpected end of file: expected 'end_header'");
    }
    const std::span<const std::string_view> tokens = reader.tokens();
    const std::string_view keyword = tokens[0];
    if (keyword == "end_header") break;
    if (keyword == "comment" || keyword == "obj_info") continue;
    if (keyword == "format") {
      if (tokens.size() >= 2 && tokens[1].starts_with("binary_")) {
        reader.Fail("binary PLY is not supported (format " +
                    std::string(tokens[1]) + "); convert the file to ASCII");
      }
      if (tokens.size() != 3 || tokens[1] != "ascii") {
        reader.Fail("expected 'format ascii 1.0'");
      }
      has_format = true;
    } else if (keyword == "element") {
      if (tokens.size() != 3) {
        reader.Fail("expected 'element <name> <count>'");
      }
      const std::string name(tokens[1]);
      for (const PlyElement& element : elements) {
        if (element.name == name) {
          reader.Fail("element " + Quote(name) + " is declared twice");
        }
      }
      const bool indexed = name == "vertex" || name == "face";
      elements.push_back(
          {name,
           reader.Unsigned(tokens[2], Quote(name) + " element count",
                           indexed ? kMaxCount : kAnyCount),
           reader.line(),
           {}});
    } else if (keyword == "property") {
      if (elements.empty()) reader.Fail("property before any element");
      PlyProperty property;
      property.line = reader.line();
      if (tokens.size() >= 2 && tokens[1] == "list") {
        if (tokens.size() != 5) {
          reader.Fail("expected 'property list <count type> <type> <name>'");
        }
        if (!CheckedIsIntegerType(reader, tokens[2])) {
          reader.Fail("list length type " + Quote(tokens[2]) +
                      " is not an integer type");
        }
        property.is_list = true;
        property.integer = CheckedIsIntegerType(reader, tokens[3]);
        property.name = tokens[4];
      } else {
        if (tokens.size() != 3)
          reader.Fail("expected 'property <type> <name>'");
        property.integer = CheckedIsIntegerType(reader, tokens[1]);
        property.name = tokens[2];
      }
      elements.back().properties.push_back(std::move(property));
    } else {
      reader.Fail("unknown PLY header line " + Quote(keyword));
    }
  }
  if (!has_format) reader.Fail("header has no 'format ascii 1.0' line");
  return elements;
}

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

std::size_t FindProperty(const PlyElement& element, std::string_view name) {
  for (std::size_t i = 0; i < element.properties.size(); ++i) {
    if (element.properties[i].name == name) return i;
  }
  return kNone;
}

// Where the fields the mesh needs sit among an element's properties.
struct PlyRoles {
  std::array<std::size_t, 3> xyz = {kNone, kNone, kNone};
  std::size_t indices = kNone;
};

PlyRoles FindRoles(const LineReader& reader, const PlyElement& element) {
  PlyRoles roles;
  if (element.name == "vertex") {
    for (int axis = 0; axis < 3; ++axis) {
      const std::string_view name = std::string_view("xyz").substr(axis, 1);
      const std::size_t i = FindProperty(element, name);
      if (i == kNone) {
        reader.FailAt(element.line,
                      "vertex element has no property " + Quote(name));
      }
      if (element.properties[i].is_list) {
        reader.FailAt(element.properties[i].line,
                      "vertex property " + Quote(name) + " is a list");
      }
      roles.xyz[axis] = i;
    }
  } else if (element.name == "face") {
    roles.indices = FindProperty(element, "vertex_indices");
    if (roles.indices == kNone) {
      roles.indices = FindProperty(element, "vertex_index");
    }
    if (roles.indices == kNone) {
      reader.FailAt(element.line,
                    "face element has no 'vertex_indices' list property");
    }
    const PlyProperty& property = element.properties[roles.indices];
    if (!property.is_list || !property.integer) {
      reader.FailAt(property.line, "face property " + Quote(property.name) +
                                       " is not a list of integers");
    }
  }
  return roles;
}

}  // namespace

Mesh ParsePly(std::istream& in, const std::string& name) {
  LineReader reader(ReadAll(in, name), name, /*hash_comments=*/false);
  const std::vector<PlyElement> elements = ReadPlyHeader(reader);
  const auto vertex_element =
      std::find_if(elements.begin(), elements.end(),
                   [](const PlyElement& e) { return e.name == "vertex"; });
  if (vertex_element == elements.end()) reader.Fail("no 'vertex' element");
  const std::uint64_t vertices = vertex_element->count;

  // The whole header is checked before the body, so that a header error is
  // reported as such and not as a body that does not fit it.
  std::vector<PlyRoles> roles_of;
  for (const PlyElement& element : elements) {
    roles_of.push_back(FindRoles(reader, element));
  }

  Mesh mesh;
  std::vector<std::uint32_t> polygon;
  std::array<std::string_view, 3> xyz;
  for (std::size_t e = 0; e < elements.size(); ++e) {
    const PlyElement& element = elements[e];
    const PlyRoles& roles = roles_of[e];
    if (element.name == "vertex") {
      Reserve(mesh.positions,
              ReserveBound(element.count, reader.remaining_bytes(), 6));
    } else if (element.name == "face") {
      mesh.triangles.reserve(
          ReserveBound(element.count, reader.remaining_bytes(), 8));
    }
    for (std::uint64_t i = 0; i < element.count; ++i) {
      if (!reader.Next()) {
        reader.FailTruncated(element.count - i,
                             Quote(element.name) + " elements");
      }
      const std::span<const std::string_view> tokens = reader.tokens();
      std::size_t field = 0;
      for (std::size_t p = 0; p < element.properties.size(); ++p) {
        const PlyProperty& property = element.properties[p];
        if (field >= tokens.size()) {
          reader.Fail("too few fields: property " + Quote(property.name) +
                      " of element " + Quote(element.name) + " is missing");
        }
        if (!property.is_list) {
          for (int axis = 0; axis < 3; ++axis) {
            if (roles.xyz[axis] == p) xyz[axis] = tokens[field];
          }
          ++field;
          continue;
        }
        const std::uint64_t length =
            reader.Unsigned(tokens[field], "list length");
        ++field;
        if (length > tokens.size() - field) {
          reader.Fail("list " + Quote(property.name) + " declares " +
                      std::to_string(length) + " entries but the line has " +
                      std::to_string(tokens.size() - field) + " more fields");
        }
        if (roles.indices == p) {
          CheckPolygonSize(reader, length);
          polygon.clear();
          for (std::size_t j = 0; j < length; ++j) {
            polygon.push_back(IndexBelow(reader, tokens[field + j], vertices));
          }
          PushFan(polygon, mesh.triangles);
        }
        field += static_cast<std::size_t>(length);
      }
      if (field != tokens.size()) {
        reader.Fail(std::to_string(tokens.size() - field) +
                    " fields more than element " + Quote(element.name) +
                    " declares");
      }
      if (roles.xyz[0] != kNone) PushXyz(reader, xyz, mesh.positions);
    }
  }
  return mesh;
}

// ---------------------------------------------------------------- XYZ

Points ParseXyz(std::istream& in, const std::string& name) {
  LineReader reader(ReadAll(in, name), name, /*hash_comments=*/true);
  Points points;
  while (reader.Next()) {
    reader.NeedFields(3, "'x y z'");
    PushXyz(reader, reader.tokens(), points);
  }
  return points;
}

// ---------------------------------------------------------------- files

std::string LowerExtension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  for (char& c : extension) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return extension;
}

namespace {

template <typename Result>
Result ParseFile(const std::filesystem::path& path,
                 Result (*parse)(std::istream&, const std::string&)) {
  const std::string name = path.string();
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw ParseError(name, 0, "cannot open file: it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int open_errno = errno;
    throw ParseError(
        name, 0,
        "cannot open file: " + std::generic_category().message(open_errno));
  }
  return parse(in, name);
}

}  // namespace

Mesh LoadMesh(const std::filesystem::path& path) {
  const std::string extension = LowerExtension(path);
  if (extension == ".off") return ParseFile(path, &ParseOff);
  if (extension == ".obj") return ParseFile(path, &ParseObj);
  if (extension == ".ply") return ParseFile(path, &ParsePly);
  throw ParseError(path.string(), 0,
                   "unknown mesh extension " + Quote(extension) +
                       " (expected .off, .obj or .ply)");
}

Points LoadPoints(const std::filesystem::path& path) {
  const std::string extension = LowerExtension(path);
  if (extension == ".xyz" || extension == ".pwn") {
    return ParseFile(path, &ParseXyz);
  }
  if (extension == ".off" || extension == ".obj" || extension == ".ply") {
    return std::move(LoadMesh(path).positions);
  }
  throw ParseError(path.string(), 0,
                   "unknown point set extension " + Quote(extension) +
                       " (expected .xyz, .pwn, .off, .obj or .ply)");
}

}  // namespace adj::scenes
