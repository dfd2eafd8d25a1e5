#include "scenes/hard_clouds.h"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace adj::scenes {

float BoundaryCoordinate(std::int32_t v, float spacing, float max_dist) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const auto k = static_cast<float>(v / 8);
  const float on = k * spacing;
  switch (std::abs(v) % 8) {
    case 0:
      return on;
    case 1:
      return on + max_dist;
    case 2:
      return on - max_dist;
    case 3:
      return std::nextafter(on, kInf);
    case 4:
      return std::nextafter(on, -kInf);
    case 5:
      return k * std::numeric_limits<float>::denorm_min();
    case 6:
      return (v < 0 ? -1e-30f : 1e-30f) * spacing;
    default:
      return v / 8 == 0 ? -0.0f : k * 4096.0f * spacing;
  }
}

Points BuildCloud(const CloudSpec& spec) {
  Points points;
  if (spec.kind == CloudKind::kBoundary) {
    for (std::size_t i = 0; i < spec.a.size(); ++i) {
      points.PushBack(
          BoundaryCoordinate(spec.a[i], spec.spacing, spec.max_dist),
          BoundaryCoordinate(spec.b[i], spec.spacing, spec.max_dist),
          BoundaryCoordinate(spec.c[i], spec.spacing, spec.max_dist));
    }
    return points;
  }
  const std::size_t n = spec.a.size();
  for (std::size_t i = 0; i < n; ++i) {
    double x = spec.a[i];
    double y = spec.b[i];
    double z = spec.c[i];
    switch (spec.kind) {
      case CloudKind::kUniform:
        x /= 16, y /= 16, z /= 16;  // box of 10 units
        break;
      case CloudKind::kClustered:
      case CloudKind::kFarClusters: {
        const double gap = spec.kind == CloudKind::kClustered ? 4.0 : 4096.0;
        const double centre = gap * static_cast<double>(i % spec.clusters);
        x = centre + x / 256, y = y / 256 - centre, z = z / 256;
        break;
      }
      case CloudKind::kOneCell:
        // [0, spacing) on every axis: a / 2^10 of the spacing.
        x = std::fabs(x) / 1024 * spec.spacing;
        y = std::fabs(y) / 1024 * spec.spacing;
        z = std::fabs(z) / 1024 * spec.spacing;
        break;
      case CloudKind::kExactLattice:
        x = x * spec.max_dist / 5, y = y * spec.max_dist / 5,
        z = z * spec.max_dist / 5;
        break;
      case CloudKind::kCoincident:
        x = (spec.a[i] % 3) * 0.5, y = (spec.b[i] % 2) * 0.5, z = 0;
        break;
      case CloudKind::kBoundary:
        break;  // built above
    }
    points.PushBack(static_cast<float>(x + spec.offset),
                    static_cast<float>(y + spec.offset),
                    static_cast<float>(z - spec.offset));
  }
  return points;
}

Points MullerWindowMissCloud() {
  Points points;
  points.PushBack(-1e-30f, 6.5f, 5.5f);
  points.PushBack(1.0f, 6.5f, 5.5f);
  for (int k = 0; k < 4; ++k) {
    points.PushBack(40.5f + 20.0f * static_cast<float>(k), 40.5f, 40.5f);
  }
  return points;
}

}  // namespace adj::scenes
