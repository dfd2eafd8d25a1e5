// Highway compaction: per vector of uint32 values, the flags (one byte each)
// widened to uint32 lanes and compared with 0, the kept lanes compressed to
// the front of the vector and the vector stored at the output cursor. The
// values are in registers before the store, and the cursor never passes the
// read position, so the kernel also compacts in place; a store may write a
// whole vector, which still lies inside the part of the array already read.
#include <array>
#include <cstddef>
#include <cstdint>

#include "algorithms/compaction/compact_kernel.h"
#include "algorithms/compaction/compaction.h"
#include "algorithms/compaction/variants.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "algorithms/compaction/simd.cc"
#include <hwy/foreach_target.h>  // re-includes this file once per target
#include <hwy/highway.h>
//
#include <hwy/cache_control.h>

HWY_BEFORE_NAMESPACE();
namespace adj::compaction::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The kept lanes of v moved to the front (the others' contents unspecified).
// On AVX2, Highway 1.0.3's Compress of 32-bit lanes reads its lane indices
// from a table that is a non-static constexpr local, and GCC 12 copies that
// 1 KiB table to the stack on every call, inside the loop. The same lookup
// here, from a static table: per mask of 8 lanes, the kept lanes' indices as
// nibbles (docs/compaction.md#decisions-and-dead-ends). The other targets
// keep Highway's: AVX-512 compresses natively; SSE4's and SSSE3's tables
// (256 bytes) are non-static too.
#if HWY_TARGET == HWY_AVX2
constexpr std::array<std::uint32_t, 256> kKeptLaneNibbles = [] {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t mask = 0; mask < 256; ++mask) {
    std::uint32_t packed = 0;
    int next = 0;
    for (std::uint32_t lane = 0; lane < 8; ++lane) {
      if ((mask >> lane & 1) != 0) packed |= lane << (4 * next++);
    }
    table[mask] = packed;
  }
  return table;
}();

template <class D, class V, class M>
V CompressKept(D d, V v, M keep) {
  std::uint8_t bits[8] = {};
  hn::StoreMaskBits(d, keep, bits);
  alignas(32) static constexpr std::uint32_t kShifts[8] = {0,  4,  8,  12,
                                                           16, 20, 24, 28};
  const auto nibbles = hn::And(
      hn::Shr(hn::Set(d, kKeptLaneNibbles[bits[0]]), hn::Load(d, kShifts)),
      hn::Set(d, 7u));
  return hn::TableLookupLanes(v, hn::IndicesFromVec(d, nibbles));
}
#else
template <class D, class V, class M>
V CompressKept(D /* d */, V v, M keep) {
  return hn::Compress(v, keep);
}
#endif

// Kept values go through an aligned staging buffer and leave it one whole
// aligned vector at a time by streaming stores; only this call's kept values
// are ever written, so `room` holds trivially. Not for in place: a streamed
// line could land on values not yet read.
std::size_t CompactStreaming(const std::uint32_t* values,
                             const std::uint8_t* flags, std::size_t n,
                             std::uint32_t* out) {
  const hn::ScalableTag<std::uint32_t> d;
  const hn::Rebind<std::uint8_t, decltype(d)> d8;
  const std::size_t lanes = hn::Lanes(d);
  const auto zero = hn::Zero(d);
  std::size_t kept = 0;
  std::size_t i = 0;
  // Scalar until the output cursor is vector-aligned.
  const std::size_t align = lanes * sizeof(std::uint32_t);
  for (; i < n && reinterpret_cast<std::uintptr_t>(out + kept) % align != 0;
       ++i) {
    if (flags[i] == 0) out[kept++] = values[i];
  }
  HWY_ALIGN std::uint32_t stage[2 * hn::MaxLanes(d)];
  std::size_t staged = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto v = hn::LoadU(d, values + i);
    const auto keep = hn::Eq(hn::PromoteTo(d, hn::LoadU(d8, flags + i)), zero);
    hn::StoreU(CompressKept(d, v, keep), d, stage + staged);
    staged += hn::CountTrue(d, keep);
    if (staged >= lanes) {
      hn::Stream(hn::Load(d, stage), d, out + kept);
      kept += lanes;
      staged -= lanes;
      hn::Store(hn::LoadU(d, stage + lanes), d, stage);
    }
  }
  for (std::size_t j = 0; j < staged; ++j) out[kept++] = stage[j];
  for (; i < n; ++i) {
    if (flags[i] == 0) out[kept++] = values[i];
  }
  hwy::FlushStream();
  return kept;
}

std::size_t Compact(const std::uint32_t* values, const std::uint8_t* flags,
                    std::size_t n, std::uint32_t* out, std::size_t room) {
  if (n >= kStreamingMinItems && out != values) {
    return CompactStreaming(values, flags, n, out);
  }
  const hn::ScalableTag<std::uint32_t> d;
  const hn::Rebind<std::uint8_t, decltype(d)> d8;
  const std::size_t lanes = hn::Lanes(d);
  const auto zero = hn::Zero(d);
  std::size_t kept = 0;
  std::size_t i = 0;
  for (; i + lanes <= n && kept + lanes <= room; i += lanes) {
    const auto v = hn::LoadU(d, values + i);
    const auto keep = hn::Eq(hn::PromoteTo(d, hn::LoadU(d8, flags + i)), zero);
    // Compress in a register, then a plain full-vector store: AVX-512's
    // compress-to-memory is microcoded on Zen 4 and slower than the scalar
    // loop (docs/compaction.md#decisions-and-dead-ends).
    hn::StoreU(CompressKept(d, v, keep), d, out + kept);
    kept += hn::CountTrue(d, keep);
  }
  // The rest one at a time, writing only kept values: at the end of a
  // thread's share a branch-free store would land on out[room].
  for (; i < n; ++i) {
    if (flags[i] == 0) out[kept++] = values[i];
  }
  return kept;
}

std::size_t CountKept(const std::uint8_t* flags, std::size_t n) {
  const hn::ScalableTag<std::uint8_t> d8;
  const std::size_t lanes = hn::Lanes(d8);
  const auto zero = hn::Zero(d8);
  std::size_t kept = 0;
  std::size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    kept += hn::CountTrue(d8, hn::Eq(hn::LoadU(d8, flags + i), zero));
  }
  for (; i < n; ++i) kept += flags[i] == 0 ? 1 : 0;
  return kept;
}

}  // namespace adj::compaction::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace adj::compaction {
namespace detail {

HWY_EXPORT(Compact);
HWY_EXPORT(CompactStreaming);
HWY_EXPORT(CountKept);

std::size_t CountKeptKernel(const std::uint8_t* flags, std::size_t n) {
  return HWY_DYNAMIC_DISPATCH(CountKept)(flags, n);
}

std::size_t CompactKernel(const std::uint32_t* values,
                          const std::uint8_t* flags, std::size_t n,
                          std::uint32_t* out, std::size_t room) {
  return HWY_DYNAMIC_DISPATCH(Compact)(values, flags, n, out, room);
}

std::size_t CompactStreamingKernel(const std::uint32_t* values,
                                   const std::uint8_t* flags, std::size_t n,
                                   std::uint32_t* out) {
  return HWY_DYNAMIC_DISPATCH(CompactStreaming)(values, flags, n, out);
}

}  // namespace detail

std::size_t SimdCompact(std::span<const std::uint32_t> values,
                        std::span<const std::uint8_t> flags,
                        std::span<std::uint32_t> out) {
  Check(values, flags, out);
  return detail::CompactKernel(values.data(), flags.data(), values.size(),
                               out.data(), out.size());
}

}  // namespace adj::compaction
#endif  // HWY_ONCE
