#include "scenes/mesh_io.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <sys/stat.h>

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
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/errors.h"
#include "algorithms/common/memory_budget.h"
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

// The rule of every format: a file without a vertex is refused, at the
// line after the last for an empty one, at the counts for a header that
// declares none. Vertices without faces load (a point set).
TEST(Off, EmptyFilesAndMeshesAreRefused) {
  EXPECT_TRUE(FailsAt(&ParseOff, "", 1, "empty file"));
  EXPECT_TRUE(FailsAt(&ParseOff, "# nothing\n\n", 3, "empty file"));
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF\n0 0 0\n", 2,
                      "the file declares 0 vertices: an empty mesh is "
                      "refused"));
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF 0 0 0", 1, "declares 0 vertices"));
  EXPECT_EQ(Off("OFF\n1 0 0\n1 2 3\n"), (Mesh{MakePoints({{1, 2, 3}}), {}}));
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

// A header that under-declares must not load in part: whatever follows the
// declared faces, other than comments and white space, is refused where it
// sits.
TEST(Off, DataAfterTheDeclaredFacesIsRefused) {
  EXPECT_EQ(Off(OffTriangle("3 0 1 2") + "\n# the end\n  \t\r\n"),
            Off(OffTriangle("3 0 1 2")));
  EXPECT_TRUE(FailsAt(&ParseOff, OffTriangle("3 0 1 2") + "3 2 1 0\n", 7,
                      "data after the 3 vertices and 1 faces the counts on "
                      "line 2 declare"));
  EXPECT_TRUE(FailsAt(&ParseOff, OffTriangle("3 0 1 2") + "\n# c\nanything\n",
                      9, "data after the 3 vertices and 1 faces"));
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF 3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n1",
                      6,
                      "data after the 3 vertices and 1 faces the counts "
                      "on line 1 declare"));
  // One vertex more than declared reads as the face, and fails there: it is
  // never loaded as a smaller mesh.
  EXPECT_TRUE(FailsAt(&ParseOff, "OFF\n2 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n",
                      5, "face with 0 vertices: at least 3 are needed"));
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

TEST(Obj, EmptyFilesAndMeshesAreRefused) {
  EXPECT_TRUE(FailsAt(&ParseObj, "", 1,
                      "empty file: an empty mesh is refused: a mesh needs at "
                      "least one vertex"));
  EXPECT_TRUE(FailsAt(&ParseObj, "# only a comment\n\n", 3, "empty file"));
  EXPECT_TRUE(FailsAt(&ParseObj, "vt 0 0\ng group\n", 3,
                      "no 'v' statement: an empty mesh is refused"));
  EXPECT_EQ(Obj("v 1 2 3\n"), (Mesh{MakePoints({{1, 2, 3}}), {}}));
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

TEST(Ply, EmptyFilesAndMeshesAreRefused) {
  EXPECT_TRUE(FailsAt(&ParsePly, "", 1, "empty file"));
  EXPECT_TRUE(FailsAt(&ParsePly, "\r\n\n", 3, "empty file"));
  EXPECT_TRUE(
      FailsAt(&ParsePly,
              "ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\n"
              "property float y\nproperty float z\nelement face 0\n"
              "property list uchar int vertex_indices\nend_header\n",
              3, "the 'vertex' element count is 0: an empty mesh is refused"));
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

// PLY's body is its declared elements: white space may end an ASCII one,
// nothing else, so a header that under-declares never loads in part.
TEST(Ply, DataAfterTheDeclaredElementsIsRefused) {
  EXPECT_EQ(Ply(PlyTriangle("3 0 1 2") + "\r\n \t\n\n"),
            Ply(PlyTriangle("3 0 1 2")));
  EXPECT_TRUE(FailsAt(&ParsePly, PlyTriangle("3 0 1 2") + "3 2 1 0\n", 14,
                      "data after the declared elements"));
  EXPECT_TRUE(FailsAt(&ParsePly, PlyTriangle("3 0 1 2") + "\n\ncomment x\n", 16,
                      "data after the declared elements"));
  // One vertex more than declared reads as the face, and fails there.
  EXPECT_TRUE(FailsAt(&ParsePly,
                      std::string(kPlyXyz) + "0 0 0\n1 0 0\n0 1 0\n1 1 0\n"
                                             "3 0 1 2\n",
                      13, "face with 1 vertices"));
}

// A header of many element lines: each name is checked against the earlier
// ones through a set. Comparing each with every earlier one, as the loader
// once did, takes minutes at this size (and 20 s at 100,000).
TEST(Ply, LongHeadersLoadInLinearTime) {
  constexpr int kElements = 300'000;
  std::string header = "ply\nformat ascii 1.0\n";
  for (int i = 0; i < kElements; ++i) {
    header += "element e" + std::to_string(i) + " 0\n";
  }
  header +=
      "element vertex 1\nproperty float x\nproperty float y\n"
      "property float z\n";
  EXPECT_EQ(Ply(header + "end_header\n1 2 3\n"),
            (Mesh{MakePoints({{1, 2, 3}}), {}}));
  // The duplicate is found where it is declared, after them all.
  EXPECT_TRUE(FailsAt(&ParsePly, header + "element e0 0\nend_header\n",
                      kElements + 7, "element 'e0' is declared twice"));
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

TEST(Xyz, EmptyFilesAreRefused) {
  EXPECT_TRUE(FailsAt(&ParseXyz, "", 1,
                      "empty file (no points, at most comments): an empty "
                      "point set is refused"));
  EXPECT_TRUE(FailsAt(&ParseXyz, "# x y z\n\n", 3, "empty file"));
}

TEST(Xyz, ReadsPointsSkippingCommentsAndExtraFields) {
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

// The reason of the ParseError of loading `path` (which must throw one at
// line 0 naming the path), at once: an error that read the file first would
// never return for /dev/zero or a FIFO nobody writes to.
std::string RefusalOf(const std::filesystem::path& path) {
  const std::string what = LoadErrorAtLineZero(&LoadMesh, path);
  EXPECT_EQ(LoadErrorAtLineZero(&LoadPoints, path), what);
  return what;
}

TEST(Files, OnlyRegularFilesAreRead) {
  const std::filesystem::path fifo =
      std::filesystem::temp_directory_path() /
      ("adj_mesh_io_fifo_" + std::to_string(std::random_device{}()) + ".off");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << fifo;
  EXPECT_EQ(RefusalOf(fifo),
            fifo.string() +
                ":0: cannot open file: it is a FIFO (named pipe), not a "
                "regular file (a stream may never end)");
  std::filesystem::remove(fifo);

  // Through a link too: what is read is what the link names.
  const std::filesystem::path zero =
      std::filesystem::temp_directory_path() /
      ("adj_mesh_io_zero_" + std::to_string(std::random_device{}()) + ".xyz");
  std::filesystem::create_symlink("/dev/zero", zero);
  EXPECT_NE(LoadErrorAtLineZero(&LoadPoints, zero)
                .find(":0: cannot open file: it is a character device, not a "
                      "regular file"),
            std::string::npos);
  std::filesystem::remove(zero);

  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() /
      ("adj_mesh_io_dir_" + std::to_string(std::random_device{}()) + ".stl");
  std::filesystem::create_directories(directory);
  EXPECT_EQ(RefusalOf(directory),
            directory.string() + ":0: cannot open file: it is a directory");
  std::filesystem::remove(directory);
}

// The ResourceError of `load`, which must throw one.
template <typename Load>
std::string ResourceErrorOf(Load load) {
  try {
    load();
  } catch (const ResourceError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no ResourceError";
  return "";
}

TEST(Files, FilesOverTheMemoryBudgetAreRefusedBeforeReading) {
  std::string big = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  big += std::string(5000 - big.size(), '\n');
  const TempFile file(".off", big);
  EXPECT_EQ(LoadMesh(file.path()), Off(OffTriangle("3 0 1 2")));
  const memory::ScopedBudget budget(4096);
  const std::string what =
      ResourceErrorOf([&] { return LoadMesh(file.path()); });
  EXPECT_TRUE(what.starts_with(file.path().string() +
                               ":0: reading the file of 5000 bytes would "
                               "need 4.9 KiB, over the memory budget of "
                               "4.0 KiB"))
      << what;
}

// A stream that never ends: its parser must stop at the memory budget, not
// read on.
class EndlessZeros : public std::streambuf {
 public:
  EndlessZeros() { setg(zeros_, zeros_, zeros_ + sizeof(zeros_)); }

 protected:
  int_type underflow() override {
    setg(zeros_, zeros_, zeros_ + sizeof(zeros_));
    return traits_type::to_int_type(zeros_[0]);
  }

 private:
  char zeros_[4096] = {};
};

TEST(Files, EndlessStreamsStopAtTheMemoryBudget) {
  const memory::ScopedBudget budget(1 << 20);
  for (const auto parse : {&ParseOff, &ParseObj, &ParsePly, &ParseStl}) {
    EndlessZeros zeros;
    std::istream in(&zeros);
    const std::string what =
        ResourceErrorOf([&] { return parse(in, "endless"); });
    EXPECT_TRUE(
        what.starts_with("endless: byte 1048576: the input goes on "
                         "past the memory budget of 1.0 MiB"))
        << what;
  }
  EndlessZeros zeros;
  std::istream in(&zeros);
  EXPECT_FALSE(
      ResourceErrorOf([&] { return ParseXyz(in, "endless"); }).empty());
}

// The mesh a file describes may be several times its size (a polygon of n
// indices is n - 2 triangles of 12 bytes): every array grows only after
// the budget allows the file and the arrays at their new size.
TEST(Files, MeshesOverTheMemoryBudgetAreRefusedWhereTheyGrow) {
  std::string fan = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n2000";
  for (int i = 0; i < 2000; ++i) fan += i % 2 == 0 ? " 0" : " 1";
  fan += "\n";
  EXPECT_EQ(Off(fan).triangles.size(), 1998u);
  const memory::ScopedBudget budget(fan.size() + 4096);
  const std::string what = ResourceErrorOf([&] { return Off(fan); });
  EXPECT_TRUE(what.starts_with("in.off:6: the file (" +
                               std::to_string(fan.size()) +
                               " bytes) and room for 3 vertices and 1998 "
                               "triangles would need"))
      << what;
  // A declared count asks before reserving: the budget of this file is
  // short of room for its 200 vertices.
  std::string many = "OFF\n200 0 0\n";
  for (int i = 0; i < 200; ++i) many += "0 0 0\n";
  const memory::ScopedBudget tight(many.size() + 1000);
  EXPECT_TRUE(ResourceErrorOf([&] { return Off(many); })
                  .starts_with("in.off:2: the file (" +
                               std::to_string(many.size()) +
                               " bytes) and room for 200 vertices and 0 "
                               "triangles would need"));
}

// A PLY header's records take several times their text once parsed: the
// budget is asked as their number doubles.
TEST(Files, PlyHeadersOverTheMemoryBudgetAreRefused) {
  std::string header = "ply\nformat ascii 1.0\n";
  for (int i = 0; i < 3000; ++i) {
    header += "element e" + std::to_string(i) + " 0\n";
  }
  header +=
      "element vertex 1\nproperty float x\nproperty float y\n"
      "property float z\nend_header\n1 2 3\n";
  EXPECT_EQ(Ply(header).particles(), 1u);
  const memory::ScopedBudget budget(header.size() + 4096);
  const std::string what = ResourceErrorOf([&] { return Ply(header); });
  // The 1024th record after the magic line sits on line 1025.
  EXPECT_TRUE(what.starts_with("in.ply:1025: the file (" +
                               std::to_string(header.size()) +
                               " bytes) and 2048 header records would need"))
      << what;
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
  if (mesh.particles() == 0) {
    // Every format refuses a file without a vertex.
    RC_ASSERT_THROWS_AS(Off(WriteOff(mesh)), ParseError);
    RC_ASSERT_THROWS_AS(Obj(WriteObj(mesh)), ParseError);
    RC_ASSERT_THROWS_AS(Ply(WritePly(mesh)), ParseError);
    RC_ASSERT_THROWS_AS(Xyz(WriteVertices(mesh.positions, "")), ParseError);
    return;
  }
  RC_ASSERT(Off(WriteOff(mesh)) == mesh);
  RC_ASSERT(Obj(WriteObj(mesh)) == mesh);
  RC_ASSERT(Ply(WritePly(mesh)) == mesh);
  RC_ASSERT(Xyz(WriteVertices(mesh.positions, "")) == mesh.positions);
}

}  // namespace
}  // namespace adj::scenes
