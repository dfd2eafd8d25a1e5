// The point-cloud scenes of hash_grid: Müller's cloth demo laid out as his
// constructor does, the folded cloth's geometry (isometric, stacked layers
// gap apart, one layer = the flat cloth), the radius chosen for real data,
// and refusals.
#include "scenes/clouds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "reference/hash_grid.h"

namespace adj::scenes {
namespace {

double Distance(const Points& p, std::size_t a, std::size_t b) {
  const double dx = double{p.x[a]} - double{p.x[b]};
  const double dy = double{p.y[a]} - double{p.y[b]};
  const double dz = double{p.z[a]} - double{p.z[b]};
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

TEST(Clouds, MullerClothDemoIsHisConstructorsLattice) {
  const Points cloth = MullerClothDemo();
  ASSERT_EQ(cloth.size(), 6000u);
  // id = i * numY + j at (-numX * spacing / 2 + i * spacing, 0.2 + j *
  // spacing, 0), in double, stored as float.
  const auto at = [&](std::size_t i, std::size_t j) { return i * 200 + j; };
  EXPECT_EQ(cloth.x[at(0, 0)], static_cast<float>(-30 * 0.01 * 0.5));
  EXPECT_EQ(cloth.y[at(0, 0)], 0.2f);
  EXPECT_EQ(cloth.y[at(0, 1)], static_cast<float>(0.2 + 0.01));
  EXPECT_EQ(cloth.x[at(1, 0)], static_cast<float>(-30 * 0.01 * 0.5 + 0.01));
  EXPECT_EQ(cloth.x[at(29, 199)],
            static_cast<float>(-30 * 0.01 * 0.5 + 29 * 0.01));
  EXPECT_EQ(cloth.y[at(29, 199)], static_cast<float>(0.2 + 199 * 0.01));
  EXPECT_TRUE(std::all_of(cloth.z.begin(), cloth.z.end(),
                          [](float z) { return z == 0.0f; }));
  // Within 1.5 spacings: the lattice's 4 axis and 4 diagonal neighbours,
  // 29 x 200 + 30 x 199 edges and 2 x 29 x 199 diagonals.
  const Csr lists = reference::NeighborLists(cloth, 0.015f);
  EXPECT_EQ(lists.entries() / 2, 29u * 200 + 30 * 199 + 2 * 29 * 199);
  EXPECT_EQ(MullerCloth(3, 4, 0.5), MullerCloth(3, 4, 0.5));
  EXPECT_EQ(MullerCloth(3, 4, 0.5).size(), 12u);
}

TEST(Clouds, OneLayerOfTheFoldedClothIsTheFlatCloth) {
  EXPECT_EQ(FoldedCloth(30, 200, 0.01, 1, 0.01), MullerClothDemo());
  EXPECT_EQ(FoldedCloth(3, 7, 0.5, 1, 2.0), MullerCloth(3, 7, 0.5));
}

TEST(Clouds, TheFoldIsIsometricAndStacksLayersGapApart) {
  const std::size_t nx = 5;
  const std::size_t ny = 120;
  const double spacing = 0.01;
  const double gap = 0.01;
  const std::size_t layers = 4;
  const Points cloth = FoldedCloth(nx, ny, spacing, layers, gap);
  ASSERT_EQ(cloth.size(), nx * ny);
  // Along the cloth, consecutive particles are one spacing apart along the
  // strip: exactly that on the straight parts, the chord of a spacing-long
  // arc of radius gap / 2 at worst in a bend (2 r sin(spacing / 2r)).
  const double chord = gap * std::sin(spacing / gap);
  const double eps = 1e-6;
  std::size_t straight_steps = 0;
  for (std::size_t i = 0; i < nx; ++i) {
    for (std::size_t j = 0; j + 1 < ny; ++j) {
      const double d = Distance(cloth, i * ny + j, i * ny + j + 1);
      EXPECT_GE(d, chord - eps) << i << " " << j;
      EXPECT_LE(d, spacing + eps) << i << " " << j;
      straight_steps += std::abs(d - spacing) < eps;
    }
  }
  EXPECT_GT(straight_steps, nx * (ny - 1) * 3 / 4);
  // Layers: z from 0 to (layers - 1) gap, the first particle on layer 0,
  // the last on the top layer; each layer holds a straight run.
  for (std::size_t id = 0; id < cloth.size(); ++id) {
    EXPECT_GE(cloth.z[id], -eps);
    EXPECT_LE(cloth.z[id], (layers - 1) * gap + eps);
  }
  EXPECT_EQ(cloth.z[0], 0.0f);
  EXPECT_NEAR(cloth.z[ny - 1], (layers - 1) * gap, eps);
  std::vector<std::size_t> on_layer(layers, 0);
  for (std::size_t j = 0; j < ny; ++j) {
    const double k = cloth.z[j] / gap;
    if (std::abs(k - std::round(k)) < 1e-4) {
      ++on_layer[static_cast<std::size_t>(std::lround(k))];
    }
  }
  for (std::size_t k = 0; k < layers; ++k) {
    EXPECT_GE(on_layer[k], ny / layers - 3) << "layer " << k;
  }
  // The hard case: every particle of a straight part above layer 0 has a
  // particle of the layer below within sqrt(gap^2 + spacing^2) (the layer
  // below runs over the same y, particles a spacing apart).
  const double reach = std::sqrt(gap * gap + spacing * spacing) + eps;
  std::size_t checked = 0;
  for (std::size_t a = 0; a < cloth.size(); ++a) {
    const double k = cloth.z[a] / gap;
    if (k < 0.5 || std::abs(k - std::round(k)) > 1e-4) continue;
    bool below = false;
    for (std::size_t b = 0; b < cloth.size() && !below; ++b) {
      below = std::abs(cloth.z[b] - (k - 1) * gap) < 1e-6 &&
              Distance(cloth, a, b) <= reach;
    }
    EXPECT_TRUE(below) << "particle " << a;
    ++checked;
  }
  EXPECT_GT(checked, nx * ny / 2);
}

TEST(Clouds, FoldingRefusesWhatCannotBeFolded) {
  EXPECT_THROW(FoldedCloth(3, 100, 0.01, 0, 0.01), std::invalid_argument);
  EXPECT_THROW(FoldedCloth(3, 100, 0.01, 2, 0.0), std::invalid_argument);
  EXPECT_THROW(
      FoldedCloth(3, 100, 0.01, 2, std::numeric_limits<double>::quiet_NaN()),
      std::invalid_argument);
  EXPECT_THROW(FoldedCloth(3, 100, 0.0, 2, 0.01), std::invalid_argument);
  // 3 particles: 0.02 of cloth, less than the bends of 4 layers need.
  EXPECT_THROW(FoldedCloth(3, 3, 0.01, 4, 0.01), std::invalid_argument);
  EXPECT_THROW(MullerCloth(3, 3, -1.0), std::invalid_argument);
  EXPECT_EQ(FoldedCloth(0, 100, 0.01, 2, 0.01).size(), 0u);
}

Points Lattice(std::size_t side, float step) {
  Points points;
  for (std::size_t i = 0; i < side; ++i) {
    for (std::size_t j = 0; j < side; ++j) {
      for (std::size_t k = 0; k < side; ++k) {
        points.PushBack(static_cast<float>(i) * step,
                        static_cast<float>(j) * step,
                        static_cast<float>(k) * step);
      }
    }
  }
  return points;
}

TEST(Clouds, RadiusForNeighborsOnALatticeIsItsShellDistance) {
  // 12^3 points, 10^3 of them interior: the median sample is interior, with
  // 6 neighbours at 1, 12 at sqrt 2, 8 at sqrt 3.
  const Points lattice = Lattice(12, 1.0f);
  EXPECT_EQ(RadiusForNeighbors(lattice, 6), 1.0f);
  EXPECT_EQ(RadiusForNeighbors(lattice, 7), static_cast<float>(std::sqrt(2.0)));
  EXPECT_EQ(RadiusForNeighbors(lattice, 18),
            static_cast<float>(std::sqrt(2.0)));
  EXPECT_EQ(RadiusForNeighbors(lattice, 19),
            static_cast<float>(std::sqrt(3.0)));
  EXPECT_EQ(RadiusForNeighbors(Lattice(12, 0.25f), 6), 0.25f);
}

TEST(Clouds, RadiusForNeighborsGivesAboutThatManyOnAUniformCloud) {
  const Points cloud = UniformCloud(4000, 1.0f, 11);
  const float radius = RadiusForNeighbors(cloud, 30);
  const Csr lists = reference::NeighborLists(cloud, radius);
  const double mean = static_cast<double>(lists.entries()) / 4000.0;
  // The cube's faces thin the neighbourhoods near them; the median sample
  // sees ~30, the mean a little less.
  EXPECT_GT(mean, 22.0);
  EXPECT_LT(mean, 32.0);
}

TEST(Clouds, RadiusForNeighborsRefusesTooFewOrCoincidentPoints) {
  Points same;
  for (int i = 0; i < 50; ++i) same.PushBack(1, 2, 3);
  EXPECT_THROW(RadiusForNeighbors(same, 30), std::invalid_argument);
  EXPECT_THROW(RadiusForNeighbors(Lattice(3, 1.0f), 27), std::invalid_argument);
  EXPECT_THROW(RadiusForNeighbors(Lattice(3, 1.0f), 0), std::invalid_argument);
  EXPECT_THROW(RadiusForNeighbors(Lattice(3, 1.0f), 3, 0),
               std::invalid_argument);
}

TEST(Clouds, UniformCloudIsInItsCubeAndSeeded) {
  const Points cloud = UniformCloud(1000, 4.0f, 7);
  for (const auto* axis : {&cloud.x, &cloud.y, &cloud.z}) {
    for (const float c : *axis) {
      EXPECT_GE(c, 0.0f);
      EXPECT_LT(c, 4.0f);
    }
  }
  EXPECT_EQ(UniformCloud(1000, 4.0f, 7), cloud);
  EXPECT_NE(UniformCloud(1000, 4.0f, 8), cloud);
  EXPECT_THROW(UniformCloud(10, 0.0f, 1), std::invalid_argument);
}

}  // namespace
}  // namespace adj::scenes
