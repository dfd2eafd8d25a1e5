#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "algorithms/common/memory_budget.h"
#include "scenes/byte_reader.h"
#include "scenes/mesh_io.h"
#include "scenes/text_reader.h"

namespace adj::scenes {
namespace {

using detail::ByteReader;
using detail::kEmptyMesh;
using detail::kMaxCount;
using detail::LineReader;
using detail::LoadMemory;
using detail::Quote;
using detail::Scalar;

constexpr std::size_t kBinaryHeaderBytes = 80;
constexpr std::size_t kBinaryFacetBytes = 50;

// Numbers the distinct corners in order of first appearance. Keys are the
// coordinates' bits with -0 made +0, so that equal values (the comparison
// CGAL's reader welds by) share a key and nothing else does (NaN never gets
// here). The map grows by doubling through LoadMemory, so that its nodes
// are asked of the memory budget before they are allocated.
class Welder {
 public:
  Welder(Mesh& mesh, LoadMemory& memory) : mesh_(mesh), memory_(memory) {}

  // False when a new vertex would not fit a uint32 index.
  template <typename Reader>
  bool Add(const std::array<float, 3>& corner, std::uint32_t* index,
           const Reader& reader) {
    Key key;
    for (int axis = 0; axis < 3; ++axis) {
      key[axis] = std::bit_cast<std::uint32_t>(corner[axis] + 0.0f);
    }
    if (index_of_.size() == reserved_) {
      reserved_ = std::max<std::size_t>(16, 2 * reserved_);
      memory_.ReserveOther(memory::Bytes(reserved_, kEntryBytes), reader);
      index_of_.reserve(reserved_);
    }
    const auto [it, inserted] = index_of_.try_emplace(
        key, static_cast<std::uint32_t>(mesh_.particles()));
    if (inserted) {
      if (mesh_.particles() == kMaxCount) return false;
      memory_.PushPoint(corner[0], corner[1], corner[2], reader);
    }
    *index = it->second;
    return true;
  }

 private:
  using Key = std::array<std::uint32_t, 3>;
  struct KeyHash {
    std::size_t operator()(const Key& key) const {
      std::uint64_t h = 0x9e3779b97f4a7c15ull;
      for (const std::uint32_t k : key) {
        h = (h ^ k) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
      }
      return static_cast<std::size_t>(h);
    }
  };
  // An estimate of one entry: a node (next pointer, key and value, cached
  // hash) with the allocator's overhead, and a bucket pointer at load
  // factor 1.
  static constexpr std::uint64_t kEntryBytes = 48 + 8;

  Mesh& mesh_;
  LoadMemory& memory_;
  std::unordered_map<Key, std::uint32_t, KeyHash> index_of_;
  std::size_t reserved_ = 0;
};

bool EqualsIgnoringCase(std::string_view token, std::string_view keyword) {
  if (token.size() != keyword.size()) return false;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(token[i])) != keyword[i]) {
      return false;
    }
  }
  return true;
}

// The tokens of an ASCII STL in order, across lines, each with its line.
class TokenStream {
 public:
  explicit TokenStream(LineReader& reader) : reader_(reader) {}

  bool AtEnd() {
    while (next_ >= reader_.tokens().size()) {
      if (!reader_.Next()) return true;
      next_ = 0;
    }
    return false;
  }

  std::string_view Take(std::string_view expected) {
    if (AtEnd()) {
      reader_.Fail("unexpected end of file: expected " + std::string(expected));
    }
    return reader_.tokens()[next_++];
  }

  void Expect(std::string_view keyword) {
    const std::string_view token = Take(Quote(keyword));
    if (!EqualsIgnoringCase(token, keyword)) {
      reader_.Fail("expected " + Quote(keyword) + ", found " + Quote(token));
    }
  }

  // Skips the rest of the current line (a solid's name).
  void SkipLine() { next_ = reader_.tokens().size(); }

  const LineReader& reader() const { return reader_; }

 private:
  LineReader& reader_;
  std::size_t next_ = 0;
};

Mesh ParseAsciiStl(std::string text, const std::string& name) {
  LineReader reader(std::move(text), name, /*hash_comments=*/false);
  TokenStream tokens(reader);
  Mesh mesh;
  LoadMemory memory(reader.text().size(), mesh.positions, &mesh.triangles);
  Welder welder(mesh, memory);
  static constexpr std::array<std::string_view, 3> kAxisNames = {
      "x coordinate", "y coordinate", "z coordinate"};
  tokens.Expect("solid");
  tokens.SkipLine();
  while (true) {
    const std::string_view keyword = tokens.Take("'facet' or 'endsolid'");
    if (EqualsIgnoringCase(keyword, "endsolid")) {
      tokens.SkipLine();
      // ASCII STL ends with its last "endsolid" line; only white space may
      // follow it, or another solid.
      if (tokens.AtEnd()) break;
      tokens.Expect("solid");
      tokens.SkipLine();
      continue;
    }
    if (!EqualsIgnoringCase(keyword, "facet")) {
      reader.Fail("expected 'facet' or 'endsolid', found " + Quote(keyword));
    }
    tokens.Expect("normal");
    for (int axis = 0; axis < 3; ++axis) tokens.Take("a normal component");
    tokens.Expect("outer");
    tokens.Expect("loop");
    Triangle triangle;
    for (int corner = 0; corner < 3; ++corner) {
      tokens.Expect("vertex");
      std::array<float, 3> xyz;
      for (int axis = 0; axis < 3; ++axis) {
        xyz[axis] =
            reader.Float(tokens.Take(kAxisNames[axis]), kAxisNames[axis]);
      }
      if (!welder.Add(xyz, &triangle[corner], reader)) {
        reader.Fail("more than " + std::to_string(kMaxCount) +
                    " distinct vertices: 32-bit indices cannot address them");
      }
    }
    tokens.Expect("endloop");
    tokens.Expect("endfacet");
    memory.TriangleRoom(1, reader);
    mesh.triangles.push_back(triangle);
  }
  if (mesh.triangles.empty()) {
    reader.Fail("no facets: " + std::string(kEmptyMesh));
  }
  return mesh;
}

Mesh ParseBinaryStl(std::string_view text, const std::string& name) {
  if (text.size() < kBinaryHeaderBytes + 4) {
    throw ParseError(name, ByteOffset{text.size()},
                     "unexpected end of file: a binary STL needs an 84-byte "
                     "header, the file has " +
                         std::to_string(text.size()) + " bytes");
  }
  ByteReader bytes(text, kBinaryHeaderBytes, /*big_endian=*/false, name);
  const std::uint64_t facets = static_cast<std::uint64_t>(
      bytes.Integer(Scalar::kUint32, "the triangle count"));
  // At most (2^32 - 1) * 50: no overflow.
  const std::uint64_t needed = facets * kBinaryFacetBytes;
  if (needed > bytes.remaining_bytes()) {
    bytes.FailAt(text.size(),
                 "unexpected end of file: the header declares " +
                     std::to_string(facets) + " triangles (" +
                     std::to_string(needed) + " bytes after byte 84), " +
                     std::to_string(bytes.remaining_bytes()) + " remain");
  }
  // A binary STL is its header, its count and exactly that many 50-byte
  // facets: nothing marks an end, so bytes past the declared facets mean
  // the count under-declares the file, which must not load in part.
  if (needed < bytes.remaining_bytes()) {
    bytes.FailAt(bytes.offset() + needed,
                 std::to_string(bytes.remaining_bytes() - needed) +
                     " bytes after the " + std::to_string(facets) +
                     " triangles the header declares at byte 80 (a binary "
                     "STL of " +
                     std::to_string(facets) + " triangles has " +
                     std::to_string(kBinaryHeaderBytes + 4 + needed) +
                     " bytes, this file " + std::to_string(text.size()) + ")");
  }
  if (facets == 0) {
    bytes.FailAt(kBinaryHeaderBytes,
                 "the header declares 0 triangles: " + std::string(kEmptyMesh));
  }
  static constexpr std::array<std::string_view, 3> kAxisNames = {
      "x coordinate", "y coordinate", "z coordinate"};
  Mesh mesh;
  LoadMemory memory(text.size(), mesh.positions, &mesh.triangles);
  memory.ReserveTriangles(static_cast<std::size_t>(facets), bytes);
  Welder welder(mesh, memory);
  for (std::uint64_t f = 0; f < facets; ++f) {
    bytes.Skip(12, "normal");
    Triangle triangle;
    for (int corner = 0; corner < 3; ++corner) {
      const std::size_t at = bytes.offset();
      std::array<float, 3> xyz;
      for (int axis = 0; axis < 3; ++axis) {
        xyz[axis] = bytes.Coordinate(Scalar::kFloat32, kAxisNames[axis]);
      }
      if (!welder.Add(xyz, &triangle[corner], bytes)) {
        bytes.FailAt(at, "more than " + std::to_string(kMaxCount) +
                             " distinct vertices: 32-bit indices cannot "
                             "address them");
      }
    }
    bytes.Skip(2, "attribute byte count");
    mesh.triangles.push_back(triangle);
  }
  return mesh;
}

bool StartsWithSolid(std::string_view text) {
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  return start != std::string_view::npos &&
         EqualsIgnoringCase(text.substr(start, 5), "solid");
}

}  // namespace

namespace detail {

Mesh StlFromText(std::string text, const std::string& name) {
  if (text.find_first_not_of(" \t\r\n\v\f") == std::string::npos) {
    LineReader reader(std::move(text), name, /*hash_comments=*/false);
    reader.Next();  // to the line after the last, where the error sits
    reader.Fail(
        "empty file: expected an ASCII STL ('solid ...') or a binary one "
        "(an 84-byte header and its facets)");
  }
  if (text.size() >= kBinaryHeaderBytes + 4) {
    std::uint64_t facets = 0;
    for (int byte = 3; byte >= 0; --byte) {
      facets = facets << 8 |
               static_cast<unsigned char>(text[kBinaryHeaderBytes + byte]);
    }
    if (kBinaryHeaderBytes + 4 + facets * kBinaryFacetBytes == text.size()) {
      return ParseBinaryStl(text, name);
    }
  }
  // Text holds no NUL byte, while binary STL headers are often padded with
  // them and their floats hold them (0.0f): a file that starts with "solid"
  // but holds a NUL is a binary one whose size disagrees with its count,
  // and is reported as such, not as an ASCII syntax error.
  if (StartsWithSolid(text) && text.find('\0') == std::string::npos) {
    return ParseAsciiStl(std::move(text), name);
  }
  return ParseBinaryStl(text, name);
}

}  // namespace detail

Mesh ParseStl(std::istream& in, const std::string& name) {
  return detail::StlFromText(detail::ReadAll(in, name), name);
}

}  // namespace adj::scenes
