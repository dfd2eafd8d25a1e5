// CheckGraph's symmetry fingerprint (connected_components.h) on Highway
// lanes. The fingerprint is a sum modulo 2^64, so lanes may add in any order
// and every target gives the bits of the scalar definition. Rows at least a
// vector long hash their ids a vector at a time and fold them into vector
// accumulators weighted by the row's own hashes (no reduction per row);
// shorter rows, which dominate lattices and paths, stay scalar. On kron20
// the scalar pass took as long as Afforest's whole labelling on 2 threads.
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

constexpr std::uint64_t kMul1 = 0x9E3779B97F4A7C15ull;
constexpr std::uint64_t kMul2 = 0xD6E8FEB86659FD93ull;

// Two cheap 64-bit mixes of an id; H2 is a non-linear function of H1, so
// that the fingerprint's bilinear form H2(u) H1(v) - H1(u) H2(v) has no
// linear structure an asymmetric graph could cancel by accident.
inline std::uint64_t Hash1(std::uint64_t v) {
  const std::uint64_t x = (v + 1) * kMul1;
  return x ^ (x >> 32);
}
inline std::uint64_t Hash2(std::uint64_t h1) {
  const std::uint64_t x = h1 * kMul2;
  return x ^ (x >> 29);
}

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
                              bool* out_of_range) {
  const hn::ScalableTag<std::uint64_t> d64;
  const hn::Rebind<std::uint32_t, decltype(d64)> d32;
  const std::size_t lanes = hn::Lanes(d64);
  const std::size_t entries = offsets[n];
  const auto one = hn::Set(d64, 1);
  const auto mul1 = hn::Set(d64, kMul1);
  const auto mul2 = hn::Set(d64, kMul2);
  // Hash1 and Hash2 of a vector of ids, as in the scalar definition.
  const auto hash = [&](auto ids, auto& h1, auto& h2) {
    const auto x = (hn::PromoteTo(d64, ids) + one) * mul1;
    h1 = hn::Xor(x, hn::ShiftRight<32>(x));
    const auto y = h1 * mul2;
    h2 = hn::Xor(y, hn::ShiftRight<29>(y));
  };
  auto largest = hn::Zero(d32);  // the largest id seen by a vector load
  auto weighted = hn::Zero(d64);
  std::uint64_t fingerprint = 0;
  bool bad = false;
  for (std::size_t u = row_begin; u < row_end; ++u) {
    const std::size_t begin = offsets[u];
    const std::size_t end = offsets[u + 1];
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
        // hash to zero. Their ids belong to the graph all the same, so the
        // range check may see them.
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
                                  std::size_t row_end, bool* out_of_range) {
  return HWY_DYNAMIC_DISPATCH(FingerprintRows)(
      graph.offsets.data(), graph.indices.data(), graph.rows(), row_begin,
      row_end, out_of_range);
}

}  // namespace adj::connected_components::detail
#endif  // HWY_ONCE
