// triplet_collide's exported cases: the places a collision pass goes wrong
// by a bit: a point exactly at a sphere's centre (pushed up by the
// radius), exactly on its surface (strictly inside only: not pushed), a
// capsule shrunk to a point, a triplet naming one particle twice (added
// twice), a particle in hundreds of triplets (the order of its adds),
// static particles. Expected: the oracle's pass over the triplets in the
// order given, bit for bit.
#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/triplet_collide/triplet_collide.h"
#include "checks/triplet_collide.h"
#include "registry/array_views.h"
#include "registry/corpus.h"
#include "registry/corpus_families.h"
#include "scenes/meshes.h"

namespace adj::registry {
namespace {

namespace collide = adj::triplet_collide;

template <std::size_t N>
Array FloatRows(std::span<const std::array<float, N>> rows) {
  std::vector<double> values;
  for (const auto& row : rows)
    values.insert(values.end(), row.begin(), row.end());
  return RealArray({rows.size(), N}, std::move(values));
}

struct Pass {
  std::vector<collide::Particle> particles;
  std::vector<Triplet> triplets;
  std::vector<collide::Weight> weights = {collide::kCentroidWeight};
  collide::Shapes shapes;
};

CorpusCase CollideCase(std::string name, std::string purpose,
                       const Pass& pass) {
  CorpusCase made;
  made.name = std::move(name);
  made.purpose = std::move(purpose);
  made.inputs["particles"] =
      FloatRows<4>(std::span<const collide::Particle>(pass.particles));
  made.inputs["triplets"] =
      RowsArray<4>(std::span<const Triplet>(pass.triplets));
  made.inputs["weights"] =
      FloatRows<4>(std::span<const collide::Weight>(pass.weights));
  std::vector<std::array<float, 4>> spheres;
  for (const auto& s : pass.shapes.spheres) {
    spheres.push_back({s.centre[0], s.centre[1], s.centre[2], s.radius});
  }
  std::vector<std::array<float, 7>> capsules;
  for (const auto& c : pass.shapes.capsules) {
    capsules.push_back(
        {c.a[0], c.a[1], c.a[2], c.b[0], c.b[1], c.b[2], c.radius});
  }
  made.inputs["spheres"] =
      FloatRows<4>(std::span<const std::array<float, 4>>(spheres));
  made.inputs["capsules"] =
      FloatRows<7>(std::span<const std::array<float, 7>>(capsules));
  made.inputs["interleaved"] = ScalarArray(0);
  const auto expected = checks::triplet_collide::ExpectedOf(
      pass.triplets, pass.weights, pass.shapes, pass.particles);
  made.expected["particles"] =
      FloatRows<4>(std::span<const collide::Particle>(expected.particles));
  return made;
}

// A mesh's virtual particles under a sphere centred over the middle of its
// extent and a capsule across it; the first `pinned` particles static.
Pass MeshUnderShapes(const Mesh& mesh, std::size_t pinned) {
  Pass pass;
  pass.particles = collide::ToParticles(mesh.positions);
  for (std::size_t i = 0; i < std::min(pinned, pass.particles.size()); ++i) {
    pass.particles[i][3] = 0;
  }
  pass.triplets = scenes::VirtualParticles(mesh);
  std::array<float, 3> lo{1e30f, 1e30f, 1e30f};
  std::array<float, 3> hi{-1e30f, -1e30f, -1e30f};
  for (const auto& p : pass.particles) {
    for (int c = 0; c < 3; ++c) {
      lo[c] = std::min(lo[c], p[c]);
      hi[c] = std::max(hi[c], p[c]);
    }
  }
  const float extent = std::max(hi[0] - lo[0], hi[1] - lo[1]);
  const std::array<float, 3> middle = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2,
                                       lo[2]};
  pass.shapes.spheres.push_back(
      {{middle[0], middle[1], middle[2] - extent / 10}, extent / 4});
  pass.shapes.capsules.push_back(
      {{lo[0], middle[1], middle[2] + extent / 20},
       {hi[0], middle[1] + extent / 5, middle[2] + extent / 20},
       extent / 12});
  return pass;
}

// One triangle (3, 0, 0), (-3, 0, 0), (0, y, 0) and a unit sphere at the
// origin: its centroid is (0, y / 3, 0) in float, exactly.
Pass OneTriangle(float y) {
  Pass pass;
  pass.particles = {{3, 0, 0, 1}, {-3, 0, 0, 1}, {0, y, 0, 1}};
  pass.triplets = {{0, 1, 2, 0}};
  pass.shapes.spheres.push_back({{0, 0, 0}, 1});
  return pass;
}

}  // namespace

std::vector<CorpusCase> TripletCollideCorpus() {
  std::vector<CorpusCase> cases;
  cases.push_back(CollideCase(
      "cloth_over_shapes",
      "a 16 x 16 cloth's centroids over a sphere and a capsule, its first "
      "row static (invMass 0: never written)",
      MeshUnderShapes(
          scenes::ClothGrid(16, 16, scenes::Diagonals::kUniform, 0.1f), 17)));
  cases.push_back(CollideCase(
      "point_at_the_centre",
      "a centroid exactly at a sphere's centre: no direction to push along, "
      "so pushed up (+z) by the radius",
      OneTriangle(0)));
  cases.push_back(CollideCase(
      "point_on_the_surface",
      "a centroid exactly on a sphere's surface (d^2 == r^2): only strictly "
      "inside is pushed, so nothing moves",
      OneTriangle(3)));
  Pass point_capsule = OneTriangle(1.5f);
  point_capsule.shapes.spheres.clear();
  point_capsule.shapes.capsules.push_back({{0, 0.25f, 0}, {0, 0.25f, 0}, 1});
  cases.push_back(CollideCase(
      "capsule_of_zero_length",
      "a capsule whose ends coincide (a sphere: its segment's length is 0, "
      "so t stays 0) around the centroid",
      point_capsule));
  Pass repeated = OneTriangle(1.5f);
  repeated.triplets = {{0, 0, 2, 0}};
  cases.push_back(CollideCase(
      "repeated_corner",
      "a triplet naming particle 0 twice: its push is added to it twice, "
      "each add re-reading it",
      repeated));
  Pass valence = MeshUnderShapes(scenes::Disc(200, 3), 0);
  cases.push_back(CollideCase(
      "high_valence",
      "a disc whose centre particle is in 200 triplets, pushed in each: "
      "float adds in the triplets' order",
      valence));
  Pass weighted = MeshUnderShapes(
      scenes::ClothGrid(8, 8, scenes::Diagonals::kAlternating, 0.1f), 0);
  weighted.weights.push_back(collide::MakeWeight(0.6f, 0.3f, 0.1f));
  for (std::size_t t = 0; t < weighted.triplets.size(); t += 2) {
    weighted.triplets[t][3] = 1;
  }
  cases.push_back(CollideCase(
      "two_weights",
      "an 8 x 8 cloth whose every other triplet uses weights (0.6, 0.3, "
      "0.1) with its 1 / |w|^2",
      weighted));
  Pass empty;
  empty.particles = {{0, 0, 0, 1}};
  cases.push_back(
      CollideCase("no_triplets", "no triplets: nothing moves", empty));
  return cases;
}

}  // namespace adj::registry
