#include "reference/triplet_collide.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace adj::reference {
namespace {

struct Point {
  float x;
  float y;
  float z;
};

// The push of one shape whose nearest point to `p` is `q` (the centre of a
// sphere, the nearest point of a capsule's segment), added to `sum`.
// Returns whether p was strictly inside.
bool Push(const Point& p, const Point& q, float radius, Point& sum) {
  const float dx = p.x - q.x;
  const float dy = p.y - q.y;
  const float dz = p.z - q.z;
  float squared = dx * dx;
  squared = squared + dy * dy;
  squared = squared + dz * dz;
  const float radius_squared = radius * radius;
  if (!(squared < radius_squared)) return false;  // NaN is outside
  if (squared == 0.0f) {
    // Exactly at the centre: no direction, so straight up by the radius.
    sum.z = sum.z + radius;
    return true;
  }
  const float distance = std::sqrt(squared);
  const float scale = radius / distance - 1.0f;
  sum.x = sum.x + dx * scale;
  sum.y = sum.y + dy * scale;
  sum.z = sum.z + dz * scale;
  return true;
}

Point NearestOnSegment(const Point& p, const CollisionCapsule& capsule) {
  const Point a{capsule.a[0], capsule.a[1], capsule.a[2]};
  const Point ab{capsule.b[0] - a.x, capsule.b[1] - a.y, capsule.b[2] - a.z};
  float length_squared = ab.x * ab.x;
  length_squared = length_squared + ab.y * ab.y;
  length_squared = length_squared + ab.z * ab.z;
  float t = 0.0f;
  if (length_squared > 0.0f) {
    float along = (p.x - a.x) * ab.x;
    along = along + (p.y - a.y) * ab.y;
    along = along + (p.z - a.z) * ab.z;
    t = along / length_squared;
    if (!(t > 0.0f)) t = 0.0f;
    if (!(t < 1.0f)) t = 1.0f;
  }
  return {a.x + t * ab.x, a.y + t * ab.y, a.z + t * ab.z};
}

}  // namespace

std::size_t CollideTriplets(std::span<const Triplet> order,
                            std::span<const std::array<float, 4>> weights,
                            std::span<const CollisionSphere> spheres,
                            std::span<const CollisionCapsule> capsules,
                            std::span<std::array<float, 4>> particles) {
  std::size_t collided = 0;
  for (const Triplet& triplet : order) {
    for (int k = 0; k < 3; ++k) {
      if (triplet[k] >= particles.size()) {
        throw std::invalid_argument(
            "reference::CollideTriplets: particle "
            "index out of range");
      }
    }
    if (triplet[3] >= weights.size()) {
      throw std::invalid_argument(
          "reference::CollideTriplets: weight index "
          "out of range");
    }
    const std::array<float, 4>& w = weights[triplet[3]];
    Point p{0.0f, 0.0f, 0.0f};
    for (int k = 0; k < 3; ++k) {
      const std::array<float, 4>& x = particles[triplet[k]];
      if (k == 0) {
        p = {w[0] * x[0], w[0] * x[1], w[0] * x[2]};
      } else {
        p.x = p.x + w[k] * x[0];
        p.y = p.y + w[k] * x[1];
        p.z = p.z + w[k] * x[2];
      }
    }
    Point delta{0.0f, 0.0f, 0.0f};
    bool inside = false;
    for (const CollisionSphere& sphere : spheres) {
      const Point centre{sphere.centre[0], sphere.centre[1], sphere.centre[2]};
      inside |= Push(p, centre, sphere.radius, delta);
    }
    for (const CollisionCapsule& capsule : capsules) {
      inside |= Push(p, NearestOnSegment(p, capsule), capsule.radius, delta);
    }
    if (inside) ++collided;
    if (delta.x == 0.0f && delta.y == 0.0f && delta.z == 0.0f) continue;
    const float scale = w[3];
    for (int k = 0; k < 3; ++k) {
      std::array<float, 4>& x = particles[triplet[k]];
      if (x[3] == 0.0f) continue;  // static
      const float factor = w[k] * scale;
      x[0] = x[0] + factor * delta.x;
      x[1] = x[1] + factor * delta.y;
      x[2] = x[2] + factor * delta.z;
    }
  }
  return collided;
}

std::string CheckInterleavingBound(
    std::span<const Triplet> order,
    std::span<const std::array<float, 4>> weights,
    std::span<const CollisionSphere> spheres,
    std::span<const CollisionCapsule> capsules,
    std::span<const std::array<float, 4>> before,
    std::span<const std::array<float, 4>> got,
    std::span<const std::array<float, 4>> expected) {
  if (got.size() != before.size() || expected.size() != before.size()) {
    return "particle counts differ";
  }
  double radii = 0;
  for (const CollisionSphere& sphere : spheres) radii += sphere.radius;
  for (const CollisionCapsule& capsule : capsules) radii += capsule.radius;
  std::vector<double> bound(before.size(), 0.0);
  std::vector<double> slots(before.size(), 0.0);
  for (const Triplet& triplet : order) {
    if (triplet[3] >= weights.size()) return "weight index out of range";
    const std::array<float, 4>& w = weights[triplet[3]];
    for (int k = 0; k < 3; ++k) {
      if (triplet[k] >= before.size()) return "particle index out of range";
      // 1.001: a push's own rounding.
      bound[triplet[k]] += std::fabs(double{w[k]} * w[3]) * radii * 1.001;
      slots[triplet[k]] += 1;
    }
  }
  for (std::size_t i = 0; i < before.size(); ++i) {
    const std::string name = "particle " + std::to_string(i);
    if (std::bit_cast<std::uint32_t>(got[i][3]) !=
        std::bit_cast<std::uint32_t>(before[i][3])) {
      return name + ": inverse mass changed";
    }
    const bool fixed = before[i][3] == 0.0f || slots[i] == 0;
    for (int c = 0; c < 3; ++c) {
      if (fixed) {
        if (std::bit_cast<std::uint32_t>(got[i][c]) !=
            std::bit_cast<std::uint32_t>(before[i][c])) {
          return name + " is static or in no triplet, but moved";
        }
        continue;
      }
      const double magnitude = std::fabs(double{before[i][c]}) + bound[i];
      const double rounding = 2 * slots[i] * 0x1p-22 * magnitude;
      const double error = std::fabs(double{got[i][c]} - expected[i][c]);
      if (!(error <= 2 * bound[i] + rounding)) {
        return name + " coordinate " + std::to_string(c) + " is " +
               std::to_string(error) + " from the expected result, past " +
               "the bound " + std::to_string(2 * bound[i] + rounding);
      }
    }
  }
  return "";
}

}  // namespace adj::reference
