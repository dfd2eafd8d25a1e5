#include "benchmarks/streaming_copy.h"

#include <cstdint>
#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "benchmarks/streaming_copy.cc"
#include <hwy/foreach_target.h>  // re-includes this file once per target
#include <hwy/highway.h>
//
#include <hwy/cache_control.h>

HWY_BEFORE_NAMESPACE();
namespace adj::bench::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void StreamingCopyKernel(const unsigned char* from, unsigned char* to,
                         std::size_t bytes) {
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d);
  std::size_t i = 0;
  // Streaming stores need aligned destinations.
  while (i < bytes && reinterpret_cast<std::uintptr_t>(to + i) % lanes != 0) {
    to[i] = from[i];
    ++i;
  }
  for (; i + lanes <= bytes; i += lanes) {
    hn::Stream(hn::LoadU(d, from + i), d, to + i);
  }
  std::memcpy(to + i, from + i, bytes - i);
  hwy::FlushStream();
}

}  // namespace adj::bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace adj::bench {

HWY_EXPORT(StreamingCopyKernel);

void StreamingCopy(const unsigned char* from, unsigned char* to,
                   std::size_t bytes) {
  HWY_DYNAMIC_DISPATCH(StreamingCopyKernel)(from, to, bytes);
}

}  // namespace adj::bench
#endif  // HWY_ONCE
