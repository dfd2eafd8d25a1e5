#include "algorithms/hash_grid/hash_grid.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "algorithms/hash_grid/variants.h"

namespace adj::hash_grid {

std::string TraitsText(const Traits& traits) {
  if (traits.hashed) return "cells=hashed";
  return traits.build_index != nullptr ? "index=separate" : "";
}

namespace {

constexpr std::string_view kPeerUntwinned =
    "a peer threaded as a user would: the library has no single-threaded "
    "row of its own; its lists are the oracle's whatever the thread count";

}  // namespace

// Long: the variant table, one row per variant.
std::span<const Variant> Variants() {
  static constexpr std::array kVariants = {
    Variant{"muller",
            Backend::kSerial,
            Origin::kFaithful,
            "faithful Ten Minute Physics dense hash: count per hashed "
            "cell, inclusive scan, decrementing fill, queryAll over the "
            "hashed buckets of the window; half list (j < i), rows in "
            "Müller's order, duplicates when two searched cells share a "
            "bucket, a 0 stored for each candidate past his N queryIds "
            "slots, pairs just past a cell boundary missed by his window",
            &MullerQueryAll,
            {},
            &MullerQueryAllTrusted,
            {},
            nullptr,
            Traits{/*hashed=*/true}},
    Variant{"cell_sorted",
            Backend::kSerial,
            Origin::kOurs,
            "particles counting-sorted by exact cell (dense grid over "
            "the occupied box, or sorted cell keys when the box is sparse), "
            "one window per cell, x-runs of cells as contiguous ranges; no "
            "hash, no duplicates; full lists, rows ascending",
            &CellSortedFull,
            {},
            &CellSortedFullTrusted},
    Variant{"cell_sorted_half",
            Backend::kSerial,
            Origin::kOurs,
            "cell_sorted keeping only j < i, Müller's half list "
            "without duplicates; rows ascending",
            &CellSortedHalf,
            {},
            &CellSortedHalfTrusted},
    Variant{"cell_sorted_simd",
            Backend::kSimd,
            Origin::kOurs,
            "cell_sorted with the pair test on Highway lanes (8 "
            "doubles on AVX-512), rounding as the scalar test; full lists, "
            "rows ascending",
            &CellSortedSimd,
            {},
            &CellSortedSimdTrusted},
    Variant{"cell_order_simd",
            Backend::kSimd,
            Origin::kOurs,
            "cell_sorted_simd without the sort per row: rows in cell "
            "order (by cell, then id), as a consumer walking cells reads "
            "them; full lists",
            &CellOrderSimd,
            {},
            &CellOrderSimdTrusted},
    Variant{"cell_sorted_openmp", Backend::kOpenMp, Origin::kOurs,
            "cell_sorted with the cells split among threads by "
            "particle count, per-row counts, one scan, rows copied and "
            "sorted in parallel; full lists, rows ascending, the same CSR "
            "whatever the thread count",
            &CellSortedOpenMp, "cell_sorted", &CellSortedOpenMpTrusted},
    Variant{"cell_order_simd_openmp", Backend::kOpenMp, Origin::kOurs,
            "cell_order_simd with the cells split among threads as "
            "cell_sorted_openmp; rows in cell order, the same CSR whatever "
            "the thread count",
            &CellOrderSimdOpenMp, "cell_order_simd",
            &CellOrderSimdOpenMpTrusted},
    Variant{.name = "nanoflann_kd_tree",
            .backend = Backend::kOpenMp,
            .origin = Origin::kPeer,
            .description =
                "nanoflann's KDTreeSingleIndexAdaptor (leaf size 10, its "
                "default) over the positions read as doubles; radiusSearch "
                "per particle with the double just above max_dist^2 (it "
                "keeps distances strictly below), queries on OpenMP "
                "threads; full lists, rows sorted",
            .run = &NanoflannKdTree,
            .run_trusted = &NanoflannKdTreeTrusted,
            .untwinned = kPeerUntwinned,
            .traits = Traits{.build_index = &BuildNanoflannIndex},
            .peer = &peers::Nanoflann},
    Variant{.name = "open3d_fixed_radius",
            .backend = Backend::kTbb,
            .origin = Origin::kPeer,
            .description =
                "Open3D's core::nns::NearestNeighborSearch on a Float64 "
                "tensor: FixedRadiusIndex and FixedRadiusSearch of the same "
                "points (on the CPU its nanoflann index, queries on oneTBB's "
                "threads; it keeps distances strictly below the radius, so "
                "the radius asked is the first double above max_dist and "
                "the entries beyond max_dist are dropped by the distances "
                "it returns); self dropped, rows sorted; full lists",
            .run = &Open3dFixedRadius,
            .run_trusted = &Open3dFixedRadiusTrusted,
            .threads = &peers::OneTbbThreads,
            .traits = Traits{.build_index = &BuildOpen3dIndex},
            .peer = &peers::Open3d},
    Variant{.name = "cgal_kd_tree",
            .backend = Backend::kOpenMp,
            .origin = Origin::kPeer,
            .description =
                "CGAL's Kd_tree of (Point_3, id) in Simple_cartesian<double> "
                "(default sliding-midpoint splitter, buckets of 10), built "
                "before the queries; a Fuzzy_sphere search (epsilon 0) per "
                "particle on OpenMP threads; full lists, rows sorted",
            .run = &CgalKdTree,
            .run_trusted = &CgalKdTreeTrusted,
            .untwinned = kPeerUntwinned,
            .traits = Traits{.build_index = &BuildCgalIndex},
            .peer = &peers::Cgal},
    Variant{.name = "pcl_kd_tree",
            .backend = Backend::kOpenMp,
            .origin = Origin::kPeer,
            .description =
                "PCL's KdTreeFLANN<PointXYZ> (FLANN's k-d tree, PCL's "
                "defaults, unsorted results) on the positions as floats "
                "scaled by a power of two; radiusSearch per particle on "
                "OpenMP threads with a radius just above max_dist, what it "
                "returns kept by the contract's double test; full lists, "
                "rows sorted",
            .run = &PclKdTree,
            .run_trusted = &PclKdTreeTrusted,
            .untwinned = kPeerUntwinned,
            .traits = Traits{.build_index = &BuildPclKdTreeIndex},
            .peer = &peers::Pcl},
    Variant{.name = "pcl_octree",
            .backend = Backend::kOpenMp,
            .origin = Origin::kPeer,
            .description =
                "PCL's octree::OctreePointCloudSearch<PointXYZ> (voxel edge "
                "the search radius) on the positions as floats scaled by a "
                "power of two; radiusSearch per particle on OpenMP threads "
                "with a radius just above max_dist, what it returns kept by "
                "the contract's double test; full lists, rows sorted",
            .run = &PclOctree,
            .run_trusted = &PclOctreeTrusted,
            .untwinned = kPeerUntwinned,
            .traits = Traits{.build_index = &BuildPclOctreeIndex},
            .peer = &peers::Pcl},
#if ADJ_HAVE_CUDA
    Variant{"cuda",
            Backend::kCuda,
            Origin::kOurs,
            "CUB radix sort of the particles by exact cell, the "
            "occupied cells by a scan, one thread per particle walking its "
            "window as (z, y) runs of cells found by binary search; "
            "one walk staging rows within a room per row, scan, pack (a second "
            "walk only where a row outgrew it); full lists, rows in cell "
            "order; host memory "
            "in and out (copies timed)",
            &CudaCellOrder,
            {},
            &CudaCellOrderTrusted},
#endif
  };
  return kVariants;
}

std::string_view ListKindName(ListKind kind) {
  return kind == ListKind::kHalf ? "half" : "full";
}

std::string_view RowOrderName(RowOrder order) {
  switch (order) {
    case RowOrder::kMuller:
      return "muller";
    case RowOrder::kAscending:
      return "ascending";
    case RowOrder::kCell:
      return "cell";
  }
  return "?";
}

namespace {

bool PositiveFinite(double value) { return std::isfinite(value) && value > 0; }

// floor(c / spacing) in double, before any conversion: it may be huge.
double FloorCell(double c, double spacing) { return std::floor(c / spacing); }

void CheckCellRange(double cell, const char* axis, const char* side) {
  if (!(std::abs(cell) <= static_cast<double>(kMaxCellCoord))) {
    throw Error(std::string("hash_grid: the ") + side + " searched cell on " +
                axis + " is " + std::to_string(cell) +
                ", beyond the hash's exact range +-" +
                std::to_string(kMaxCellCoord) +
                " (coordinates too large for the spacing)");
  }
}

}  // namespace

namespace {

// The check of both parameter kinds, in double (a float parameter widens
// exactly).
void CheckCloud(const Points& points, double spacing, double max_dist,
                std::uint32_t table_size, bool hashed) {
  if (points.y.size() != points.size() || points.z.size() != points.size()) {
    throw Error("hash_grid: x, y and z have different lengths");
  }
  if (points.size() > kMaxParticles) {
    throw Error("hash_grid: " + std::to_string(points.size()) +
                " particles, more than int32 ids allow");
  }
  if (!PositiveFinite(spacing)) {
    throw Error("hash_grid: spacing must be finite and > 0, not " +
                std::to_string(spacing));
  }
  if (!PositiveFinite(max_dist)) {
    throw Error("hash_grid: max_dist must be finite and > 0, not " +
                std::to_string(max_dist));
  }
  if (max_dist > kMaxWindowRatio * spacing) {
    throw Error("hash_grid: max_dist " + std::to_string(max_dist) +
                " is more than " + std::to_string(kMaxWindowRatio) +
                " x spacing " + std::to_string(spacing) +
                ": too many cells per query");
  }
  if (hashed && table_size == 0) {
    throw Error("hash_grid: table_size must be > 0");
  }
  if (points.empty()) return;
  const std::array<const std::vector<float>*, 3> axes = {&points.x, &points.y,
                                                         &points.z};
  const char* names[3] = {"x", "y", "z"};
  const double d =
      std::nextafter(max_dist, std::numeric_limits<double>::infinity());
  for (std::size_t a = 0; a < 3; ++a) {
    const std::vector<float>& c = *axes[a];
    float low = std::numeric_limits<float>::infinity();
    float high = -low;
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (!std::isfinite(c[i])) {
        throw Error("hash_grid: particle " + std::to_string(i) + " has " +
                    names[a] + " = " + std::to_string(c[i]) +
                    " (NaN or infinite)");
      }
      low = std::min(low, c[i]);
      high = std::max(high, c[i]);
    }
    // The window is monotone in the coordinate: its extremes come from the
    // extreme coordinates.
    CheckCellRange(FloorCell(double{low} - d, spacing), names[a], "lowest");
    CheckCellRange(FloorCell(double{high} + d, spacing), names[a], "highest");
  }
}

}  // namespace

std::uint32_t DefaultTableSize(std::size_t particles) {
  return static_cast<std::uint32_t>(
      std::clamp<std::size_t>(2 * particles, 1, std::size_t{0xffffffff}));
}

void Check(const Points& points, const Params& params, bool hashed) {
  CheckCloud(points, params.spacing, params.max_dist, params.table_size,
             hashed);
}

void Check(const Points& points, const MullerParams& params) {
  CheckCloud(points, params.spacing, params.max_dist, params.table_size,
             /*hashed=*/true);
}

double WindowReach(float max_dist) {
  return std::nextafter(static_cast<double>(max_dist),
                        std::numeric_limits<double>::infinity());
}

std::int64_t IntCoord(double c, double spacing) {
  return static_cast<std::int64_t>(FloorCell(c, spacing));
}

std::uint32_t MullerHash(std::int64_t x, std::int64_t y, std::int64_t z,
                         std::uint32_t table_size) {
  // JavaScript forms each product exactly (|product| < 2^53 here) and `^`
  // takes its low 32 bits: the same bits as the wrapped uint32 product.
  const std::uint32_t bits = (static_cast<std::uint32_t>(x) * 92837111u) ^
                             (static_cast<std::uint32_t>(y) * 689287499u) ^
                             (static_cast<std::uint32_t>(z) * 283923481u);
  // The int32 the XOR yields, made absolute in 64 bits: Math.abs(-2^31) is
  // 2^31, where std::abs(INT32_MIN) would be undefined.
  const std::int64_t h = static_cast<std::int32_t>(bits);
  const std::int64_t magnitude = h < 0 ? -h : h;
  return static_cast<std::uint32_t>(magnitude % table_size);
}

std::uint64_t RepeatedEntries(const Csr& csr) {
  std::uint64_t repeated = 0;
  std::vector<std::uint32_t> row;
  for (std::size_t r = 0; r < csr.rows(); ++r) {
    const auto entries = csr.Row(r);
    row.assign(entries.begin(), entries.end());
    std::sort(row.begin(), row.end());
    for (std::size_t k = 1; k < row.size(); ++k) {
      repeated += row[k] == row[k - 1] ? 1 : 0;
    }
  }
  return repeated;
}

}  // namespace adj::hash_grid
