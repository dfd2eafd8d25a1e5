#include "scenes/mesh_io.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "properties/mesh_generators.h"
#include "properties/mesh_writers.h"

namespace adj::scenes {
namespace {

template <typename Parse>
auto ParseText(Parse parse, const std::string& text, const std::string& name) {
  std::istringstream in(text);
  return parse(in, name);
}

Mesh Off(const std::string& text) {
  return ParseText(&ParseOff, text, "in.off");
}
Mesh Obj(const std::string& text) {
  return ParseText(&ParseObj, text, "in.obj");
}
Mesh Ply(const std::string& text) {
  return ParseText(&ParsePly, text, "in.ply");
}
Points Xyz(const std::string& text) {
  return ParseText(&ParseXyz, text, "in.xyz");
}

// Checks that parsing `text` throws a ParseError at `line` that names the
// input and whose reason contains `reason_part`.
template <typename Parse>
::testing::AssertionResult FailsAt(Parse parse, const std::string& text,
                                   std::size_t line,
                                   std::string_view reason_part) {
  const std::string name = "bad.in";
  try {
    ParseText(parse, text, name);
  } catch (const ParseError& error) {
    const std::string what = error.what();
    const std::string prefix = name + ":" + std::to_string(line) + ": ";
    if (error.line() != line || error.name() != name ||
        !what.starts_with(prefix) ||
        what.find(reason_part, prefix.size()) == std::string::npos) {
      return ::testing::AssertionFailure()
             << "expected \"" << prefix << "...\" mentioning \"" << reason_part
             << "\", got \"" << what << "\"";
    }
    return ::testing::AssertionSuccess() << what;
  }
  return ::testing::AssertionFailure() << "no ParseError for:\n" << text;
}

Points MakePoints(std::vector<std::array<float, 3>> xyz) {
  Points points;
  for (const auto& [x, y, z] : xyz) points.PushBack(x, y, z);
  return points;
}

// Five vertices of a unit square and a point above it, in OFF body form.
constexpr std::string_view kFiveVertices =
    "0 0 0\n"
    "1 0 0\n"
    "1 1 0\n"
    "0 1 0\n"
    "0.5 0.5 1\n";

Points FiveVertices() {
  return MakePoints(
      {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5f, 0.5f, 1}});
}

// A triangle with its vertices on lines 3-5 and the face on line 6.
std::string OffTriangle(std::string_view face) {
  return "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n" + std::string(face) + "\n";
}

// An OFF triangle whose second vertex (line 4) is `vertex`.
std::string OffWithVertex(std::string_view vertex) {
  return "OFF\n3 1 0\n0 0 0\n" + std::string(vertex) + "\n0 1 0\n3 0 1 2\n";
}

// ---------------------------------------------------------------- OFF

TEST(Off, EmptyMeshIsValid) {
  EXPECT_EQ(Off("OFF\n0 0 0\n"), Mesh{});
  EXPECT_EQ(Off("OFF 0 0 0"), Mesh{});
}

TEST(Off, PolygonsBecomeFansInOrder) {
  const Mesh mesh = Off("OFF\n5 3 0\n" + std::string(kFiveVertices) +
                        "4 0 1 2 3\n"
                        "5 4 3 2 1 0\n"
                        "3 1 2 4\n");
  EXPECT_EQ(mesh.positions, FiveVertices());
  EXPECT_EQ(
      mesh.triangles,
      (std::vector<Triangle>{
          {0, 1, 2}, {0, 2, 3}, {4, 3, 2}, {4, 2, 1}, {4, 1, 0}, {1, 2, 4}}));
}

TEST(Off, CountsMayFollowTheKeyword) {
  EXPECT_EQ(Off("OFF 3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"),
            Off(OffTriangle("3 0 1 2")));
  EXPECT_EQ(Off("OFF 3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"),
            Off(OffTriangle("3 0 1 2")));
}

TEST(Off, CommentsBlankLinesTabsAndCrlf) {
  const Mesh mesh =
      Off("# written by hand\r\n"
          "\r\n"
          "OFF # keyword\r\n"
          "# the counts\r\n"
          "3\t1  0\r\n"
          "0 0 0 # first\r\n"
          "\r\n"
          "\t1\t0\t0\t\r\n"
          "0 1 0#glued\r\n"
          "3 0 1 2 # face\r\n"
          "# trailing\r\n");
  EXPECT_EQ(mesh, Off(OffTriangle("3 0 1 2")));
}

TEST(Off, PrefixedKeywordsAndExtraFieldsAreAccepted) {
  for (const std::string keyword :
       {"COFF", "NOFF", "CNOFF", "STOFF", "STCOFF", "STNOFF", "STCNOFF"}) {
    const Mesh mesh = Off(keyword +
                          "\n3 1 0\n"
                          "0 0 0 0.1 0.2 0.3 1 0.5 0.5\n"
                          "1 0 0 255 0 0 255\n"
                          "0 1 0\n"
                          "3 0 1 2 0.9 0.1 0.1 1\n");
    EXPECT_EQ(mesh, Off(OffTriangle("3 0 1 2"))) << keyword;
  }
}

TEST(Off, OtherKeywordsAreRejected) {
  const std::string rest = "\n0 0 0\n";
  EXPECT_TRUE(FailsAt(&ParseOff, "4OFF" + rest, 1, "4OFF and nOFF"));
  EXPECT_TRUE(FailsAt(&ParseOff, "nOFF" + rest, 1, "4OFF and nOFF"));
  EXPECT_TRUE(FailsAt(&ParseOff, "C4nOFF" + rest, 1, "not supported"));
  EXPECT_TRUE(FailsAt(&ParseOff, "XOFF" + rest, 1, "unknown OFF keyword"));
  EXPECT_TRUE(FailsAt(&ParseOff, "off" + rest, 1, "expected the OFF keyword"));
  EXPECT_TRUE(FailsAt(&ParseOff, "# no keyword\n3 1 0\n", 2,
                      "expected the OFF keyword, found '3'"));
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF BINARY\n", 1, "binary OFF"));
  EXPECT_TRUE(FailsAt(&ParseOff, "", 1, "empty file"));
  EXPECT_TRUE(FailsAt(&ParseOff, "\n# nothing\n", 3, "empty file"));
}

TEST(Off, BadCountsAreRejected) {
  EXPECT_TRUE(
      FailsAt(&ParseOff, "OFF\n-1 0 0\n", 2, "vertex count '-1' is negative"));
  EXPECT_TRUE(
      FailsAt(&ParseOff, "OFF\n0 -3 0\n", 2, "face count '-3' is negative"));
  EXPECT_TRUE(
      FailsAt(&ParseOff, "OFF\n0 0 -1\n", 2, "edge count '-1' is negative"));
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF\n3 x 0\n", 2,
                      "face count 'x' is not an integer"));
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF\n3.0 1 0\n", 2,
                      "vertex count '3.0' is not an integer"));
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF\n3\n", 2, "found 1 fields"));
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF\n3 1 0 7\n", 2, "found 4 fields"));
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF\n", 2,
                      "unexpected end of file: expected the vertex and face"));
  // Counts that do not fit the 32-bit indices, or not even 64 bits.
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF\n4294967296 0 0\n", 2,
                      "vertex count '4294967296' is too large"));
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF\n0 5000000000 0\n", 2,
                      "face count '5000000000' is too large"));
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF 99999999999999999999999 0 0\n", 1,
                      "vertex count '99999999999999999999999' is too large"));
}

TEST(Off, BadFacesAreRejected) {
  EXPECT_TRUE(FailsAt(&ParseOff, OffTriangle("2 0 1"), 6,
                      "face with 2 vertices: at least 3"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffTriangle("0"), 6,
                      "face with 0 vertices: at least 3"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffTriangle("4 0 1 2"), 6,
                      "face declares 4 vertices but lists 3"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffTriangle("3 0 1 3"), 6,
                      "vertex index 3 is out of range"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffTriangle("3 0 -1 2"), 6,
                      "vertex index '-1' is negative"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffTriangle("3 0 1 x"), 6,
                      "vertex index 'x' is not an integer"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffTriangle("3 0 1 2x"), 6,
                      "vertex index '2x' is not an integer"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffTriangle("3 0 1 4294967296"), 6,
                      "vertex index 4294967296 is out of range"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffTriangle("3 0 1 99999999999999999999"), 6,
                      "vertex index '99999999999999999999' is too large"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffTriangle("x 0 1 2"), 6,
                      "face vertex count 'x' is not an integer"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffTriangle("-3 0 1 2"), 6,
                      "face vertex count '-3' is negative"));
}

TEST(Off, BadCoordinatesAreRejected) {
  EXPECT_TRUE(FailsAt(&ParseOff, OffWithVertex("1.0 abc 2.0"), 4,
                      "y coordinate 'abc' is not a number"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffWithVertex("1.5x 0 0"), 4,
                      "x coordinate '1.5x' is not a number"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffWithVertex("1 0 --1"), 4,
                      "z coordinate '--1' is not a number"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffWithVertex("nan 0 0"), 4,
                      "x coordinate 'nan' is not finite"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffWithVertex("0 inf 0"), 4,
                      "y coordinate 'inf' is not finite"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffWithVertex("0 0 -infinity"), 4,
                      "z coordinate '-infinity' is not finite"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffWithVertex("0 0 1e999"), 4,
                      "z coordinate '1e999' overflows float"));
  // Finite as a double, too large for a float.
  EXPECT_TRUE(FailsAt(&ParseOff, OffWithVertex("0 -1e39 0"), 4,
                      "y coordinate '-1e39' overflows float"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffWithVertex("1 0"), 4,
                      "expected vertex 'x y z', found 2 fields"));
}

TEST(Off, CoordinatesAtTheEdgesOfFloat) {
  const Mesh mesh = Off(OffWithVertex("3.4028235e38 1e-50 -1e-999"));
  EXPECT_EQ(mesh.positions.x[1], std::numeric_limits<float>::max());
  EXPECT_EQ(mesh.positions.y[1], 0.0f);  // underflow rounds to zero
  EXPECT_EQ(mesh.positions.z[1], 0.0f);
  EXPECT_TRUE(std::signbit(mesh.positions.z[1]));
  const Mesh plus = Off(OffWithVertex("+1.5 1e-45 .25"));
  EXPECT_EQ(plus.positions.x[1], 1.5f);
  EXPECT_EQ(plus.positions.y[1], std::numeric_limits<float>::denorm_min());
  EXPECT_EQ(plus.positions.z[1], 0.25f);
}

TEST(Off, TruncationSaysHowManyRecordsAreMissing) {
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF\n3 1 0\n0 0 0\n", 4,
                      "unexpected end of file: expected 2 more vertices"));
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0", 6,
                      "unexpected end of file: expected 1 more faces"));
  // The line after the last one, comments and blank lines included.
  EXPECT_TRUE(FailsAt(&ParseOff,
                      "OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n# end\n\n", 9,
                      "unexpected end of file: expected 1 more faces"));
}

TEST(Off, LinesAfterTheDeclaredFacesAreIgnored) {
  EXPECT_EQ(Off(OffTriangle("3 0 1 2") + "3 2 1 0\nanything\n"),
            Off(OffTriangle("3 0 1 2")));
}

TEST(Off, HugeDeclaredCountsFailOnTruncation) {
  // Reserving for the declared count would take 48 GB.
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF\n4000000000 1 0\n0 0 0\n", 4,
                      "expected 3999999999 more vertices"));
  EXPECT_TRUE(FailsAt(
      &ParseOff, "OFF\n3 4000000000 0\n" + std::string("0 0 0\n1 0 0\n0 1 0\n"),
      6, "expected 4000000000 more faces"));
}

// ---------------------------------------------------------------- OBJ

TEST(Obj, EmptyMeshIsValid) {
  EXPECT_EQ(Obj(""), Mesh{});
  EXPECT_EQ(Obj("# only a comment\n\n"), Mesh{});
}

TEST(Obj, ReadsPositionsAndFacesIgnoringOtherStatements) {
  const Mesh mesh =
      Obj("# exported\r\n"
          "mtllib scene.mtl\r\n"
          "o square\r\n"
          "v 0 0 0\r\n"
          "v 1 0 0 1.0\r\n"  // w
          "v\t1 1 0 0.5 0.5 0.5\r\n"
          "v 0 1 0\r\n"
          "v 0.5 0.5 1\r\n"
          "vt 0 0\r\n"
          "vn 0 0 1\r\n"
          "vp 0.5\r\n"
          "g group\r\n"
          "s off\r\n"
          "usemtl red\r\n"
          "f 1/1/1 2/2/1 3/3/1 4/4/1 # quad\r\n"
          "f 5//1 4//1 3//1\r\n"
          "f 1/1 3/1 5/1\r\n"
          "l 1 2\r\n"
          "p 3\r\n"
          "curv 0 1 1 2\r\n");
  EXPECT_EQ(mesh.positions, FiveVertices());
  EXPECT_EQ(mesh.triangles, (std::vector<Triangle>{
                                {0, 1, 2}, {0, 2, 3}, {4, 3, 2}, {0, 2, 4}}));
}

TEST(Obj, NegativeIndicesCountBackFromTheLatestVertex) {
  const Mesh mesh =
      Obj("v 0 0 0\nv 1 0 0\nv 1 1 0\n"
          "f -3 -2 -1\n"
          "v 0 1 0\n"
          "f -4 -2 -1\n"
          "f 1 -1 -3/2/1\n");
  EXPECT_EQ(mesh.triangles,
            (std::vector<Triangle>{{0, 1, 2}, {0, 2, 3}, {0, 3, 1}}));
}

TEST(Obj, BadFacesAreRejected) {
  const std::string three = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  EXPECT_TRUE(
      FailsAt(&ParseObj, three + "f 0 1 2\n", 4, "vertex index 0 is invalid"));
  EXPECT_TRUE(FailsAt(&ParseObj, three + "f 1 2 4\n", 4,
                      "vertex index 4 is out of range: 3 vertices"));
  // Vertices must be defined before a face uses them.
  EXPECT_TRUE(FailsAt(&ParseObj, "v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 1 0\n", 3,
                      "vertex index 3 is out of range: 2 vertices are "
                      "defined above"));
  EXPECT_TRUE(FailsAt(&ParseObj, three + "f -1 -2 -4\n", 4,
                      "relative vertex index -4 is out of range"));
  EXPECT_TRUE(FailsAt(&ParseObj, three + "f 1 2\n", 4,
                      "face with 2 vertices: at least 3"));
  EXPECT_TRUE(
      FailsAt(&ParseObj, three + "f\n", 4, "face with 0 vertices: at least 3"));
  EXPECT_TRUE(FailsAt(&ParseObj, three + "f 1 2 x\n", 4,
                      "vertex index 'x' is not an integer"));
  EXPECT_TRUE(FailsAt(&ParseObj, three + "f 1 2 3x/1\n", 4,
                      "vertex index '3x' is not an integer"));
  EXPECT_TRUE(FailsAt(&ParseObj, three + "f 1 2 /3\n", 4,
                      "face reference '/3' has no vertex index"));
  EXPECT_TRUE(FailsAt(&ParseObj, three + "f 1 2 99999999999999999999\n", 4,
                      "vertex index '99999999999999999999' is too large"));
  EXPECT_TRUE(FailsAt(&ParseObj, three + "f 1 2 4294967297\n", 4,
                      "vertex index 4294967297 is out of range"));
}

TEST(Obj, BadVerticesAreRejected) {
  EXPECT_TRUE(FailsAt(&ParseObj, "v 0 0 0\nv 1.0 abc 2.0\n", 2,
                      "y coordinate 'abc' is not a number"));
  EXPECT_TRUE(FailsAt(&ParseObj, "\n\nv 1 2\n", 3,
                      "expected 'v x y z', found 3 fields"));
  EXPECT_TRUE(FailsAt(&ParseObj, "v nan 0 0\n", 1, "'nan' is not finite"));
  EXPECT_TRUE(FailsAt(&ParseObj, "v 0 0 inf\n", 1, "'inf' is not finite"));
  EXPECT_TRUE(FailsAt(&ParseObj, "v 0 1e999 0\n", 1, "'1e999' overflows"));
  EXPECT_TRUE(FailsAt(&ParseObj, "v 1.5x 0 0\n", 1,
                      "x coordinate '1.5x' is not a number"));
}

// ---------------------------------------------------------------- PLY

constexpr std::string_view kPlyXyz =
    "ply\n"
    "format ascii 1.0\n"
    "element vertex 3\n"
    "property float x\n"
    "property float y\n"
    "property float z\n"
    "element face 1\n"
    "property list uchar int vertex_indices\n"
    "end_header\n";  // line 9

// A PLY triangle with its vertices on lines 10-12 and the face on line 13.
std::string PlyTriangle(std::string_view face) {
  return std::string(kPlyXyz) + "0 0 0\n1 0 0\n0 1 0\n" + std::string(face) +
         "\n";
}

TEST(Ply, EmptyMeshIsValid) {
  EXPECT_EQ(Ply("ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\n"
                "property float y\nproperty float z\nelement face 0\n"
                "property list uchar int vertex_indices\nend_header\n"),
            Mesh{});
}

TEST(Ply, ReadsTheTriangle) {
  EXPECT_EQ(Ply(PlyTriangle("3 0 1 2")), Off(OffTriangle("3 0 1 2")));
}

TEST(Ply, ElementsInAnyOrderWithOtherProperties) {
  const Mesh mesh =
      Ply("ply\r\n"
          "comment made by hand\r\n"
          "format ascii 1.0\r\n"
          "obj_info nothing to see\r\n"
          "element face 3\r\n"
          "property uchar flags\r\n"
          "property list uint8 uint32 vertex_index\r\n"
          "property list int int corners\r\n"
          "property float quality\r\n"
          "element vertex 5\r\n"
          "property double nx\r\n"
          "property list uchar float texcoord\r\n"
          "property int z\r\n"
          "property double x\r\n"
          "property float32 y\r\n"
          "property uchar red\r\n"
          "element edge 2\r\n"
          "property int vertex1\r\n"
          "property int vertex2\r\n"
          "end_header\r\n"
          "7 4 0 1 2 3 0 0.5\r\n"
          "0 5 4 3 2 1 0 2 9 9 1.5\r\n"
          "1 3\t1 2 4 1 7 -2\r\n"
          "0.5 2 0.1 0.2 0 0 0 255\r\n"
          "0.5 0 0 1 0 0\r\n"
          "0.5 1 0.1 0 1 1 255\r\n"
          "0.5 0 0 0 1 0\r\n"
          "0.5 0 1 0.5 0.5 0\r\n"
          "0 1\r\n"
          "1 2\r\n");
  EXPECT_EQ(mesh.positions, FiveVertices());
  EXPECT_EQ(
      mesh.triangles,
      (std::vector<Triangle>{
          {0, 1, 2}, {0, 2, 3}, {4, 3, 2}, {4, 2, 1}, {4, 1, 0}, {1, 2, 4}}));
}

TEST(Ply, LinesAfterTheDeclaredElementsAreIgnored) {
  EXPECT_EQ(Ply(PlyTriangle("3 0 1 2") + "3 2 1 0\n"),
            Ply(PlyTriangle("3 0 1 2")));
}

TEST(Ply, PointCloudHasNoTriangles) {
  const Mesh mesh =
      Ply("ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\n"
          "property float y\nproperty float z\nproperty float nx\nend_header\n"
          "1 2 3 0\n4 5 6 1\n");
  EXPECT_EQ(mesh.positions, MakePoints({{1, 2, 3}, {4, 5, 6}}));
  EXPECT_TRUE(mesh.triangles.empty());
}

TEST(Ply, BadHeadersAreRejected) {
  EXPECT_TRUE(FailsAt(&ParsePly, "ply\nformat binary_little_endian 2.0\n", 2,
                      "PLY version '2.0' is not supported"));
  EXPECT_TRUE(FailsAt(&ParsePly, "ply\nformat binary_middle_endian 1.0\n", 2,
                      "unknown PLY format 'binary_middle_endian'"));
  EXPECT_TRUE(FailsAt(&ParsePly, "ply\nformat ascii 1.0\nformat ascii 1.0\n", 3,
                      "'format' is declared twice"));
  EXPECT_TRUE(FailsAt(&ParsePly, "", 1, "expected the 'ply' magic line"));
  EXPECT_TRUE(FailsAt(&ParsePly, "PLY\n", 1, "'ply' magic"));
  EXPECT_TRUE(FailsAt(&ParsePly, "ply\nformat ascii\n", 2,
                      "expected 'format ascii 1.0'"));
  EXPECT_TRUE(FailsAt(&ParsePly, "ply\nelement vertex 0\nend_header\n", 3,
                      "header has no 'format' line"));
  EXPECT_TRUE(FailsAt(&ParsePly, "ply\nformat ascii 1.0\nelement vertex 0\n", 4,
                      "unexpected end of file: expected 'end_header'"));
  EXPECT_TRUE(FailsAt(&ParsePly, "ply\nformat ascii 1.0\nproperty float x\n", 3,
                      "property before any element"));
  EXPECT_TRUE(FailsAt(&ParsePly, "ply\nformat ascii 1.0\nhello\n", 3,
                      "unknown PLY header line 'hello'"));
  EXPECT_TRUE(FailsAt(&ParsePly,
                      "ply\nformat ascii 1.0\nelement vertex 1\n"
                      "property float16 x\n",
                      4, "unknown PLY property type 'float16'"));
  EXPECT_TRUE(FailsAt(&ParsePly,
                      "ply\nformat ascii 1.0\nelement face 1\n"
                      "property list float int vertex_indices\n",
                      4, "list length type 'float' is not an integer type"));
  EXPECT_TRUE(FailsAt(&ParsePly,
                      "ply\nformat ascii 1.0\nelement vertex 1\n"
                      "element vertex 1\n",
                      4, "element 'vertex' is declared twice"));
}

TEST(Ply, BadElementCountsAreRejected) {
  const std::string head = "ply\nformat ascii 1.0\n";
  EXPECT_TRUE(FailsAt(&ParsePly, head + "element vertex -1\n", 3,
                      "'vertex' element count '-1' is negative"));
  EXPECT_TRUE(FailsAt(&ParsePly, head + "element vertex many\n", 3,
                      "'vertex' element count 'many' is not an integer"));
  EXPECT_TRUE(FailsAt(&ParsePly, head + "element face 4294967296\n", 3,
                      "'face' element count '4294967296' is too large"));
  EXPECT_TRUE(FailsAt(&ParsePly, head + "element edge 1e3\n", 3,
                      "'edge' element count '1e3' is not an integer"));
  EXPECT_TRUE(FailsAt(&ParsePly, head + "element vertex\n", 3,
                      "expected 'element <name> <count>'"));
}

TEST(Ply, MissingPropertiesAreRejected) {
  const std::string head = "ply\nformat ascii 1.0\n";
  EXPECT_TRUE(FailsAt(&ParsePly,
                      head + "element vertex 0\nproperty float x\n"
                             "property float y\nend_header\n",
                      3, "vertex element has no property 'z'"));
  EXPECT_TRUE(FailsAt(&ParsePly,
                      head + "element vertex 0\nproperty float x\n"
                             "property float y\nproperty list uchar float z\n"
                             "end_header\n",
                      6, "vertex property 'z' is a list"));
  EXPECT_TRUE(
      FailsAt(&ParsePly,
              std::string(kPlyXyz.substr(0, kPlyXyz.find("element face"))) +
                  "element face 0\n"
                  "property list uchar int indices\nend_header\n",
              7, "face element has no 'vertex_indices' list"));
  EXPECT_TRUE(
      FailsAt(&ParsePly,
              std::string(kPlyXyz.substr(0, kPlyXyz.find("element face"))) +
                  "element face 0\n"
                  "property list uchar float vertex_indices\n"
                  "end_header\n",
              8, "'vertex_indices' is not a list of integers"));
  EXPECT_TRUE(FailsAt(&ParsePly,
                      head + "element face 0\n"
                             "property list uchar int vertex_indices\n"
                             "end_header\n",
                      5, "no 'vertex' element"));
}

TEST(Ply, BadBodiesAreRejected) {
  EXPECT_TRUE(FailsAt(&ParsePly, std::string(kPlyXyz) + "0 0 0\n", 11,
                      "unexpected end of file: expected 2 more 'vertex'"));
  EXPECT_TRUE(FailsAt(&ParsePly, std::string(kPlyXyz) + "0 0 0\n1 0 0\n0 1 0\n",
                      13, "unexpected end of file: expected 1 more 'face'"));
  EXPECT_TRUE(FailsAt(&ParsePly, std::string(kPlyXyz) + "0 0 0\n1 0\n", 11,
                      "too few fields: property 'z'"));
  EXPECT_TRUE(FailsAt(&ParsePly, std::string(kPlyXyz) + "0 0 0\n1 0 0 1\n", 11,
                      "1 fields more than element 'vertex' declares"));
  EXPECT_TRUE(FailsAt(&ParsePly, std::string(kPlyXyz) + "0 0 0\n1 abc 0\n", 11,
                      "y coordinate 'abc' is not a number"));
  EXPECT_TRUE(FailsAt(&ParsePly, std::string(kPlyXyz) + "0 0 nan\n", 10,
                      "z coordinate 'nan' is not finite"));
  EXPECT_TRUE(FailsAt(&ParsePly, std::string(kPlyXyz) + "0 0 1e999\n", 10,
                      "z coordinate '1e999' overflows float"));
  EXPECT_TRUE(FailsAt(&ParsePly, PlyTriangle("3 0 1 3"), 13,
                      "vertex index 3 is out of range"));
  EXPECT_TRUE(FailsAt(&ParsePly, PlyTriangle("3 0 -1 2"), 13,
                      "vertex index '-1' is negative"));
  EXPECT_TRUE(FailsAt(&ParsePly, PlyTriangle("3 0 1 2.0"), 13,
                      "vertex index '2.0' is not an integer"));
  EXPECT_TRUE(FailsAt(&ParsePly, PlyTriangle("2 0 1"), 13,
                      "face with 2 vertices: at least 3"));
  EXPECT_TRUE(FailsAt(&ParsePly, PlyTriangle("4 0 1 2"), 13,
                      "list 'vertex_indices' declares 4 entries but the line "
                      "has 3 more fields"));
  EXPECT_TRUE(FailsAt(&ParsePly, PlyTriangle("-3 0 1 2"), 13,
                      "list length '-3' is negative"));
  EXPECT_TRUE(FailsAt(&ParsePly, PlyTriangle("3 0 1 2 3"), 13,
                      "1 fields more than element 'face' declares"));
}

// ---------------------------------------------------------------- XYZ

TEST(Xyz, ReadsPointsSkippingCommentsAndExtraFields) {
  EXPECT_EQ(Xyz(""), Points{});
  EXPECT_EQ(Xyz("# header\r\n"
                "1 2 3\r\n"
                "\r\n"
                "4\t5\t6 0 0 1 # with a normal\r\n"
                "-7e-1 8.5 +9\n"),
            MakePoints({{1, 2, 3}, {4, 5, 6}, {-0.7f, 8.5f, 9}}));
}

TEST(Xyz, BadPointsAreRejected) {
  EXPECT_TRUE(FailsAt(&ParseXyz, "1 2 3\n# c\nnan 0 0\n", 3,
                      "x coordinate 'nan' is not finite"));
  EXPECT_TRUE(FailsAt(&ParseXyz, "1 2 3\n0 -inf 0\n", 2,
                      "y coordinate '-inf' is not finite"));
  EXPECT_TRUE(FailsAt(&ParseXyz, "1 2 3\n0 0 1e999\n", 2, "overflows float"));
  EXPECT_TRUE(FailsAt(&ParseXyz, "1 2 3\n1.0 abc 2.0\n", 2,
                      "y coordinate 'abc' is not a number"));
  EXPECT_TRUE(FailsAt(&ParseXyz, "1 2 3\n1.5x 0 0\n", 2,
                      "x coordinate '1.5x' is not a number"));
  EXPECT_TRUE(
      FailsAt(&ParseXyz, "\n\n1 2\n", 3, "expected 'x y z', found 2 fields"));
}

// ---------------------------------------------------------------- files

// A file in the temporary directory, removed when the test ends.
class TempFile {
 public:
  TempFile(std::string_view extension, std::string_view contents) {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("adj_mesh_io_" + std::string(test->name()) + "_" +
             std::to_string(std::random_device{}()) + std::string(extension));
    std::ofstream(path_, std::ios::binary) << contents;
  }
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(Files, LoadChoosesTheParserByExtension) {
  const TempFile off(".OFF", OffTriangle("3 0 1 2"));
  const TempFile obj(".obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  const TempFile ply(".Ply", PlyTriangle("3 0 1 2"));
  const Mesh triangle = Off(OffTriangle("3 0 1 2"));
  EXPECT_EQ(LoadMesh(off.path()), triangle);
  EXPECT_EQ(LoadMesh(obj.path()), triangle);
  EXPECT_EQ(LoadMesh(ply.path()), triangle);
  EXPECT_EQ(LoadPoints(off.path()), triangle.positions);
  EXPECT_EQ(LoadPoints(ply.path()), triangle.positions);

  const TempFile xyz(".xyz", "0 0 0\n1 0 0\n0 1 0\n");
  const TempFile pwn(".pwn", "0 0 0 0 0 1\n1 0 0 0 0 1\n0 1 0 0 0 1\n");
  EXPECT_EQ(LoadPoints(xyz.path()), triangle.positions);
  EXPECT_EQ(LoadPoints(pwn.path()), triangle.positions);
}

TEST(Files, ErrorsNameTheFile) {
  const TempFile bad(".off", OffTriangle("3 0 1 9"));
  try {
    LoadMesh(bad.path());
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.name(), bad.path().string());
    EXPECT_EQ(error.line(), 6u);
    EXPECT_TRUE(std::string(error.what())
                    .starts_with(bad.path().string() + ":6: vertex index 9"))
        << error.what();
  }
}

// The ParseError of loading `path`, which must throw one at line 0.
template <typename Load>
std::string LoadErrorAtLineZero(Load load, const std::filesystem::path& path) {
  try {
    load(path);
  } catch (const ParseError& error) {
    EXPECT_EQ(error.line(), 0u);
    EXPECT_EQ(error.name(), path.string());
    return error.what();
  }
  ADD_FAILURE() << "no ParseError for " << path;
  return "";
}

TEST(Files, UnknownExtensionsAndMissingFilesAreRejected) {
  const TempFile vtk(".vtk", "# vtk DataFile Version 3.0\n");
  EXPECT_TRUE(LoadErrorAtLineZero(&LoadMesh, vtk.path())
                  .ends_with(":0: unknown mesh extension '.vtk' (expected "
                             ".off, .obj, .ply or .stl)"));
  const TempFile txt(".txt", "0 0 0\n");
  EXPECT_NE(LoadErrorAtLineZero(&LoadPoints, txt.path())
                .find("unknown point set extension '.txt'"),
            std::string::npos);
  const TempFile none("", "0 0 0\n");
  EXPECT_NE(LoadErrorAtLineZero(&LoadPoints, none.path())
                .find("unknown point set extension ''"),
            std::string::npos);

  const std::filesystem::path missing =
      std::filesystem::temp_directory_path() / "adj_mesh_io_no_such_file.off";
  EXPECT_NE(LoadErrorAtLineZero(&LoadMesh, missing)
                .find(":0: cannot open file: No such file or directory"),
            std::string::npos);
  EXPECT_NE(LoadErrorAtLineZero(&LoadPoints, missing.parent_path() / "x.xyz")
                .find("cannot open file"),
            std::string::npos);
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() / "adj_mesh_io_dir.ply";
  std::filesystem::create_directories(directory);
  EXPECT_NE(LoadErrorAtLineZero(&LoadMesh, directory).find("directory"),
            std::string::npos);
  std::filesystem::remove(directory);
}

// ---------------------------------------------------------------- round trip

using testing::Shortest;
using testing::WriteOff;
using testing::WriteVertices;

// Alternates the reference forms OBJ allows, relative ones included.
std::string WriteObj(const Mesh& mesh) {
  std::string text = WriteVertices(mesh.positions, "v ");
  const auto n = static_cast<std::int64_t>(mesh.particles());
  std::size_t k = 0;
  for (const Triangle& triangle : mesh.triangles) {
    text += "f";
    for (const std::uint32_t v : triangle) {
      const std::int64_t one_based = std::int64_t{v} + 1;
      const std::int64_t relative = one_based - n - 1;
      constexpr std::array<std::string_view, 4> kSuffixes = {"", "/1", "//2",
                                                             "/3/4"};
      const std::size_t form = k++ % 4;
      text += ' ';
      text += std::to_string(form % 2 == 0 ? one_based : relative);
      text += kSuffixes[form];
    }
    text += "\n";
  }
  return text;
}

std::string WritePly(const Mesh& mesh) {
  std::string text = "ply\nformat ascii 1.0\nelement vertex " +
                     std::to_string(mesh.particles()) +
                     "\nproperty float x\nproperty float y\nproperty float z\n"
                     "element face " +
                     std::to_string(mesh.triangles.size()) +
                     "\nproperty list uchar int vertex_indices\nend_header\n" +
                     WriteVertices(mesh.positions, "");
  for (const auto& [a, b, c] : mesh.triangles) {
    text += "3 " + std::to_string(a) + " " + std::to_string(b) + " " +
            std::to_string(c) + "\n";
  }
  return text;
}

RC_GTEST_PROP(RoundTrip, WrittenMeshesReadBackExactly, ()) {
  const Mesh mesh = *testing::ArbitraryMeshWithPositions();
  RC_ASSERT(Off(WriteOff(mesh)) == mesh);
  RC_ASSERT(Obj(WriteObj(mesh)) == mesh);
  RC_ASSERT(Ply(WritePly(mesh)) == mesh);
  RC_ASSERT(Xyz(WriteVertices(mesh.positions, "")) == mesh.positions);
}

}  // namespace
}  // namespace adj::scenes
