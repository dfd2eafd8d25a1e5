#pragma once

// The random numbers of the published expansion, callable from host and
// device code so that every variant draws the same ones. Internal to the
// family.

#include <cstdint>

#if defined(__CUDACC__)
#define ADJ_FRACTURE_HD __host__ __device__
#else
#define ADJ_FRACTURE_HD
#endif

namespace adj::fracture::detail {

// SplitMix64 (Steele, Lea and Flood 2014).
class SplitMix64 {
 public:
  ADJ_FRACTURE_HD explicit SplitMix64(std::uint64_t state) : state_(state) {}
  ADJ_FRACTURE_HD std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

// ExpansionSeed's definition (fracture.h).
ADJ_FRACTURE_HD inline std::uint64_t MixedSeed(std::uint64_t seed,
                                               std::uint64_t frame,
                                               std::uint32_t slot) {
  const auto mix = [](std::uint64_t state) { return SplitMix64(state).Next(); };
  return mix(seed ^ mix(frame ^ mix(slot)));
}

}  // namespace adj::fracture::detail
