// Binary PLY and STL, and ASCII STL: hand-built files whose bytes the test
// writes, round trips of random meshes, byte-offset errors, and CGAL's own
// binary files where `make data` fetched them.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "properties/mesh_generators.h"
#include "scenes/mesh_io.h"
#include "scenes/registry.h"

namespace adj::scenes {
namespace {

// Appends fixed-size scalars in either byte order.
class Bytes {
 public:
  explicit Bytes(bool big_endian = false) : big_endian_(big_endian) {}

  template <typename T>
  Bytes& Put(T value) {
    using Unsigned = std::conditional_t<
        sizeof(T) == 1, std::uint8_t,
        std::conditional_t<
            sizeof(T) == 2, std::uint16_t,
            std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
    const auto bits = std::bit_cast<Unsigned>(value);
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      const std::size_t shift = 8 * (big_endian_ ? sizeof(T) - 1 - i : i);
      text_ += static_cast<char>((bits >> shift) & 0xff);
    }
    return *this;
  }
  Bytes& Text(std::string_view text) {
    text_ += text;
    return *this;
  }
  const std::string& str() const { return text_; }
  std::size_t size() const { return text_.size(); }

 private:
  bool big_endian_;
  std::string text_;
};

template <typename Parse>
auto ParseBytes(Parse parse, const std::string& bytes) {
  std::istringstream in(bytes);
  return parse(in, "bad.bin");
}

// Checks that parsing throws a ParseError at byte `offset` whose reason
// contains `reason_part`.
template <typename Parse>
::testing::AssertionResult FailsAtByte(Parse parse, const std::string& bytes,
                                       std::size_t offset,
                                       std::string_view reason_part) {
  try {
    ParseBytes(parse, bytes);
  } catch (const ParseError& error) {
    const std::string what = error.what();
    const std::string prefix = "bad.bin: byte " + std::to_string(offset) + ": ";
    if (error.byte_offset() != offset || error.line() != 0 ||
        !what.starts_with(prefix) ||
        what.find(reason_part, prefix.size()) == std::string::npos) {
      return ::testing::AssertionFailure()
             << "expected \"" << prefix << "...\" mentioning \"" << reason_part
             << "\", got \"" << what << "\"";
    }
    return ::testing::AssertionSuccess() << what;
  }
  return ::testing::AssertionFailure() << "no ParseError";
}

// ---------------------------------------------------------------- PLY

// Vertices of double x, uchar red, double y z; faces of a uchar-counted int
// list and a float after it. The body starts at header.size().
std::string PlyHeader(std::string_view format, std::size_t vertices,
                      std::size_t faces) {
  return "ply\nformat " + std::string(format) +
         " 1.0\ncomment made by a test\nelement vertex " +
         std::to_string(vertices) +
         "\nproperty double x\nproperty uchar red\nproperty double y\n"
         "property double z\nelement face " +
         std::to_string(faces) +
         "\nproperty list uchar int vertex_indices\nproperty float quality\n"
         "end_header\n";
}

void PutPlyVertex(Bytes& bytes, double x, double y, double z) {
  bytes.Put(x).Put(std::uint8_t{200}).Put(y).Put(z);
}

std::string PlyQuad(bool big_endian) {
  Bytes bytes(big_endian);
  bytes.Text(PlyHeader(
      big_endian ? "binary_big_endian" : "binary_little_endian", 4, 1));
  PutPlyVertex(bytes, 0, 0, 0);
  PutPlyVertex(bytes, 1, 0, 0);
  PutPlyVertex(bytes, 1, 1, 0);
  PutPlyVertex(bytes, 0, 1, 0.5);
  bytes.Put(std::uint8_t{4}).Put(0).Put(1).Put(2).Put(3).Put(1.5f);
  return bytes.str();
}

TEST(BinaryPly, BothByteOrdersReadTheQuadAsItsFan) {
  const std::string ascii =
      "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\n"
      "property float y\nproperty float z\nelement face 1\n"
      "property list uchar int vertex_indices\nend_header\n"
      "0 0 0\n1 0 0\n1 1 0\n0 1 0.5\n4 0 1 2 3\n";
  const Mesh expected = ParseBytes(&ParsePly, ascii);
  ASSERT_EQ(expected.triangles, (std::vector<Triangle>{{0, 1, 2}, {0, 2, 3}}));
  EXPECT_EQ(ParseBytes(&ParsePly, PlyQuad(false)), expected);
  EXPECT_EQ(ParseBytes(&ParsePly, PlyQuad(true)), expected);
}

TEST(BinaryPly, EveryScalarTypeAndNoBytesAfterTheElements) {
  Bytes bytes;
  bytes.Text(
      "ply\r\nformat binary_little_endian 1.0\r\nelement vertex 3\r\n"
      "property int8 a\r\nproperty float x\r\nproperty short y\r\n"
      "property uint z\r\nproperty list int ushort skip\r\n"
      "element face 1\r\nproperty list char uint16 vertex_index\r\n"
      "element edge 1\r\nproperty list uint8 double d\r\nend_header\r\n");
  const std::array<std::array<float, 3>, 3> xyz = {
      {{0.25f, -2, 7}, {-1.5f, 30000, 4000000000.0f}, {0, -32768, 0}}};
  for (const auto& [x, y, z] : xyz) {
    bytes.Put(std::int8_t{-1}).Put(x).Put(static_cast<std::int16_t>(y));
    bytes.Put(static_cast<std::uint32_t>(z));
    bytes.Put(std::int32_t{2}).Put(std::uint16_t{7}).Put(std::uint16_t{9});
  }
  bytes.Put(std::int8_t{3}).Put(std::uint16_t{2}).Put(std::uint16_t{0});
  bytes.Put(std::uint16_t{1});
  bytes.Put(std::uint8_t{1}).Put(2.0);
  const Mesh mesh = ParseBytes(&ParsePly, bytes.str());
  for (std::size_t i = 0; i < xyz.size(); ++i) {
    EXPECT_EQ(mesh.positions.x[i], xyz[i][0]);
    EXPECT_EQ(mesh.positions.y[i], xyz[i][1]);
    EXPECT_EQ(mesh.positions.z[i], xyz[i][2]);
  }
  EXPECT_EQ(mesh.triangles, (std::vector<Triangle>{{2, 0, 1}}));
  // A binary body ends with its last element: a byte more, even a newline,
  // means the header under-declares the file, refused where it starts.
  for (const std::string_view after :
       {std::string_view("\n"), std::string_view("anything"),
        std::string_view("\0", 1)}) {
    EXPECT_TRUE(FailsAtByte(
        &ParsePly, bytes.str() + std::string(after), bytes.size(),
        std::to_string(after.size()) + " bytes after the declared elements"));
  }
}

TEST(BinaryPly, UnderDeclaredHeadersNeverLoadInPart) {
  // The quad's header declares 4 vertices and 1 face; one face more.
  std::string quad = PlyQuad(false);
  const std::size_t end = quad.size();
  Bytes face;
  face.Put(std::uint8_t{3}).Put(0).Put(1).Put(2).Put(0.5f);
  EXPECT_TRUE(FailsAtByte(&ParsePly, quad + face.str(), end,
                          "17 bytes after the declared elements"));
  // A vertex count of 0 is an empty mesh, refused as in every format.
  const std::string empty = PlyHeader("binary_big_endian", 0, 0);
  try {
    ParseBytes(&ParsePly, empty);
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.line(), 4u);
    EXPECT_NE(std::string(error.what())
                  .find("the 'vertex' element count is 0: an empty mesh"),
              std::string::npos)
        << error.what();
  }
}

TEST(BinaryPly, DoublesRoundToNearestFloatUpToFloatMax) {
  Bytes bytes;
  bytes.Text(PlyHeader("binary_little_endian", 1, 0));
  // 0.1 is not a float: rounds to nearest. Just past FLT_MAX rounds down to
  // it; 1e-320 (a double denormal) to 0.
  PutPlyVertex(bytes, 0.1, static_cast<double>(FLT_MAX) + 0x1p102, -1e-320);
  const Mesh mesh = ParseBytes(&ParsePly, bytes.str());
  EXPECT_EQ(mesh.positions.x[0], 0.1f);
  EXPECT_EQ(mesh.positions.y[0], FLT_MAX);
  EXPECT_EQ(mesh.positions.z[0], 0.0f);
  EXPECT_TRUE(std::signbit(mesh.positions.z[0]));
}

TEST(BinaryPly, BadBodiesNameTheByteOffset) {
  const std::size_t body = PlyHeader("binary_little_endian", 1, 1).size();
  // One vertex is 25 bytes: x at +0, red at +8, y at +9, z at +17.
  const auto one_vertex = [&](double x, double y, double z) {
    Bytes bytes;
    bytes.Text(PlyHeader("binary_little_endian", 1, 1));
    PutPlyVertex(bytes, x, y, z);
    return bytes;
  };
  {
    Bytes bytes = one_vertex(0, 0, 0);
    const std::string cut = bytes.str().substr(0, body + 20);
    EXPECT_TRUE(
        FailsAtByte(&ParsePly, cut, cut.size(),
                    "unexpected end of file: z coordinate needs 8 bytes"));
  }
  EXPECT_TRUE(FailsAtByte(&ParsePly, one_vertex(0, std::nan(""), 0).str(),
                          body + 9, "y coordinate nan is not finite"));
  EXPECT_TRUE(FailsAtByte(&ParsePly, one_vertex(0, 0, -INFINITY).str(),
                          body + 17, "z coordinate -inf is not finite"));
  EXPECT_TRUE(
      FailsAtByte(&ParsePly, one_vertex(1e39, 0, 0).str(), body,
                  "x coordinate " + std::to_string(1e39) + " overflows float"));
  {
    Bytes bytes = one_vertex(0, 0, 0);
    bytes.Put(std::uint8_t{3}).Put(0).Put(1).Put(0).Put(0.0f);
    EXPECT_TRUE(FailsAtByte(&ParsePly, bytes.str(), body + 25 + 1 + 4,
                            "vertex index 1 is out of range: the file "
                            "declares 1 vertices"));
  }
  {
    Bytes bytes = one_vertex(0, 0, 0);
    bytes.Put(std::uint8_t{3}).Put(0).Put(-1).Put(0).Put(0.0f);
    EXPECT_TRUE(FailsAtByte(&ParsePly, bytes.str(), body + 25 + 1 + 4,
                            "vertex index -1 is out of range"));
  }
  {
    Bytes bytes = one_vertex(0, 0, 0);
    bytes.Put(std::uint8_t{2}).Put(0).Put(0).Put(0.0f);
    EXPECT_TRUE(FailsAtByte(&ParsePly, bytes.str(), body + 25,
                            "face with 2 vertices: at least 3 are needed"));
  }
  {
    Bytes bytes = one_vertex(0, 0, 0);
    bytes.Put(std::uint8_t{255}).Put(0).Put(0).Put(0);
    EXPECT_TRUE(FailsAtByte(&ParsePly, bytes.str(), bytes.size(),
                            "vertex_indices needs 1020 bytes"));
  }
  {
    Bytes bytes;
    bytes.Text(
        "ply\nformat binary_big_endian 1.0\nelement vertex 1\n"
        "property float x\nproperty float y\nproperty float z\n"
        "element face 1\nproperty list char int vertex_indices\n"
        "end_header\n");
    bytes.Put(0.0f).Put(0.0f).Put(0.0f);
    const std::size_t at = bytes.size();
    bytes.Put(std::int8_t{-3});
    EXPECT_TRUE(FailsAtByte(&ParsePly, bytes.str(), at,
                            "list 'vertex_indices' has length -3"));
  }
  // A huge declared count in a short file: a truncation, not an allocation.
  EXPECT_TRUE(FailsAtByte(&ParsePly,
                          PlyHeader("binary_little_endian", 4294967295, 0),
                          body + 9, "x coordinate needs 8 bytes"));
}

// An element of no properties takes no bytes per record, whatever its
// count: read at once, not record by record.
TEST(BinaryPly, ElementsWithoutPropertiesTakeNoTime) {
  Bytes bytes;
  bytes.Text(
      "ply\nformat binary_little_endian 1.0\nelement vertex 1\n"
      "property float x\nproperty float y\nproperty float z\n"
      "element nothing 18446744073709551615\nend_header\n");
  bytes.Put(1.0f).Put(2.0f).Put(3.0f);
  const Mesh mesh = ParseBytes(&ParsePly, bytes.str());
  EXPECT_EQ(mesh.particles(), 1u);
  EXPECT_EQ(mesh.positions.z[0], 3.0f);
}

// The mesh written as binary PLY with float coordinates and a uint list.
std::string WriteBinaryPly(const Mesh& mesh, bool big_endian) {
  Bytes bytes(big_endian);
  bytes.Text(std::string("ply\nformat ") +
             (big_endian ? "binary_big_endian" : "binary_little_endian") +
             " 1.0\nelement vertex " + std::to_string(mesh.particles()) +
             "\nproperty float x\nproperty float y\nproperty float z\n"
             "element face " +
             std::to_string(mesh.triangles.size()) +
             "\nproperty list uchar uint vertex_indices\nend_header\n");
  for (std::size_t i = 0; i < mesh.particles(); ++i) {
    bytes.Put(mesh.positions.x[i]).Put(mesh.positions.y[i]);
    bytes.Put(mesh.positions.z[i]);
  }
  for (const Triangle& triangle : mesh.triangles) {
    bytes.Put(std::uint8_t{3});
    for (const std::uint32_t v : triangle) bytes.Put(v);
  }
  return bytes.str();
}

RC_GTEST_PROP(BinaryPly, RandomMeshesReadBackExactly, ()) {
  const Mesh mesh = *testing::ArbitraryMeshWithPositions();
  const bool big_endian = *rc::gen::arbitrary<bool>();
  if (mesh.particles() == 0) {
    RC_ASSERT_THROWS_AS(ParseBytes(&ParsePly, WriteBinaryPly(mesh, big_endian)),
                        ParseError);
    return;
  }
  RC_ASSERT(ParseBytes(&ParsePly, WriteBinaryPly(mesh, big_endian)) == mesh);
}

// ---------------------------------------------------------------- STL

void PutStlFacet(Bytes& bytes, const std::array<std::array<float, 3>, 3>& t) {
  bytes.Put(0.0f).Put(0.0f).Put(1.0f);
  for (const auto& [x, y, z] : t) bytes.Put(x).Put(y).Put(z);
  bytes.Put(std::uint16_t{0});
}

std::string BinaryStl(
    const std::vector<std::array<std::array<float, 3>, 3>>& facets,
    std::string_view header = "") {
  Bytes bytes;
  std::string head(header);
  head.resize(80, ' ');
  bytes.Text(head).Put(static_cast<std::uint32_t>(facets.size()));
  for (const auto& facet : facets) PutStlFacet(bytes, facet);
  return bytes.str();
}

// Two triangles of the unit square sharing the edge (1,0,0)-(0,1,0); the
// second writes (0,0,0)'s neighbour corner as -0.
const std::vector<std::array<std::array<float, 3>, 3>> kSquare = {
    {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}},
    {{{0, 1, -0.0f}, {1, 0, 0}, {1, 1, 0}}},
};

Mesh WeldedSquare() {
  Mesh mesh;
  mesh.positions.PushBack(0, 0, 0);
  mesh.positions.PushBack(1, 0, 0);
  mesh.positions.PushBack(0, 1, 0);
  mesh.positions.PushBack(1, 1, 0);
  mesh.triangles = {{0, 1, 2}, {2, 1, 3}};
  return mesh;
}

TEST(Stl, BinaryCornersAreWeldedInOrderOfFirstAppearance) {
  EXPECT_EQ(ParseBytes(&ParseStl, BinaryStl(kSquare)), WeldedSquare());
  // Many exporters begin a binary header with "solid": the size decides.
  EXPECT_EQ(ParseBytes(&ParseStl, BinaryStl(kSquare, "solid exported")),
            WeldedSquare());
}

// A binary STL is exactly 84 + 50 n bytes for the count n at byte 80:
// bytes past the declared facets are refused where they start, whatever the
// header begins with (a NUL byte tells a "solid" header binary), and so is
// a count of 0.
TEST(Stl, BinarySizesMustMatchTheDeclaredCount) {
  EXPECT_TRUE(FailsAtByte(&ParseStl, BinaryStl(kSquare) + "padding", 184,
                          "7 bytes after the 2 triangles the header declares "
                          "at byte 80 (a binary STL of 2 triangles has 184 "
                          "bytes, this file 191)"));
  EXPECT_TRUE(FailsAtByte(&ParseStl,
                          BinaryStl(kSquare, "solid exported") + "\n", 184,
                          "1 bytes after the 2 triangles"));
  // Declaring 0 triangles but holding 2.
  std::string zero = BinaryStl(kSquare);
  zero[80] = 0;
  EXPECT_TRUE(FailsAtByte(&ParseStl, zero, 84,
                          "100 bytes after the 0 triangles the header "
                          "declares"));
  std::string solid = BinaryStl(kSquare, "solid");
  solid[80] = 1;
  EXPECT_TRUE(
      FailsAtByte(&ParseStl, solid, 134, "50 bytes after the 1 triangles"));
  EXPECT_TRUE(FailsAtByte(&ParseStl, BinaryStl({}), 80,
                          "the header declares 0 triangles: an empty mesh is "
                          "refused"));
}

TEST(Stl, AsciiReadsLikeBinary) {
  const std::string ascii =
      "solid square\n"
      "  facet normal 0 0 1\n    outer loop\n      vertex 0 0 0\n"
      "      vertex 1 0 0\n      vertex 0 1 0\n    endloop\n  endfacet\n"
      "endsolid square\n"
      "SOLID second one\r\n"
      "FACET NORMAL 0 0 1 OUTER LOOP\r\n VERTEX 0 1 -0\r\n"
      "Vertex 1.0 0 0 vertex 1e0 +1 0 EndLoop EndFacet\r\n"
      "endsolid\r\n";
  EXPECT_EQ(ParseBytes(&ParseStl, ascii), WeldedSquare());
  // White space may follow the last "endsolid", nothing else.
  EXPECT_EQ(ParseBytes(&ParseStl, ascii + "\r\n\n  \n"), WeldedSquare());
}

TEST(Stl, DegenerateFacetsAreKept) {
  EXPECT_EQ(
      ParseBytes(&ParseStl, BinaryStl({{{{0, 0, 0}, {1, 0, 0}, {0, 0, 0}}}}))
          .triangles,
      (std::vector<Triangle>{{0, 1, 0}}));
}

TEST(Stl, BadAsciiNamesTheLine) {
  const auto fails_at =
      [](const std::string& text, std::size_t line,
         std::string_view part) -> ::testing::AssertionResult {
    try {
      ParseBytes(&ParseStl, text);
    } catch (const ParseError& error) {
      const std::string what = error.what();
      if (error.line() == line &&
          what.starts_with("bad.bin:" + std::to_string(line) + ": ") &&
          what.find(part) != std::string::npos) {
        return ::testing::AssertionSuccess();
      }
      return ::testing::AssertionFailure() << what;
    }
    return ::testing::AssertionFailure() << "no ParseError";
  };
  const std::string head = "solid s\nfacet normal 0 0 1\nouter loop\n";
  EXPECT_TRUE(fails_at(head + "vertex 0 0 0\nvertex 1 0\nvertex 0 1 0\n", 6,
                       "z coordinate 'vertex' is not a number"));
  EXPECT_TRUE(fails_at(head + "vertex 0 0 nan\n", 4,
                       "z coordinate 'nan' is not finite"));
  EXPECT_TRUE(fails_at(head + "vertex 0 0 1e39\n", 4, "overflows float"));
  EXPECT_TRUE(fails_at(head + "vertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
                              "endfacet\n",
                       7, "expected 'endloop', found 'endfacet'"));
  EXPECT_TRUE(fails_at(head + "vertex 0 0 0\nvertex 1 0 0\n", 6,
                       "unexpected end of file: expected 'vertex'"));
  EXPECT_TRUE(fails_at("solid s\nface normal 0 0 1\n", 2,
                       "expected 'facet' or 'endsolid', found 'face'"));
  EXPECT_TRUE(fails_at("solid s\n", 2, "unexpected end of file"));
  EXPECT_TRUE(fails_at("solid s\nendsolid s\nfacet\n", 3,
                       "expected 'solid', found 'facet'"));
  // Empty files, and solids without a facet, are refused as in every
  // format.
  EXPECT_TRUE(fails_at("", 1, "empty file"));
  EXPECT_TRUE(fails_at(" \r\n\n", 3, "empty file"));
  EXPECT_TRUE(
      fails_at("solid\nendsolid\n", 3, "no facets: an empty mesh is refused"));
}

TEST(Stl, BadBinaryNamesTheByte) {
  const std::string square = BinaryStl(kSquare);
  EXPECT_TRUE(FailsAtByte(&ParseStl, square.substr(0, 84 + 50 + 49), 183,
                          "the header declares 2 triangles (100 bytes after "
                          "byte 84), 99 remain"));
  EXPECT_TRUE(FailsAtByte(&ParseStl, "not an stl", 10,
                          "a binary STL needs an 84-byte header"));
  std::string nan_corner = square;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(&nan_corner[84 + 50 + 12 + 12 + 4], &nan, 4);
  EXPECT_TRUE(FailsAtByte(&ParseStl, nan_corner, 84 + 50 + 12 + 12 + 4,
                          "y coordinate nan is not finite"));
}

// A mesh written as binary STL reads back as its triangles' corners: the
// same coordinates per corner, one vertex per distinct position.
RC_GTEST_PROP(Stl, RandomMeshesReadBackAsTheirCorners, ()) {
  const Mesh mesh = *testing::ArbitraryMeshWithPositions();
  std::vector<std::array<std::array<float, 3>, 3>> facets;
  std::set<std::array<float, 3>> distinct;
  for (const Triangle& triangle : mesh.triangles) {
    std::array<std::array<float, 3>, 3> facet;
    for (int c = 0; c < 3; ++c) {
      const std::uint32_t v = triangle[c];
      facet[c] = {mesh.positions.x[v], mesh.positions.y[v],
                  mesh.positions.z[v]};
      distinct.insert(
          {facet[c][0] + 0.0f, facet[c][1] + 0.0f, facet[c][2] + 0.0f});
    }
    facets.push_back(facet);
  }
  if (facets.empty()) {
    RC_ASSERT_THROWS_AS(ParseBytes(&ParseStl, BinaryStl(facets)), ParseError);
    return;
  }
  const Mesh read = ParseBytes(&ParseStl, BinaryStl(facets));
  RC_ASSERT(read.triangles.size() == mesh.triangles.size());
  RC_ASSERT(read.particles() == distinct.size());
  for (std::size_t t = 0; t < facets.size(); ++t) {
    for (int c = 0; c < 3; ++c) {
      const std::uint32_t v = read.triangles[t][c];
      RC_ASSERT(read.positions.x[v] == facets[t][c][0]);
      RC_ASSERT(read.positions.y[v] == facets[t][c][1]);
      RC_ASSERT(read.positions.z[v] == facets[t][c][2]);
    }
  }
}

// ---------------------------------------------------------------- CGAL

TEST(CgalBinaryFiles, StlMeshesAndBinaryPlyPointSetsLoad) {
  const std::filesystem::path data = DataDir();
  if (!std::filesystem::exists(data / "meshes" / "sphere.stl")) {
    GTEST_SKIP() << MissingDataHint();
  }
  // A closed sphere of 320 triangles: 480 edges, so Euler gives 162
  // vertices once the corners are welded.
  const Mesh sphere = LoadMesh(data / "meshes" / "sphere.stl");
  EXPECT_EQ(sphere.triangles.size(), 320u);
  EXPECT_EQ(sphere.particles(), 162u);
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> edge_uses;
  for (const auto& [a, b, c] : sphere.triangles) {
    for (const auto& [u, v] : {std::pair{a, b}, {b, c}, {c, a}}) {
      ++edge_uses[{std::min(u, v), std::max(u, v)}];
    }
  }
  EXPECT_EQ(edge_uses.size(), 480u);
  for (const auto& [edge, uses] : edge_uses) EXPECT_EQ(uses, 2);

  // pig.stl: 842,484 bytes = 84 + 50 * 16,848 facets.
  const Mesh pig = LoadMesh(data / "meshes" / "pig.stl");
  EXPECT_EQ(pig.triangles.size(), 16848u);
  EXPECT_GT(pig.particles(), 0u);

  // Binary little-endian PLY point sets of doubles (x y z nx ny nz); the
  // vertex counts are those of their headers.
  EXPECT_EQ(LoadPoints(data / "points_3" / "oni.ply").size(), 1435u);
  EXPECT_EQ(LoadPoints(data / "points_3" / "b9_training.ply").size(), 22300u);
}

}  // namespace
}  // namespace adj::scenes
