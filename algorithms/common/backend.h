#pragma once

#include <string>
#include <string_view>

namespace adj {

// Where a variant runs. The suite compares variants across backends, so every
// variant table row names its backend.
enum class Backend { kSerial, kSimd, kOpenMp, kCuda };

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
  }
  return "unknown";
}

// Whether something can run on this machine, and if not, why.
struct Availability {
  bool available;
  std::string reason;
};

}  // namespace adj
