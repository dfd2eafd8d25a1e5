// Atomic counts, a scan, an atomic fill, and a segmented sort that puts each
// row in NvCloth's descending order (the fill's order depends on thread
// timing, the sorted rows do not). Host memory in and out, so that the
// variant table can run it like the others; its time includes the copies.
#include <cub/device/device_segmented_sort.cuh>
#include <cuda/std/cstdint>
#include <limits>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/prefix_sum/device_scan.cuh"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"

namespace adj::triangle_adjacency {
namespace {

constexpr int kThreads = 256;
constexpr unsigned long long kNoError =
    std::numeric_limits<unsigned long long>::max();

// Grid-stride loops: enough blocks to fill any current GPU many times over,
// capped so that the grid size stays far inside its limits.
int BlocksFor(std::size_t items) {
  const std::size_t blocks = (items + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < 65535 * 16 ? (blocks > 0 ? blocks : 1)
                                              : 65535 * 16);
}

// counts[p] += 1 per corner p; the smallest triangle with a corner out of
// range lands in first_bad.
__global__ void CountCorners(const std::uint32_t* corners, std::size_t entries,
                             std::uint32_t particles, std::uint32_t* counts,
                             unsigned long long* first_bad) {
  for (std::size_t e = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
       e < entries; e += std::size_t{gridDim.x} * blockDim.x) {
    const std::uint32_t p = corners[e];
    if (p < particles) {
      atomicAdd(&counts[p], 1u);
    } else {
      atomicMin(first_bad, static_cast<unsigned long long>(e / 3));
    }
  }
}

// One atomicMax per thread: the count array is read once, and the atomics
// are few next to the corners' (a block reduction would matter only for
// tiny meshes' latency).
__global__ void MaxCount(const std::uint32_t* counts, std::size_t n,
                         std::uint32_t* longest) {
  std::uint32_t local = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
       i < n; i += std::size_t{gridDim.x} * blockDim.x) {
    local = max(local, counts[i]);
  }
  atomicMax(longest, local);
}

__global__ void FillRows(const std::uint32_t* corners, std::size_t entries,
                         std::uint32_t* cursors, std::uint32_t* indices) {
  for (std::size_t e = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
       e < entries; e += std::size_t{gridDim.x} * blockDim.x) {
    const std::uint32_t slot = atomicAdd(&cursors[corners[e]], 1u);
    indices[slot] = static_cast<std::uint32_t>(e / 3);
  }
}

}  // namespace

void CudaBuild(std::span<const Triangle> triangles, std::size_t particle_count,
               Adjacency& out) {
  CheckEntryCount(triangles.size());
  if (particle_count > std::numeric_limits<std::uint32_t>::max()) {
    throw Error("triangle_adjacency cuda: more than 2^32 - 1 particles");
  }
  cuda::RequireDevice();
  const std::size_t entries = 3 * triangles.size();
  const std::size_t n = particle_count;
  out.csr.offsets.assign(n + 1, 0);
  out.csr.indices.resize(entries);
  out.order = RowOrder::kDescending;
  out.max_adjacent = 0;
  out.threads = 1;
  if (entries == 0) return;

  cuda::DeviceBuffer<std::uint32_t> corners(entries);
  static_assert(sizeof(Triangle) == 3 * sizeof(std::uint32_t));
  corners.CopyFromHost(reinterpret_cast<const std::uint32_t*>(triangles.data()),
                       entries);
  cuda::DeviceBuffer<std::uint32_t> offsets(n + 1);
  cuda::DeviceBuffer<unsigned long long> first_bad(1);
  cuda::Check(cudaMemset(offsets.data(), 0, (n + 1) * sizeof(std::uint32_t)),
              "cudaMemset");
  cuda::Check(cudaMemset(first_bad.data(), 0xFF, sizeof(unsigned long long)),
              "cudaMemset");
  CountCorners<<<BlocksFor(entries), kThreads>>>(
      corners.data(), entries, static_cast<std::uint32_t>(n), offsets.data(),
      first_bad.data());
  cuda::Check(cudaGetLastError(), "CountCorners launch");
  cuda::Check(cudaDeviceSynchronize(), "CountCorners");
  unsigned long long bad = kNoError;
  first_bad.CopyToHost(&bad, 1);
  if (bad != kNoError) {
    for (const std::uint32_t p : triangles[bad]) {
      if (p >= n) ThrowIndexError(bad, p, n);
    }
  }

  cuda::DeviceBuffer<std::uint32_t> longest(1);
  cuda::Check(cudaMemset(longest.data(), 0, sizeof(std::uint32_t)),
              "cudaMemset");
  MaxCount<<<BlocksFor(n), kThreads>>>(offsets.data(), n, longest.data());
  cuda::Check(cudaGetLastError(), "MaxCount launch");

  // The extra slot (0) makes offsets[n] the total, as in NvCloth.
  const std::size_t scan_bytes =
      prefix_sum::device::CubTempBytes(prefix_sum::Kind::kExclusive, n + 1);
  cuda::DeviceBuffer<unsigned char> scan_scratch(scan_bytes);
  prefix_sum::device::CubScan(prefix_sum::Kind::kExclusive, offsets.data(),
                              offsets.data(), n + 1, scan_scratch.data(),
                              scan_bytes, nullptr);

  cuda::DeviceBuffer<std::uint32_t> cursors(n);
  cuda::Check(cudaMemcpy(cursors.data(), offsets.data(),
                         n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice),
              "cudaMemcpy cursors");
  cuda::DeviceBuffer<std::uint32_t> unsorted(entries);
  FillRows<<<BlocksFor(entries), kThreads>>>(corners.data(), entries,
                                             cursors.data(), unsorted.data());
  cuda::Check(cudaGetLastError(), "FillRows launch");

  // The corners are no longer needed: their buffer receives the sorted rows.
  std::uint32_t* sorted = corners.data();
  std::size_t sort_bytes = 0;
  cuda::Check(cub::DeviceSegmentedSort::SortKeysDescending(
                  nullptr, sort_bytes, unsorted.data(), sorted,
                  static_cast<::cuda::std::int64_t>(entries),
                  static_cast<::cuda::std::int64_t>(n), offsets.data(),
                  offsets.data() + 1),
              "cub::DeviceSegmentedSort temp size");
  cuda::DeviceBuffer<unsigned char> sort_scratch(sort_bytes);
  cuda::Check(cub::DeviceSegmentedSort::SortKeysDescending(
                  sort_scratch.data(), sort_bytes, unsorted.data(), sorted,
                  static_cast<::cuda::std::int64_t>(entries),
                  static_cast<::cuda::std::int64_t>(n), offsets.data(),
                  offsets.data() + 1),
              "cub::DeviceSegmentedSort");
  cuda::Check(cudaDeviceSynchronize(), "triangle_adjacency kernels");
  offsets.CopyToHost(out.csr.offsets.data(), n + 1);
  cuda::Check(
      cudaMemcpy(out.csr.indices.data(), sorted,
                 entries * sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
      "cudaMemcpy to host");
  longest.CopyToHost(&out.max_adjacent, 1);
}

}  // namespace adj::triangle_adjacency
