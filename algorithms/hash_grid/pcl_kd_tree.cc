// PCL's k-d tree as a user with the family's contract calls it:
// pcl::KdTreeFLANN<PointXYZ> (FLANN's single k-d tree, PCL's default
// parameters, unsorted results as the rows are sorted by id afterwards) on
// the positions as a float cloud, radiusSearch per particle with queries
// threaded with OpenMP, as PCL's own *OMP filters share one search object
// among threads. PCL measures in float and keeps squared distances strictly
// below the radius: the cloud is scaled by a power of two, PCL asked for a
// radius a little above max_dist, and what it returns kept by the
// contract's double test (pcl_cloud.h says why that loses no pair).
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/hash_grid/variants.h"

#if ADJ_HAVE_PEER_PCL
#include <pcl/kdtree/kdtree_flann.h>

#include "algorithms/hash_grid/pcl_cloud.h"
#endif

#include <memory>
#include <vector>

namespace adj::hash_grid {

#if ADJ_HAVE_PEER_PCL
namespace {

class PclKdTreeIndex final : public PeerIndex {
 public:
  PclKdTreeIndex(const Points& points, const Params& params)
      : points_(points),
        scaled_(pcl_cloud::ScaledCloudOf(points, params.max_dist)),
        max_dist_squared_(double{params.max_dist} * double{params.max_dist}),
        tree_(/*sorted=*/false) {
    if (!points.empty()) tree_.setInputCloud(scaled_.cloud);
  }

  void QueryAll(Neighbors& out) const override {
    pcl_cloud::QueryAll(points_, scaled_, max_dist_squared_, tree_, out);
  }

 private:
  const Points& points_;
  pcl_cloud::ScaledCloud scaled_;
  double max_dist_squared_;
  pcl::KdTreeFLANN<pcl::PointXYZ> tree_;
};

}  // namespace
#endif

std::unique_ptr<PeerIndex> BuildPclKdTreeIndex(const Points& points,
                                               const Params& params) {
#if ADJ_HAVE_PEER_PCL
  return std::make_unique<PclKdTreeIndex>(points, params);
#else
  (void)points;
  (void)params;
  throw Unavailable("pcl_kd_tree: PCL was not found at build time");
#endif
}

void PclKdTree(const Points& points, const Params& params, Neighbors& out) {
  Check(points, params, /*hashed=*/false);
  PclKdTreeTrusted(points, params, out);
}

void PclKdTreeTrusted(const Points& points, const Params& params,
                      Neighbors& out) {
  BuildPclKdTreeIndex(points, params)->QueryAll(out);
}

}  // namespace adj::hash_grid
