// Ours: count, scan, scatter on the GPU, reusing the suite's own
// decoupled look-back scan (prefix_sum's `cuda`) for the tile offsets.
//   1. each tile of kTile items counts its kept items (warp ballots);
//   2. the counts become exclusive tile offsets (LookbackScan, in place);
//   3. each tile writes its kept items in order: a warp's rank of an item is
//      the popcount of the ballot below its lane, a tile's warp offsets come
//      from a scan of the warp counts in shared memory.
// Stable, as the family requires. Host memory in and out.
#include <climits>

#include "algorithms/compaction/cuda_arrays.cuh"
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
                             std::uint32_t* out) {
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
}

}  // namespace

std::size_t CudaCompact(std::span<const std::uint32_t> values,
                        std::span<const std::uint8_t> flags,
                        std::span<std::uint32_t> out) {
  DeviceArrays arrays =
      Upload(values, flags, out, static_cast<std::size_t>(UINT_MAX), "cuda");
  const std::size_t n = values.size();
  if (n == 0) return 0;
  const std::size_t tiles = (n + kTile - 1) / kTile;
  cuda::DeviceBuffer<std::uint32_t> d_tiles(tiles);
  CountTiles<<<static_cast<unsigned>(tiles), kThreads>>>(arrays.flags.data(), n,
                                                         d_tiles.data());
  cuda::Check(cudaGetLastError(), "compaction: count kernel");
  std::uint32_t last_count = 0;
  cuda::Check(cudaMemcpy(&last_count, d_tiles.data() + tiles - 1,
                         sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
              "compaction: last tile count");
  cuda::DeviceBuffer<unsigned char> scratch(
      prefix_sum::device::LookbackTempBytes(tiles));
  prefix_sum::device::LookbackScan(prefix_sum::Kind::kExclusive, d_tiles.data(),
                                   d_tiles.data(), tiles, scratch.data(),
                                   nullptr);
  ScatterTiles<<<static_cast<unsigned>(tiles), kThreads>>>(
      arrays.values.data(), arrays.flags.data(), n, d_tiles.data(),
      arrays.out.data());
  cuda::Check(cudaGetLastError(), "compaction: scatter kernel");
  cuda::Check(cudaDeviceSynchronize(), "compaction: kernels");
  std::uint32_t last_offset = 0;
  cuda::Check(cudaMemcpy(&last_offset, d_tiles.data() + tiles - 1,
                         sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
              "compaction: last tile offset");
  const std::size_t kept = std::size_t{last_offset} + last_count;
  arrays.out.CopyToHost(out.data(), kept);
  return kept;
}

}  // namespace adj::compaction
