#include "grid_search.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace user {
namespace {

using Cell = std::tuple<int, int, int>;

int Floor(float x, float cell) {
  return static_cast<int>(std::floor(double{x} / double{cell}));
}

}  // namespace

std::vector<std::vector<std::uint32_t>> GridNeighbors(
    const std::vector<Point>& points, float radius, Bug bug) {
  const float cell = radius;
  std::map<Cell, std::vector<std::uint32_t>> grid;
  for (std::uint32_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    grid[{Floor(p.x, cell), Floor(p.y, cell), Floor(p.z, cell)}].push_back(i);
  }
  const auto home = [&](float x) {
    return bug == Bug::kTruncate ? static_cast<int>(x / cell) : Floor(x, cell);
  };
  std::vector<std::vector<std::uint32_t>> rows(points.size());
  for (std::uint32_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    const int cx = home(p.x), cy = home(p.y), cz = home(p.z);
    for (int dz = -1; dz <= 1; ++dz) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const auto found = grid.find({cx + dx, cy + dy, cz + dz});
          if (found == grid.end()) continue;
          for (const std::uint32_t j : found->second) {
            if (j == i) continue;
            const double ex = double{points[j].x} - p.x;
            const double ey = double{points[j].y} - p.y;
            const double ez = double{points[j].z} - p.z;
            const double d2 = ex * ex + ey * ey + ez * ez;
            const double r2 = double{radius} * radius;
            const bool near = bug == Bug::kStrict ? d2 < r2 : d2 <= r2;
            if (near) rows[i].push_back(j);
          }
        }
      }
    }
    std::sort(rows[i].begin(), rows[i].end());
    if (bug == Bug::kDropLast && !rows[i].empty()) rows[i].pop_back();
  }
  return rows;
}

}  // namespace user
