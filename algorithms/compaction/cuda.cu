// Ours: count, scan, scatter on the GPU, reusing the suite's own
// decoupled look-back scan (prefix_sum's `cuda`) for the tile offsets.
//   1. each tile of kTile items counts its kept items (warp ballots);
//   2. the counts become exclusive tile offsets (LookbackScan, in place);
//   3. each tile writes its kept items in order: a warp's rank of an item is
//      the popcount of the ballot below its lane, a tile's warp offsets come
//      from a scan of the warp counts in shared memory.
// Stable, as the family requires. The last tile writes the kept count, so
// that nothing waits for the host between the kernels. device::Compact is
// the entry on device memory; CudaCompact wraps it with the copies.
#include <climits>

#include "algorithms/compaction/cuda_arrays.cuh"
#include "algorithms/compaction/device.cuh"
#include "algorithms/compaction/variants.h"
#include "algorithms/prefix_sum/device_scan.cuh"

namespace adj::compaction {
namespace {

constexpr unsigned kThreads = 256;  // 8 warps
constexpr unsigned kItemsPerThread = 4;
constexpr unsigned kTile = kThreads * kItemsPerThread;
constexpr unsigned kWarps = kThreads / 32;

// Items of a tile are visited in kItemsPerThread rounds of kThreads
// consecutive items, so that each round's warps cover consecutive runs and
// the tile's order is round, warp, lane.
__global__ void CountTiles(const std::uint8_t* flags, std::size_t n,
                           std::uint32_t* tile_counts) {
  __shared__ std::uint32_t warp_sums[kWarps];
  const unsigned warp = threadIdx.x / 32;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t tile_begin = static_cast<std::size_t>(blockIdx.x) * kTile;
  std::uint32_t mine = 0;
  for (unsigned round = 0; round < kItemsPerThread; ++round) {
    const std::size_t i = tile_begin + round * kThreads + threadIdx.x;
    const bool keep = i < n && flags[i] == 0;
    mine += __popc(__ballot_sync(0xFFFFFFFFu, keep));
  }
  if (lane == 0) warp_sums[warp] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    std::uint32_t total = 0;
    for (unsigned w = 0; w < kWarps; ++w) total += warp_sums[w];
    tile_counts[blockIdx.x] = total;
  }
}

__global__ void ScatterTiles(const std::uint32_t* values,
                             const std::uint8_t* flags, std::size_t n,
                             const std::uint32_t* tile_offsets,
                             std::uint32_t* out, std::uint32_t* kept) {
  __shared__ std::uint32_t warp_counts[kWarps];
  const unsigned warp = threadIdx.x / 32;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t tile_begin = static_cast<std::size_t>(blockIdx.x) * kTile;
  std::uint32_t next = tile_offsets[blockIdx.x];
  for (unsigned round = 0; round < kItemsPerThread; ++round) {
    const std::size_t i = tile_begin + round * kThreads + threadIdx.x;
    const bool keep = i < n && flags[i] == 0;
    const unsigned ballot = __ballot_sync(0xFFFFFFFFu, keep);
    if (lane == 0) warp_counts[warp] = __popc(ballot);
    __syncthreads();
    std::uint32_t before = next;
    std::uint32_t round_total = 0;
    for (unsigned w = 0; w < kWarps; ++w) {
      if (w < warp) before += warp_counts[w];
      round_total += warp_counts[w];
    }
    if (keep) {
      out[before + __popc(ballot & ((1u << lane) - 1u))] = values[i];
    }
    next += round_total;
    __syncthreads();  // warp_counts is rewritten next round
  }
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) *kept = next;
}

// The scan's scratch starts at this boundary after the tile offsets, so
// that its 8-byte tile states stay aligned.
constexpr std::size_t kAlignment = 256;

std::size_t TileCount(std::size_t n) { return (n + kTile - 1) / kTile; }

std::size_t TileOffsetBytes(std::size_t n) {
  const std::size_t bytes = TileCount(n) * sizeof(std::uint32_t);
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

}  // namespace

namespace device {

std::size_t CompactTempBytes(std::size_t n) {
  return TileOffsetBytes(n) +
         prefix_sum::device::LookbackTempBytes(TileCount(n));
}

void Compact(const std::uint32_t* values, const std::uint8_t* flags,
             std::size_t n, std::uint32_t* out, std::uint32_t* kept, void* temp,
             cudaStream_t stream) {
  if (n == 0) {
    cuda::Check(cudaMemsetAsync(kept, 0, sizeof(std::uint32_t), stream),
                "cudaMemsetAsync");
    return;
  }
  const std::size_t tiles = TileCount(n);
  auto* tile_offsets = static_cast<std::uint32_t*>(temp);
  void* scan_temp = static_cast<unsigned char*>(temp) + TileOffsetBytes(n);
  CountTiles<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
      flags, n, tile_offsets);
  cuda::Check(cudaGetLastError(), "compaction: count kernel");
  prefix_sum::device::LookbackScan(prefix_sum::Kind::kExclusive, tile_offsets,
                                   tile_offsets, tiles, scan_temp, stream);
  ScatterTiles<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
      values, flags, n, tile_offsets, out, kept);
  cuda::Check(cudaGetLastError(), "compaction: scatter kernel");
}

}  // namespace device

std::size_t CudaCompact(std::span<const std::uint32_t> values,
                        std::span<const std::uint8_t> flags,
                        std::span<std::uint32_t> out) {
  const DeviceArrays arrays =
      Upload(values, flags, out, static_cast<std::size_t>(UINT_MAX), "cuda",
             &device::CompactTempBytes);
  device::Compact(arrays.values.data(), arrays.flags.data(), values.size(),
                  arrays.out.data(), arrays.kept.data(), arrays.temp.data(),
                  nullptr);
  return Download(arrays, out, "compaction: kernels");
}

}  // namespace adj::compaction
