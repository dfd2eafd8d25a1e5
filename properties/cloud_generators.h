#pragma once

// RapidCheck generators of point clouds with hash_grid parameters, shared by
// the hash_grid properties and the command line's tests. A cloud is a short
// spec (kind, integer coordinates, parameters) built deterministically, so
// that a counterexample prints a few numbers and shrinks by them.

#include <rapidcheck.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <ostream>
#include <vector>

#include "algorithms/common/points.h"

namespace adj::testing {

enum class CloudKind {
  kUniform,       // dyadic coordinates in a box of a few cells
  kClustered,     // tight clusters in a box
  kFarClusters,   // clusters thousands of cells apart (sparse cells)
  kOneCell,       // every point inside one cell
  kExactLattice,  // a lattice whose step is max_dist / 5: 3-4-5 pairs at
                  // exactly max_dist
  kCoincident,    // few distinct positions, many copies
  kBoundary,      // on and one ulp beside cell boundaries and k x spacing
                  // +- max_dist, next to denormals, signed zeros, 1e-30 and
                  // huge magnitudes; parameters that are not dyadic: the
                  // clouds where rounding decides (BoundaryCoordinate)
};

struct CloudSpec {
  CloudKind kind;
  std::vector<std::int32_t> a, b, c;  // per point: integer coordinates
  std::uint32_t clusters;
  float spacing;
  float max_dist;
  std::uint32_t table_size;
  // Added to every coordinate (negative and large clouds); at most 2^21, so
  // that cells stay within kMaxCellCoord for the finest spacing (0.25).
  float offset;
};

inline void showValue(const CloudSpec& spec, std::ostream& os) {
  os << "kind " << static_cast<int>(spec.kind) << ", " << spec.a.size()
     << " points, spacing " << spec.spacing << ", max_dist " << spec.max_dist
     << ", table " << spec.table_size << ", offset " << spec.offset;
}

// Coordinates are small integers scaled by a power of two, plus an offset:
// exact floats whose differences and squares are exact in double, so the
// predicate is exact and pairs at exactly max_dist are decided alike;
// except kBoundary, built where rounding is inexact on purpose.
// A kBoundary coordinate from a small integer v: k = v / 8 cells (-20..20)
// and a form chosen by |v| % 8.
inline float BoundaryCoordinate(std::int32_t v, float spacing, float max_dist) {
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

inline Points BuildCloud(const CloudSpec& spec) {
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

// Clouds of up to max_points points, of any kind or of `only` that one.
inline rc::Gen<CloudSpec> AnyCloud(std::size_t max_points,
                                   std::optional<CloudKind> only = {}) {
  return rc::gen::exec([max_points, only] {
    CloudSpec spec;
    spec.kind =
        only ? *only
             : *rc::gen::element(CloudKind::kUniform, CloudKind::kClustered,
                                 CloudKind::kFarClusters, CloudKind::kOneCell,
                                 CloudKind::kExactLattice,
                                 CloudKind::kCoincident, CloudKind::kBoundary);
    const auto n = *rc::gen::inRange<std::size_t>(0, max_points + 1);
    const std::int32_t range = spec.kind == CloudKind::kExactLattice ? 12 : 160;
    const auto coordinate = rc::gen::inRange<std::int32_t>(-range, range);
    spec.a = *rc::gen::container<std::vector<std::int32_t>>(n, coordinate);
    spec.b = *rc::gen::container<std::vector<std::int32_t>>(n, coordinate);
    spec.c = *rc::gen::container<std::vector<std::int32_t>>(n, coordinate);
    spec.clusters = *rc::gen::inRange<std::uint32_t>(1, 6);
    // Powers of two and their sums: exact, and max_dist / 5 steps of the
    // lattice stay exact for 1.25 and 2.5.
    spec.spacing = *rc::gen::element(0.25f, 0.5f, 0.75f, 1.0f, 2.0f);
    spec.max_dist = *rc::gen::element(0.25f, 0.5f, 1.0f, 1.25f, 2.5f);
    spec.table_size =
        *rc::gen::oneOf(rc::gen::inRange<std::uint32_t>(1, 8),
                        rc::gen::just(static_cast<std::uint32_t>(2 * n + 1)),
                        rc::gen::just(static_cast<std::uint32_t>(5 * n + 1)));
    spec.offset = *rc::gen::element(0.0f, -1000.5f, 1048576.0f, -2097152.0f);
    if (spec.kind == CloudKind::kBoundary) {
      // Spacings that are not dyadic, tiny and large ones; radii a fraction
      // or a multiple of them, rounded to float.
      spec.spacing =
          *rc::gen::element(0.1f, 1.0f / 3.0f, 1.0f, 0.7f, 1e-20f, 3e4f);
      spec.max_dist =
          spec.spacing * *rc::gen::element(1.0f, 0.5f, 0.3f, 2.0f, 1.1f);
      spec.offset = 0;
      spec.kind = CloudKind::kBoundary;
    }
    return spec;
  });
}

// Particles at x = -1e-30 and x = 1 (y 6.5, z 5.5) and four far ones:
// with max_dist and spacing 1 and 1000 buckets, the pair (1, 0) that the
// predicate keeps and Müller's window misses
// (Muller.HisWindowMissesAPairJustPastACellBoundary says why).
inline Points MullerWindowMissCloud() {
  Points points;
  points.PushBack(-1e-30f, 6.5f, 5.5f);
  points.PushBack(1.0f, 6.5f, 5.5f);
  for (int k = 0; k < 4; ++k) {
    points.PushBack(40.5f + 20.0f * static_cast<float>(k), 40.5f, 40.5f);
  }
  return points;
}

}  // namespace adj::testing
