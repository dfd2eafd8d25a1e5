// Müller's dense spatial hash, Ten Minute Physics 11 (hashing) and 15
// (self-collision), `class Hash`, line for line: see
// docs/hash_grid.md. JavaScript numbers
// are doubles, so the coordinates, the window and the distance test are
// computed in double from the float positions, as Float32Array reads give
// them; MullerParams carries his own double parameters. queryIds holds
// maxNumObjects ids, and what a longer query drops reads back as id 0
// (variants.h, MullerHashGrid). Differences from the JavaScript, none of
// them visible in the output:
//   - adjIds is a std::vector (JavaScript doubles a typed array);
//   - the input is validated first (Check), and the entry total must
//     fit uint32 offsets.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "algorithms/common/interrupt.h"
#include "algorithms/common/memory_budget.h"
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/hash_grid/variants.h"

namespace adj::hash_grid {

MullerHashGrid::MullerHashGrid(double spacing, std::uint32_t table_size)
    : spacing_(spacing), table_size_(table_size) {}

void MullerHashGrid::Create(const Points& points) {
  const std::size_t n = points.size();
  memory::Require(
      memory::Bytes(std::size_t{table_size_} + 1, sizeof(std::uint32_t)),
      "hash_grid muller: a hash table of " + std::to_string(table_size_) +
          " cells");
  cell_start_.assign(std::size_t{table_size_} + 1, 0);
  cell_entries_.assign(n, 0);
  query_ids_.assign(n, 0);
  const auto hash_pos = [&](std::size_t i) {
    return MullerHash(IntCoord(points.x[i], spacing_),
                      IntCoord(points.y[i], spacing_),
                      IntCoord(points.z[i], spacing_), table_size_);
  };
  // determine cell sizes
  for (std::size_t i = 0; i < n; ++i) ++cell_start_[hash_pos(i)];
  // determine cell starts (inclusive scan: bucket ends), guard
  std::uint32_t start = 0;
  for (std::uint32_t b = 0; b < table_size_; ++b) {
    start += cell_start_[b];
    cell_start_[b] = start;
  }
  cell_start_[table_size_] = start;
  // fill in object ids, decrementing: ends become starts
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t h = hash_pos(i);
    --cell_start_[h];
    cell_entries_[cell_start_[h]] = static_cast<std::uint32_t>(i);
  }
}

std::span<const std::uint32_t> MullerHashGrid::Query(const Points& points,
                                                     std::size_t i,
                                                     double max_dist) {
  const double d = max_dist;
  const std::int64_t x0 = IntCoord(points.x[i] - d, spacing_);
  const std::int64_t y0 = IntCoord(points.y[i] - d, spacing_);
  const std::int64_t z0 = IntCoord(points.z[i] - d, spacing_);
  const std::int64_t x1 = IntCoord(points.x[i] + d, spacing_);
  const std::int64_t y1 = IntCoord(points.y[i] + d, spacing_);
  const std::int64_t z1 = IntCoord(points.z[i] + d, spacing_);
  const std::size_t slots = query_ids_.size();
  query_size_ = 0;
  for (std::int64_t xi = x0; xi <= x1; ++xi) {
    for (std::int64_t yi = y0; yi <= y1; ++yi) {
      for (std::int64_t zi = z0; zi <= z1; ++zi) {
        const std::uint32_t h = MullerHash(xi, yi, zi, table_size_);
        const std::uint32_t start = cell_start_[h];
        const std::uint32_t end = cell_start_[h + 1];
        for (std::uint32_t k = start; k < end; ++k) {
          // A typed array ignores a write past its end.
          if (query_size_ < slots) query_ids_[query_size_] = cell_entries_[k];
          ++query_size_;
        }
      }
    }
  }
  return std::span<const std::uint32_t>(query_ids_)
      .first(static_cast<std::size_t>(
          std::min<std::uint64_t>(query_size_, slots)));
}

void MullerHashGrid::QueryAll(const Points& points, double max_dist,
                              Neighbors& out) {
  const std::size_t n = points.size();
  std::vector<std::uint32_t>& first_adj_id = out.csr.offsets;
  std::vector<std::uint32_t>& adj_ids = out.csr.indices;
  first_adj_id.resize(n + 1);
  adj_ids.clear();
  const double max_dist2 = max_dist * max_dist;
  std::uint64_t candidates = 0;
  // The lists grow as they are found (the repeated entries of an
  // overflowing query too), so each growth is asked of the memory budget
  // before it is allocated.
  const auto room_for = [&](std::size_t entries) {
    if (entries <= adj_ids.capacity()) return;
    const std::size_t capacity = std::max(entries, 2 * adj_ids.capacity());
    memory::Require(memory::Bytes(capacity, sizeof(std::uint32_t)),
                    "hash_grid muller: the neighbour lists (repeated entries "
                    "included)");
    adj_ids.reserve(capacity);
  };
  const auto store = [&](std::uint32_t id) {
    if (adj_ids.size() == std::numeric_limits<std::uint32_t>::max()) {
      throw Error("hash_grid: more than 2^32 - 1 neighbour entries");
    }
    room_for(adj_ids.size() + 1);
    adj_ids.push_back(id);
  };
  for (std::size_t id0 = 0; id0 < n; ++id0) {
    interrupt::Poll();
    first_adj_id[id0] = static_cast<std::uint32_t>(adj_ids.size());
    const auto query_ids = Query(points, id0, max_dist);
    candidates += query_size_;
    const double x = points.x[id0];
    const double y = points.y[id0];
    const double z = points.z[id0];
    for (const std::uint32_t id1 : query_ids) {
      if (id1 >= id0) continue;
      const double a0 = x - points.x[id1];
      const double a1 = y - points.y[id1];
      const double a2 = z - points.z[id1];
      const double dist2 = a0 * a0 + a1 * a1 + a2 * a2;
      if (dist2 > max_dist2) continue;
      store(id1);
    }
    // queryIds[j] past the end is undefined: neither test skips it, and the
    // Int32Array stores it as 0.
    const std::uint64_t dropped = query_size_ - query_ids.size();
    if (adj_ids.size() + dropped > std::numeric_limits<std::uint32_t>::max()) {
      throw Error("hash_grid: more than 2^32 - 1 neighbour entries");
    }
    room_for(adj_ids.size() + static_cast<std::size_t>(dropped));
    adj_ids.insert(adj_ids.end(), static_cast<std::size_t>(dropped), 0);
  }
  first_adj_id[n] = static_cast<std::uint32_t>(adj_ids.size());
  out.list = ListKind::kHalf;
  out.order = RowOrder::kMuller;
  out.candidates = candidates;
  out.threads = 1;
}

void MullerQueryAll(const Points& points, const Params& params,
                    Neighbors& out) {
  Check(points, params, /*hashed=*/true);
  MullerQueryAllTrusted(points, params, out);
}

namespace {

void MullerQueryAllOnDoubles(const Points& points, const MullerParams& params,
                             Neighbors& out) {
  // Kept between calls, as the demos keep their Hash object between frames.
  thread_local MullerHashGrid grid(params.spacing, params.table_size);
  grid.Configure(params.spacing, params.table_size);
  grid.Create(points);
  grid.QueryAll(points, params.max_dist, out);
}

}  // namespace

void MullerQueryAllTrusted(const Points& points, const Params& params,
                           Neighbors& out) {
  MullerQueryAllOnDoubles(
      points, {params.spacing, params.max_dist, params.table_size}, out);
}

void MullerQueryAllJs(const Points& points, const MullerParams& params,
                      Neighbors& out) {
  Check(points, params);
  MullerQueryAllOnDoubles(points, params, out);
}

}  // namespace adj::hash_grid
