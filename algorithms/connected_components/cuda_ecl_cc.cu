// ECL-CC on the GPU (Jaiganesh & Burtscher, HPDC 2018), the three phases of
// its CUDA code with one thread per vertex in the compute phase (the paper
// also sends high-degree vertices to warp and block kernels; not yet):
//   1. init: parent[v] = the first neighbour of v smaller than v, else v;
//   2. compute: each v with a smaller neighbour hooks, for every edge
//      (v, u) with u < v, the larger representative under the smaller with
//      atomicCAS, retrying on a lost race; finding a representative
//      re-points each node it passes to its grandparent (intermediate
//      pointer jumping; the paper's benign races on parent, which its code
//      makes through plain pointers and ours through volatile, so that no
//      parent is kept in a register across the race);
//   3. flatten: every vertex points at its root.
// Roots are only hooked under smaller roots, so each label is its
// component's smallest id, as the family requires. device::EclCcLabels is
// the kernels on device memory; the variant copies the graph in and the
// labels out around it.
#include <vector>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/connected_components/connected_components.h"
#include "algorithms/connected_components/device.cuh"
#include "algorithms/connected_components/variants.h"

namespace adj::connected_components {
namespace {

constexpr unsigned kBlock = 256;

__device__ std::uint32_t Representative(volatile std::uint32_t* parent,
                                        std::uint32_t v) {
  std::uint32_t current = parent[v];
  if (current != v) {
    std::uint32_t previous = v;
    std::uint32_t next;
    while (current > (next = parent[current])) {
      parent[previous] = next;
      previous = current;
      current = next;
    }
  }
  return current;
}

__global__ void Init(const std::uint32_t* offsets, const std::uint32_t* indices,
                     std::uint32_t n, std::uint32_t* parent) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  std::uint32_t m = v;
  for (std::uint32_t k = offsets[v]; m == v && k < offsets[v + 1]; ++k) {
    m = min(m, indices[k]);
  }
  parent[v] = m;
}

__global__ void Compute(const std::uint32_t* offsets,
                        const std::uint32_t* indices, std::uint32_t n,
                        std::uint32_t* parent) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  volatile std::uint32_t* shared_parent = parent;
  if (shared_parent[v] == v) return;
  std::uint32_t v_rep = Representative(shared_parent, v);
  for (std::uint32_t k = offsets[v]; k < offsets[v + 1]; ++k) {
    const std::uint32_t u = indices[k];
    if (u >= v) continue;
    std::uint32_t u_rep = Representative(shared_parent, u);
    bool repeat;
    do {
      repeat = false;
      if (v_rep != u_rep) {
        if (v_rep < u_rep) {
          const std::uint32_t seen = atomicCAS(parent + u_rep, u_rep, v_rep);
          if (seen != u_rep) {
            u_rep = seen;
            repeat = true;
          }
        } else {
          const std::uint32_t seen = atomicCAS(parent + v_rep, v_rep, u_rep);
          if (seen != v_rep) {
            v_rep = seen;
            repeat = true;
          }
        }
      }
    } while (repeat);
  }
}

__global__ void Flatten(std::uint32_t n, std::uint32_t* parent) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  std::uint32_t root = parent[v];
  while (root != parent[root]) root = parent[root];
  parent[v] = root;
}

}  // namespace

void CudaEclCcLabels(const Csr& graph, Components& out) {
  Check(graph);
  CudaEclCcLabelsTrusted(graph, out);
}

void CudaEclCcLabelsTrusted(const Csr& graph, Components& out) {
  cuda::RequireDevice();
  const std::size_t n = graph.rows();
  out.labels.resize(n);
  out.count = 0;
  out.threads = 1;
  if (n == 0) return;
  cuda::DeviceBuffer<std::uint32_t> offsets(n + 1);
  cuda::DeviceBuffer<std::uint32_t> indices(graph.entries());
  cuda::DeviceBuffer<std::uint32_t> parent(n);
  offsets.CopyFromHost(graph.offsets.data(), n + 1);
  if (graph.entries() > 0) {
    indices.CopyFromHost(graph.indices.data(), graph.entries());
  }
  device::EclCcLabels(offsets.data(), indices.data(),
                      static_cast<std::uint32_t>(n), parent.data(), nullptr);
  cuda::Check(cudaDeviceSynchronize(), "connected_components: ECL-CC kernels");
  parent.CopyToHost(out.labels.data(), n);
  out.count = CountRoots(out.labels);
}

namespace device {

void EclCcLabels(const std::uint32_t* offsets, const std::uint32_t* indices,
                 std::uint32_t n, std::uint32_t* labels, cudaStream_t stream) {
  const auto blocks =
      static_cast<unsigned>((std::size_t{n} + kBlock - 1) / kBlock);
  Init<<<blocks, kBlock, 0, stream>>>(offsets, indices, n, labels);
  Compute<<<blocks, kBlock, 0, stream>>>(offsets, indices, n, labels);
  Flatten<<<blocks, kBlock, 0, stream>>>(n, labels);
  cuda::Check(cudaGetLastError(), "connected_components: ECL-CC kernels");
}

}  // namespace device
}  // namespace adj::connected_components
