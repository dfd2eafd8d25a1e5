#include <cstddef>

#include "algorithms/prefix_sum/prefix_sum.h"
#include "algorithms/prefix_sum/variants.h"

namespace adj::prefix_sum {

std::uint32_t SerialScan(Kind kind, std::span<const std::uint32_t> in,
                         std::span<std::uint32_t> out) {
  Check(in, out);
  std::uint32_t running = 0;
  if (kind == Kind::kInclusive) {
    for (std::size_t i = 0; i < in.size(); ++i) {
      running += in[i];
      out[i] = running;
    }
  } else {
    for (std::size_t i = 0; i < in.size(); ++i) {
      const std::uint32_t value = in[i];  // read first: out may alias in
      out[i] = running;
      running += value;
    }
  }
  return running;
}

}  // namespace adj::prefix_sum
