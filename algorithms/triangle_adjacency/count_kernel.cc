// openmp.cc's count pass (see count_kernel.h), one Highway target at a
// time: the range check's min / max on vectors, the counting scalar.
#include "algorithms/triangle_adjacency/count_kernel.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "algorithms/triangle_adjacency/count_kernel.cc"
#include <hwy/cache_control.h>
#include <hwy/foreach_target.h>  // re-includes this file once per target
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace adj::triangle_adjacency::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

SliceCount CountSlice(const Triangle* triangles, std::size_t begin,
                      std::size_t end, std::size_t particle_count,
                      std::uint32_t* counts, std::uint32_t* rank) {
  const hn::ScalableTag<std::uint32_t> d;
  const std::size_t lanes = hn::Lanes(d);
  SliceCount result;
  for (std::size_t block = begin; block < end; block += kCheckBlock) {
    const std::size_t block_end = std::min(end, block + kCheckBlock);
    const std::uint32_t* ids = triangles[block].data();
    const std::size_t entries = 3 * (block_end - block);
    std::uint32_t block_low = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t block_high = 0;
    std::size_t e = 0;
    if (entries >= lanes) {
      auto low = hn::LoadU(d, ids);
      auto high = low;
      for (e = lanes; e + lanes <= entries; e += lanes) {
        const auto v = hn::LoadU(d, ids + e);
        low = hn::Min(low, v);
        high = hn::Max(high, v);
      }
      block_low = hn::GetLane(hn::MinOfLanes(d, low));
      block_high = hn::GetLane(hn::MaxOfLanes(d, high));
    }
    for (; e < entries; ++e) {
      block_low = std::min(block_low, ids[e]);
      block_high = std::max(block_high, ids[e]);
    }
    if (block_high >= particle_count) {
      std::size_t t = block;
      while (std::max({triangles[t][0], triangles[t][1], triangles[t][2]}) <
             particle_count) {
        ++t;
      }
      result.first_bad = t;
      break;
    }
    result.low = std::min(result.low, block_low);
    result.high = std::max(result.high, block_high);
    // A block whose corners span more than a few pages of counts misses the
    // cache on meshes without locality: prefetch the counts of the block
    // kCountPrefetch triangles ahead (clamped, as it is not yet checked).
    // Meshes with locality skip it: there it only adds instructions.
    const std::size_t ahead = block + kCountPrefetch;
    if (block_high - block_low > kScatteredSpan && ahead + kCheckBlock <= end) {
      const std::uint32_t last = static_cast<std::uint32_t>(particle_count - 1);
      for (std::size_t t = ahead; t < ahead + kCheckBlock; ++t) {
        hwy::Prefetch(counts + std::min(triangles[t][0], last));
        hwy::Prefetch(counts + std::min(triangles[t][1], last));
        hwy::Prefetch(counts + std::min(triangles[t][2], last));
      }
    }
    if (rank == nullptr) {
      for (std::size_t t = block; t < block_end; ++t) {
        ++counts[triangles[t][0]];
        ++counts[triangles[t][1]];
        ++counts[triangles[t][2]];
      }
      continue;
    }
    for (std::size_t t = block; t < block_end; ++t) {
      const std::uint32_t r0 = counts[triangles[t][0]]++;
      const std::uint32_t r1 = counts[triangles[t][1]]++;
      const std::uint32_t r2 = counts[triangles[t][2]]++;
      rank[t] = r0 | r1 << 8 | r2 << 16;
    }
  }
  return result;
}

}  // namespace adj::triangle_adjacency::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace adj::triangle_adjacency::detail {

HWY_EXPORT(CountSlice);

SliceCount CountSliceKernel(const Triangle* triangles, std::size_t begin,
                            std::size_t end, std::size_t particle_count,
                            std::uint32_t* counts, std::uint32_t* rank) {
  return HWY_DYNAMIC_DISPATCH(CountSlice)(triangles, begin, end, particle_count,
                                          counts, rank);
}

}  // namespace adj::triangle_adjacency::detail
#endif  // HWY_ONCE
