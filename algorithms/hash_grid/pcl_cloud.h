#pragma once

// Internal to the PCL rows: the family's positions as the float cloud PCL
// searches, and the contract's test on what it returns. PCL measures
// squared distances in float, the contract in double, and its octree
// prunes voxels with float arithmetic on coordinates whose rounding grows
// with their magnitude (far from the origin it missed a pair exactly
// max_dist apart: the test's cloud offset by 2^20). So the cloud is the
// positions moved to start at the origin and scaled by a power of two near
// 1 / max_dist (a boundary pair's squared distance then sits near 1, far
// from float's underflow and overflow whatever max_dist is), PCL is asked
// for a radius a little above max_dist there (covering float's rounding of
// the moved coordinates and of a squared distance), and each id it returns
// is kept by the contract's own double test on the original positions.

#if ADJ_HAVE_PEER_PCL
#include <pcl/point_cloud.h>
#include <pcl/point_types.h>
#include <pcl/types.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/common/points.h"
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/hash_grid/peer_lists.h"

namespace adj::hash_grid::pcl_cloud {

// A moved and scaled coordinate is clamped to kLargestCoordinate, so that
// the cloud stays finite (PCL drops points that are not) and its squared
// extents stay finite. Clamping moves no two points apart on an axis, so
// PCL still returns every pair the contract keeps; clamped points only add
// candidates, which the double test drops.
constexpr double kLargestCoordinate = 0x1p60;

struct ScaledCloud {
  pcl::PointCloud<pcl::PointXYZ>::Ptr cloud;
  // The radius to ask PCL for, in the cloud's units: max_dist scaled and
  // grown by 2^-16 of itself (float's rounding of a squared distance stays
  // under 2^-21 of it) and by 2^-20 of the cloud's largest coordinate
  // (each coordinate is rounded to float within 2^-24 of it; PCL's own
  // voxel arithmetic is of that order).
  double search_radius;
};

inline ScaledCloud ScaledCloudOf(const Points& points, float max_dist) {
  double low[3] = {0, 0, 0};
  const std::vector<float>* axes[3] = {&points.x, &points.y, &points.z};
  for (int axis = 0; axis < 3; ++axis) {
    if (!axes[axis]->empty()) {
      low[axis] = *std::min_element(axes[axis]->begin(), axes[axis]->end());
    }
  }
  const double scale = std::ldexp(1.0, -std::ilogb(max_dist));
  ScaledCloud scaled;
  scaled.cloud.reset(new pcl::PointCloud<pcl::PointXYZ>);
  scaled.cloud->resize(points.size());
  double largest = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    float moved[3];
    for (int axis = 0; axis < 3; ++axis) {
      const double value = std::min(
          (double{(*axes[axis])[i]} - low[axis]) * scale, kLargestCoordinate);
      moved[axis] = static_cast<float>(value);
      largest = std::max(largest, value);
    }
    (*scaled.cloud)[i] = pcl::PointXYZ(moved[0], moved[1], moved[2]);
  }
  scaled.search_radius = double{max_dist} * scale * (1 + std::ldexp(1.0, -16)) +
                         std::ldexp(largest, -20);
  return scaled;
}

// Appends to `row` the ids among `found` that the contract keeps for i:
// (dx*dx + dy*dy) + dz*dz <= max_dist^2 in double, op by op.
inline void KeepWithinMaxDist(const Points& points, std::size_t i,
                              double max_dist_squared,
                              const pcl::Indices& found,
                              std::vector<std::uint32_t>& row) {
  for (const int j : found) {
    const double dx = double{points.x[i]} - double{points.x[j]};
    const double dy = double{points.y[i]} - double{points.y[j]};
    const double dz = double{points.z[i]} - double{points.z[j]};
    const double xy = dx * dx + dy * dy;
    if (xy + dz * dz <= max_dist_squared) {
      row.push_back(static_cast<std::uint32_t>(j));
    }
  }
}

// Full lists from a built PCL search (a k-d tree or an octree: both
// answer radiusSearch(point, radius, indices, squared distances) const,
// so the OpenMP threads share it).
template <typename Search>
void QueryAll(const Points& points, const ScaledCloud& scaled,
              double max_dist_squared, const Search& search, Neighbors& out) {
  FullListsFromQueries(
      points.size(),
      [&](std::size_t i, std::vector<std::uint32_t>& row) {
        thread_local pcl::Indices found;
        thread_local std::vector<float> squared_distances;
        search.radiusSearch((*scaled.cloud)[i], scaled.search_radius, found,
                            squared_distances);
        KeepWithinMaxDist(points, i, max_dist_squared, found, row);
      },
      out);
}

}  // namespace adj::hash_grid::pcl_cloud
#endif
