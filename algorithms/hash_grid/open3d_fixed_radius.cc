// Open3D's tensor fixed-radius search as a user with the family's contract
// calls it: the positions copied into an {N, 3} Float64 tensor (so that its
// squared distance, summed from x to z, is the contract's double
// expression), NearestNeighborSearch::FixedRadiusIndex, then
// FixedRadiusSearch of the same points without sorting by distance. On the
// CPU Open3D answers both with its nanoflann index (NanoFlannIndex; the
// voxel-hash FixedRadiusIndex serves CUDA tensors only), the queries on
// oneTBB's threads, and so keeps squared distances strictly below
// radius^2. A pair exactly max_dist apart (the contract keeps it) would be
// lost; so it is asked for the first double radius whose square exceeds
// max_dist^2, and the few entries beyond max_dist^2 that this adds are
// dropped by the squared distances Open3D returns. Its output is already
// compressed rows (Int32 indices and splits); each row loses the particle
// itself and is sorted by id.
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/hash_grid/variants.h"

#if ADJ_HAVE_PEER_OPEN3D
#include <open3d/core/Tensor.h>
#include <open3d/core/nns/NearestNeighborSearch.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "algorithms/common/memory_budget.h"

namespace adj::hash_grid {

#if ADJ_HAVE_PEER_OPEN3D
namespace {

namespace core = open3d::core;

// The positions as the {N, 3} Float64 tensor Open3D searches.
core::Tensor PositionsTensor(const Points& points) {
  const std::size_t n = points.size();
  std::vector<double> coordinates(3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    coordinates[3 * i] = points.x[i];
    coordinates[3 * i + 1] = points.y[i];
    coordinates[3 * i + 2] = points.z[i];
  }
  return core::Tensor(std::move(coordinates),
                      {static_cast<std::int64_t>(n), 3});
}

// The first double radius whose square exceeds max_dist^2: Open3D's CPU
// search keeps squared distances strictly below radius^2.
double RadiusAbove(double max_dist) {
  double radius = max_dist;
  while (radius * radius <= max_dist * max_dist) {
    radius = std::nextafter(radius, std::numeric_limits<double>::infinity());
  }
  return radius;
}

class Open3dIndex final : public PeerIndex {
 public:
  Open3dIndex(const Points& points, const Params& params)
      : particles_(points.size()),
        max_dist_(params.max_dist),
        radius_(RadiusAbove(params.max_dist)),
        positions_(particles_ == 0 ? core::Tensor() : PositionsTensor(points)),
        search_(positions_, core::Int32) {
    if (particles_ > 0 && !search_.FixedRadiusIndex(radius_)) {
      throw Error("open3d_fixed_radius: Open3D could not build its index");
    }
  }

  void QueryAll(Neighbors& out) const override;

 private:
  std::size_t particles_;
  double max_dist_;
  double radius_;
  core::Tensor positions_;
  // Open3D's searches are not const.
  mutable core::nns::NearestNeighborSearch search_;
};

void Open3dIndex::QueryAll(Neighbors& out) const {
  const std::size_t n = particles_;
  out.list = ListKind::kFull;
  out.order = RowOrder::kAscending;
  out.threads = peers::OneTbbThreads(n);
  if (n == 0) {
    out.candidates = 0;
    out.csr.offsets.assign(1, 0);
    out.csr.indices.clear();
    return;
  }
  const auto [indices, distances, splits] =
      search_.FixedRadiusSearch(positions_, radius_, /*sort=*/false);
  const std::int32_t* found = indices.GetDataPtr<std::int32_t>();
  const double* distance_squared = distances.GetDataPtr<double>();
  // The splits come back in the index type (Int32 here), whatever the
  // header's comment says (Int64): read them as given.
  std::vector<std::int64_t> row_splits(n + 1);
  if (splits.GetDtype() == core::Int64) {
    std::copy_n(splits.GetDataPtr<std::int64_t>(), n + 1, row_splits.begin());
  } else {
    std::copy_n(splits.GetDataPtr<std::int32_t>(), n + 1, row_splits.begin());
  }
  const double max_dist_squared = max_dist_ * max_dist_;
  const auto kept = [&](std::size_t i, std::int64_t k) {
    return static_cast<std::size_t>(found[k]) != i &&
           distance_squared[k] <= max_dist_squared;
  };
  std::vector<std::uint64_t> counts(n);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t count = 0;
    for (std::int64_t k = row_splits[i]; k < row_splits[i + 1]; ++k) {
      count += kept(i, k);
    }
    counts[i] = count;
  }
  std::uint64_t entries = 0;
  for (const std::uint64_t count : counts) entries += count;
  memory::Require(memory::Bytes(entries, sizeof(std::uint32_t)),
                  "hash_grid: the neighbour lists");
  if (entries > 0xffffffffu) {
    throw Error("hash_grid: more entries than 32-bit offsets address");
  }
  out.csr.offsets.resize(n + 1);
  out.csr.offsets[0] = 0;
  for (std::size_t i = 0; i < n; ++i) {
    out.csr.offsets[i + 1] =
        out.csr.offsets[i] + static_cast<std::uint32_t>(counts[i]);
  }
  // What Open3D returned, selves included: a lower bound of the pairs it
  // tested (it does not say more).
  out.candidates = static_cast<std::uint64_t>(row_splits[n]);
  out.csr.indices.resize(entries);
  std::uint32_t* const rows = out.csr.indices.data();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t* row = rows + out.csr.offsets[i];
    for (std::int64_t k = row_splits[i]; k < row_splits[i + 1]; ++k) {
      if (kept(i, k)) *row++ = static_cast<std::uint32_t>(found[k]);
    }
    std::sort(rows + out.csr.offsets[i], rows + out.csr.offsets[i + 1]);
  }
}

}  // namespace
#endif

std::unique_ptr<PeerIndex> BuildOpen3dIndex(const Points& points,
                                            const Params& params) {
#if ADJ_HAVE_PEER_OPEN3D
  return std::make_unique<Open3dIndex>(points, params);
#else
  (void)points;
  (void)params;
  throw Unavailable("open3d_fixed_radius: Open3D was not found at build time");
#endif
}

void Open3dFixedRadius(const Points& points, const Params& params,
                       Neighbors& out) {
  Check(points, params, /*hashed=*/false);
  Open3dFixedRadiusTrusted(points, params, out);
}

void Open3dFixedRadiusTrusted(const Points& points, const Params& params,
                              Neighbors& out) {
  BuildOpen3dIndex(points, params)->QueryAll(out);
}

}  // namespace adj::hash_grid
