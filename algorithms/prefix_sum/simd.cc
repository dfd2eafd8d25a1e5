// Highway prefix sum: each 128-bit block is scanned in registers (two
// shift-and-add steps), then the running total of everything before it is
// added as a broadcast carry. 128-bit blocks on every target because
// ShiftLeftLanes works within blocks: a wider vector would need cross-block
// fix-ups, and at the sizes where speed matters the scan is bound by memory,
// not by lanes.
#include <cstddef>
#include <cstdint>

#include "algorithms/prefix_sum/prefix_sum.h"
#include "algorithms/prefix_sum/variants.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "algorithms/prefix_sum/simd.cc"
#include <hwy/foreach_target.h>  // re-includes this file once per target
#include <hwy/highway.h>
//
#include <hwy/cache_control.h>

HWY_BEFORE_NAMESPACE();
namespace adj::prefix_sum::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Outputs at least this large bypass the cache with streaming stores: they
// cannot stay cached anyway (32 MiB is a typical shared L3), and a normal
// store would first read each line it overwrites, a third memory stream.
constexpr std::size_t kStreamingMinElements = std::size_t{4} << 20;  // 16 MiB

// Four lanes of uint32 (one lane on HWY_SCALAR).
using Block = hn::CappedTag<std::uint32_t, 4>;
constexpr std::size_t kLanes = hn::MaxLanes(Block());

template <class V>
HWY_INLINE V ScanWithinBlock(Block d, V v) {
#if HWY_TARGET == HWY_SCALAR
  (void)d;  // one lane: already its own prefix
#else
  static_assert(kLanes == 4);
  v = hn::Add(v, hn::ShiftLeftLanes<1>(d, v));
  v = hn::Add(v, hn::ShiftLeftLanes<2>(d, v));
#endif
  return v;
}

template <bool kExclusive, bool kStreaming>
HWY_INLINE std::uint32_t ScanLoop(const std::uint32_t* in, std::uint32_t* out,
                                  std::size_t n) {
  const Block d;
  std::uint32_t running = 0;
  std::size_t i = 0;
  const auto scalar_step = [&](std::size_t k) HWY_ATTR {
    const std::uint32_t value = in[k];
    out[k] = kExclusive ? running : running + value;
    running += value;
  };
  if constexpr (kStreaming) {
    // Streaming stores need aligned addresses: peel a scalar head.
    while (i < n && reinterpret_cast<std::uintptr_t>(out + i) % 16 != 0) {
      scalar_step(i++);
    }
  }
  const auto store = [&](auto scanned, auto input, std::uint32_t* to) HWY_ATTR {
    const auto result = kExclusive ? hn::Sub(scanned, input) : scanned;
    if constexpr (kStreaming) {
      hn::Stream(result, d, to);
    } else {
      hn::StoreU(result, d, to);
    }
  };
  auto carry = hn::Set(d, running);
  // Four blocks per step, scanned among themselves first; only the final
  // carry add depends on the previous step, so the serial chain is one add
  // per 16 elements instead of an add and a broadcast per 4.
  for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
    const auto v0 = hn::LoadU(d, in + i);
    const auto v1 = hn::LoadU(d, in + i + kLanes);
    const auto v2 = hn::LoadU(d, in + i + 2 * kLanes);
    const auto v3 = hn::LoadU(d, in + i + 3 * kLanes);
    const auto t0 = ScanWithinBlock(d, v0);
    const auto t1 =
        hn::Add(ScanWithinBlock(d, v1), hn::Broadcast<kLanes - 1>(t0));
    const auto t2 =
        hn::Add(ScanWithinBlock(d, v2), hn::Broadcast<kLanes - 1>(t1));
    const auto t3 =
        hn::Add(ScanWithinBlock(d, v3), hn::Broadcast<kLanes - 1>(t2));
    store(hn::Add(t0, carry), v0, out + i);
    store(hn::Add(t1, carry), v1, out + i + kLanes);
    store(hn::Add(t2, carry), v2, out + i + 2 * kLanes);
    store(hn::Add(t3, carry), v3, out + i + 3 * kLanes);
    carry = hn::Add(carry, hn::Broadcast<kLanes - 1>(t3));
  }
  for (; i + kLanes <= n; i += kLanes) {
    const auto v = hn::LoadU(d, in + i);
    const auto s = hn::Add(ScanWithinBlock(d, v), carry);
    carry = hn::Broadcast<kLanes - 1>(s);
    store(s, v, out + i);
  }
  running = hn::GetLane(carry);
  for (; i < n; ++i) scalar_step(i);
  if constexpr (kStreaming) hwy::FlushStream();
  return running;
}

std::uint32_t ScanKernel(bool exclusive, const std::uint32_t* in,
                         std::uint32_t* out, std::size_t n) {
  if (n >= kStreamingMinElements) {
    return exclusive ? ScanLoop<true, true>(in, out, n)
                     : ScanLoop<false, true>(in, out, n);
  }
  return exclusive ? ScanLoop<true, false>(in, out, n)
                   : ScanLoop<false, false>(in, out, n);
}

}  // namespace adj::prefix_sum::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace adj::prefix_sum {

HWY_EXPORT(ScanKernel);

std::uint32_t SimdScan(Kind kind, std::span<const std::uint32_t> in,
                       std::span<std::uint32_t> out) {
  Check(in, out);
  return HWY_DYNAMIC_DISPATCH(ScanKernel)(kind == Kind::kExclusive, in.data(),
                                          out.data(), in.size());
}

}  // namespace adj::prefix_sum
#endif  // HWY_ONCE
