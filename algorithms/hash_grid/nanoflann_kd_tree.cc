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
#include <memory>
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

#if ADJ_HAVE_PEER_NANOFLANN
namespace {

class NanoflannIndex final : public PeerIndex {
 public:
  NanoflannIndex(const Points& points, const Params& params)
      : cloud_{points},
        tree_(3, cloud_,
              nanoflann::KDTreeSingleIndexAdaptorParams(kLeafMaxSize)),
        radius_squared_(
            std::nextafter(double{params.max_dist} * double{params.max_dist},
                           std::numeric_limits<double>::infinity())) {}

  void QueryAll(Neighbors& out) const override {
    nanoflann::SearchParams search;
    search.sorted = false;  // the rows are sorted by id afterwards
    const Points& points = cloud_.points;
    FullListsFromQueries(
        points.size(),
        [&](std::size_t i, std::vector<std::uint32_t>& row) {
          thread_local std::vector<std::pair<std::uint32_t, double>> found;
          const double query[3] = {points.x[i], points.y[i], points.z[i]};
          tree_.radiusSearch(query, radius_squared_, found, search);
          for (const auto& entry : found) row.push_back(entry.first);
        },
        out);
  }

 private:
  using Tree = nanoflann::KDTreeSingleIndexAdaptor<
      nanoflann::L2_Simple_Adaptor<double, FloatPointsAsDoubles>,
      FloatPointsAsDoubles, 3, std::uint32_t>;
  FloatPointsAsDoubles cloud_;
  Tree tree_;
  // nanoflann keeps distances strictly below the radius it is given: the
  // double just above max_dist^2 keeps exactly the contract's <=.
  double radius_squared_;
};

}  // namespace
#endif

std::unique_ptr<PeerIndex> BuildNanoflannIndex(const Points& points,
                                               const Params& params) {
#if ADJ_HAVE_PEER_NANOFLANN
  return std::make_unique<NanoflannIndex>(points, params);
#else
  (void)points;
  (void)params;
  throw Unavailable("nanoflann_kd_tree: nanoflann was not found at build time");
#endif
}

void NanoflannKdTree(const Points& points, const Params& params,
                     Neighbors& out) {
  Check(points, params, /*hashed=*/false);
  NanoflannKdTreeTrusted(points, params, out);
}

void NanoflannKdTreeTrusted(const Points& points, const Params& params,
                            Neighbors& out) {
  BuildNanoflannIndex(points, params)->QueryAll(out);
}

}  // namespace adj::hash_grid
