#pragma once

// connected_components' public device API: ECL-CC on a graph already in
// device memory, for families that label components on the GPU (the
// fracture update re-splits clusters there) and for timing the kernels
// alone. The graph is trusted: the caller checked it (Check on its host
// copy) or built it on the device.

#include <cuda_runtime_api.h>

#include <cstdint>

namespace adj::connected_components::device {

// labels[v] = the smallest vertex id of v's component, for the n > 0
// vertices of a symmetric Csr in device memory (offsets: n + 1 entries,
// indices: offsets[n]). `labels` (n entries) is also ECL-CC's parent array.
// Enqueued on `stream`; returns without waiting (launch errors throw).
void EclCcLabels(const std::uint32_t* offsets, const std::uint32_t* indices,
                 std::uint32_t n, std::uint32_t* labels, cudaStream_t stream);

}  // namespace adj::connected_components::device
