// Checks the user's grid search (grid_search.h) with adjacent's verifier:
// on a cloud built to break grid searches (negative coordinates, points on
// cell boundaries, pairs at exactly the radius), the search's rows against
// the suite's brute-force oracle. Prints "agrees" or the first difference;
// exit 0 agrees, 1 differs, 2 bad option.
//   check_your_grid [--bug none|truncate|strict|drop-last]
#include <cstdio>
#include <string>
#include <vector>

#include "algorithms/common/points.h"
#include "algorithms/hash_grid/hash_grid.h"
#include "checks/hash_grid.h"
#include "grid_search.h"

namespace {

constexpr float kRadius = 0.25f;

// A lattice of spacing kRadius from -1 to 0.75 on each axis, and the same
// lattice moved by (0.1, 0.1, 0.1): every coordinate is exact in float, so
// lattice neighbours are exactly kRadius apart, and half the cloud lies
// below 0.
std::vector<user::Point> HardCloud() {
  std::vector<user::Point> points;
  for (const float shift : {0.0f, 0.1f}) {
    for (int k = -4; k < 4; ++k) {
      for (int j = -4; j < 4; ++j) {
        for (int i = -4; i < 4; ++i) {
          points.push_back(
              {i * kRadius + shift, j * kRadius + shift, k * kRadius + shift});
        }
      }
    }
  }
  return points;
}

bool ParseBug(int argc, char** argv, user::Bug& bug) {
  if (argc == 1) return true;
  if (argc != 3 || std::string(argv[1]) != "--bug") return false;
  const std::string name = argv[2];
  if (name == "none")
    bug = user::Bug::kNone;
  else if (name == "truncate")
    bug = user::Bug::kTruncate;
  else if (name == "strict")
    bug = user::Bug::kStrict;
  else if (name == "drop-last")
    bug = user::Bug::kDropLast;
  else
    return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  user::Bug bug = user::Bug::kNone;
  if (!ParseBug(argc, argv, bug)) {
    std::fprintf(stderr,
                 "usage: check_your_grid [--bug none|truncate|strict|"
                 "drop-last]\n");
    return 2;
  }
  const std::vector<user::Point> cloud = HardCloud();
  const std::vector<std::vector<std::uint32_t>> rows =
      user::GridNeighbors(cloud, kRadius, bug);

  // The user's layout (a vector per row) in the suite's: a CSR of full
  // rows in ascending order.
  adj::Points points;
  for (const user::Point& p : cloud) {
    points.x.push_back(p.x);
    points.y.push_back(p.y);
    points.z.push_back(p.z);
  }
  adj::hash_grid::Neighbors got;
  got.list = adj::hash_grid::ListKind::kFull;
  got.order = adj::hash_grid::RowOrder::kAscending;
  for (const auto& row : rows) {
    got.csr.indices.insert(got.csr.indices.end(), row.begin(), row.end());
    got.csr.offsets.push_back(
        static_cast<std::uint32_t>(got.csr.indices.size()));
    got.candidates += row.size();
  }
  adj::hash_grid::Params params;
  params.spacing = kRadius;
  params.max_dist = kRadius;
  const std::string difference = adj::checks::hash_grid::FirstDifference(
      points, params, adj::checks::hash_grid::ExpectedOf(points, kRadius), got);
  if (difference.empty()) {
    std::printf("agrees with the oracle on %zu points\n", points.size());
    return 0;
  }
  std::printf("differs from the oracle: %s\n", difference.c_str());
  return 1;
}
