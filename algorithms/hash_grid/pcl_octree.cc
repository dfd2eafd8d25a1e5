// PCL's octree as a user with the family's contract calls it:
// pcl::octree::OctreePointCloudSearch<PointXYZ> on the positions as a float
// cloud, its voxel edge the search radius (a query then visits the voxels
// around it; grown where the cloud would need more than 2^30 voxels a
// side, past which PCL's keys overflow), built by addPointsFromInputCloud,
// then radiusSearch per particle with queries threaded with OpenMP (the
// search is const and reads the built tree only). PCL measures in float:
// the cloud is scaled by a power of two, PCL asked for a radius a little
// above max_dist, and what it returns kept by the contract's double test
// (pcl_cloud.h says why that loses no pair).
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/hash_grid/variants.h"

#if ADJ_HAVE_PEER_PCL
#include <pcl/octree/octree_search.h>

#include <algorithm>
#include <cmath>

#include "algorithms/hash_grid/pcl_cloud.h"
#endif

#include <memory>
#include <vector>

namespace adj::hash_grid {

#if ADJ_HAVE_PEER_PCL
namespace {

// The voxel edge: the search radius, or the cloud's largest extent over
// 2^30 where that is longer.
double VoxelEdge(const pcl::PointCloud<pcl::PointXYZ>& cloud,
                 double search_radius) {
  if (cloud.empty()) return search_radius;
  double extent = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const auto [low, high] = std::minmax_element(
        cloud.begin(), cloud.end(), [axis](const auto& a, const auto& b) {
          return a.data[axis] < b.data[axis];
        });
    extent = std::max(extent, double{high->data[axis]} - low->data[axis]);
  }
  return std::max(search_radius, std::ldexp(extent, -30));
}

class PclOctreeIndex final : public PeerIndex {
 public:
  PclOctreeIndex(const Points& points, const Params& params)
      : points_(points),
        scaled_(pcl_cloud::ScaledCloudOf(points, params.max_dist)),
        max_dist_squared_(double{params.max_dist} * double{params.max_dist}),
        octree_(VoxelEdge(*scaled_.cloud, scaled_.search_radius)) {
    if (points.empty()) return;
    octree_.setInputCloud(scaled_.cloud);
    octree_.addPointsFromInputCloud();
  }

  void QueryAll(Neighbors& out) const override {
    pcl_cloud::QueryAll(points_, scaled_, max_dist_squared_, octree_, out);
  }

 private:
  const Points& points_;
  pcl_cloud::ScaledCloud scaled_;
  double max_dist_squared_;
  pcl::octree::OctreePointCloudSearch<pcl::PointXYZ> octree_;
};

}  // namespace
#endif

std::unique_ptr<PeerIndex> BuildPclOctreeIndex(const Points& points,
                                               const Params& params) {
#if ADJ_HAVE_PEER_PCL
  return std::make_unique<PclOctreeIndex>(points, params);
#else
  (void)points;
  (void)params;
  throw Unavailable("pcl_octree: PCL was not found at build time");
#endif
}

void PclOctree(const Points& points, const Params& params, Neighbors& out) {
  Check(points, params, /*hashed=*/false);
  PclOctreeTrusted(points, params, out);
}

void PclOctreeTrusted(const Points& points, const Params& params,
                      Neighbors& out) {
  BuildPclOctreeIndex(points, params)->QueryAll(out);
}

}  // namespace adj::hash_grid
