#pragma once

#include <string>
#include <string_view>

namespace adj {

// Where a variant runs. The suite compares variants across backends, so every
// variant table row names its backend.
// kTbb: oneTBB's task scheduler, the threading of the peers built on it
// (their rows give their thread count: Variant::threads).
enum class Backend { kSerial, kSimd, kOpenMp, kCuda, kTbb };

constexpr std::string_view BackendName(Backend backend) {
  switch (backend) {
    case Backend::kSerial:
      return "serial";
    case Backend::kSimd:
      return "simd";
    case Backend::kOpenMp:
      return "openmp";
    case Backend::kCuda:
      return "cuda";
    case Backend::kTbb:
      return "tbb";
  }
  return "unknown";
}

// Whether something can run on this machine, and if not, why.
struct Availability {
  bool available;
  std::string reason;
};

}  // namespace adj
