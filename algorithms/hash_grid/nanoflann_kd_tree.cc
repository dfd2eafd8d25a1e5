// nanoflann's k-d tree as a user with float positions and the family's
// contract calls it: a KDTreeSingleIndexAdaptor over an adaptor that reads
// the positions in place and hands them out as doubles, so that its L2
// distance (a loop of diff * diff added from x to z) is the contract's
// double expression; leaf size 10, nanoflann's default (its README: smaller
// leaves query faster and build slower), built serially as nanoflann 1.4
// does. Its radiusSearch keeps distances strictly below the radius it is
// given, so it is given the double just above max_dist^2: exactly the
// contract's <=. Queries threaded with OpenMP, rows sorted.
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/hash_grid/peer_lists.h"
#include "algorithms/hash_grid/variants.h"

#if ADJ_HAVE_PEER_NANOFLANN
#include <nanoflann.hpp>
#endif

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace adj::hash_grid {
namespace {

#if ADJ_HAVE_PEER_NANOFLANN
// nanoflann's dataset interface over the family's positions.
struct FloatPointsAsDoubles {
  const Points& points;
  std::size_t kdtree_get_point_count() const { return points.size(); }
  double kdtree_get_pt(std::size_t index, std::size_t axis) const {
    const std::vector<float>& coordinates =
        axis == 0 ? points.x : (axis == 1 ? points.y : points.z);
    return coordinates[index];
  }
  template <typename BoundingBox>
  bool kdtree_get_bbox(BoundingBox& /*box*/) const {
    return false;  // nanoflann computes it
  }
};

constexpr std::size_t kLeafMaxSize = 10;
#endif

}  // namespace

void NanoflannKdTree(const Points& points, const Params& params,
                     Neighbors& out) {
  Check(points, params, /*hashed=*/false);
  NanoflannKdTreeTrusted(points, params, out);
}

void NanoflannKdTreeTrusted(const Points& points, const Params& params,
                            Neighbors& out) {
#if ADJ_HAVE_PEER_NANOFLANN
  using Tree = nanoflann::KDTreeSingleIndexAdaptor<
      nanoflann::L2_Simple_Adaptor<double, FloatPointsAsDoubles>,
      FloatPointsAsDoubles, 3, std::uint32_t>;
  const FloatPointsAsDoubles cloud{points};
  const Tree tree(3, cloud,
                  nanoflann::KDTreeSingleIndexAdaptorParams(kLeafMaxSize));
  const double max_dist = params.max_dist;
  const double radius_squared = std::nextafter(
      max_dist * max_dist, std::numeric_limits<double>::infinity());
  nanoflann::SearchParams search;
  search.sorted = false;  // the rows are sorted by id afterwards
  FullListsFromQueries(
      points.size(),
      [&](std::size_t i, std::vector<std::uint32_t>& row) {
        thread_local std::vector<std::pair<std::uint32_t, double>> found;
        const double query[3] = {points.x[i], points.y[i], points.z[i]};
        tree.radiusSearch(query, radius_squared, found, search);
        for (const auto& entry : found) row.push_back(entry.first);
      },
      out);
#else
  (void)points;
  (void)params;
  (void)out;
  throw Unavailable("nanoflann_kd_tree: nanoflann was not found at build time");
#endif
}

}  // namespace adj::hash_grid
