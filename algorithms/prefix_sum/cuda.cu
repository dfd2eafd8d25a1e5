// Our CUDA prefix sum: single-pass scan with decoupled look-back (Merrill &
// Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016).
// Each block scans one tile, publishes its aggregate at once, then looks back
// over its predecessors' published values until it meets an inclusive prefix,
// so every element is read once and written once (2n traffic, like a copy).
//
// Tile ids come from an atomic counter in block start order, not blockIdx:
// every tile a block waits for has therefore started, which makes the spin
// wait deadlock-free whatever order the hardware schedules blocks in.
//
// Each warp owns a contiguous run of its tile and moves it in 16-byte
// vectors, lane l holding items 4l..4l+3 of each 128-item round: every load
// and store of a warp is one coalesced 512-byte access and no item passes
// through shared memory, which holds only the warps' totals. The tile's
// shape (threads, items per thread) comes from a table per architecture
// (scan_tiles.h), filled from the tuning sweep's measurements.
#include <cuda_runtime.h>

#include <cstdint>
#include <cuda/atomic>
#include <string>
#include <utility>

#include "algorithms/prefix_sum/cuda_launch.cuh"
#include "algorithms/prefix_sum/scan_tiles.h"
#include "algorithms/prefix_sum/variants.h"

namespace adj::prefix_sum {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kLanes = 32;
constexpr int kVectorItems = 4;  // uint32 in one 16-byte vector
constexpr int kRoundItems = kLanes * kVectorItems;

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

// The inclusive scan of `value` over the warp's lanes.
__device__ __forceinline__ std::uint32_t WarpInclusive(std::uint32_t value,
                                                       unsigned lane) {
#pragma unroll
  for (int offset = 1; offset < kLanes; offset *= 2) {
    const std::uint32_t up = __shfl_up_sync(kFullMask, value, offset);
    if (lane >= static_cast<unsigned>(offset)) value += up;
  }
  return value;
}

// Long: one kernel: the tile's load, its scan, the look-back and the store
// share the tile's registers and shared memory between barriers.
template <bool kExclusive, int kThreads, int kItemsPerThread>
__global__ void __launch_bounds__(kThreads)
    LookbackScanKernel(const std::uint32_t* in, std::uint32_t* out,
                       std::size_t n, bool vectors_aligned,
                       unsigned* tile_counter, TileState* states) {
  static_assert(kThreads % kLanes == 0 && kThreads <= 1024);
  static_assert(kItemsPerThread % kVectorItems == 0);
  constexpr int kWarps = kThreads / kLanes;
  constexpr int kRounds = kItemsPerThread / kVectorItems;
  constexpr int kWarpItems = kLanes * kItemsPerThread;
  constexpr int kTileItems = kThreads * kItemsPerThread;
  // After the look-back: the offset of each warp's run (tile's prefix
  // included).
  __shared__ std::uint32_t warp_offsets[kWarps];
  __shared__ unsigned tile_shared;

  const unsigned thread = threadIdx.x;
  const unsigned lane = thread % kLanes;
  const unsigned warp = thread / kLanes;
  if (thread == 0) tile_shared = atomicAdd(tile_counter, 1u);
  __syncthreads();
  const unsigned tile = tile_shared;
  const std::size_t tile_base = static_cast<std::size_t>(tile) * kTileItems;
  const std::size_t valid_in_tile =
      n - tile_base < kTileItems ? n - tile_base : kTileItems;
  // Offset of this lane's first item in round 0, from the tile's start.
  const unsigned lane_first = warp * kWarpItems + lane * kVectorItems;
  const bool whole = vectors_aligned && valid_in_tile == kTileItems;

  uint4 items[kRounds];
  if (whole) {
    const auto* vectors =
        reinterpret_cast<const uint4*>(in + tile_base + lane_first);
#pragma unroll
    for (int r = 0; r < kRounds; ++r) items[r] = vectors[r * kLanes];
  } else {
    // The last tile, or arrays not 16-byte aligned: the same items, one by
    // one; those past the end count as 0.
    const auto load = [&](std::size_t i) {
      return i < valid_in_tile ? in[tile_base + i] : 0u;
    };
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
      const std::size_t first = lane_first + r * kRoundItems;
      items[r] = make_uint4(load(first), load(first + 1), load(first + 2),
                            load(first + 3));
    }
  }

  // Each round: the lane's 4 items become their prefixes within the warp's
  // run (exclusive or inclusive), `carry` the run's total so far.
  std::uint32_t carry = 0;
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    uint4& v = items[r];
    const std::uint32_t lane_sum = v.x + v.y + v.z + v.w;
    const std::uint32_t inclusive = WarpInclusive(lane_sum, lane);
    std::uint32_t running = carry + inclusive - lane_sum;
    carry += __shfl_sync(kFullMask, inclusive, kLanes - 1);
    if constexpr (kExclusive) {
      const uint4 scanned =
          make_uint4(running, running + v.x, running + v.x + v.y,
                     running + v.x + v.y + v.z);
      v = scanned;
    } else {
      running += v.x;
      v.x = running;
      running += v.y;
      v.y = running;
      running += v.z;
      v.z = running;
      v.w = running + v.w;
    }
  }
  if (lane == 0) warp_offsets[warp] = carry;
  __syncthreads();

  if (warp == 0) {
    const std::uint32_t warp_total = lane < kWarps ? warp_offsets[lane] : 0;
    const std::uint32_t scanned = WarpInclusive(warp_total, lane);
    const std::uint32_t aggregate = __shfl_sync(kFullMask, scanned, kLanes - 1);
    const std::uint32_t before = LookBack(tile, aggregate, states, lane);
    if (lane < kWarps) warp_offsets[lane] = before + scanned - warp_total;
  }
  __syncthreads();

  const std::uint32_t offset = warp_offsets[warp];
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    items[r].x += offset;
    items[r].y += offset;
    items[r].z += offset;
    items[r].w += offset;
  }
  if (whole) {
    auto* vectors = reinterpret_cast<uint4*>(out + tile_base + lane_first);
#pragma unroll
    for (int r = 0; r < kRounds; ++r) vectors[r * kLanes] = items[r];
  } else {
    const auto store = [&](std::size_t i, std::uint32_t value) {
      if (i < valid_in_tile) out[tile_base + i] = value;
    };
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
      const std::size_t first = lane_first + r * kRoundItems;
      store(first, items[r].x);
      store(first + 1, items[r].y);
      store(first + 2, items[r].z);
      store(first + 3, items[r].w);
    }
  }
}

std::size_t TileCount(std::size_t n, std::size_t tile_items) {
  return (n + tile_items - 1) / tile_items;
}

bool SixteenByteAligned(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
}

template <int kThreads, int kItemsPerThread>
void Launch(Kind kind, const std::uint32_t* in, std::uint32_t* out,
            std::size_t n, void* temp, cudaStream_t stream) {
  const std::size_t tiles = TileCount(n, kThreads * kItemsPerThread);
  // Only the states this shape uses (and the counter) need zeroing.
  cuda::Check(cudaMemsetAsync(temp, 0, sizeof(TileState) * (1 + tiles), stream),
              "cudaMemsetAsync");
  auto* counter = static_cast<unsigned*>(temp);
  auto* states = static_cast<TileState*>(temp) + 1;
  const bool aligned = SixteenByteAligned(in) && SixteenByteAligned(out);
  const auto blocks = static_cast<unsigned>(tiles);
  if (kind == Kind::kExclusive) {
    LookbackScanKernel<true, kThreads, kItemsPerThread>
        <<<blocks, kThreads, 0, stream>>>(in, out, n, aligned, counter, states);
  } else {
    LookbackScanKernel<false, kThreads, kItemsPerThread>
        <<<blocks, kThreads, 0, stream>>>(in, out, n, aligned, counter, states);
  }
  cuda::Check(cudaGetLastError(), "LookbackScanKernel launch");
}

// Calls the instantiation of kScanTiles[I...] equal to `tile`.
template <std::size_t... I>
bool LaunchShape(ScanTile tile, std::index_sequence<I...>, Kind kind,
                 const std::uint32_t* in, std::uint32_t* out, std::size_t n,
                 void* temp, cudaStream_t stream) {
  return ((tile.threads == kScanTiles[I].threads &&
                   tile.items_per_thread == kScanTiles[I].items_per_thread
               ? (Launch<kScanTiles[I].threads, kScanTiles[I].items_per_thread>(
                      kind, in, out, n, temp, stream),
                  true)
               : false) ||
          ...);
}

constexpr std::size_t SmallestTileItems() {
  std::size_t smallest = kScanTiles[0].items();
  for (const ScanTile& tile : kScanTiles) {
    if (static_cast<std::size_t>(tile.items()) < smallest) {
      smallest = tile.items();
    }
  }
  return smallest;
}

// The table's shape for the current device, looked up once per thread and
// device.
ScanTile CurrentDeviceTile() {
  int device = 0;
  cuda::Check(cudaGetDevice(&device), "cudaGetDevice");
  thread_local int cached_device = -1;
  thread_local ScanTile cached{};
  if (device != cached_device) {
    int major = 0;
    int minor = 0;
    cuda::Check(cudaDeviceGetAttribute(
                    &major, cudaDevAttrComputeCapabilityMajor, device),
                "cudaDeviceGetAttribute");
    cuda::Check(cudaDeviceGetAttribute(
                    &minor, cudaDevAttrComputeCapabilityMinor, device),
                "cudaDeviceGetAttribute");
    cached = TunedScanTile(major, minor);
    cached_device = device;
  }
  return cached;
}

}  // namespace

namespace device {

std::size_t LookbackTempBytes(std::size_t n) {
  // The counter sits in the first 8 bytes so the states stay 8-aligned;
  // enough states for the smallest tile, so that any shape fits.
  return sizeof(TileState) * (1 + TileCount(n, SmallestTileItems()));
}

void LookbackScanWith(ScanTile tile, Kind kind, const std::uint32_t* in,
                      std::uint32_t* out, std::size_t n, void* temp,
                      cudaStream_t stream) {
  if (n == 0) return;
  if (!LaunchShape(tile, std::make_index_sequence<kScanTiles.size()>(), kind,
                   in, out, n, temp, stream)) {
    throw Error("prefix_sum cuda: no kernel for a tile of " +
                std::to_string(tile.threads) + " threads x " +
                std::to_string(tile.items_per_thread) + " items");
  }
}

void LookbackScan(Kind kind, const std::uint32_t* in, std::uint32_t* out,
                  std::size_t n, void* temp, cudaStream_t stream) {
  if (n == 0) return;
  LookbackScanWith(CurrentDeviceTile(), kind, in, out, n, temp, stream);
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
