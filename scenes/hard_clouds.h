#pragma once

// Point clouds built to break fixed-radius neighbour searches, from a short
// spec (kind, integer coordinates, parameters), deterministically: the
// property tests draw specs at random (properties/cloud_generators.h), the
// corpus export writes fixed ones (`adjacent corpus export`).

#include <cstdint>
#include <vector>

#include "algorithms/common/points.h"

namespace adj::scenes {

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

// Coordinates are small integers scaled by a power of two, plus an offset:
// exact floats whose differences and squares are exact in double, so the
// predicate is exact and pairs at exactly max_dist are decided alike;
// except kBoundary, built where rounding is inexact on purpose.
Points BuildCloud(const CloudSpec& spec);

// A kBoundary coordinate from a small integer v: k = v / 8 cells (-20..20)
// and a form chosen by |v| % 8: on a cell boundary, max_dist either side of
// it, one ulp either side, a denormal, +-1e-30 spacings, -0 or far.
float BoundaryCoordinate(std::int32_t v, float spacing, float max_dist);

// Particles at x = -1e-30 and x = 1 (y 6.5, z 5.5) and four far ones:
// with max_dist and spacing 1 and 1000 buckets, the pair (1, 0) that the
// predicate keeps and Müller's window misses
// (Muller.HisWindowMissesAPairJustPastACellBoundary says why).
Points MullerWindowMissCloud();

}  // namespace adj::scenes
