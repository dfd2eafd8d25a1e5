// Check's symmetry fingerprint (connected_components.h) on Highway
// lanes. The fingerprint is a sum modulo 2^64, so lanes may add in any order
// and every target gives the bits of the scalar definition. Rows at least a
// vector long hash their ids a vector at a time and fold them into vector
// accumulators weighted by the row's own hashes (no reduction per row);
// shorter rows, which dominate lattices, paths and meshes, go a vector of
// rows at a time, entry j of each by one gather (docs/connected_components.md
// has the costs).
#include <cstddef>
#include <cstdint>

#include "algorithms/connected_components/connected_components.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE \
  "algorithms/connected_components/symmetry_fingerprint.cc"
#include <hwy/foreach_target.h>  // re-includes this file once per target
#include <hwy/highway.h>

#ifndef ADJ_CONNECTED_COMPONENTS_FINGERPRINT_MIXES
#define ADJ_CONNECTED_COMPONENTS_FINGERPRINT_MIXES
namespace adj::connected_components::detail {

constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
constexpr std::uint64_t kLow63 = ~0ull >> 1;

// H1 is odd and one-to-one on ids: an odd multiply and a right xorshift
// are bijections of 63-bit numbers, and 2x + 1 keeps them apart. H2 = H1^2.
// An entry (u, v) then adds H1(u) H1(v) (H1(u) - H1(v)): a product of two
// units and a difference that vanishes only for u == v, so one missing or
// extra mirror never cancels (mixes built from multiplies and xorshifts
// alone, as before, were nearly linear under v -> 2v + 1 and missed the
// single entry 48 -> 97). The xorshift keeps the sum from being a
// polynomial in the ids that several defects could cancel.
inline std::uint64_t Hash1(std::uint64_t v) {
  std::uint64_t x = (v * kMul) & kLow63;
  x ^= x >> 31;
  return (x << 1) | 1;
}
inline std::uint64_t Hash2(std::uint64_t h1) { return h1 * h1; }

// Row u's entries [begin, end) one at a time: their contribution to the
// fingerprint; sets *bad on an id >= n.
inline std::uint64_t ScalarRowPart(const std::uint32_t* indices,
                                   std::size_t begin, std::size_t end,
                                   std::size_t n, std::uint64_t h1u,
                                   std::uint64_t h2u, bool* bad) {
  std::uint64_t sum1 = 0;
  std::uint64_t sum2 = 0;
  for (std::size_t k = begin; k < end; ++k) {
    const std::uint32_t v = indices[k];
    *bad |= v >= n;
    const std::uint64_t h1 = Hash1(v);
    sum1 += h1;
    sum2 += Hash2(h1);
  }
  return h2u * sum1 - h1u * sum2;
}

}  // namespace adj::connected_components::detail
#endif

HWY_BEFORE_NAMESPACE();
namespace adj::connected_components::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

std::uint64_t FingerprintRows(const std::uint32_t* offsets,
                              const std::uint32_t* indices, std::size_t n,
                              std::size_t row_begin, std::size_t row_end,
                              bool* out_of_range, bool* malformed) {
  const hn::ScalableTag<std::uint64_t> d64;
  const hn::Rebind<std::uint32_t, decltype(d64)> d32;
  const hn::RebindToSigned<decltype(d32)> di32;
  const std::size_t lanes = hn::Lanes(d64);
  const std::size_t entries = offsets[n];
  const auto one = hn::Set(d64, 1);
  const auto mul = hn::Set(d64, kMul);
  const auto low63 = hn::Set(d64, kLow63);
  // Hash1 and Hash2 of a vector of ids, as in the scalar definition.
  const auto hash = [&](auto ids, auto& h1, auto& h2) {
    auto x = hn::And(hn::PromoteTo(d64, ids) * mul, low63);
    x = hn::Xor(x, hn::ShiftRight<31>(x));
    h1 = hn::Or(hn::ShiftLeft<1>(x), one);
    h2 = h1 * h1;
  };
  auto largest = hn::Zero(d32);  // the largest id seen by a vector load
  auto weighted = hn::Zero(d64);
  std::uint64_t fingerprint = 0;
  bool bad = false;
  // Groups of `lanes` rows shorter than `lanes` entries each take one
  // vector: entry j of every row by a gather, so that short rows (lattices,
  // paths, meshes) need no scalar loop. Gathers index with int32, and the
  // group's degrees (next - offset, unsigned) are all small only when its
  // offsets do not decrease, which also validates them.
  const bool gathers = entries > 0 && entries < (std::size_t{1} << 31);
  const auto last_entry =
      hn::Set(d32, static_cast<std::uint32_t>(gathers ? entries - 1 : 0));
  // entries + 1 < 2^32 wherever the gathers run.
  const auto past_entries =
      hn::Set(d32, static_cast<std::uint32_t>(gathers ? entries + 1 : 0));
  const auto iota = hn::Iota(d64, 0);
  std::size_t u = row_begin;
  while (u < row_end) {
    if (gathers && u + lanes <= row_end) {
      const auto first = hn::LoadU(d32, offsets + u);
      const auto degrees = hn::Sub(hn::LoadU(d32, offsets + u + 1), first);
      const std::uint32_t longest = hn::GetLane(hn::MaxOfLanes(d32, degrees));
      const bool within = hn::AllTrue(d32, hn::Lt(first, past_entries));
      if (longest < lanes && within) {
        const auto rows = hn::Add(iota, hn::Set(d64, u));
        auto x = hn::And(rows * mul, low63);
        x = hn::Xor(x, hn::ShiftRight<31>(x));
        const auto h1u = hn::Or(hn::ShiftLeft<1>(x), one);
        const auto h2u = h1u * h1u;
        const auto degrees64 = hn::PromoteTo(d64, degrees);
        auto sum1 = hn::Zero(d64);
        auto sum2 = hn::Zero(d64);
        for (std::uint32_t j = 0; j < longest; ++j) {
          const auto at = hn::Min(hn::Add(first, hn::Set(d32, j)), last_entry);
          const auto ids = hn::GatherIndex(d32, indices, hn::BitCast(di32, at));
          largest = hn::Max(largest, ids);
          const auto in_row = hn::Lt(hn::Set(d64, j), degrees64);
          auto h1 = hn::Zero(d64);
          auto h2 = hn::Zero(d64);
          hash(ids, h1, h2);
          sum1 = sum1 + hn::IfThenElseZero(in_row, h1);
          sum2 = sum2 + hn::IfThenElseZero(in_row, h2);
        }
        weighted = weighted + h2u * sum1 - h1u * sum2;
        u += lanes;
        continue;
      }
    }
    // One row at a time: long rows, the last rows of the range, and groups
    // whose offsets the check above did not accept.
    const std::size_t group_end = std::min(row_end, u + lanes);
    for (; u < group_end; ++u) {
      const std::size_t begin = offsets[u];
      const std::size_t end = offsets[u + 1];
      if (end < begin || end > entries) {
        *malformed = true;
        *out_of_range = bad;
        return 0;
      }
      const std::uint64_t h1u = Hash1(u);
      const std::uint64_t h2u = Hash2(h1u);
      if (end - begin < lanes) {
        fingerprint += ScalarRowPart(indices, begin, end, n, h1u, h2u, &bad);
        continue;
      }
      auto sum1 = hn::Zero(d64);
      auto sum2 = hn::Zero(d64);
      std::size_t k = begin;
      for (; k + lanes <= end; k += lanes) {
        const auto ids = hn::LoadU(d32, indices + k);
        largest = hn::Max(largest, ids);
        auto h1 = hn::Zero(d64);
        auto h2 = hn::Zero(d64);
        hash(ids, h1, h2);
        sum1 = sum1 + h1;
        sum2 = sum2 + h2;
      }
      if (k < end) {
        if (k + lanes <= entries) {
          // A whole vector stays inside the array; the lanes past the row
          // hash to zero. Their ids belong to the graph all the same, so
          // the range check may see them.
          const auto ids = hn::LoadU(d32, indices + k);
          largest = hn::Max(largest, ids);
          const auto in_row = hn::FirstN(d64, end - k);
          auto h1 = hn::Zero(d64);
          auto h2 = hn::Zero(d64);
          hash(ids, h1, h2);
          sum1 = sum1 + hn::IfThenElseZero(in_row, h1);
          sum2 = sum2 + hn::IfThenElseZero(in_row, h2);
        } else {
          fingerprint += ScalarRowPart(indices, k, end, n, h1u, h2u, &bad);
        }
      }
      weighted = weighted + hn::Set(d64, h2u) * sum1 - hn::Set(d64, h1u) * sum2;
    }
  }
  const std::uint32_t largest_id = hn::GetLane(hn::MaxOfLanes(d32, largest));
  bad |= largest_id >= n;
  *out_of_range = bad;
  return fingerprint + hn::GetLane(hn::SumOfLanes(d64, weighted));
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace adj::connected_components::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace adj::connected_components::detail {

HWY_EXPORT(FingerprintRows);

std::uint64_t SymmetryFingerprint(const Csr& graph, std::size_t row_begin,
                                  std::size_t row_end, bool* out_of_range,
                                  bool* malformed_offsets) {
  bool malformed = false;
  const std::uint64_t fingerprint = HWY_DYNAMIC_DISPATCH(FingerprintRows)(
      graph.offsets.data(), graph.indices.data(), graph.rows(), row_begin,
      row_end, out_of_range, &malformed);
  if (malformed_offsets != nullptr) *malformed_offsets = malformed;
  return fingerprint;
}

}  // namespace adj::connected_components::detail
#endif  // HWY_ONCE
