// Check's symmetry fingerprint (connected_components.h) on Highway
// lanes. The fingerprint is a sum modulo 2^64, so lanes may add in any order
// and every target gives the bits of the scalar definition. Ids are mixed on
// 32-bit lanes (a bijection of uint32, native multiplies on every target);
// the terms are summed on 64-bit lanes. Rows go a group of a vector's worth
// at a time, by the three paths described in FingerprintRows
// (docs/connected_components.md has the costs).
#include <algorithm>
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

constexpr std::uint32_t kMixMultiplier = 0x7FEB352Du;

// A bijection of uint32: xorshifts and an odd multiply each are one. It
// keeps the fingerprint from being a polynomial in the ids that several
// defects could cancel (a mix nearly linear under v -> 2v + 1 once let a
// single entry through, before H1 had the algebraic form below).
inline std::uint32_t Mix(std::uint32_t v) {
  v ^= v >> 16;
  v *= kMixMultiplier;
  return v ^ (v >> 15);
}

// H1(v) = 2 Mix(v) + 1 is odd and one-to-one on ids (below 2^33, so
// distinct ids differ by a nonzero even number under 2^34), H2 = H1^2. An
// entry (u, v) adds H2(u) H1(v) - H1(u) H2(v) = H1(u) H1(v) (H1(u) - H1(v)):
// two units times a difference that is nonzero modulo 2^64 unless u == v.
// With m = Mix(v) the entry's term is a_u m - b_u m^2 + c_u, so that a row
// needs only the sums of its ids' mixes and of their squares.
struct RowCoefficients {
  std::uint64_t a;  // 2 H2(u) - 4 H1(u)
  std::uint64_t b;  // 4 H1(u)
  std::uint64_t c;  // H2(u) - H1(u)
};
inline RowCoefficients CoefficientsOfRow(std::uint32_t u) {
  const std::uint64_t h1 = 2 * std::uint64_t{Mix(u)} + 1;
  const std::uint64_t h2 = h1 * h1;
  return {2 * h2 - 4 * h1, 4 * h1, h2 - h1};
}

// Row u's entries [begin, end) one at a time: their contribution to the
// fingerprint; sets *bad on an id >= n.
inline std::uint64_t ScalarRowPart(const std::uint32_t* indices,
                                   std::size_t begin, std::size_t end,
                                   std::size_t n, const RowCoefficients& row,
                                   bool* bad) {
  std::uint64_t sum = 0;
  std::uint64_t squares = 0;
  for (std::size_t k = begin; k < end; ++k) {
    const std::uint32_t v = indices[k];
    *bad |= v >= n;
    const std::uint64_t m = Mix(v);
    sum += m;
    squares += m * m;
  }
  return row.a * sum - row.b * squares + row.c * (end - begin);
}

// The definition, one row at a time; every target's result equals it.
inline std::uint64_t ScalarRows(const std::uint32_t* offsets,
                                const std::uint32_t* indices, std::size_t n,
                                std::size_t row_begin, std::size_t row_end,
                                bool* out_of_range, bool* malformed) {
  const std::size_t entries = offsets[n];
  std::uint64_t fingerprint = 0;
  bool bad = false;
  for (std::size_t u = row_begin; u < row_end; ++u) {
    const std::size_t begin = offsets[u];
    const std::size_t end = offsets[u + 1];
    if (end < begin || end > entries) {
      *malformed = true;
      *out_of_range = bad;
      return 0;
    }
    fingerprint +=
        ScalarRowPart(indices, begin, end, n,
                      CoefficientsOfRow(static_cast<std::uint32_t>(u)), &bad);
  }
  *out_of_range = bad;
  return fingerprint;
}

}  // namespace adj::connected_components::detail
#endif

HWY_BEFORE_NAMESPACE();
namespace adj::connected_components::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR
// One lane has no 64-bit half to widen into: the definition itself.
std::uint64_t FingerprintRows(const std::uint32_t* offsets,
                              const std::uint32_t* indices, std::size_t n,
                              std::size_t row_begin, std::size_t row_end,
                              bool* out_of_range, bool* malformed) {
  return ScalarRows(offsets, indices, n, row_begin, row_end, out_of_range,
                    malformed);
}
#else
// Long: the Highway kernel. Its lambdas (lanes widened to 64 bits, an
// entry's term, a row on its own) share the vector descriptors and
// constants set up at its top, and its loop takes each group of rows by
// windows or by gathers; apart, each piece would set them up again.
std::uint64_t FingerprintRows(const std::uint32_t* offsets,
                              const std::uint32_t* indices, std::size_t n,
                              std::size_t row_begin, std::size_t row_end,
                              bool* out_of_range, bool* malformed) {
  const hn::ScalableTag<std::uint32_t> d32;
  const hn::Repartition<std::uint64_t, decltype(d32)> d64;
  const hn::RebindToSigned<decltype(d32)> di32;
  const std::size_t lanes = hn::Lanes(d32);
  const std::size_t entries = offsets[n];
  const auto multiplier = hn::Set(d32, kMixMultiplier);
  const auto low32 = hn::Set(d64, 0xFFFFFFFFull);
  const auto one = hn::Set(d64, 1);
  const auto mix = [&](auto v) {
    v = hn::Xor(v, hn::ShiftRight<16>(v));
    v = hn::Mul(v, multiplier);
    return hn::Xor(v, hn::ShiftRight<15>(v));
  };
  // The 32-bit lanes of `m` as 64-bit numbers: the even lanes and the odd.
  const auto even_of = [&](auto m) {
    return hn::And(hn::BitCast(d64, m), low32);
  };
  const auto odd_of = [&](auto m) {
    return hn::ShiftRight<32>(hn::BitCast(d64, m));
  };
  // m^2 of the even and of the odd lanes, as 64-bit numbers.
  const auto even_squares = [&](auto m) { return hn::MulEven(m, m); };
  const auto odd_squares = [&](auto m) {
    const auto odd = hn::BitCast(d32, odd_of(m));
    return hn::MulEven(odd, odd);
  };
  auto largest = hn::Zero(d32);  // the largest id seen by a vector load
  auto weighted = hn::Zero(d64);
  std::uint64_t fingerprint = 0;
  bool bad = false;
  // Rows go `lanes` at a time. A group whose entries fill at most
  // kWindows vectors (paths, lattices, meshes) takes them a window of
  // `lanes` consecutive entries at a time: one contiguous load of ids, and
  // each entry's row found by a binary search over the group's offsets in
  // registers, not by a gather (gathers cost the most here).
  //
  // Other groups (many rows of 8 entries or more, as in Kronecker graphs)
  // take entry j of each row shorter than kGatheredDegree by one gather,
  // accumulating per row, and their longer rows one at a time. Gathers
  // index with int32; a group's degrees (next - offset, unsigned) are small
  // only where its offsets do not decrease, which also validates them.
  // docs/connected_components.md has the measurements behind kWindows and
  // kGatheredDegree.
  constexpr std::size_t kWindows = 8;
  const std::size_t kGatheredDegree = std::min<std::size_t>(lanes, 8);
  const bool gathers = entries > 0 && entries < (std::size_t{1} << 31);
  const auto last_entry =
      hn::Set(d32, static_cast<std::uint32_t>(gathers ? entries - 1 : 0));
  // entries + 1 < 2^32 wherever the gathers run.
  const auto past_entries =
      hn::Set(d32, static_cast<std::uint32_t>(gathers ? entries + 1 : 0));
  const auto iota = hn::Iota(d32, 0);
  const auto gathered =
      hn::Set(d32, static_cast<std::uint32_t>(kGatheredDegree));
  // The entry's term H1(u) H1(v) (H1(u) - H1(v)) with H1 = 2 m + 1, x and
  // y the mixes of u and v: (4 x y + 2 x + 2 y + 1) 2 (x - y).
  const auto terms = [&](auto x, auto y) {
    const auto term = [&](auto x64, auto y64, auto xy) {
      const auto product = hn::Add(
          hn::Add(hn::ShiftLeft<2>(xy), hn::ShiftLeft<1>(hn::Add(x64, y64))),
          one);
      return hn::Mul(product, hn::ShiftLeft<1>(hn::Sub(x64, y64)));
    };
    const auto x_odd = hn::BitCast(d32, odd_of(x));
    const auto y_odd = hn::BitCast(d32, odd_of(y));
    return hn::Add(term(even_of(x), even_of(y), hn::MulEven(x, y)),
                   term(odd_of(x), odd_of(y), hn::MulEven(x_odd, y_odd)));
  };
  // Row `row` on its own, its offsets validated; false on malformed ones.
  const auto one_row = [&](std::size_t row_index) {
    const std::size_t begin = offsets[row_index];
    const std::size_t end = offsets[row_index + 1];
    if (end < begin || end > entries) return false;
    const RowCoefficients row =
        CoefficientsOfRow(static_cast<std::uint32_t>(row_index));
    if (end - begin < lanes && begin + lanes > entries) {
      fingerprint += ScalarRowPart(indices, begin, end, n, row, &bad);
      return true;
    }
    auto sum = hn::Zero(d64);
    auto squares = hn::Zero(d64);
    const auto accumulate = [&](auto m) {
      sum = hn::Add(sum, hn::Add(even_of(m), odd_of(m)));
      squares = hn::Add(squares, hn::Add(even_squares(m), odd_squares(m)));
    };
    std::size_t k = begin;
    for (; k + lanes <= end; k += lanes) {
      const auto ids = hn::LoadU(d32, indices + k);
      largest = hn::Max(largest, ids);
      accumulate(mix(ids));
    }
    if (k < end) {
      if (k + lanes <= entries) {
        // A whole vector stays inside the array; the lanes past the row
        // count as zero. Their ids belong to the graph all the same, so
        // the range check may see them.
        const auto ids = hn::LoadU(d32, indices + k);
        largest = hn::Max(largest, ids);
        accumulate(hn::IfThenElseZero(hn::FirstN(d32, end - k), mix(ids)));
      } else {
        const RowCoefficients tail_only{row.a, row.b, 0};
        fingerprint += ScalarRowPart(indices, k, end, n, tail_only, &bad);
      }
    }
    weighted =
        hn::Add(weighted, hn::Sub(hn::Mul(hn::Set(d64, row.a), sum),
                                  hn::Mul(hn::Set(d64, row.b), squares)));
    fingerprint += row.c * (end - begin);
    return true;
  };
  const auto fail = [&] {
    *malformed = true;
    *out_of_range = bad;
    return std::uint64_t{0};
  };
  std::size_t u = row_begin;
  for (; u + lanes <= row_end && u + lanes <= n; u += lanes) {
    const std::size_t k0 = offsets[u];
    const std::size_t k_end = offsets[u + lanes];
    const auto first = hn::LoadU(d32, offsets + u);
    const auto next = hn::LoadU(d32, offsets + u + 1);
    const std::size_t span = k_end - k0;
    if (k0 <= k_end && span <= kWindows * lanes &&
        k0 + (span + lanes - 1) / lanes * lanes <= entries &&
        hn::AllFalse(d32, hn::Gt(first, next))) {
      const auto row_mixes =
          mix(hn::Add(iota, hn::Set(d32, static_cast<std::uint32_t>(u))));
      for (std::size_t w = 0; w * lanes < span; ++w) {
        const std::size_t start = k0 + w * lanes;
        // Each entry's row: the last r with first[r] <= its position, by a
        // binary search over the lanes (offsets do not decrease, and an
        // empty row's first equals the next row's, so the row found holds
        // the entry).
        const auto positions =
            hn::Add(iota, hn::Set(d32, static_cast<std::uint32_t>(start)));
        auto local_rows = hn::Zero(d32);
        for (std::size_t step = lanes / 2; step > 0; step /= 2) {
          const auto candidate = hn::Add(
              local_rows, hn::Set(d32, static_cast<std::uint32_t>(step)));
          const auto candidate_first =
              hn::TableLookupLanes(first, hn::IndicesFromVec(d32, candidate));
          local_rows = hn::IfThenElse(hn::Gt(candidate_first, positions),
                                      local_rows, candidate);
        }
        const auto x = hn::TableLookupLanes(
            row_mixes, hn::IndicesFromVec(d32, local_rows));
        const auto ids = hn::LoadU(d32, indices + start);
        largest = hn::Max(largest, ids);
        // Entries past the group's last take their row's own mix: a zero
        // term.
        const auto y = hn::IfThenElse(
            hn::Lt(iota,
                   hn::Set(d32, static_cast<std::uint32_t>(span - w * lanes))),
            mix(ids), x);
        weighted = hn::Add(weighted, terms(x, y));
      }
      continue;
    }
    const auto degrees = hn::Sub(next, first);
    const auto short_rows = hn::Lt(degrees, gathered);
    if (gathers && hn::AllTrue(d32, hn::Lt(first, past_entries))) {
      if (!hn::AllFalse(d32, short_rows)) {
        const auto short_degrees = hn::IfThenElseZero(short_rows, degrees);
        const std::uint32_t longest =
            hn::GetLane(hn::MaxOfLanes(d32, short_degrees));
        auto sum_even = hn::Zero(d64);
        auto sum_odd = hn::Zero(d64);
        auto squares_even = hn::Zero(d64);
        auto squares_odd = hn::Zero(d64);
        for (std::uint32_t j = 0; j < longest; ++j) {
          const auto at = hn::Min(hn::Add(first, hn::Set(d32, j)), last_entry);
          const auto ids = hn::GatherIndex(d32, indices, hn::BitCast(di32, at));
          largest = hn::Max(largest, ids);
          const auto m = hn::IfThenElseZero(
              hn::Lt(hn::Set(d32, j), short_degrees), mix(ids));
          sum_even = hn::Add(sum_even, even_of(m));
          sum_odd = hn::Add(sum_odd, odd_of(m));
          squares_even = hn::Add(squares_even, even_squares(m));
          squares_odd = hn::Add(squares_odd, odd_squares(m));
        }
        // The rows' coefficients, as CoefficientsOfRow, and their terms.
        const auto m_rows =
            mix(hn::Add(iota, hn::Set(d32, static_cast<std::uint32_t>(u))));
        const auto add_terms = [&](auto m_row, auto row_squares, auto sum,
                                   auto squares, auto degree) {
          const auto h1 = hn::Or(hn::ShiftLeft<1>(m_row), one);
          const auto h2 =
              hn::Add(hn::ShiftLeft<2>(hn::Add(row_squares, m_row)), one);
          const auto a = hn::Sub(hn::ShiftLeft<1>(h2), hn::ShiftLeft<2>(h1));
          const auto b = hn::ShiftLeft<2>(h1);
          const auto c = hn::Sub(h2, h1);
          weighted =
              hn::Add(weighted, hn::Sub(hn::Mul(a, sum), hn::Mul(b, squares)));
          weighted = hn::Add(weighted, hn::Mul(c, degree));
        };
        add_terms(even_of(m_rows), even_squares(m_rows), sum_even, squares_even,
                  even_of(short_degrees));
        add_terms(odd_of(m_rows), odd_squares(m_rows), sum_odd, squares_odd,
                  odd_of(short_degrees));
      }
      if (!hn::AllTrue(d32, short_rows)) {
        // Long rows, and rows whose offsets decrease, one at a time.
        for (std::size_t r = 0; r < lanes; ++r) {
          if (offsets[u + r + 1] - offsets[u + r] >= kGatheredDegree ||
              offsets[u + r + 1] < offsets[u + r]) {
            if (!one_row(u + r)) return fail();
          }
        }
      }
      continue;
    }
    for (std::size_t r = 0; r < lanes; ++r) {
      if (!one_row(u + r)) return fail();
    }
  }
  // The rows left over, fewer than a group.
  for (; u < row_end; ++u) {
    if (!one_row(u)) return fail();
  }
  const std::uint32_t largest_id = hn::GetLane(hn::MaxOfLanes(d32, largest));
  bad |= largest_id >= n;
  *out_of_range = bad;
  // Summed as unsigned scalars: GCC's AVX-512 reduction behind
  // SumOfLanes adds 64-bit lanes as signed long long, so wrapping there is
  // undefined behaviour (UBSan reported it on the deep asan run).
  HWY_ALIGN std::uint64_t lanes_of[HWY_MAX_BYTES / sizeof(std::uint64_t)];
  hn::Store(weighted, d64, lanes_of);
  std::uint64_t sum = 0;
  for (std::size_t lane = 0; lane < hn::Lanes(d64); ++lane) {
    sum += lanes_of[lane];
  }
  return fingerprint + sum;
}
#endif

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
