#include "checks/triplet_collide.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <sstream>

#include "reference/triplet_collide.h"

namespace adj::checks::triplet_collide {
namespace {

struct ReferenceShapes {
  std::vector<reference::CollisionSphere> spheres;
  std::vector<reference::CollisionCapsule> capsules;
};

ReferenceShapes ToReference(const adj::triplet_collide::Shapes& shapes) {
  ReferenceShapes out;
  for (const auto& s : shapes.spheres) {
    out.spheres.push_back({s.centre, s.radius});
  }
  for (const auto& c : shapes.capsules) {
    out.capsules.push_back({c.a, c.b, c.radius});
  }
  return out;
}

bool SameBits(float a, float b) {
  return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

std::string StaticMoved(const Particles& got, const Particles& before) {
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (before[i][3] != 0.0f) continue;
    for (int c = 0; c < 4; ++c) {
      if (!SameBits(got[i][c], before[i][c])) {
        return "static particle " + std::to_string(i) + " changed";
      }
    }
  }
  return "";
}

}  // namespace

Expected ExpectedOf(std::span<const Triplet> order,
                    std::span<const adj::triplet_collide::Weight> weights,
                    const adj::triplet_collide::Shapes& shapes,
                    const Particles& before) {
  const ReferenceShapes reference_shapes = ToReference(shapes);
  Expected expected{before, 0};
  expected.collided =
      reference::CollideTriplets(order, weights, reference_shapes.spheres,
                                 reference_shapes.capsules, expected.particles);
  return expected;
}

Exactness ExactnessOf(const adj::triplet_collide::Variant& variant,
                      std::size_t triplet_count) {
  // A row without a twin because its sums depend on the order its threads
  // add in is exact only on one thread.
  return !variant.untwinned.empty() && ThreadsOf(variant, triplet_count) > 1
             ? Exactness::kWithinInterleavingBound
             : Exactness::kBitwise;
}

std::string FirstDifference(
    std::span<const Triplet> order,
    std::span<const adj::triplet_collide::Weight> weights,
    const adj::triplet_collide::Shapes& shapes, const Particles& before,
    const Expected& expected, const Particles& got, Exactness exactness) {
  if (got.size() != before.size()) {
    return std::to_string(got.size()) + " particles, expected " +
           std::to_string(before.size());
  }
  if (std::string moved = StaticMoved(got, before); !moved.empty()) {
    return moved;
  }
  if (exactness == Exactness::kBitwise) {
    return BitwiseDifference(got, expected.particles);
  }
  const ReferenceShapes reference_shapes = ToReference(shapes);
  return reference::CheckInterleavingBound(
      order, weights, reference_shapes.spheres, reference_shapes.capsules,
      before, got, expected.particles);
}

std::string BitwiseDifference(const Particles& a, const Particles& b) {
  if (a.size() != b.size()) {
    return "sizes " + std::to_string(a.size()) + " and " +
           std::to_string(b.size());
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (int c = 0; c < 4; ++c) {
      if (!SameBits(a[i][c], b[i][c])) {
        std::ostringstream text;
        text << "particle " << i << " coordinate " << c << ": got "
             << std::setprecision(9) << a[i][c] << " (" << std::hexfloat
             << a[i][c] << "), expected " << std::defaultfloat << b[i][c]
             << " (" << std::hexfloat << b[i][c] << ")";
        return text.str();
      }
    }
  }
  return "";
}

double MaxError(const Particles& a, const Particles& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      worst = std::max(worst, std::fabs(double{a[i][c]} - b[i][c]));
    }
  }
  return worst;
}

}  // namespace adj::checks::triplet_collide
