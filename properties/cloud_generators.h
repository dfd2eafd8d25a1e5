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
#include "scenes/hard_clouds.h"

namespace adj::scenes {

// How RapidCheck prints a counterexample's spec (found by ADL, so in the
// spec's namespace).
inline void showValue(const CloudSpec& spec, std::ostream& os) {
  os << "kind " << static_cast<int>(spec.kind) << ", " << spec.a.size()
     << " points, spacing " << spec.spacing << ", max_dist " << spec.max_dist
     << ", table " << spec.table_size << ", offset " << spec.offset;
}

}  // namespace adj::scenes

namespace adj::testing {

// The kinds, the spec and the builder live in scenes/hard_clouds.h, shared
// with the corpus export; the tests name them here.
using scenes::BoundaryCoordinate;
using scenes::BuildCloud;
using scenes::CloudKind;
using scenes::CloudSpec;
using scenes::MullerWindowMissCloud;

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

}  // namespace adj::testing
