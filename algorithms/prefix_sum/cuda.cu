// Our CUDA prefix sum: single-pass scan with decoupled look-back (Merrill &
// Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016).
// Each block scans one tile, publishes its aggregate at once, then looks back
// over its predecessors' published values until it meets an inclusive prefix,
// so every element is read once and written once (2n traffic, like a copy).
//
// Tile ids come from an atomic counter in block start order, not blockIdx:
// every tile a block waits for has therefore started, which makes the spin
// wait deadlock-free whatever order the hardware schedules blocks in.
#include <cstdint>
#include <cuda/atomic>

#include "algorithms/prefix_sum/cuda_launch.cuh"

namespace adj::prefix_sum {
namespace {

constexpr int kThreads = 256;
constexpr int kItemsPerThread = 16;
constexpr int kTileItems = kThreads * kItemsPerThread;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFullMask = 0xffffffffu;

// A tile's published state: flag in the high word, value in the low word. One
// 64-bit word, so a reader never sees a flag without its value and relaxed
// atomics suffice. A zero flag means nothing is published yet.
using TileState = unsigned long long;
constexpr TileState kAggregate = TileState{1} << 32;  // sum of this tile only
constexpr TileState kPrefix = TileState{2} << 32;     // sum up to and with it

__device__ TileState LoadState(TileState* state) {
  return ::cuda::atomic_ref<TileState, ::cuda::thread_scope_device>(*state)
      .load(::cuda::memory_order_relaxed);
}

__device__ void StoreState(TileState* state, TileState value) {
  ::cuda::atomic_ref<TileState, ::cuda::thread_scope_device>(*state).store(
      value, ::cuda::memory_order_relaxed);
}

// Shared-memory index with one pad word per 32, so that a thread reading its
// kItemsPerThread consecutive items hits a different bank from its neighbours.
__device__ __forceinline__ unsigned Padded(unsigned i) { return i + i / 32; }

// Run by all 32 lanes of warp 0. Returns the sum of every tile before `tile`.
__device__ std::uint32_t LookBack(unsigned tile, std::uint32_t aggregate,
                                  TileState* states, unsigned lane) {
  if (tile == 0) {
    if (lane == 0) StoreState(&states[0], kPrefix | aggregate);
    return 0;
  }
  if (lane == 0) StoreState(&states[tile], kAggregate | aggregate);
  std::uint32_t exclusive = 0;
  // Lane k looks at tile - 1 - k: lane 0 is the nearest predecessor.
  long long predecessor = static_cast<long long>(tile) - 1 - lane;
  while (true) {
    TileState state;
    do {
      // Before tile 0 there is an inclusive prefix of 0.
      state = predecessor >= 0 ? LoadState(&states[predecessor]) : kPrefix;
    } while (__any_sync(kFullMask, (state >> 32) == 0));
    const unsigned prefix_lanes =
        __ballot_sync(kFullMask, (state & kPrefix) != 0);
    // Sum the window up to and including the nearest inclusive prefix.
    const int last = prefix_lanes != 0 ? __ffs(prefix_lanes) - 1 : 31;
    std::uint32_t value =
        static_cast<int>(lane) <= last ? static_cast<std::uint32_t>(state) : 0;
    for (int offset = 16; offset > 0; offset /= 2) {
      value += __shfl_xor_sync(kFullMask, value, offset);
    }
    exclusive += value;
    if (prefix_lanes != 0) break;
    predecessor -= 32;
  }
  if (lane == 0) {
    StoreState(&states[tile],
               kPrefix | static_cast<std::uint32_t>(exclusive + aggregate));
  }
  return exclusive;
}

template <bool kExclusive>
__global__ void __launch_bounds__(kThreads)
    LookbackScanKernel(const std::uint32_t* in, std::uint32_t* out,
                       std::size_t n, unsigned* tile_counter,
                       TileState* states) {
  __shared__ std::uint32_t items[kTileItems + kTileItems / 32];
  __shared__ std::uint32_t warp_offsets[kWarps];
  __shared__ std::uint32_t tile_offset;
  __shared__ unsigned tile_shared;

  const unsigned thread = threadIdx.x;
  const unsigned lane = thread % 32;
  const unsigned warp = thread / 32;
  if (thread == 0) tile_shared = atomicAdd(tile_counter, 1u);
  __syncthreads();
  const unsigned tile = tile_shared;
  const std::size_t base = static_cast<std::size_t>(tile) * kTileItems;
  const unsigned valid =
      static_cast<unsigned>(n - base < kTileItems ? n - base : kTileItems);

  // Coalesced load; items past the end count as 0.
#pragma unroll
  for (int k = 0; k < kItemsPerThread; ++k) {
    const unsigned i = k * kThreads + thread;
    items[Padded(i)] = i < valid ? in[base + i] : 0u;
  }
  __syncthreads();

  std::uint32_t local[kItemsPerThread];
  std::uint32_t thread_sum = 0;
#pragma unroll
  for (int j = 0; j < kItemsPerThread; ++j) {
    local[j] = items[Padded(thread * kItemsPerThread + j)];
    thread_sum += local[j];
  }

  // Inclusive scan of the thread sums within each warp.
  std::uint32_t warp_inclusive = thread_sum;
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const std::uint32_t up = __shfl_up_sync(kFullMask, warp_inclusive, offset);
    if (lane >= static_cast<unsigned>(offset)) warp_inclusive += up;
  }
  if (lane == 31) warp_offsets[warp] = warp_inclusive;
  __syncthreads();

  if (warp == 0) {
    const std::uint32_t warp_total = lane < kWarps ? warp_offsets[lane] : 0;
    std::uint32_t scanned = warp_total;
#pragma unroll
    for (int offset = 1; offset < kWarps; offset *= 2) {
      const std::uint32_t up = __shfl_up_sync(kFullMask, scanned, offset);
      if (lane >= static_cast<unsigned>(offset)) scanned += up;
    }
    const std::uint32_t aggregate = __shfl_sync(kFullMask, scanned, kWarps - 1);
    if (lane < kWarps) warp_offsets[lane] = scanned - warp_total;
    const std::uint32_t before = LookBack(tile, aggregate, states, lane);
    if (lane == 0) tile_offset = before;
  }
  __syncthreads();

  std::uint32_t running =
      tile_offset + warp_offsets[warp] + (warp_inclusive - thread_sum);
#pragma unroll
  for (int j = 0; j < kItemsPerThread; ++j) {
    if constexpr (kExclusive) {
      items[Padded(thread * kItemsPerThread + j)] = running;
      running += local[j];
    } else {
      running += local[j];
      items[Padded(thread * kItemsPerThread + j)] = running;
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kItemsPerThread; ++k) {
    const unsigned i = k * kThreads + thread;
    if (i < valid) out[base + i] = items[Padded(i)];
  }
}

std::size_t TileCount(std::size_t n) {
  return (n + kTileItems - 1) / kTileItems;
}

}  // namespace

namespace device {

std::size_t LookbackTempBytes(std::size_t n) {
  // The counter sits in the first 8 bytes so the states stay 8-aligned.
  return sizeof(TileState) * (1 + TileCount(n));
}

void LookbackScan(Kind kind, const std::uint32_t* in, std::uint32_t* out,
                  std::size_t n, void* temp, cudaStream_t stream) {
  if (n == 0) return;
  cuda::Check(cudaMemsetAsync(temp, 0, LookbackTempBytes(n), stream),
              "cudaMemsetAsync");
  auto* counter = static_cast<unsigned*>(temp);
  auto* states = static_cast<TileState*>(temp) + 1;
  const auto tiles = static_cast<unsigned>(TileCount(n));
  if (kind == Kind::kExclusive) {
    LookbackScanKernel<true>
        <<<tiles, kThreads, 0, stream>>>(in, out, n, counter, states);
  } else {
    LookbackScanKernel<false>
        <<<tiles, kThreads, 0, stream>>>(in, out, n, counter, states);
  }
  cuda::Check(cudaGetLastError(), "LookbackScanKernel launch");
}

}  // namespace device

std::uint32_t CudaLookbackScan(Kind kind, std::span<const std::uint32_t> in,
                               std::span<std::uint32_t> out) {
  return cuda_launch::ScanHostArrays(
      kind, in, out,
      [](Kind k, const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n,
         void* temp, std::size_t) {
        device::LookbackScan(k, d_in, d_out, n, temp, nullptr);
      },
      [](Kind, std::size_t n) { return device::LookbackTempBytes(n); });
}

}  // namespace adj::prefix_sum
