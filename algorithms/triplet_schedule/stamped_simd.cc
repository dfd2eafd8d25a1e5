// Ours: NvCloth's current simd() schedule, exactly (same sets, same order,
// same padding), without its cost: the batch test is three look-ups in
// per-particle stamps (the batch number that last took the particle)
// instead of a scan of the batch's 3W particles, and the forward search
// for a fitting triplet resumes, while the batch stays open, past the
// triplets it has already rejected: they stay rejected until the batch
// closes, because a batch only gains particles.
#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "algorithms/triplet_schedule/input.h"
#include "algorithms/triplet_schedule/padding.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "algorithms/triplet_schedule/variants.h"

namespace adj::triplet_schedule {

namespace {

// The scheduler on triplets that passed Check.
void StampedSimdKernel(std::span<const Triplet> input,
                       std::size_t particle_count, unsigned width,
                       Schedule& out) {
  const std::size_t count = input.size();
  std::vector<std::uint32_t>& set_sizes = out.set_sizes;
  set_sizes.clear();
  // The schedule is built in place in a scratch copy, then padded into out.
  thread_local std::vector<Triplet> order;
  thread_local std::vector<std::uint32_t> stamp;
  order.assign(input.begin(), input.end());
  stamp.assign(particle_count, std::numeric_limits<std::uint32_t>::max());
  const auto fits = [](const Triplet& triplet, std::uint32_t batch) {
    return stamp[triplet[0]] != batch && stamp[triplet[1]] != batch &&
           stamp[triplet[2]] != batch;
  };

  std::uint32_t batch = 0;
  std::uint32_t set_size = 0;
  std::size_t i = 0;
  // Where the search for the open batch resumes: every triplet in
  // [i, resume) was rejected by this batch.
  std::size_t resume = 0;
  while (i < count) {
    if (set_size % width == 0 && set_size != 0) {
      ++batch;
      resume = i;
    }
    std::size_t j = std::max(i, resume);
    while (j < count && !fits(order[j], batch)) ++j;
    if (j == count) {
      set_sizes.push_back(set_size);
      set_size = 0;
      ++batch;
      resume = i;
      continue;
    }
    for (int k = 0; k < 3; ++k) stamp[order[j][k]] = batch;
    // The swap moves order[i], rejected or not yet tried, to j: when j > i
    // it was rejected (j was the first fit at or past i... unless i was
    // past resume), so resuming at j + 1 skips only rejected triplets.
    std::swap(order[i], order[j]);
    resume = j + 1;
    ++set_size;
    ++i;
  }
  if (set_size > 0) set_sizes.push_back(set_size);

  out.width = width;
  PadSets(order, particle_count, out);
  out.index_bits = 32;
  out.threads = 1;
}

}  // namespace

void StampedSimd(std::span<const Triplet> input, std::size_t particle_count,
                 unsigned width, Schedule& out) {
  CheckSimdInput(input, particle_count, width, 32);
  StampedSimdKernel(input, particle_count, width, out);
}

void StampedSimdTrusted(std::span<const Triplet> input,
                        std::size_t particle_count, unsigned width,
                        Schedule& out) {
  CheckSimdArguments(particle_count, width, 32);
  StampedSimdKernel(input, particle_count, width, out);
}

}  // namespace adj::triplet_schedule
