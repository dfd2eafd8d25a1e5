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

#include "scenes/text_reader.h"

namespace adj::scenes {

ParseError::ParseError(std::string name, std::size_t line,
                       const std::string& reason)
    : Error(name + ":" + std::to_string(line) + ": " + reason),
      name_(std::move(name)),
      line_(line) {}

ParseError::ParseError(std::string name, ByteOffset offset,
                       const std::string& reason)
    : Error(name + ": byte " + std::to_string(offset.value) + ": " + reason),
      name_(std::move(name)),
      byte_offset_(offset.value) {}

namespace {

using detail::CheckPolygonSize;
using detail::IndexBelow;
using detail::kMaxCount;
using detail::LineReader;
using detail::PushFan;
using detail::PushXyz;
using detail::Quote;
using detail::ReadAll;
using detail::Reserve;
using detail::ReserveBound;

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
  if (extension == ".stl") return ParseFile(path, &ParseStl);
  throw ParseError(path.string(), 0,
                   "unknown mesh extension " + Quote(extension) +
                       " (expected .off, .obj, .ply or .stl)");
}

Points LoadPoints(const std::filesystem::path& path) {
  const std::string extension = LowerExtension(path);
  if (extension == ".xyz" || extension == ".pwn") {
    return ParseFile(path, &ParseXyz);
  }
  if (extension == ".off" || extension == ".obj" || extension == ".ply" ||
      extension == ".stl") {
    return std::move(LoadMesh(path).positions);
  }
  throw ParseError(path.string(), 0,
                   "unknown point set extension " + Quote(extension) +
                       " (expected .xyz, .pwn, .off, .obj, .ply or .stl)");
}

}  // namespace adj::scenes
