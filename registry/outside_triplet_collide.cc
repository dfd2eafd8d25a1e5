// triplet_collide's outside check: one collision pass over triplets in the
// order the caller ran them, against the oracle's pass over that order
// (reference::CollideTriplets through checks::triplet_collide): bit for
// bit, or, for a pass whose adds interleave (atomics), within the bound
// any interleaving keeps.
#include <string>
#include <vector>

#include "algorithms/triplet_collide/triplet_collide.h"
#include "checks/triplet_collide.h"
#include "registry/array_views.h"
#include "registry/outside_families.h"

namespace adj::registry {
namespace {

namespace collide = adj::triplet_collide;

std::vector<collide::Particle> ParticlesOf(const Array& array,
                                           std::string_view name) {
  const std::vector<float> values = FloatRowsOf(array, name, 4);
  std::vector<collide::Particle> particles(values.size() / 4);
  for (std::size_t i = 0; i < particles.size(); ++i) {
    for (std::size_t c = 0; c < 4; ++c) particles[i][c] = values[4 * i + c];
  }
  return particles;
}

// (W, 4) weights as given, or (W, 3) with 1 / |w|^2 made as NvCloth makes
// it; absent, the centroid's weight alone.
std::vector<collide::Weight> WeightsOf(const Array* array) {
  if (array == nullptr) return {collide::kCentroidWeight};
  const bool with_scale = array->shape.size() == 2 && array->shape[1] == 4;
  const std::vector<float> values =
      FloatRowsOf(*array, "weights", with_scale ? 4 : 3);
  const std::size_t columns = with_scale ? 4 : 3;
  std::vector<collide::Weight> weights(values.size() / columns);
  for (std::size_t k = 0; k < weights.size(); ++k) {
    const float* w = &values[columns * k];
    weights[k] = with_scale ? collide::Weight{w[0], w[1], w[2], w[3]}
                            : collide::MakeWeight(w[0], w[1], w[2]);
  }
  return weights;
}

collide::Shapes ShapesOf(const Arrays& inputs) {
  collide::Shapes shapes;
  if (const Array* spheres = Find(inputs, "spheres")) {
    const std::vector<float> v = FloatRowsOf(*spheres, "spheres", 4);
    for (std::size_t k = 0; k + 3 < v.size(); k += 4) {
      shapes.spheres.push_back({{v[k], v[k + 1], v[k + 2]}, v[k + 3]});
    }
  }
  if (const Array* capsules = Find(inputs, "capsules")) {
    const std::vector<float> v = FloatRowsOf(*capsules, "capsules", 7);
    for (std::size_t k = 0; k + 6 < v.size(); k += 7) {
      shapes.capsules.push_back({{v[k], v[k + 1], v[k + 2]},
                                 {v[k + 3], v[k + 4], v[k + 5]},
                                 v[k + 6]});
    }
  }
  return shapes;
}

OutsideVerdict CheckTripletCollideOutput(const Arrays& inputs,
                                         const Arrays& outputs,
                                         const Parameters& parameters) {
  const Array* before_array = Find(inputs, "particles");
  const Array* triplets_array = Find(inputs, "triplets");
  const Array* after_array = Find(outputs, "particles");
  if (before_array == nullptr || triplets_array == nullptr ||
      after_array == nullptr) {
    throw CheckInputError(
        "triplet_collide: the input particles and triplets and the output "
        "particles are required");
  }
  const std::vector<collide::Particle> before =
      ParticlesOf(*before_array, "particles");
  const std::vector<Triplet> order =
      TripletsOf(*triplets_array, "triplets", before.size());
  const std::vector<collide::Weight> weights =
      WeightsOf(Find(inputs, "weights"));
  const collide::Shapes shapes = ShapesOf(inputs);
  const bool interleaved =
      parameters.contains("interleaved") &&
      WholeParameterOf(parameters, "interleaved", 0, 1) == 1;
  // The family's own input check (weight indices, radii, values), on the
  // particles with the dummies it expects; the caller's triplets were
  // bounded by the caller's particles above.
  std::vector<collide::Particle> with_dummies = before;
  with_dummies.insert(with_dummies.end(), collide::kDummyParticles,
                      collide::Particle{0, 0, 0, 0});
  collide::Check(collide::InputOrder(order), weights, shapes, with_dummies);
  const std::vector<collide::Particle> after =
      ParticlesOf(*after_array, "the output particles");

  const auto expected =
      checks::triplet_collide::ExpectedOf(order, weights, shapes, before);
  OutsideVerdict verdict;
  verdict.scope =
      "the oracle's pass over all " + std::to_string(order.size()) +
      " triplets in the order given, " +
      (interleaved ? "within the bound any interleaving of its adds keeps"
                   : "bit for bit");
  verdict.difference = checks::triplet_collide::FirstDifference(
      order, weights, shapes, before, expected, after,
      interleaved ? checks::triplet_collide::Exactness::kWithinInterleavingBound
                  : checks::triplet_collide::Exactness::kBitwise);
  verdict.statistics = {{"triplets", static_cast<double>(order.size())},
                        {"collided", static_cast<double>(expected.collided)},
                        {"max_error", checks::triplet_collide::MaxError(
                                          after, expected.particles)}};
  return verdict;
}

}  // namespace

OutsideCheck TripletCollideOutsideCheck() {
  return {"triplet_collide",
          "particles (N, 4) of (x, y, z, invMass) before the pass; triplets "
          "(T, 4) of (p0, p1, p2, weight index) or (T, 3) (weight 0), in the "
          "order the pass ran them; optionally weights (W, 4) of (w0, w1, "
          "w2, 1 / |w|^2) or (W, 3) (default: the centroid's alone), spheres "
          "(S, 4) of (centre, radius) and capsules (C, 7) of (a, b, radius); "
          "the parameter interleaved (1: the adds may interleave, as with "
          "atomics; default 0: bit for bit)",
          "particles (N, 4) after one pass",
          {"particles", "triplets", "weights", "spheres", "capsules"},
          {"particles"},
          {"interleaved"},
          "particles",
          "particles",
          &CheckTripletCollideOutput};
}

}  // namespace adj::registry
