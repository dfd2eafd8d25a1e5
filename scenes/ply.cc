#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "algorithms/common/memory_budget.h"
#include "scenes/byte_reader.h"
#include "scenes/mesh_io.h"
#include "scenes/text_reader.h"

namespace adj::scenes {
namespace {

using detail::ByteReader;
using detail::CheckPolygonSize;
using detail::IndexBelow;
using detail::kAnyCount;
using detail::kEmptyMesh;
using detail::kMaxCount;
using detail::LineReader;
using detail::LoadMemory;
using detail::PushFan;
using detail::PushXyz;
using detail::Quote;
using detail::ReadAll;
using detail::ReserveBound;
using detail::Scalar;

enum class PlyFormat { kAscii, kBinaryLittleEndian, kBinaryBigEndian };

struct PlyProperty {
  std::string name;
  bool is_list = false;
  Scalar type = Scalar::kFloat32;  // of the values, for a list of its entries
  Scalar length_type = Scalar::kUint8;  // lists only
  std::size_t line = 0;
};

struct PlyElement {
  std::string name;
  std::uint64_t count = 0;
  std::size_t line = 0;
  std::vector<PlyProperty> properties;
};

struct PlyHeader {
  PlyFormat format = PlyFormat::kAscii;
  std::vector<PlyElement> elements;
};

// Type names of PLY 1.0, both the original and the sized spellings.
std::optional<Scalar> ScalarOf(std::string_view type) {
  constexpr std::array<std::pair<std::string_view, Scalar>, 16> kNames = {{
      {"char", Scalar::kInt8},
      {"int8", Scalar::kInt8},
      {"uchar", Scalar::kUint8},
      {"uint8", Scalar::kUint8},
      {"short", Scalar::kInt16},
      {"int16", Scalar::kInt16},
      {"ushort", Scalar::kUint16},
      {"uint16", Scalar::kUint16},
      {"int", Scalar::kInt32},
      {"int32", Scalar::kInt32},
      {"uint", Scalar::kUint32},
      {"uint32", Scalar::kUint32},
      {"float", Scalar::kFloat32},
      {"float32", Scalar::kFloat32},
      {"double", Scalar::kFloat64},
      {"float64", Scalar::kFloat64},
  }};
  for (const auto& [name, scalar] : kNames) {
    if (type == name) return scalar;
  }
  return std::nullopt;
}

Scalar CheckedScalarOf(const LineReader& reader, std::string_view type) {
  const std::optional<Scalar> scalar = ScalarOf(type);
  if (!scalar) reader.Fail("unknown PLY property type " + Quote(type));
  return *scalar;
}

PlyFormat FormatOf(const LineReader& reader,
                   std::span<const std::string_view> tokens) {
  constexpr std::string_view kExpected =
      "expected 'format ascii 1.0', 'format binary_little_endian 1.0' or "
      "'format binary_big_endian 1.0'";
  if (tokens.size() != 3) reader.Fail(std::string(kExpected));
  if (tokens[2] != "1.0") {
    reader.Fail("PLY version " + Quote(tokens[2]) + " is not supported (" +
                std::string(kExpected) + ")");
  }
  if (tokens[1] == "ascii") return PlyFormat::kAscii;
  if (tokens[1] == "binary_little_endian") {
    return PlyFormat::kBinaryLittleEndian;
  }
  if (tokens[1] == "binary_big_endian") return PlyFormat::kBinaryBigEndian;
  reader.Fail("unknown PLY format " + Quote(tokens[1]) + " (" +
              std::string(kExpected) + ")");
}

// An estimate of what one element or property line of a header takes
// once parsed: the larger record with a name past the short-string buffer,
// a set node and an element's roles, with the allocator's overhead.
constexpr std::uint64_t kHeaderRecordBytes =
    std::max(sizeof(PlyElement), sizeof(PlyProperty)) + 64 + 48 +
    4 * sizeof(std::size_t);

PlyHeader ReadPlyHeader(LineReader& reader) {
  if (!reader.Next()) reader.Fail("empty file: expected the 'ply' magic line");
  if (reader.tokens().size() != 1 || reader.tokens()[0] != "ply") {
    reader.Fail("expected the 'ply' magic line");
  }
  bool has_format = false;
  PlyHeader header;
  std::vector<PlyElement>& elements = header.elements;
  // The names declared so far, viewing the reader's text (which outlives
  // the header): a set, so that a header of n element lines is checked for
  // duplicates in O(n), not by comparing each name with every earlier one.
  std::unordered_set<std::string_view> element_names;
  // What the header's records hold is several times their text (an
  // "element a 0" line of 12 bytes becomes a PlyElement, a name, a set
  // node and a role), so the budget is asked each time their number
  // doubles, as for the mesh's arrays.
  std::uint64_t records = 0;
  std::uint64_t next_ask = 1024;
  while (true) {
    if (!reader.Next()) {
      reader.Fail("unexpected end of file: expected 'end_header'");
    }
    const std::span<const std::string_view> tokens = reader.tokens();
    const std::string_view keyword = tokens[0];
    if (++records == next_ask) {
      next_ask *= 2;
      memory::Require(
          reader.text().size() + memory::Bytes(next_ask, kHeaderRecordBytes),
          reader.Where() + ": the file (" +
              std::to_string(reader.text().size()) + " bytes) and " +
              std::to_string(next_ask) + " header records");
    }
    if (keyword == "end_header") break;
    if (keyword == "comment" || keyword == "obj_info") continue;
    if (keyword == "format") {
      if (has_format) reader.Fail("'format' is declared twice");
      header.format = FormatOf(reader, tokens);
      has_format = true;
    } else if (keyword == "element") {
      if (tokens.size() != 3) {
        reader.Fail("expected 'element <name> <count>'");
      }
      const std::string_view name = tokens[1];
      if (!element_names.insert(name).second) {
        reader.Fail("element " + Quote(name) + " is declared twice");
      }
      const bool indexed = name == "vertex" || name == "face";
      const std::uint64_t max = indexed ? kMaxCount : kAnyCount;
      std::uint64_t count = 0;
      // The message is built only for a bad count: a header may hold
      // hundreds of thousands of element lines.
      if (detail::ToUnsigned(tokens[2], max, &count) !=
          detail::NumberStatus::kOk) {
        reader.Unsigned(tokens[2], Quote(name) + " element count", max);
      }
      elements.push_back({std::string(name), count, reader.line(), {}});
    } else if (keyword == "property") {
      if (elements.empty()) reader.Fail("property before any element");
      PlyProperty property;
      property.line = reader.line();
      if (tokens.size() >= 2 && tokens[1] == "list") {
        if (tokens.size() != 5) {
          reader.Fail("expected 'property list <count type> <type> <name>'");
        }
        property.length_type = CheckedScalarOf(reader, tokens[2]);
        if (!detail::IsInteger(property.length_type)) {
          reader.Fail("list length type " + Quote(tokens[2]) +
                      " is not an integer type");
        }
        property.is_list = true;
        property.type = CheckedScalarOf(reader, tokens[3]);
        property.name = tokens[4];
      } else {
        if (tokens.size() != 3) {
          reader.Fail("expected 'property <type> <name>'");
        }
        property.type = CheckedScalarOf(reader, tokens[1]);
        property.name = tokens[2];
      }
      elements.back().properties.push_back(std::move(property));
    } else {
      reader.Fail("unknown PLY header line " + Quote(keyword));
    }
  }
  if (!has_format) reader.Fail("header has no 'format' line");
  return header;
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

  bool IsCoordinate(std::size_t property, int* axis) const {
    for (int a = 0; a < 3; ++a) {
      if (xyz[a] == property) {
        *axis = a;
        return true;
      }
    }
    return false;
  }
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
    if (!property.is_list || !detail::IsInteger(property.type)) {
      reader.FailAt(property.line, "face property " + Quote(property.name) +
                                       " is not a list of integers");
    }
  }
  return roles;
}

// The smallest number of bytes one record of `element` takes: a text record
// at least 2 per field ("0 "), a binary one its fixed-size fields and list
// lengths. Bounds what a lying count may make us reserve.
std::size_t MinRecordBytes(const PlyElement& element, bool binary) {
  std::size_t bytes = 0;
  for (const PlyProperty& property : element.properties) {
    bytes += binary ? detail::SizeOf(property.is_list ? property.length_type
                                                      : property.type)
                    : 2;
  }
  return std::max<std::size_t>(bytes, 1);
}

void ReadAsciiElement(LineReader& reader, const PlyElement& element,
                      const PlyRoles& roles, std::uint64_t vertices,
                      LoadMemory& memory) {
  std::vector<std::uint32_t> polygon;  // at most a line's tokens
  std::array<std::string_view, 3> xyz;
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
        int axis = 0;
        if (roles.IsCoordinate(p, &axis)) xyz[axis] = tokens[field];
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
        PushFan(polygon, memory, reader);
      }
      field += static_cast<std::size_t>(length);
    }
    if (field != tokens.size()) {
      reader.Fail(std::to_string(tokens.size() - field) +
                  " fields more than element " + Quote(element.name) +
                  " declares");
    }
    if (roles.xyz[0] != kNone) PushXyz(reader, xyz, memory);
  }
}

void ReadBinaryElement(ByteReader& bytes, const PlyElement& element,
                       const PlyRoles& roles, std::uint64_t vertices,
                       LoadMemory& memory) {
  static constexpr std::array<std::string_view, 3> kAxisNames = {
      "x coordinate", "y coordinate", "z coordinate"};
  // Records of no properties take no bytes: a count of 2^64 - 1 of them
  // reads nothing, and must not take 2^64 steps to do so.
  if (element.properties.empty()) return;
  // At most a list's entries, which Need() has found in the file.
  std::vector<std::uint32_t> polygon;
  std::array<float, 3> xyz = {0, 0, 0};
  for (std::uint64_t i = 0; i < element.count; ++i) {
    for (std::size_t p = 0; p < element.properties.size(); ++p) {
      const PlyProperty& property = element.properties[p];
      const std::string_view field = property.name;
      if (!property.is_list) {
        int axis = 0;
        if (roles.IsCoordinate(p, &axis)) {
          xyz[axis] = bytes.Coordinate(property.type, kAxisNames[axis]);
        } else {
          bytes.Skip(detail::SizeOf(property.type), field);
        }
        continue;
      }
      const std::size_t length_at = bytes.offset();
      const std::int64_t length = bytes.Integer(property.length_type, field);
      if (length < 0) {
        bytes.FailAt(length_at, "list " + Quote(field) + " has length " +
                                    std::to_string(length));
      }
      const std::uint64_t entries = static_cast<std::uint64_t>(length);
      // At most 2^32 - 1 entries of at most 8 bytes: no overflow.
      const std::uint64_t list_bytes = entries * detail::SizeOf(property.type);
      bytes.Need(static_cast<std::size_t>(list_bytes), field);
      if (roles.indices != p) {
        bytes.Skip(static_cast<std::size_t>(list_bytes), field);
        continue;
      }
      if (entries < 3) {
        bytes.FailAt(length_at, "face with " + std::to_string(entries) +
                                    " vertices: at least 3 are needed");
      }
      polygon.clear();
      for (std::uint64_t j = 0; j < entries; ++j) {
        const std::size_t at = bytes.offset();
        const std::int64_t index = bytes.Integer(property.type, field);
        if (index < 0 || static_cast<std::uint64_t>(index) >= vertices) {
          bytes.FailAt(at, "vertex index " + std::to_string(index) +
                               " is out of range: the file declares " +
                               std::to_string(vertices) + " vertices");
        }
        polygon.push_back(static_cast<std::uint32_t>(index));
      }
      PushFan(polygon, memory, bytes);
    }
    if (roles.xyz[0] != kNone) memory.PushPoint(xyz[0], xyz[1], xyz[2], bytes);
  }
}

}  // namespace

namespace detail {

Mesh PlyFromText(std::string text, const std::string& name) {
  LineReader reader(std::move(text), name, /*hash_comments=*/false);
  const PlyHeader header = ReadPlyHeader(reader);
  const std::vector<PlyElement>& elements = header.elements;
  const auto vertex_element =
      std::find_if(elements.begin(), elements.end(),
                   [](const PlyElement& e) { return e.name == "vertex"; });
  if (vertex_element == elements.end()) reader.Fail("no 'vertex' element");
  const std::uint64_t vertices = vertex_element->count;
  // The whole header is checked before the body, so that a header error is
  // reported as such and not as a body that does not fit it.
  std::vector<PlyRoles> roles_of;
  roles_of.reserve(elements.size());  // one per header line at most
  for (const PlyElement& element : elements) {
    roles_of.push_back(FindRoles(reader, element));
  }

  if (vertices == 0) {
    reader.FailAt(vertex_element->line, "the 'vertex' element count is 0: " +
                                            std::string(kEmptyMesh));
  }

  const bool binary = header.format != PlyFormat::kAscii;
  ByteReader bytes(reader.text(), reader.next_line_offset(),
                   header.format == PlyFormat::kBinaryBigEndian, name);
  Mesh mesh;
  LoadMemory memory(reader.text().size(), mesh.positions, &mesh.triangles);
  for (std::size_t e = 0; e < elements.size(); ++e) {
    const PlyElement& element = elements[e];
    const std::size_t remaining =
        binary ? bytes.remaining_bytes() : reader.remaining_bytes();
    const std::size_t bound =
        ReserveBound(element.count, remaining, MinRecordBytes(element, binary));
    if (element.name == "vertex") {
      if (binary) {
        memory.ReservePoints(bound, bytes);
      } else {
        memory.ReservePoints(bound, reader);
      }
    } else if (element.name == "face") {
      if (binary) {
        memory.ReserveTriangles(bound, bytes);
      } else {
        memory.ReserveTriangles(bound, reader);
      }
    }
    if (binary) {
      ReadBinaryElement(bytes, element, roles_of[e], vertices, memory);
    } else {
      ReadAsciiElement(reader, element, roles_of[e], vertices, memory);
    }
  }
  // PLY 1.0 defines the body as the declared elements and nothing more. An
  // ASCII body may end in white space (blank lines, a final CRLF); a binary
  // one ends with its last element's last byte. Anything else means the
  // header under-declares the file, which must not load in part.
  if (binary && bytes.remaining_bytes() != 0) {
    bytes.FailAt(bytes.offset(),
                 std::to_string(bytes.remaining_bytes()) +
                     " bytes after the declared elements: the body of a "
                     "binary PLY ends with its last element");
  }
  if (!binary && reader.Next()) {
    reader.Fail(
        "data after the declared elements: only white space may follow the "
        "last one");
  }
  return mesh;
}

}  // namespace detail

Mesh ParsePly(std::istream& in, const std::string& name) {
  return detail::PlyFromText(ReadAll(in, name), name);
}

}  // namespace adj::scenes
