// Atomic counts, a scan, an atomic fill, and a segmented sort that puts each
// row in NvCloth's descending order (the fill's order depends on thread
// timing, the sorted rows do not). device::Build is the entry on device
// memory; CudaBuild wraps it with the copies, so that the variant table can
// run it like the others (its time includes the copies), and turns a bad
// corner into the family's error once the kernels have ended.
#include <cub/device/device_segmented_sort.cuh>
#include <cuda/std/cstdint>
#include <limits>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/prefix_sum/device_scan.cuh"
#include "algorithms/triangle_adjacency/device.cuh"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triangle_adjacency/variants.h"

namespace adj::triangle_adjacency {
namespace {

constexpr int kThreads = 256;

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

// Out-of-range corners, which CountCorners reported, are skipped.
__global__ void FillRows(const std::uint32_t* corners, std::size_t entries,
                         std::uint32_t particles, std::uint32_t* cursors,
                         std::uint32_t* indices) {
  for (std::size_t e = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
       e < entries; e += std::size_t{gridDim.x} * blockDim.x) {
    const std::uint32_t p = corners[e];
    if (p >= particles) continue;
    const std::uint32_t slot = atomicAdd(&cursors[p], 1u);
    indices[slot] = static_cast<std::uint32_t>(e / 3);
  }
}

constexpr std::size_t kAlignment = 256;

std::size_t Aligned(std::size_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

// The scratch, in order: the fill's cursors, its unsorted rows, the scan's
// scratch and the sort's. CUB's size queries read no pointer; the sort's is
// made with Build's argument types, so that it sizes the same
// instantiation.
struct TempLayout {
  std::size_t cursors = 0;
  std::size_t unsorted = 0;
  std::size_t scan = 0;
  std::size_t sort = 0;
  std::size_t scan_bytes = 0;
  std::size_t sort_bytes = 0;
  std::size_t total = 0;

  TempLayout(std::size_t entries, std::uint32_t n) {
    scan_bytes = prefix_sum::device::CubTempBytes(prefix_sum::Kind::kExclusive,
                                                  std::size_t{n} + 1);
    if (entries > 0 && n > 0) {
      cuda::Check(
          cub::DeviceSegmentedSort::SortKeysDescending(
              nullptr, sort_bytes, static_cast<const std::uint32_t*>(nullptr),
              static_cast<std::uint32_t*>(nullptr),
              static_cast<::cuda::std::int64_t>(entries),
              static_cast<::cuda::std::int64_t>(n),
              static_cast<std::uint32_t*>(nullptr),
              static_cast<std::uint32_t*>(nullptr)),
          "cub::DeviceSegmentedSort temp size");
    }
    unsorted = Aligned(std::size_t{n} * sizeof(std::uint32_t));
    scan = unsorted + Aligned(entries * sizeof(std::uint32_t));
    sort = scan + Aligned(scan_bytes);
    total = sort + Aligned(sort_bytes);
  }
};

}  // namespace

namespace device {

std::size_t BuildTempBytes(std::size_t triangle_count,
                           std::uint32_t particle_count) {
  return TempLayout(3 * triangle_count, particle_count).total;
}

void Build(const std::uint32_t* corners, std::size_t triangle_count,
           std::uint32_t particle_count, std::uint32_t* offsets,
           std::uint32_t* indices, std::uint32_t* max_adjacent,
           unsigned long long* first_bad, void* temp, cudaStream_t stream) {
  const std::size_t entries = 3 * triangle_count;
  const std::uint32_t n = particle_count;
  const TempLayout layout(entries, n);
  auto* bytes = static_cast<unsigned char*>(temp);
  auto* cursors = reinterpret_cast<std::uint32_t*>(bytes + layout.cursors);
  auto* unsorted = reinterpret_cast<std::uint32_t*>(bytes + layout.unsorted);
  cuda::Check(
      cudaMemsetAsync(offsets, 0, (std::size_t{n} + 1) * sizeof(std::uint32_t),
                      stream),
      "cudaMemsetAsync");
  cuda::Check(
      cudaMemsetAsync(first_bad, 0xFF, sizeof(unsigned long long), stream),
      "cudaMemsetAsync");
  cuda::Check(cudaMemsetAsync(max_adjacent, 0, sizeof(std::uint32_t), stream),
              "cudaMemsetAsync");
  if (entries == 0) return;
  CountCorners<<<BlocksFor(entries), kThreads, 0, stream>>>(corners, entries, n,
                                                            offsets, first_bad);
  cuda::Check(cudaGetLastError(), "CountCorners launch");
  if (n == 0) return;  // every corner is out of range
  MaxCount<<<BlocksFor(n), kThreads, 0, stream>>>(offsets, n, max_adjacent);
  cuda::Check(cudaGetLastError(), "MaxCount launch");

  // The extra slot (0) makes offsets[n] the total, as in NvCloth.
  prefix_sum::device::CubScan(prefix_sum::Kind::kExclusive, offsets, offsets,
                              std::size_t{n} + 1, bytes + layout.scan,
                              layout.scan_bytes, stream);
  cuda::Check(cudaMemcpyAsync(cursors, offsets, n * sizeof(std::uint32_t),
                              cudaMemcpyDeviceToDevice, stream),
              "cudaMemcpyAsync cursors");
  FillRows<<<BlocksFor(entries), kThreads, 0, stream>>>(corners, entries, n,
                                                        cursors, unsorted);
  cuda::Check(cudaGetLastError(), "FillRows launch");
  std::size_t sort_bytes = layout.sort_bytes;
  cuda::Check(
      cub::DeviceSegmentedSort::SortKeysDescending(
          bytes + layout.sort, sort_bytes, unsorted, indices,
          static_cast<::cuda::std::int64_t>(entries),
          static_cast<::cuda::std::int64_t>(n), offsets, offsets + 1, stream),
      "cub::DeviceSegmentedSort");
}

}  // namespace device

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
  cuda::DeviceBuffer<std::uint32_t> indices(entries);
  cuda::DeviceBuffer<std::uint32_t> longest(1);
  cuda::DeviceBuffer<unsigned long long> first_bad(1);
  cuda::DeviceBuffer<unsigned char> temp(
      device::BuildTempBytes(triangles.size(), static_cast<std::uint32_t>(n)));
  device::Build(corners.data(), triangles.size(), static_cast<std::uint32_t>(n),
                offsets.data(), indices.data(), longest.data(),
                first_bad.data(), temp.data(), nullptr);
  cuda::Check(cudaDeviceSynchronize(), "triangle_adjacency kernels");
  unsigned long long bad = device::kNoBadTriangle;
  first_bad.CopyToHost(&bad, 1);
  if (bad != device::kNoBadTriangle) {
    for (const std::uint32_t p : triangles[bad]) {
      if (p >= n) ThrowIndexError(bad, p, n);
    }
  }
  offsets.CopyToHost(out.csr.offsets.data(), n + 1);
  indices.CopyToHost(out.csr.indices.data(), entries);
  longest.CopyToHost(&out.max_adjacent, 1);
}

}  // namespace adj::triangle_adjacency
