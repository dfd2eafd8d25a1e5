#pragma once

// hash_grid's public device API: the cuda variant's lists for positions
// already in device memory, for families that search neighbours on the GPU
// (SPH) and for timing the device work alone. The input is trusted: the
// caller checked it (Check on its host copy).

#include <cstddef>
#include <cstdint>
#include <memory>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/hash_grid/hash_grid.h"

namespace adj::hash_grid::device {

// CellOrderLists' scratch (cuda.cu), kept from call to call.
struct Workspace;

// Full lists in cell order (hash_grid.h's kFull and kCell), in device
// memory. The buffers are kept from call to call and grow when needed.
struct Lists {
  cuda::DeviceBuffer<std::uint32_t> offsets;  // at least n + 1 entries
  cuda::DeviceBuffer<std::uint32_t> indices;  // at least `entries`
  std::uint32_t entries = 0;
  // Candidate entries handed to the distance test (Neighbors::candidates).
  std::uint64_t candidates = 0;
  // The scratch of the last call (sorted particles, cells, staged rows), so
  // that a rebuild of the same size allocates nothing.
  std::shared_ptr<Workspace> workspace;
  // The room per row of the single pass: the longest row of the last call
  // (0 before the first: a default). A call whose rows outgrow it walks
  // its windows a second time to fill the lists.
  std::uint32_t row_capacity = 0;
};

// The lists of the n particles at (x[i], y[i], z[i]), on the default
// stream. Returns once they are ready: it reads two sets of numbers back
// between its kernels (the occupied box; the entry total, the longest row
// and the candidates).
// Throws Error for more than 2^31 - 1 particles or more entries than uint32
// offsets can address (then `out` is unspecified).
void CellOrderLists(const float* x, const float* y, const float* z,
                    std::size_t n, const Params& params, Lists& out);

}  // namespace adj::hash_grid::device
