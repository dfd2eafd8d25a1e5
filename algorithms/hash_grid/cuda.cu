// Ours on CUDA: particles radix-sorted by their exact cell (CUB, stable, so
// that ids stay ascending inside a cell), the occupied cells found by a scan
// over the sorted keys, then one thread per particle walks its window
// of cells: each (z, y) row of the window is one contiguous run of sorted
// cells, found by two binary searches, and so one contiguous run of slots.
// A count pass, a scan and a fill pass give full lists with rows in cell
// order (by cell in (z, y, x) order, then ascending id), as cell_order_simd
// does, so no per-row sort is needed. No hash: no shared buckets, no
// duplicates. device::CellOrderLists is the entry on device memory;
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
#include "algorithms/hash_grid/device.cuh"
#include "algorithms/hash_grid/hash_grid.h"

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

// The occupied cells in order and the first slot of each; cell_start[m] = n.
__global__ void ScatterCells(const Cell* slot_cells, const std::uint32_t* heads,
                             const std::uint32_t* cell_index, std::size_t n,
                             Cell* unique_cells, std::uint32_t* cell_start) {
  const std::size_t s = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (s >= n) return;
  if (heads[s] != 0) {
    unique_cells[cell_index[s]] = slot_cells[s];
    cell_start[cell_index[s]] = static_cast<std::uint32_t>(s);
  }
  if (s + 1 == n) {
    cell_start[cell_index[s] + heads[s]] = static_cast<std::uint32_t>(n);
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
  std::uint32_t m;
  Cell low;  // the occupied box
  Cell high;
  double spacing;
  double reach;  // WindowReach(max_dist)
  double max_dist2;
};

// Walks slot s's window (hash_grid.h: WindowReach); calls keep(id) for every
// neighbour in cell order and returns the candidates tested.
template <typename Keep>
__device__ unsigned long long ForEachNeighbour(const Grid& g, std::size_t s,
                                               Keep&& keep) {
  const double p[3] = {g.x[s], g.y[s], g.z[s]};
  const std::uint32_t self = g.ids[s];
  const int lo_x = FloorCell(p[0] - g.reach, g.spacing);
  const int hi_x = FloorCell(p[0] + g.reach, g.spacing);
  const int lo_y = max(FloorCell(p[1] - g.reach, g.spacing), g.low.y);
  const int hi_y = min(FloorCell(p[1] + g.reach, g.spacing), g.high.y);
  const int lo_z = max(FloorCell(p[2] - g.reach, g.spacing), g.low.z);
  const int hi_z = min(FloorCell(p[2] + g.reach, g.spacing), g.high.z);
  unsigned long long candidates = 0;
  for (int cz = lo_z; cz <= hi_z; ++cz) {
    for (int cy = lo_y; cy <= hi_y; ++cy) {
      const std::uint32_t a = LowerBound(g.cells, g.m, Cell{cz, cy, lo_x});
      const std::uint32_t b = LowerBound(g.cells, g.m, Cell{cz, cy, hi_x + 1});
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

// Row lengths by particle id, and the candidates summed per block.
__global__ void CountRows(Grid g, std::size_t n, std::uint32_t* counts,
                          unsigned long long* candidates) {
  const std::size_t s = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  unsigned long long tested = 0;
  if (s < n) {
    std::uint32_t kept = 0;
    tested = ForEachNeighbour(g, s, [&](std::uint32_t) { ++kept; });
    counts[g.ids[s]] = kept;
  }
  __shared__ unsigned long long block_sum;
  if (threadIdx.x == 0) block_sum = 0;
  __syncthreads();
  atomicAdd(&block_sum, tested);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(candidates, block_sum);
}

__global__ void FillRows(Grid g, std::size_t n, const std::uint32_t* offsets,
                         std::uint32_t* indices) {
  const std::size_t s = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (s >= n) return;
  std::uint32_t* row = indices + offsets[g.ids[s]];
  ForEachNeighbour(g, s, [&](std::uint32_t other) { *row++ = other; });
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
  CubScratch cub_scratch;

  cuda::DeviceBuffer<Cell> cells(n);
  cuda::DeviceBuffer<std::uint32_t> ids(n), sorted_ids(n);
  cuda::DeviceBuffer<int> box(6);
  const int box_init[6] = {
      std::numeric_limits<int>::max(), std::numeric_limits<int>::max(),
      std::numeric_limits<int>::max(), std::numeric_limits<int>::min(),
      std::numeric_limits<int>::min(), std::numeric_limits<int>::min()};
  box.CopyFromHost(box_init, 6);
  const double spacing = params.spacing;
  CellsOfParticles<<<BlocksFor(n), kThreads>>>(
      x, y, z, n, spacing, cells.data(), ids.data(), box.data());
  cuda::Check(cudaGetLastError(), "hash_grid cuda: cells");
  int bounds[6];
  box.CopyToHost(bounds, 6);
  const Cell low{bounds[2], bounds[1], bounds[0]};
  const Cell high{bounds[5], bounds[4], bounds[3]};
  const auto size_x = static_cast<unsigned long long>(high.x - low.x) + 1;
  const auto size_y = static_cast<unsigned long long>(high.y - low.y) + 1;
  const auto size_z = static_cast<unsigned long long>(high.z - low.z) + 1;

  // Sort the ids by cell; stable, so ids stay ascending inside a cell.
  cuda::DeviceBuffer<unsigned long long> keys(n), sorted_keys(n);
  const auto sort_by = [&](const std::uint32_t* ids_in, std::uint32_t* ids_out,
                           unsigned long long largest) {
    const int end_bit = KeyBits(largest);
    cub_scratch.Run(
        [&](void* scratch, std::size_t& bytes) {
          return cub::DeviceRadixSort::SortPairs(scratch, bytes, keys.data(),
                                                 sorted_keys.data(), ids_in,
                                                 ids_out, items, 0, end_bit);
        },
        "hash_grid cuda: radix sort");
  };
  const double box_cells = static_cast<double>(size_x) *
                           static_cast<double>(size_y) *
                           static_cast<double>(size_z);
  if (box_cells < 1.8e19) {  // below 2^64 with margin for rounding
    LinearKeys<<<BlocksFor(n), kThreads>>>(cells.data(), n, low, size_y, size_x,
                                           keys.data());
    cuda::Check(cudaGetLastError(), "hash_grid cuda: keys");
    sort_by(ids.data(), sorted_ids.data(), size_z * size_y * size_x - 1);
  } else {
    XKeys<<<BlocksFor(n), kThreads>>>(cells.data(), n, low.x, keys.data());
    cuda::Check(cudaGetLastError(), "hash_grid cuda: x keys");
    sort_by(ids.data(), sorted_ids.data(), size_x - 1);
    ZyKeysOf<<<BlocksFor(n), kThreads>>>(cells.data(), sorted_ids.data(), n,
                                         low, size_y, keys.data());
    cuda::Check(cudaGetLastError(), "hash_grid cuda: zy keys");
    sort_by(sorted_ids.data(), ids.data(), size_z * size_y - 1);
    cuda::Check(cudaMemcpy(sorted_ids.data(), ids.data(),
                           n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice),
                "hash_grid cuda: ids");
  }

  // Sorted positions, the occupied cells and their first slots.
  cuda::DeviceBuffer<float> sx(n), sy(n), sz(n);
  cuda::DeviceBuffer<Cell> slot_cells(n);
  cuda::DeviceBuffer<std::uint32_t> heads(n), cell_index(n);
  GatherSorted<<<BlocksFor(n), kThreads>>>(
      x, y, z, cells.data(), sorted_ids.data(), n, sx.data(), sy.data(),
      sz.data(), slot_cells.data(), heads.data());
  cuda::Check(cudaGetLastError(), "hash_grid cuda: gather");
  cub_scratch.Run(
      [&](void* scratch, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(scratch, bytes, heads.data(),
                                             cell_index.data(), items);
      },
      "hash_grid cuda: cell scan");
  std::uint32_t last_index = 0;
  std::uint32_t last_head = 0;
  cuda::Check(cudaMemcpy(&last_index, cell_index.data() + (n - 1),
                         sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
              "hash_grid cuda: cell count");
  cuda::Check(cudaMemcpy(&last_head, heads.data() + (n - 1),
                         sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
              "hash_grid cuda: cell count");
  const std::uint32_t m = last_index + last_head;
  cuda::DeviceBuffer<Cell> unique_cells(m);
  cuda::DeviceBuffer<std::uint32_t> cell_start(std::size_t{m} + 1);
  ScatterCells<<<BlocksFor(n), kThreads>>>(
      slot_cells.data(), heads.data(), cell_index.data(), n,
      unique_cells.data(), cell_start.data());
  cuda::Check(cudaGetLastError(), "hash_grid cuda: cells scatter");

  const double max_dist = params.max_dist;
  const Grid grid{sx.data(),
                  sy.data(),
                  sz.data(),
                  sorted_ids.data(),
                  unique_cells.data(),
                  cell_start.data(),
                  m,
                  low,
                  high,
                  spacing,
                  WindowReach(params.max_dist),
                  max_dist * max_dist};

  // Count, check the total against uint32 offsets, scan, fill.
  cuda::DeviceBuffer<std::uint32_t> counts(n);
  cuda::DeviceBuffer<unsigned long long> candidates(1);
  cuda::Check(cudaMemset(candidates.data(), 0, sizeof(unsigned long long)),
              "cudaMemset");
  CountRows<<<BlocksFor(n), kThreads>>>(grid, n, counts.data(),
                                        candidates.data());
  cuda::Check(cudaGetLastError(), "hash_grid cuda: count");
  cuda::DeviceBuffer<unsigned long long> total(1);
  cub_scratch.Run(
      [&](void* scratch, std::size_t& bytes) {
        return cub::DeviceReduce::Sum(scratch, bytes, counts.data(),
                                      total.data(), items);
      },
      "hash_grid cuda: total");
  unsigned long long entries = 0;
  total.CopyToHost(&entries, 1);
  unsigned long long tested = 0;
  candidates.CopyToHost(&tested, 1);
  out.candidates = tested;
  if (entries > std::numeric_limits<std::uint32_t>::max()) {
    throw Error("hash_grid: " + std::to_string(entries) +
                " neighbour entries, more than uint32 offsets can address");
  }
  out.entries = static_cast<std::uint32_t>(entries);
  cub_scratch.Run(
      [&](void* scratch, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(scratch, bytes, counts.data(),
                                             out.offsets.data(), items);
      },
      "hash_grid cuda: row scan");
  cuda::Check(cudaMemcpy(out.offsets.data() + n, &out.entries,
                         sizeof(std::uint32_t), cudaMemcpyHostToDevice),
              "hash_grid cuda: entry total");
  Reserve(out.indices, entries);
  if (entries > 0) {
    FillRows<<<BlocksFor(n), kThreads>>>(grid, n, out.offsets.data(),
                                         out.indices.data());
    cuda::Check(cudaGetLastError(), "hash_grid cuda: fill");
  }
  // CUB's scratch is freed on return: its work must have ended.
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
