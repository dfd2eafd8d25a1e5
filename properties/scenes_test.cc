// The scene generators: exact layouts on hand-checked cases, invariants on
// generated ones, determinism by seed, and refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "scenes/meshes.h"

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

}  // namespace
}  // namespace adj::scenes
