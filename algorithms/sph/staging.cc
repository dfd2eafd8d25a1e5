// StagingCopy: a memcpy cut into slices that OpenMP threads copy at once.
#include "algorithms/sph/staging.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"

namespace adj::sph::detail {

void StagingCopy(float* to, const float* from, std::size_t count) {
  // 256 KiB a slice: large beside the cost of handing it to a thread.
  constexpr std::size_t kSlice = std::size_t{1} << 16;
  const auto slices = static_cast<std::int64_t>((count + kSlice - 1) / kSlice);
  ExceptionTrap trap_1;
#pragma omp parallel for schedule(static) if (slices > 1)
  for (std::int64_t s = 0; s < slices; ++s) {
    trap_1.Run([&] {
      fault::Point("sph.staging.1");
      const std::size_t begin = static_cast<std::size_t>(s) * kSlice;
      std::memcpy(to + begin, from + begin,
                  std::min(kSlice, count - begin) * sizeof(float));
    });
  }
  trap_1.Rethrow();
}

}  // namespace adj::sph::detail
