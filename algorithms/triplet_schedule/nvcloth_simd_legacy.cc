// The simd scheduler of PhysX 3.4 and NvCloth 1.0-1.1.3
// (LowLevelCloth/src/TripletScheduler.cpp), step for step: see
// docs/triplet_schedule.md. Per-particle marks stamped
// with the batch number make the fit test O(1); a triplet that does not fit
// is swapped with the one at the tail, so rejected triplets pile up at the
// back; when a batch cannot be filled the set closes and, if longer than W,
// gives its last (size % W) triplets back to be scheduled again. The
// padding is the one SwCloth::setVirtualParticles then added: each set
// filled up to a multiple of W with the dummy (N, N+1, N+2, 0).
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
void NvClothSimdLegacyKernel(std::span<const Triplet> input,
                             std::size_t particle_count, unsigned width,
                             Schedule& out) {
  const std::size_t count = input.size();
  std::vector<Triplet> triplets(input.begin(), input.end());
  std::vector<std::uint32_t> mark(particle_count,
                                  std::numeric_limits<std::uint32_t>::max());
  const auto marked = [&mark](const Triplet& triplet, std::uint32_t batch) {
    return mark[triplet[0]] == batch || mark[triplet[1]] == batch ||
           mark[triplet[2]] == batch;
  };
  std::vector<std::uint32_t>& set_sizes = out.set_sizes;
  set_sizes.clear();

  std::uint32_t batch = 0;
  std::size_t set_size = 0;
  std::size_t it = 0;
  while (it != count) {
    const std::size_t last = it + std::min<std::size_t>(width, count - it);
    std::size_t tail = count;
    while (it != last && it != tail) {
      while (marked(triplets[it], batch)) {
        --tail;
        if (it == tail) break;
        std::swap(triplets[it], triplets[tail]);
      }
      if (it == tail) break;
      for (int k = 0; k < 3; ++k) mark[triplets[it][k]] = batch;
      ++it;
      ++set_size;
    }
    if (it == tail) {
      // The batch could not be completed: close the set, trimmed to a
      // multiple of W when longer than W.
      if (set_size > width) {
        const std::size_t overflow = set_size % width;
        set_size -= overflow;
        it -= overflow;
      }
      set_sizes.push_back(static_cast<std::uint32_t>(set_size));
      set_size = 0;
    }
    ++batch;
  }

  out.width = width;
  PadSets(triplets, particle_count, out);
  out.index_bits = 16;
  out.threads = 1;
}

}  // namespace

void NvClothSimdLegacy(std::span<const Triplet> input,
                       std::size_t particle_count, unsigned width,
                       Schedule& out) {
  CheckSimdInput(input, particle_count, width, 16);
  NvClothSimdLegacyKernel(input, particle_count, width, out);
}

void NvClothSimdLegacyTrusted(std::span<const Triplet> input,
                              std::size_t particle_count, unsigned width,
                              Schedule& out) {
  CheckSimdArguments(particle_count, width, 16);
  NvClothSimdLegacyKernel(input, particle_count, width, out);
}

}  // namespace adj::triplet_schedule
