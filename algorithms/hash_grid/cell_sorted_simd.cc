// cell_sorted's pair test on SIMD lanes: per candidate slot range, the
// slots' float coordinates promoted to double, (dx*dx + dy*dy) + dz*dz
// compared with max_dist^2 as many lanes at a time as a vector of doubles
// holds (8 on AVX-512), then the ids of the set mask bits kept. Each lane
// rounds exactly as the scalar test (Mul and Add, never MulAdd; the family
// builds with -ffp-contract=off), so the lists are the same. Highway,
// dynamic dispatch.
#include <bit>
#include <cstddef>
#include <cstdint>

#include "algorithms/hash_grid/cell_sorted.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "algorithms/hash_grid/cell_sorted_simd.cc"
#include <hwy/foreach_target.h>  // re-includes this file once per target
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace adj::hash_grid::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

std::size_t FilterRow(const double p[3], std::uint32_t self, bool half,
                      const Slots& slots, std::uint32_t begin,
                      std::uint32_t end, double max_dist2, std::uint32_t* row) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const std::size_t lanes = hn::Lanes(dd);
  const auto px = hn::Set(dd, p[0]);
  const auto py = hn::Set(dd, p[1]);
  const auto pz = hn::Set(dd, p[2]);
  const auto limit = hn::Set(dd, max_dist2);
  std::size_t kept = 0;
  const auto keep = [&](std::uint32_t j) {
    const std::uint32_t other = slots.perm[j];
    row[kept] = other;
    kept += (half ? other < self : other != self) ? 1 : 0;
  };
  std::uint32_t j = begin;
  for (; j + lanes <= end; j += static_cast<std::uint32_t>(lanes)) {
    const auto a0 = hn::Sub(px, hn::PromoteTo(dd, hn::LoadU(df, slots.x + j)));
    const auto a1 = hn::Sub(py, hn::PromoteTo(dd, hn::LoadU(df, slots.y + j)));
    const auto a2 = hn::Sub(pz, hn::PromoteTo(dd, hn::LoadU(df, slots.z + j)));
    const auto dist2 =
        hn::Add(hn::Add(hn::Mul(a0, a0), hn::Mul(a1, a1)), hn::Mul(a2, a2));
    std::uint8_t bits[8] = {};
    hn::StoreMaskBits(dd, hn::Le(dist2, limit), bits);
    std::uint64_t near = 0;
    for (std::size_t b = 0; b < (lanes + 7) / 8; ++b) {
      near |= std::uint64_t{bits[b]} << (8 * b);
    }
    for (; near != 0; near &= near - 1) {
      keep(j + static_cast<std::uint32_t>(std::countr_zero(near)));
    }
  }
  for (; j < end; ++j) {
    const double a0 = p[0] - slots.x[j];
    const double a1 = p[1] - slots.y[j];
    const double a2 = p[2] - slots.z[j];
    if (a0 * a0 + a1 * a1 + a2 * a2 <= max_dist2) keep(j);
  }
  return kept;
}

}  // namespace adj::hash_grid::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace adj::hash_grid::detail {

HWY_EXPORT(FilterRow);

std::size_t SimdRowFilter(const double p[3], std::uint32_t self, bool half,
                          const Slots& slots, std::uint32_t begin,
                          std::uint32_t end, double max_dist2,
                          std::uint32_t* row) {
  return HWY_DYNAMIC_DISPATCH(FilterRow)(p, self, half, slots, begin, end,
                                         max_dist2, row);
}

}  // namespace adj::hash_grid::detail
#endif  // HWY_ONCE
