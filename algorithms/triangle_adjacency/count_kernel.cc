// openmp.cc's count pass (see count_kernel.h), one Highway target at a
// time: the range check's min / max on vectors, the counting scalar.
#include "algorithms/triangle_adjacency/count_kernel.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

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
  // Ids at or past 2^32 cannot occur, so with that many particles every id
  // is in range.
  const bool checked =
      particle_count <= std::numeric_limits<std::uint32_t>::max();
  const auto limit = hn::Set(d, static_cast<std::uint32_t>(particle_count));
  const auto span_limit = hn::Set(d, kScatteredSpan + 1);
  // The window, folded over whole vectors and reduced once at the end
  // rather than across lanes per block: faster on the shuffled grid, no
  // slower on the plain one
  // (docs/triangle_adjacency.md#decisions-and-dead-ends).
  auto low = hn::Set(d, std::numeric_limits<std::uint32_t>::max());
  auto high = hn::Zero(d);
  // A full block on whole vectors (16 triangles are 48 ids: 3 vectors of
  // 16 lanes, 6 of 8, 12 of 4); anything else (a slice's last block, or
  // lanes that do not divide 48) takes the scalar check.
  const std::size_t vector_entries =
      3 * kCheckBlock % lanes == 0 ? 3 * kCheckBlock : 0;
  for (std::size_t block = begin; block < end; block += kCheckBlock) {
    const std::size_t block_end = std::min(end, block + kCheckBlock);
    const std::uint32_t* ids = triangles[block].data();
    const std::size_t entries = 3 * (block_end - block);
    bool in_range = true;
    bool spread = false;
    auto block_low = hn::Set(d, std::numeric_limits<std::uint32_t>::max());
    auto block_high = hn::Zero(d);
    std::uint32_t tail_low = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t tail_high = 0;
    if (entries == vector_entries) {
      for (std::size_t e = 0; e < entries; e += lanes) {
        const auto v = hn::LoadU(d, ids + e);
        block_low = hn::Min(block_low, v);
        block_high = hn::Max(block_high, v);
      }
      in_range = !checked || hn::AllTrue(d, hn::Lt(block_high, limit));
      // Lane by lane (ids a vector apart), no reduction across lanes: on a
      // mesh with locality no lane spans more than kScatteredSpan.
      spread =
          !hn::AllTrue(d, hn::Lt(hn::Sub(block_high, block_low), span_limit));
    } else {
      for (std::size_t e = 0; e < entries; ++e) {
        tail_low = std::min(tail_low, ids[e]);
        tail_high = std::max(tail_high, ids[e]);
      }
      in_range = tail_high < particle_count;
    }
    if (!in_range) {
      std::size_t t = block;
      while (std::max({triangles[t][0], triangles[t][1], triangles[t][2]}) <
             particle_count) {
        ++t;
      }
      result.first_bad = t;
      break;
    }
    // Only blocks found in range make the window, which the caller clears.
    low = hn::Min(low, block_low);
    high = hn::Max(high, block_high);
    result.low = std::min(result.low, tail_low);
    result.high = std::max(result.high, tail_high);
    // A block whose corners lie far apart misses the cache: prefetch the
    // counts of the block kCountPrefetch triangles ahead (clamped, as it is
    // not yet checked). Elsewhere it only adds instructions.
    const std::size_t ahead = block + kCountPrefetch;
    if (spread && ahead + kCheckBlock <= end) {
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
  result.low = std::min(result.low, hn::GetLane(hn::MinOfLanes(d, low)));
  result.high = std::max(result.high, hn::GetLane(hn::MaxOfLanes(d, high)));
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
