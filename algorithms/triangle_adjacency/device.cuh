#pragma once

// triangle_adjacency's public device API: the cuda variant's build on
// triangles already in device memory, for families that build adjacency on
// the GPU and for timing the kernels alone. Enqueued on `stream`; returns
// without waiting (launch errors throw adj::Error).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <limits>

namespace adj::triangle_adjacency::device {

// What *first_bad holds when every corner is in range.
inline constexpr unsigned long long kNoBadTriangle =
    std::numeric_limits<unsigned long long>::max();

// Scratch bytes Build needs.
std::size_t BuildTempBytes(std::size_t triangle_count,
                           std::uint32_t particle_count);

// The rows of particle_count particles, each in descending triangle ids
// (NvCloth's order), from `corners` (3 per triangle; 3 x triangle_count
// must fit uint32, the caller's CheckEntryCount): offsets (particle_count +
// 1 entries), indices (3 x triangle_count), *max_adjacent (the longest
// row). *first_bad receives the smallest triangle with a corner >=
// particle_count, or kNoBadTriangle; where it is not kNoBadTriangle the rows
// are unspecified (out-of-range corners are skipped, never written
// through).
void Build(const std::uint32_t* corners, std::size_t triangle_count,
           std::uint32_t particle_count, std::uint32_t* offsets,
           std::uint32_t* indices, std::uint32_t* max_adjacent,
           unsigned long long* first_bad, void* temp, cudaStream_t stream);

}  // namespace adj::triangle_adjacency::device
