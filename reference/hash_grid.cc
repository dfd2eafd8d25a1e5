#include "reference/hash_grid.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace adj::reference {

bool WithinDistance(const Points& points, std::size_t i, std::size_t j,
                    float max_dist) {
  const double dx = double{points.x[i]} - double{points.x[j]};
  const double dy = double{points.y[i]} - double{points.y[j]};
  const double dz = double{points.z[i]} - double{points.z[j]};
  const double d = max_dist;
  return dx * dx + dy * dy + dz * dz <= d * d;
}

std::vector<std::uint32_t> PointRow(const Points& targets, float max_dist,
                                    float px, float py, float pz) {
  std::vector<std::uint32_t> row;
  const double d = max_dist;
  for (std::size_t j = 0; j < targets.size(); ++j) {
    const double dx = double{px} - double{targets.x[j]};
    const double dy = double{py} - double{targets.y[j]};
    const double dz = double{pz} - double{targets.z[j]};
    if (dx * dx + dy * dy + dz * dz <= d * d) {
      row.push_back(static_cast<std::uint32_t>(j));
    }
  }
  return row;
}

std::vector<std::uint32_t> NeighborRow(const Points& points, float max_dist,
                                       std::size_t i) {
  std::vector<std::uint32_t> row;
  for (std::size_t j = 0; j < points.size(); ++j) {
    if (j != i && WithinDistance(points, i, j, max_dist)) {
      row.push_back(static_cast<std::uint32_t>(j));
    }
  }
  return row;
}

Csr NeighborLists(const Points& points, float max_dist) {
  const std::size_t n = points.size();
  std::vector<std::vector<std::uint32_t>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      if (WithinDistance(points, i, j, max_dist)) {
        rows[i].push_back(static_cast<std::uint32_t>(j));
        rows[j].push_back(static_cast<std::uint32_t>(i));
      }
    }
  }
  Csr csr;
  for (auto& row : rows) {
    std::sort(row.begin(), row.end());
    csr.indices.insert(csr.indices.end(), row.begin(), row.end());
    csr.offsets.push_back(static_cast<std::uint32_t>(csr.indices.size()));
  }
  return csr;
}

Csr HalfLists(const Csr& full) {
  Csr half;
  for (std::size_t i = 0; i < full.rows(); ++i) {
    for (const std::uint32_t j : full.Row(i)) {
      if (j < i) half.indices.push_back(j);
    }
    half.offsets.push_back(static_cast<std::uint32_t>(half.indices.size()));
  }
  return half;
}

Csr Deduplicated(const Csr& csr) {
  Csr out;
  for (std::size_t i = 0; i < csr.rows(); ++i) {
    std::vector<std::uint32_t> row(csr.Row(i).begin(), csr.Row(i).end());
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    out.indices.insert(out.indices.end(), row.begin(), row.end());
    out.offsets.push_back(static_cast<std::uint32_t>(out.indices.size()));
  }
  return out;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> PairSet(const Csr& csr) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::size_t i = 0; i < csr.rows(); ++i) {
    const auto row_id = static_cast<std::uint32_t>(i);
    for (const std::uint32_t j : csr.Row(i)) {
      pairs.emplace_back(std::min(row_id, j), std::max(row_id, j));
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

bool IsSymmetric(const Csr& csr) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> forward;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> backward;
  for (std::size_t i = 0; i < csr.rows(); ++i) {
    const auto row_id = static_cast<std::uint32_t>(i);
    for (const std::uint32_t j : csr.Row(i)) {
      forward.emplace_back(row_id, j);
      backward.emplace_back(j, row_id);
    }
  }
  std::sort(forward.begin(), forward.end());
  std::sort(backward.begin(), backward.end());
  return forward == backward;
}

std::uint32_t MullerHashOf(std::int64_t x, std::int64_t y, std::int64_t z,
                           std::uint32_t table_size) {
  // |coord| <= 1.3e7 and factor < 2^30: the product is exact in int64, as
  // it is in a JavaScript double.
  const auto low32 = [](std::int64_t coord, std::int64_t factor) {
    // The low 32 bits of the two's complement product, as JavaScript's
    // ToInt32 takes them.
    return static_cast<std::uint64_t>(coord * factor) & 0xffffffffu;
  };
  const std::uint64_t bits =
      low32(x, 92837111) ^ low32(y, 689287499) ^ low32(z, 283923481);
  const std::int64_t as_int32 =
      bits >= 0x80000000u ? static_cast<std::int64_t>(bits) - 0x100000000
                          : static_cast<std::int64_t>(bits);
  return static_cast<std::uint32_t>(std::llabs(as_int32) % table_size);
}

namespace {

std::int64_t Floor(double c, double spacing) {
  return static_cast<std::int64_t>(std::floor(c / spacing));
}

std::uint32_t BucketOf(const Points& points, double spacing,
                       std::uint32_t table_size, std::size_t j) {
  return MullerHashOf(Floor(points.x[j], spacing), Floor(points.y[j], spacing),
                      Floor(points.z[j], spacing), table_size);
}

// Calls visit(bucket) for each cell of i's window in Müller's order.
template <typename Visit>
void ForEachWindowBucket(const Points& points, double spacing, double max_dist,
                         std::uint32_t table_size, std::size_t i,
                         Visit&& visit) {
  const double c[3] = {points.x[i], points.y[i], points.z[i]};
  for (std::int64_t x = Floor(c[0] - max_dist, spacing);
       x <= Floor(c[0] + max_dist, spacing); ++x) {
    for (std::int64_t y = Floor(c[1] - max_dist, spacing);
         y <= Floor(c[1] + max_dist, spacing); ++y) {
      for (std::int64_t z = Floor(c[2] - max_dist, spacing);
           z <= Floor(c[2] + max_dist, spacing); ++z) {
        visit(MullerHashOf(x, y, z, table_size));
      }
    }
  }
}

}  // namespace

std::map<std::uint32_t, std::uint64_t> MullerBucketPopulations(
    const Points& points, double spacing, std::uint32_t table_size) {
  std::map<std::uint32_t, std::uint64_t> populations;
  for (std::size_t j = 0; j < points.size(); ++j) {
    ++populations[BucketOf(points, spacing, table_size, j)];
  }
  return populations;
}

std::uint64_t MullerQuerySize(
    const Points& points, double spacing, double max_dist,
    std::uint32_t table_size,
    const std::map<std::uint32_t, std::uint64_t>& populations, std::size_t i) {
  std::uint64_t size = 0;
  ForEachWindowBucket(points, spacing, max_dist, table_size, i,
                      [&](std::uint32_t bucket) {
                        const auto found = populations.find(bucket);
                        if (found != populations.end()) size += found->second;
                      });
  return size;
}

std::vector<std::uint32_t> MullerRow(const Points& points, double spacing,
                                     double max_dist, std::uint32_t table_size,
                                     std::size_t i) {
  const std::size_t n = points.size();
  std::vector<std::uint32_t> bucket_of(n);
  for (std::size_t j = 0; j < n; ++j) {
    bucket_of[j] = BucketOf(points, spacing, table_size, j);
  }
  std::vector<std::uint32_t> candidates;
  ForEachWindowBucket(points, spacing, max_dist, table_size, i,
                      [&](std::uint32_t bucket) {
                        for (std::size_t j = n; j-- > 0;) {
                          if (bucket_of[j] == bucket) {
                            candidates.push_back(static_cast<std::uint32_t>(j));
                          }
                        }
                      });
  std::vector<std::uint32_t> row;
  const double limit = max_dist * max_dist;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    if (k >= n) {
      row.push_back(0);  // undefined, stored by an Int32Array
      continue;
    }
    const std::uint32_t j = candidates[k];
    if (j >= i) continue;
    const double dx = double{points.x[i]} - double{points.x[j]};
    const double dy = double{points.y[i]} - double{points.y[j]};
    const double dz = double{points.z[i]} - double{points.z[j]};
    if (!((dx * dx + dy * dy) + dz * dz > limit)) row.push_back(j);
  }
  return row;
}

std::uint32_t MullerMultiplicity(const Points& points, float spacing,
                                 float max_dist, std::uint32_t table_size,
                                 std::size_t i, std::size_t j) {
  const std::uint32_t target =
      MullerHashOf(Floor(points.x[j], spacing), Floor(points.y[j], spacing),
                   Floor(points.z[j], spacing), table_size);
  const double d = max_dist;
  const double c[3] = {points.x[i], points.y[i], points.z[i]};
  std::int64_t lo[3];
  std::int64_t hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = Floor(c[a] - d, spacing);
    hi[a] = Floor(c[a] + d, spacing);
  }
  std::uint32_t count = 0;
  for (std::int64_t x = lo[0]; x <= hi[0]; ++x) {
    for (std::int64_t y = lo[1]; y <= hi[1]; ++y) {
      for (std::int64_t z = lo[2]; z <= hi[2]; ++z) {
        count += MullerHashOf(x, y, z, table_size) == target ? 1 : 0;
      }
    }
  }
  return count;
}

std::uint64_t MullerRepeats(const Points& points, float spacing, float max_dist,
                            std::uint32_t table_size, const Csr& half) {
  std::uint64_t repeats = 0;
  for (std::size_t i = 0; i < half.rows(); ++i) {
    for (const std::uint32_t j : half.Row(i)) {
      const std::uint32_t m =
          MullerMultiplicity(points, spacing, max_dist, table_size, i, j);
      repeats += m > 0 ? m - 1 : 0;
    }
  }
  return repeats;
}

}  // namespace adj::reference
