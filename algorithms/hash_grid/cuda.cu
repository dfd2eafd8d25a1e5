// Ours on CUDA: particles radix-sorted by their exact cell (CUB, stable, so
// that ids stay ascending inside a cell), the occupied cells found by a scan
// over the sorted keys, then one thread per particle walks its window
// of cells: each (z, y) row of the window is one contiguous run of sorted
// cells, found by two binary searches, and so one contiguous run of slots.
// Rows come out in cell order (by cell in (z, y, x) order, then ascending
// id), as cell_order_simd's do, so no per-row sort is needed. No hash: no
// shared buckets, no duplicates.
//
// One walk of the windows writes each row into a staging area of a fixed
// room per row (column-major, so a warp's stores are coalesced) and counts
// it; a scan of the counts gives the offsets, and a copy packs the staged
// rows into the CSR. Only where a row outgrew its room does a second walk
// fill the lists (the first then served as the count pass); the room is the
// longest row of the last call, within a memory budget. Every buffer is
// kept in the caller's device::Lists from call to call, and only two small
// reads come back to the host (the occupied box; the entry total, longest
// row and candidates). device::CellOrderLists is the entry on device memory;
// CudaCellOrder wraps it with the copies, so that the variant table runs it
// like the others (its time includes the copies).
//
// The pair test is hash_grid.h's, in double, every operation rounded on its
// own: this file is compiled with --fmad=false (algorithms/CMakeLists.txt).
//
// Sort keys: one 64-bit key (z, y, x relative to the occupied box) when the
// box has fewer than 2^64 cells; otherwise two stable passes (x, then
// (z, y)), which give the same order.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/cstdint>
#include <limits>
#include <string>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/common/memory_budget.h"
#include "algorithms/hash_grid/device.cuh"
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/hash_grid/variants.h"

namespace adj::hash_grid {
namespace {

constexpr int kThreads = 256;

unsigned BlocksFor(std::size_t items) {
  return static_cast<unsigned>((items + kThreads - 1) / kThreads);
}

// A cell as the sort orders it: z, then y, then x.
struct Cell {
  int z;
  int y;
  int x;
};

__device__ bool Before(const Cell& a, const Cell& b) {
  if (a.z != b.z) return a.z < b.z;
  if (a.y != b.y) return a.y < b.y;
  return a.x < b.x;
}

// Müller's intCoord in double: floor(c / spacing). The window's bounds are
// within +-kMaxCellCoord (Check), so they fit an int.
__device__ int FloorCell(double c, double spacing) {
  return static_cast<int>(floor(c / spacing));
}

// Each particle's cell; the occupied box by atomics on its bounds
// (box[0..2]: lowest x, y, z; box[3..5]: highest).
__global__ void CellsOfParticles(const float* x, const float* y, const float* z,
                                 std::size_t n, double spacing, Cell* cells,
                                 std::uint32_t* ids, int* box) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const Cell c{FloorCell(z[i], spacing), FloorCell(y[i], spacing),
               FloorCell(x[i], spacing)};
  cells[i] = c;
  ids[i] = static_cast<std::uint32_t>(i);
  atomicMin(&box[0], c.x);
  atomicMin(&box[1], c.y);
  atomicMin(&box[2], c.z);
  atomicMax(&box[3], c.x);
  atomicMax(&box[4], c.y);
  atomicMax(&box[5], c.z);
}

// One key per particle: (z, y, x) relative to the box, lexicographic.
__global__ void LinearKeys(const Cell* cells, std::size_t n, Cell low,
                           unsigned long long size_y, unsigned long long size_x,
                           unsigned long long* keys) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const Cell c = cells[i];
  keys[i] = (static_cast<unsigned long long>(c.z - low.z) * size_y +
             static_cast<unsigned long long>(c.y - low.y)) *
                size_x +
            static_cast<unsigned long long>(c.x - low.x);
}

// The keys of the two-pass sort: x alone, or (z, y) of the particle ids
// already ordered by x.
__global__ void XKeys(const Cell* cells, std::size_t n, int low_x,
                      unsigned long long* keys) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) keys[i] = static_cast<unsigned long long>(cells[i].x - low_x);
}
__global__ void ZyKeysOf(const Cell* cells, const std::uint32_t* ids,
                         std::size_t n, Cell low, unsigned long long size_y,
                         unsigned long long* keys) {
  const std::size_t s = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (s >= n) return;
  const Cell c = cells[ids[s]];
  keys[s] = static_cast<unsigned long long>(c.z - low.z) * size_y +
            static_cast<unsigned long long>(c.y - low.y);
}

// Slot s: the sorted particle's position and cell, and whether it starts a
// cell (heads[s] = 1).
__global__ void GatherSorted(const float* x, const float* y, const float* z,
                             const Cell* cells, const std::uint32_t* ids,
                             std::size_t n, float* sx, float* sy, float* sz,
                             Cell* slot_cells, std::uint32_t* heads) {
  const std::size_t s = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (s >= n) return;
  const std::uint32_t i = ids[s];
  sx[s] = x[i];
  sy[s] = y[i];
  sz[s] = z[i];
  const Cell c = cells[i];
  slot_cells[s] = c;
  bool head = s == 0;
  if (!head) {
    const Cell before = cells[ids[s - 1]];
    head = before.z != c.z || before.y != c.y || before.x != c.x;
  }
  heads[s] = head ? 1u : 0u;
}

// The occupied cells in order and the first slot of each; cell_start[m] = n
// and *cell_count = m, so that the host need not read m back.
__global__ void ScatterCells(const Cell* slot_cells, const std::uint32_t* heads,
                             const std::uint32_t* cell_index, std::size_t n,
                             Cell* unique_cells, std::uint32_t* cell_start,
                             std::uint32_t* cell_count) {
  const std::size_t s = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (s >= n) return;
  if (heads[s] != 0) {
    unique_cells[cell_index[s]] = slot_cells[s];
    cell_start[cell_index[s]] = static_cast<std::uint32_t>(s);
  }
  if (s + 1 == n) {
    const std::uint32_t m = cell_index[s] + heads[s];
    cell_start[m] = static_cast<std::uint32_t>(n);
    *cell_count = m;
  }
}

// The first of the m sorted cells not before `key`.
__device__ std::uint32_t LowerBound(const Cell* cells, std::uint32_t m,
                                    const Cell& key) {
  std::uint32_t first = 0;
  std::uint32_t count = m;
  while (count > 0) {
    const std::uint32_t half = count / 2;
    if (Before(cells[first + half], key)) {
      first += half + 1;
      count -= half + 1;
    } else {
      count = half;
    }
  }
  return first;
}

struct Grid {
  const float* x;  // sorted positions
  const float* y;
  const float* z;
  const std::uint32_t* ids;  // slot -> particle id
  const Cell* cells;         // the m occupied cells, sorted
  const std::uint32_t* cell_start;
  const std::uint32_t* cell_count;  // m, in device memory
  Cell low;                         // the occupied box
  Cell high;
  double spacing;
  double reach;  // WindowReach(max_dist)
  double max_dist2;
};

// Walks slot s's window (variants.h: WindowReach); calls keep(id) for every
// neighbour in cell order and returns the candidates tested.
template <typename Keep>
__device__ unsigned long long ForEachNeighbor(const Grid& g, std::size_t s,
                                              Keep&& keep) {
  const double p[3] = {g.x[s], g.y[s], g.z[s]};
  const std::uint32_t self = g.ids[s];
  const int lo_x = FloorCell(p[0] - g.reach, g.spacing);
  const int hi_x = FloorCell(p[0] + g.reach, g.spacing);
  const int lo_y = max(FloorCell(p[1] - g.reach, g.spacing), g.low.y);
  const int hi_y = min(FloorCell(p[1] + g.reach, g.spacing), g.high.y);
  const int lo_z = max(FloorCell(p[2] - g.reach, g.spacing), g.low.z);
  const int hi_z = min(FloorCell(p[2] + g.reach, g.spacing), g.high.z);
  const std::uint32_t m = *g.cell_count;
  unsigned long long candidates = 0;
  for (int cz = lo_z; cz <= hi_z; ++cz) {
    for (int cy = lo_y; cy <= hi_y; ++cy) {
      const std::uint32_t a = LowerBound(g.cells, m, Cell{cz, cy, lo_x});
      const std::uint32_t b = LowerBound(g.cells, m, Cell{cz, cy, hi_x + 1});
      const std::uint32_t begin = g.cell_start[a];
      const std::uint32_t end = g.cell_start[b];
      candidates += end - begin;
      for (std::uint32_t j = begin; j < end; ++j) {
        const double dx = p[0] - static_cast<double>(g.x[j]);
        const double dy = p[1] - static_cast<double>(g.y[j]);
        const double dz = p[2] - static_cast<double>(g.z[j]);
        const double dist2 = (dx * dx + dy * dy) + dz * dz;
        const std::uint32_t other = g.ids[j];
        if (dist2 <= g.max_dist2 && other != self) keep(other);
      }
    }
  }
  return candidates;
}

// What the walk sums over every row: candidates tested, entries kept, and
// the longest row, as device words (one read back for all three).
enum Counter { kCandidates = 0, kEntries = 1, kLongestRow = 2, kCounters = 3 };

// The walk: row lengths by particle id, each row's first `capacity`
// entries staged column-major (entry c of slot s at c n + s), and the
// counters, summed per warp.
__global__ void WalkRows(Grid g, std::size_t n, std::uint32_t capacity,
                         std::uint32_t* staging, std::uint32_t* counts,
                         unsigned long long* counters) {
  const std::size_t s = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  unsigned long long tested = 0;
  unsigned long long kept_sum = 0;
  unsigned long long longest = 0;
  if (s < n) {
    std::uint32_t kept = 0;
    tested = ForEachNeighbor(g, s, [&](std::uint32_t other) {
      if (kept < capacity) staging[std::size_t{kept} * n + s] = other;
      ++kept;
    });
    counts[g.ids[s]] = kept;
    kept_sum = kept;
    longest = kept;
  }
  constexpr unsigned kAllLanes = 0xffffffffu;
  for (int offset = 16; offset > 0; offset /= 2) {
    tested += __shfl_down_sync(kAllLanes, tested, offset);
    kept_sum += __shfl_down_sync(kAllLanes, kept_sum, offset);
    longest = max(longest, __shfl_down_sync(kAllLanes, longest, offset));
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&counters[kCandidates], tested);
    atomicAdd(&counters[kEntries], kept_sum);
    atomicMax(&counters[kLongestRow], longest);
  }
}

// Packs the staged rows (none longer than the room) into the CSR.
__global__ void PackStagedRows(const std::uint32_t* ids, std::size_t n,
                               const std::uint32_t* counts,
                               const std::uint32_t* offsets,
                               const std::uint32_t* staging,
                               std::uint32_t* indices) {
  const std::size_t s = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (s >= n) return;
  const std::uint32_t id = ids[s];
  std::uint32_t* row = indices + offsets[id];
  const std::uint32_t count = counts[id];
  for (std::uint32_t c = 0; c < count; ++c) {
    row[c] = staging[std::size_t{c} * n + s];
  }
}

__global__ void FillRows(Grid g, std::size_t n, const std::uint32_t* offsets,
                         std::uint32_t* indices) {
  const std::size_t s = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (s >= n) return;
  std::uint32_t* row = indices + offsets[g.ids[s]];
  ForEachNeighbor(g, s, [&](std::uint32_t other) { *row++ = other; });
}

// CUB's two-call pattern: size the scratch, then run. The scratch grows
// and is kept until the variant's final synchronize: CUB's work is queued
// asynchronously, and freeing its scratch early would rely on cudaFree
// waiting for the device, which the runtime does not promise.
class CubScratch {
 public:
  template <typename Call>
  void Run(Call&& call, const char* what) {
    std::size_t bytes = 0;
    cuda::Check(call(nullptr, bytes), what);
    if (bytes > buffer_.size()) {
      cuda::Check(cudaDeviceSynchronize(), what);  // the old one may be in use
      buffer_ = cuda::DeviceBuffer<unsigned char>(bytes);
    }
    cuda::Check(call(buffer_.data(), bytes), what);
  }

 private:
  cuda::DeviceBuffer<unsigned char> buffer_;
};

// Bits needed for keys up to `largest`, so that the radix sort skips the
// rest.
int KeyBits(unsigned long long largest) {
  int bits = 1;
  while (bits < 64 && (largest >> bits) != 0) ++bits;
  return bits;
}

// Grows `buffer` to hold at least `count` items (its contents are lost).
template <typename T>
void Reserve(cuda::DeviceBuffer<T>& buffer, std::size_t count) {
  if (buffer.size() < count) {
    buffer = cuda::DeviceBuffer<T>();
    buffer = cuda::DeviceBuffer<T>(count);
  }
}

}  // namespace

// The room per row of a first call, and the most entries the staging area
// may hold (1 GiB); past it the room shrinks, down to none (every call then
// walks twice, as a count pass and a fill pass).
constexpr std::uint32_t kFirstRowCapacity = 64;
constexpr std::size_t kMaxStagedEntries = std::size_t{1} << 28;

struct device::Workspace {
  CubScratch cub;
  cuda::DeviceBuffer<Cell> cells, slot_cells, unique_cells;
  cuda::DeviceBuffer<std::uint32_t> ids, sorted_ids, heads, cell_index;
  cuda::DeviceBuffer<std::uint32_t> cell_start, cell_count, counts, staging;
  cuda::DeviceBuffer<unsigned long long> keys, sorted_keys, counters;
  cuda::DeviceBuffer<int> box;
  cuda::DeviceBuffer<float> sx, sy, sz;

  // Room for n particles (contents are lost where a buffer grows).
  void Reserve(std::size_t n) {
    hash_grid::Reserve(cells, n);
    hash_grid::Reserve(slot_cells, n);
    hash_grid::Reserve(unique_cells, n);
    hash_grid::Reserve(ids, n);
    hash_grid::Reserve(sorted_ids, n);
    hash_grid::Reserve(heads, n);
    hash_grid::Reserve(cell_index, n);
    hash_grid::Reserve(cell_start, n + 1);
    hash_grid::Reserve(cell_count, 1);
    hash_grid::Reserve(counts, n);
    hash_grid::Reserve(keys, n);
    hash_grid::Reserve(sorted_keys, n);
    hash_grid::Reserve(counters, kCounters);
    hash_grid::Reserve(box, 6);
    hash_grid::Reserve(sx, n);
    hash_grid::Reserve(sy, n);
    hash_grid::Reserve(sz, n);
  }
};

// Long: the device pipeline in launch order (cells, sort, gather, walk,
// pack), each stage a kernel above, on one stream over the scratch it
// keeps; the order and the sizes each stage passes on read best together.
void device::CellOrderLists(const float* x, const float* y, const float* z,
                            std::size_t n, const Params& params, Lists& out) {
  out.entries = 0;
  out.candidates = 0;
  Reserve(out.offsets, n + 1);
  if (n == 0) {
    cuda::Check(cudaMemset(out.offsets.data(), 0, sizeof(std::uint32_t)),
                "cudaMemset");
    return;
  }
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw Error("hash_grid cuda: more than 2^31 - 1 particles");
  }
  const int items = static_cast<int>(n);
  if (!out.workspace) out.workspace = std::make_shared<Workspace>();
  Workspace& w = *out.workspace;
  w.Reserve(n);

  const int box_init[6] = {
      std::numeric_limits<int>::max(), std::numeric_limits<int>::max(),
      std::numeric_limits<int>::max(), std::numeric_limits<int>::min(),
      std::numeric_limits<int>::min(), std::numeric_limits<int>::min()};
  w.box.CopyFromHost(box_init, 6);
  const double spacing = params.spacing;
  CellsOfParticles<<<BlocksFor(n), kThreads>>>(
      x, y, z, n, spacing, w.cells.data(), w.ids.data(), w.box.data());
  cuda::Check(cudaGetLastError(), "hash_grid cuda: cells");
  int bounds[6];
  w.box.CopyToHost(bounds, 6);
  const Cell low{bounds[2], bounds[1], bounds[0]};
  const Cell high{bounds[5], bounds[4], bounds[3]};
  const auto size_x = static_cast<unsigned long long>(high.x - low.x) + 1;
  const auto size_y = static_cast<unsigned long long>(high.y - low.y) + 1;
  const auto size_z = static_cast<unsigned long long>(high.z - low.z) + 1;

  // Sort the ids by cell; stable, so ids stay ascending inside a cell.
  const auto sort_by = [&](const std::uint32_t* ids_in, std::uint32_t* ids_out,
                           unsigned long long largest) {
    const int end_bit = KeyBits(largest);
    w.cub.Run(
        [&](void* scratch, std::size_t& bytes) {
          return cub::DeviceRadixSort::SortPairs(scratch, bytes, w.keys.data(),
                                                 w.sorted_keys.data(), ids_in,
                                                 ids_out, items, 0, end_bit);
        },
        "hash_grid cuda: radix sort");
  };
  const double box_cells = static_cast<double>(size_x) *
                           static_cast<double>(size_y) *
                           static_cast<double>(size_z);
  if (box_cells < 1.8e19) {  // below 2^64 with margin for rounding
    LinearKeys<<<BlocksFor(n), kThreads>>>(w.cells.data(), n, low, size_y,
                                           size_x, w.keys.data());
    cuda::Check(cudaGetLastError(), "hash_grid cuda: keys");
    sort_by(w.ids.data(), w.sorted_ids.data(), size_z * size_y * size_x - 1);
  } else {
    XKeys<<<BlocksFor(n), kThreads>>>(w.cells.data(), n, low.x, w.keys.data());
    cuda::Check(cudaGetLastError(), "hash_grid cuda: x keys");
    sort_by(w.ids.data(), w.sorted_ids.data(), size_x - 1);
    ZyKeysOf<<<BlocksFor(n), kThreads>>>(w.cells.data(), w.sorted_ids.data(), n,
                                         low, size_y, w.keys.data());
    cuda::Check(cudaGetLastError(), "hash_grid cuda: zy keys");
    sort_by(w.sorted_ids.data(), w.ids.data(), size_z * size_y - 1);
    cuda::Check(cudaMemcpy(w.sorted_ids.data(), w.ids.data(),
                           n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice),
                "hash_grid cuda: ids");
  }

  // Sorted positions, the occupied cells and their first slots.
  GatherSorted<<<BlocksFor(n), kThreads>>>(
      x, y, z, w.cells.data(), w.sorted_ids.data(), n, w.sx.data(), w.sy.data(),
      w.sz.data(), w.slot_cells.data(), w.heads.data());
  cuda::Check(cudaGetLastError(), "hash_grid cuda: gather");
  w.cub.Run(
      [&](void* scratch, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(scratch, bytes, w.heads.data(),
                                             w.cell_index.data(), items);
      },
      "hash_grid cuda: cell scan");
  ScatterCells<<<BlocksFor(n), kThreads>>>(
      w.slot_cells.data(), w.heads.data(), w.cell_index.data(), n,
      w.unique_cells.data(), w.cell_start.data(), w.cell_count.data());
  cuda::Check(cudaGetLastError(), "hash_grid cuda: cells scatter");

  const double max_dist = params.max_dist;
  const Grid grid{w.sx.data(),
                  w.sy.data(),
                  w.sz.data(),
                  w.sorted_ids.data(),
                  w.unique_cells.data(),
                  w.cell_start.data(),
                  w.cell_count.data(),
                  low,
                  high,
                  spacing,
                  WindowReach(params.max_dist),
                  max_dist * max_dist};

  // The walk: rows staged within their room, counted; then the totals.
  std::uint32_t capacity =
      out.row_capacity == 0 ? kFirstRowCapacity : out.row_capacity;
  if (std::size_t{capacity} * n > kMaxStagedEntries) {
    capacity = static_cast<std::uint32_t>(kMaxStagedEntries / n);
  }
  hash_grid::Reserve(w.staging, std::size_t{capacity} * n);
  cuda::Check(
      cudaMemset(w.counters.data(), 0, kCounters * sizeof(unsigned long long)),
      "cudaMemset");
  WalkRows<<<BlocksFor(n), kThreads>>>(grid, n, capacity, w.staging.data(),
                                       w.counts.data(), w.counters.data());
  cuda::Check(cudaGetLastError(), "hash_grid cuda: walk");
  unsigned long long counters[kCounters];
  w.counters.CopyToHost(counters, kCounters);
  out.candidates = counters[kCandidates];
  const unsigned long long entries = counters[kEntries];
  const unsigned long long longest = counters[kLongestRow];
  if (entries > std::numeric_limits<std::uint32_t>::max()) {
    throw Error("hash_grid: " + std::to_string(entries) +
                " neighbour entries, more than uint32 offsets can address");
  }
  out.entries = static_cast<std::uint32_t>(entries);
  // The next call's room: this call's longest row, rounded up to 8.
  out.row_capacity = static_cast<std::uint32_t>((longest + 7) / 8 * 8);
  if (out.row_capacity == 0) out.row_capacity = 8;

  w.cub.Run(
      [&](void* scratch, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(scratch, bytes, w.counts.data(),
                                             out.offsets.data(), items);
      },
      "hash_grid cuda: row scan");
  cuda::Check(cudaMemcpy(out.offsets.data() + n, &out.entries,
                         sizeof(std::uint32_t), cudaMemcpyHostToDevice),
              "hash_grid cuda: entry total");
  // The lists' size is known here, before they are allocated: asked of the
  // memory budget as the host rows' are (the host copy needs as much).
  memory::Require(memory::Bytes(entries, sizeof(std::uint32_t)),
                  "hash_grid cuda: the neighbour lists");
  Reserve(out.indices, entries);
  if (entries > 0) {
    if (longest <= capacity) {
      PackStagedRows<<<BlocksFor(n), kThreads>>>(
          w.sorted_ids.data(), n, w.counts.data(), out.offsets.data(),
          w.staging.data(), out.indices.data());
      cuda::Check(cudaGetLastError(), "hash_grid cuda: pack");
    } else {
      FillRows<<<BlocksFor(n), kThreads>>>(grid, n, out.offsets.data(),
                                           out.indices.data());
      cuda::Check(cudaGetLastError(), "hash_grid cuda: fill");
    }
  }
  cuda::Check(cudaDeviceSynchronize(), "hash_grid cuda kernels");
}

void CudaCellOrder(const Points& points, const Params& params, Neighbors& out) {
  Check(points, params, /*hashed=*/false);
  CudaCellOrderTrusted(points, params, out);
}

void CudaCellOrderTrusted(const Points& points, const Params& params,
                          Neighbors& out) {
  cuda::RequireDevice();
  const std::size_t n = points.size();
  out.list = ListKind::kFull;
  out.order = RowOrder::kCell;
  out.candidates = 0;
  out.threads = 1;
  out.csr.offsets.assign(n + 1, 0);
  out.csr.indices.clear();
  if (n == 0) return;
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw Error("hash_grid cuda: more than 2^31 - 1 particles");
  }
  cuda::DeviceBuffer<float> x(n), y(n), z(n);
  x.CopyFromHost(points.x.data(), n);
  y.CopyFromHost(points.y.data(), n);
  z.CopyFromHost(points.z.data(), n);
  device::Lists lists;
  device::CellOrderLists(x.data(), y.data(), z.data(), n, params, lists);
  out.candidates = lists.candidates;
  lists.offsets.CopyToHost(out.csr.offsets.data(), n + 1);
  out.csr.indices.resize(lists.entries);
  if (lists.entries > 0) {
    lists.indices.CopyToHost(out.csr.indices.data(), lists.entries);
  }
}

}  // namespace adj::hash_grid
