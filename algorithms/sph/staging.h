#pragma once

// Internal to algorithms/sph: the host's copies into and out of the CUDA
// steps' page-locked staging buffers (device_step.cuh), on OpenMP
// threads, since one thread's memcpy is slower than the bus and would be
// the copies' limit. Plain C++: compiled with the family's OpenMP flags.

#include <cstddef>

namespace adj::sph::detail {

// to[0, count) = from[0, count), the ranges not overlapping; on the
// OpenMP threads available (one inside a parallel region).
void StagingCopy(float* to, const float* from, std::size_t count);

}  // namespace adj::sph::detail
