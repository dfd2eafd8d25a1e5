#pragma once

#include <cstddef>

namespace adj::bench {

// A copy whose stores bypass the cache (non-temporal), with the best Highway
// target: on machines where std::memcpy does not stream large copies, this is
// the real limit for kernels that stream their output (prefix_sum's simd).
void StreamingCopy(const unsigned char* from, unsigned char* to,
                   std::size_t bytes);

}  // namespace adj::bench
