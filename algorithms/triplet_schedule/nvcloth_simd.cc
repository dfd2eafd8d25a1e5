// NvCloth's TripletScheduler::simd (NvCloth >= 1.1.4, TripletScheduler.cpp
// L81-170), step for step: see docs/triplet_schedule.md.
// Kept on purpose: the linear membership scan of the batch (NvCloth's
// particlesInBatch array), the forward scan that restarts at slot i for
// every slot (quadratic at the tail), and the swap that leaves the order
// mostly local. Not kept: the leaked particlesInBatch array.
#include <algorithm>
#include <utility>
#include <vector>

#include "algorithms/triplet_schedule/input.h"
#include "algorithms/triplet_schedule/padding.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "algorithms/triplet_schedule/variants.h"

namespace adj::triplet_schedule {

namespace {

// The scheduler on triplets that passed Check.
void NvClothSimdKernel(std::span<const Triplet> input,
                       std::size_t particle_count, unsigned width,
                       Schedule& out) {
  const std::size_t count = input.size();
  // NvCloth reorders its own copy of the triplets (mTriplets) in place.
  std::vector<Triplet> triplets(input.begin(), input.end());
  std::vector<std::uint32_t>& set_sizes = out.set_sizes;
  set_sizes.clear();
  std::vector<std::uint32_t> batch;
  batch.reserve(3 * width);
  const auto in_batch = [&batch](const Triplet& triplet) {
    for (const std::uint32_t p : batch) {
      if (p == triplet[0] || p == triplet[1] || p == triplet[2]) return true;
    }
    return false;
  };

  std::uint32_t set_size = 0;
  std::size_t i = 0;
  while (i < count) {
    if (set_size % width == 0) batch.clear();
    std::size_t j = i;
    while (j < count && in_batch(triplets[j])) ++j;
    if (j == count) {
      // No remaining triplet completes this batch: close the set and retry
      // triplet i in a fresh one (NvCloth's tIt--).
      set_sizes.push_back(set_size);
      set_size = 0;
      continue;
    }
    batch.insert(batch.end(), triplets[j].begin(), triplets[j].begin() + 3);
    std::swap(triplets[i], triplets[j]);
    ++set_size;
    ++i;
  }
  if (set_size > 0) set_sizes.push_back(set_size);

  // mPaddedTriplets: each set, then dummies up to a multiple of the width.
  out.width = width;
  PadSets(triplets, particle_count, out);
  out.index_bits = 16;
  out.threads = 1;
}

}  // namespace

void NvClothSimd(std::span<const Triplet> input, std::size_t particle_count,
                 unsigned width, Schedule& out) {
  CheckSimdInput(input, particle_count, width, 16);
  NvClothSimdKernel(input, particle_count, width, out);
}

void NvClothSimdTrusted(std::span<const Triplet> input,
                        std::size_t particle_count, unsigned width,
                        Schedule& out) {
  CheckSimdArguments(particle_count, width, 16);
  NvClothSimdKernel(input, particle_count, width, out);
}

}  // namespace adj::triplet_schedule
