// The scene generators: exact layouts on hand-checked cases, invariants on
// generated ones, determinism by seed, and refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/common/errors.h"
#include "algorithms/common/memory_budget.h"
#include "scenes/fluids.h"
#include "scenes/meshes.h"
#include "scenes/solids.h"

namespace adj::scenes {
namespace {

std::vector<std::size_t> SortedValences(const Mesh& mesh) {
  std::vector<std::size_t> valence(mesh.particles(), 0);
  for (const Triangle& triangle : mesh.triangles) {
    for (const std::uint32_t corner : triangle) ++valence[corner];
  }
  std::sort(valence.begin(), valence.end());
  return valence;
}

TEST(Scenes, AlternatingDiagonalsFlipEveryOtherQuad) {
  // 2 x 1 quads, particles 0 1 2 / 3 4 5.
  const Mesh mesh = ClothGrid(2, 1, Diagonals::kAlternating);
  const std::vector<Triangle> expected = {
      {0, 1, 4}, {0, 4, 3}, {1, 2, 4}, {2, 5, 4}};
  EXPECT_EQ(mesh.triangles, expected);
  EXPECT_EQ(mesh.particles(), 6u);
}

TEST(Scenes, DiscCentreBelongsToEverySegment) {
  const Mesh disc = Disc(17, 3);
  EXPECT_EQ(disc.particles(), 1u + 17 * 3);
  EXPECT_EQ(disc.triangles.size(), 17u + 2 * 17 * 2);
  EXPECT_EQ(SortedValences(disc).back(), 17u);
}

TEST(Scenes, SubdividingATetrahedronSharesEdgeMidpoints) {
  Mesh tetrahedron;
  tetrahedron.positions.PushBack(0, 0, 0);
  tetrahedron.positions.PushBack(1, 0, 0);
  tetrahedron.positions.PushBack(0, 1, 0);
  tetrahedron.positions.PushBack(0, 0, 1);
  tetrahedron.triangles = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}};
  const Mesh fine = Subdivided(tetrahedron);
  EXPECT_EQ(fine.particles(), 4u + 6u);  // V + E
  EXPECT_EQ(fine.triangles.size(), 16u);
  // Closed: every new particle lies on 6 triangles, the old ones on 3.
  std::vector<std::size_t> expected(4, 3);
  expected.insert(expected.end(), 6, 6);
  EXPECT_EQ(SortedValences(fine), expected);
  EXPECT_GE(SubdividedTo(tetrahedron, 200).triangles.size(), 200u);
}

TEST(Scenes, ShuffledIsARelabelling) {
  const Mesh grid = ClothGrid(13, 7, Diagonals::kAlternating);
  const Mesh shuffled = Shuffled(grid, 42);
  EXPECT_EQ(shuffled.triangles.size(), grid.triangles.size());
  EXPECT_EQ(SortedValences(shuffled), SortedValences(grid));
  EXPECT_NE(shuffled.triangles, grid.triangles);
  EXPECT_EQ(Shuffled(grid, 42), shuffled);  // deterministic by seed
  EXPECT_NE(Shuffled(grid, 43), shuffled);
  EXPECT_EQ(TriangleSoup(50, 9, 5), TriangleSoup(50, 9, 5));
}

TEST(Scenes, GeneratorsRefuseWhatWouldWrapOrReadOutOfRange) {
  Mesh broken;
  broken.positions.PushBack(0, 0, 0);
  broken.triangles = {{0, 0, 1}};
  EXPECT_THROW(Shuffled(broken, 1), std::invalid_argument);
  EXPECT_THROW(Subdivided(broken), std::invalid_argument);
  EXPECT_THROW(TriangleSoup(1, 0, 1), std::invalid_argument);
  EXPECT_THROW(Disc(2, 1), std::invalid_argument);
  const std::size_t huge = std::size_t{1} << 16;  // (2^16 + 1)^2 > 2^32
  EXPECT_THROW(ClothGrid(huge, huge, Diagonals::kUniform),
               std::invalid_argument);
}

// What a generator threw, or "" when it returned.
template <typename Generate>
std::string Refusal(Generate generate) {
  try {
    generate();
    return "";
  } catch (const ResourceError& error) {
    return error.what();
  }
}

// Each generator that passed its range checks asks the memory budget for
// its particles (and the glass for its layer, the clusters for their node
// map) before allocating them: refused, naming the size and the budget.
TEST(Scenes, GeneratorsAskTheMemoryBudgetBeforeAllocating) {
  const memory::ScopedBudget budget(std::uint64_t{1} << 30);
  // The command line's largest block, 1625^3 nodes of 12 bytes: 48 GiB.
  std::string what = Refusal([] { return Block(1625, 1625, 1625); });
  EXPECT_NE(what.find("1625 x 1625 x 1625 = 4291015625 particles"),
            std::string::npos)
      << what;
  EXPECT_NE(what.find("48.0 GiB"), std::string::npos) << what;
  EXPECT_NE(what.find("budget of 1.0 GiB"), std::string::npos) << what;
  // Python's sph.scene('glass', 2**40).
  what = Refusal([] { return GlassAtRest(std::size_t{1} << 40, 0.01f); });
  EXPECT_NE(what.find("the glass of 1099511627776 particles"),
            std::string::npos)
      << what;
  EXPECT_NE(what.find("budget of 1.0 GiB"), std::string::npos) << what;
  // `adjacent sph glass --particles 50000000` and its dam break.
  {
    const memory::ScopedBudget small(100 << 20);
    what = Refusal([] { return GlassAtRest(50000000, 0.01f); });
    EXPECT_NE(what.find("the glass of 50000000 particles"), std::string::npos)
        << what;
    what = Refusal([] { return DamBreak(50000000, 0.01f); });
    EXPECT_NE(what.find("the dam break of 49794176 particles"),
              std::string::npos)
        << what;
  }
  // The clusters' node map: 2^32 nodes of 8 bytes, however few particles.
  Voxels sparse;
  sparse.grid = {2048, 2048, 1024};
  sparse.cells = {{0, 0, 0}};
  what = Refusal([&] { return CubeClusters(sparse, 8, 5); });
  EXPECT_NE(what.find("2048 x 2048 x 1024 nodes"), std::string::npos) << what;
  what = Refusal([&] { return RandomBoxClusters(sparse, 1, 2, 10, 1); });
  EXPECT_NE(what.find("2048 x 2048 x 1024 nodes"), std::string::npos) << what;
  // Under the budget they build as before.
  EXPECT_EQ(Refusal([] { return Block(100, 100, 100); }), "");
  EXPECT_EQ(Refusal([] { return GlassAtRest(100000, 0.01f); }), "");
  EXPECT_EQ(Refusal([] { return DamBreak(100000, 0.01f); }), "");
  EXPECT_EQ(GlassAtRest(1000, 0.01f).positions.size(), 1000u);
  EXPECT_EQ(DamBreak(1000, 0.01f).positions.size(), 2u * 8 * 8 * 8);
}

TEST(Scenes, FluidsRefuseABadSpacing) {
  for (const float spacing :
       {0.0f, -0.01f, std::numeric_limits<float>::quiet_NaN(),
        std::numeric_limits<float>::infinity()}) {
    EXPECT_THROW(GlassAtRest(100, spacing), std::invalid_argument) << spacing;
    EXPECT_THROW(DamBreak(100, spacing), std::invalid_argument) << spacing;
  }
  EXPECT_NO_THROW(GlassAtRest(100, std::numeric_limits<float>::denorm_min()));
}

// The box [0, sx] x [0, sy] x [0, sz] as 12 outward triangles.
Mesh BoxMesh(float sx, float sy, float sz) {
  Mesh mesh;
  for (int k = 0; k < 8; ++k) {
    mesh.positions.PushBack((k & 1) ? sx : 0, (k & 2) ? sy : 0,
                            (k & 4) ? sz : 0);
  }
  mesh.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6},
                    {0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7},
                    {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return mesh;
}

// An octahedron subdivided `levels` times, its vertices pushed onto the
// sphere of radius r around the origin.
Mesh SphereMesh(float r, int levels) {
  Mesh mesh;
  const float v[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                         {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
  for (const auto& p : v) mesh.positions.PushBack(p[0], p[1], p[2]);
  mesh.triangles = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                    {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  for (int k = 0; k < levels; ++k) mesh = Subdivided(mesh);
  for (std::size_t p = 0; p < mesh.particles(); ++p) {
    const float length = std::sqrt(mesh.positions.x[p] * mesh.positions.x[p] +
                                   mesh.positions.y[p] * mesh.positions.y[p] +
                                   mesh.positions.z[p] * mesh.positions.z[p]);
    mesh.positions.x[p] *= r / length;
    mesh.positions.y[p] *= r / length;
    mesh.positions.z[p] *= r / length;
  }
  return mesh;
}

// A 1 x 2 x 3 box at spacing 0.25: 4 x 8 x 12 node centres, all inside,
// in x-fastest order.
TEST(Voxelize, BoxFillsItsGrid) {
  const Voxels voxels = Voxelize(BoxMesh(1, 2, 3), 0.25);
  EXPECT_EQ(voxels.grid, (std::array<std::uint32_t, 3>{4, 8, 12}));
  ASSERT_EQ(voxels.cells.size(), 4u * 8u * 12u);
  EXPECT_EQ(voxels.cells[0], (std::array<std::uint32_t, 3>{0, 0, 0}));
  EXPECT_EQ(voxels.cells[1], (std::array<std::uint32_t, 3>{1, 0, 0}));
  EXPECT_EQ(voxels.cells[4], (std::array<std::uint32_t, 3>{0, 1, 0}));
  EXPECT_EQ(voxels.cells.back(), (std::array<std::uint32_t, 3>{3, 7, 11}));
}

// A ball of radius 10 at spacing 1 holds about its volume in nodes, each
// node centre inside the ball up to the polygonal surface's sag.
TEST(Voxelize, BallHoldsItsVolume) {
  const Voxels voxels = Voxelize(SphereMesh(10, 4), 1.0);
  const double volume = 4.0 / 3.0 * 3.14159265358979 * 1000;
  EXPECT_NEAR(static_cast<double>(voxels.cells.size()), volume, 0.03 * volume);
  for (const auto& c : voxels.cells) {
    const double x = c[0] + 0.5 - 10, y = c[1] + 0.5 - 10, z = c[2] + 0.5 - 10;
    EXPECT_LE(std::sqrt(x * x + y * y + z * z), 10.0);
  }
}

TEST(Voxelize, ToCountLandsNearTheCount) {
  const Voxels voxels = VoxelizeToCount(SphereMesh(1, 4), 20000);
  EXPECT_NEAR(static_cast<double>(voxels.cells.size()), 20000, 400);
}

// Two boxes apart: only the larger is kept.
TEST(Voxelize, KeepsTheLargestPiece) {
  Mesh mesh = BoxMesh(1, 1, 1);
  const Mesh small = BoxMesh(0.5f, 0.5f, 0.5f);
  for (std::size_t p = 0; p < small.particles(); ++p) {
    mesh.positions.PushBack(small.positions.x[p] + 3, small.positions.y[p],
                            small.positions.z[p]);
  }
  for (const Triangle& t : small.triangles) {
    mesh.triangles.push_back({t[0] + 8, t[1] + 8, t[2] + 8});
  }
  const Voxels voxels = Voxelize(mesh, 0.25);
  EXPECT_EQ(voxels.cells.size(), 64u);
}

TEST(Voxelize, RefusesBadMeshesAndSpacings) {
  EXPECT_THROW(Voxelize(Mesh{}, 1.0), std::invalid_argument);
  EXPECT_THROW(Voxelize(BoxMesh(1, 1, 1), 0.0), std::invalid_argument);
  EXPECT_THROW(Voxelize(BoxMesh(1, 1, 1), -1.0), std::invalid_argument);
  EXPECT_THROW(
      Voxelize(BoxMesh(1, 1, 1), std::numeric_limits<double>::quiet_NaN()),
      std::invalid_argument);
  EXPECT_THROW(Voxelize(BoxMesh(1, 1, 1), 1e-4), std::invalid_argument);
  Mesh nan = BoxMesh(1, 1, 1);
  nan.positions.x[3] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THROW(Voxelize(nan, 0.25), std::invalid_argument);
  Mesh past = BoxMesh(1, 1, 1);
  past.triangles[0][1] = 8;
  EXPECT_THROW(Voxelize(past, 0.25), std::invalid_argument);
  EXPECT_THROW(VoxelizeToCount(BoxMesh(1, 1, 1), 0), std::invalid_argument);
}

// The impactor pushes exactly the particles inside it.
TEST(Impact, PushesTheParticlesInsideTheSphere) {
  const Voxels voxels = Block(5, 5, 5);
  const Impact impact{2, 2, 1.5f, 1, 2};
  // Frame 3: centre y = 5 + 1.5 - 3 = 3.5.
  const Points points = SpherePositions(voxels, impact, 3);
  for (std::size_t p = 0; p < voxels.cells.size(); ++p) {
    const auto& c = voxels.cells[p];
    const double dx = c[0] - 2.0, dy = c[1] - 3.5, dz = c[2] - 2.0;
    const bool inside = dx * dx + dy * dy + dz * dz <= 1.5 * 1.5;
    EXPECT_EQ(points.y[p], static_cast<float>(c[1]) - (inside ? 2.0f : 0.0f));
    EXPECT_EQ(points.x[p], static_cast<float>(c[0]));
  }
}

}  // namespace
}  // namespace adj::scenes
