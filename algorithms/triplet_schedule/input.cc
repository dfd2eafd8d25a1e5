#include "algorithms/triplet_schedule/input.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace adj::triplet_schedule {

namespace {

constexpr std::uint32_t kMax16 = std::numeric_limits<std::uint16_t>::max();

}  // namespace

// Throws ValenceLimit when a particle belongs to more than kMaxValence
// triplets (indices already checked). Only inputs of more triplets than
// the limit can reach it, so smaller ones pay nothing.
void CheckValence(std::span<const Triplet> triplets,
                  std::size_t particle_count) {
  if (triplets.size() <= kMaxValence) return;
  std::vector<std::uint32_t> valence(particle_count, 0);
  for (std::size_t i = 0; i < triplets.size(); ++i) {
    for (int k = 0; k < 3; ++k) {
      if (++valence[triplets[i][k]] > kMaxValence) {
        throw ValenceLimit(
            "triplet_schedule: particle " + std::to_string(triplets[i][k]) +
            " belongs to more than " + std::to_string(kMaxValence) +
            " triplets (triplet " + std::to_string(i) +
            "), past the schedulers' valence limit: their colourings are "
            "quadratic in a particle's valence");
      }
    }
  }
}

void Check(std::span<const Triplet> triplets, std::size_t particle_count,
           unsigned index_bits) {
  for (std::size_t i = 0; i < triplets.size(); ++i) {
    const Triplet& triplet = triplets[i];
    for (int k = 0; k < 3; ++k) {
      if (triplet[k] >= particle_count) {
        throw Error("triplet_schedule: triplet " + std::to_string(i) +
                    " refers to particle " + std::to_string(triplet[k]) +
                    ", but there are only " + std::to_string(particle_count) +
                    " particles");
      }
    }
    if (index_bits == 16 && triplet[3] > kMax16) {
      throw Error("triplet_schedule: triplet " + std::to_string(i) +
                  " has weight index " + std::to_string(triplet[3]) +
                  ", which NvCloth's 16-bit output cannot hold");
    }
  }
  CheckValence(triplets, particle_count);
}

bool IsValidSimdWidth(unsigned width) { return width >= 1 && width <= 64; }
bool IsValidWarpWidth(unsigned width) { return width == 16 || width == 32; }

void CheckSimdArguments(std::size_t particle_count, unsigned width,
                        unsigned index_bits) {
  if (!IsValidSimdWidth(width)) {
    throw Error("triplet_schedule: SIMD width " + std::to_string(width) +
                " is outside [1, 64]");
  }
  // The dummy triplet names particles N, N + 1 and N + 2.
  if (particle_count + 2 > std::numeric_limits<std::uint32_t>::max()) {
    throw Error("triplet_schedule: " + std::to_string(particle_count) +
                " particles leave no uint32 ids for the dummy particles");
  }
  if (index_bits == 16 && particle_count + 2 > kMax16) {
    throw Error("triplet_schedule: " + std::to_string(particle_count) +
                " particles need dummy particle " +
                std::to_string(particle_count + 2) +
                ", past NvCloth's 16-bit indices (N + 2 <= 65535); use a "
                "32-bit scheduler");
  }
}

void CheckSimdInput(std::span<const Triplet> triplets,
                    std::size_t particle_count, unsigned width,
                    unsigned index_bits) {
  CheckSimdArguments(particle_count, width, index_bits);
  Check(triplets, particle_count, index_bits);
}

void CheckWarpInput(std::span<const Triplet> triplets,
                    std::size_t particle_count, unsigned width,
                    unsigned index_bits) {
  if (!IsValidWarpWidth(width)) {
    throw Error("triplet_schedule: warp width " + std::to_string(width) +
                " is not 16 or 32");
  }
  if (index_bits == 16 && particle_count > std::size_t{kMax16} + 1) {
    throw Error("triplet_schedule: " + std::to_string(particle_count) +
                " particles do not fit NvCloth's 16-bit indices (at most "
                "65536); use a 32-bit scheduler");
  }
  Check(triplets, particle_count, index_bits);
}

void StartWarpSchedule(std::span<const Triplet> triplets,
                       std::size_t particle_count, unsigned width,
                       unsigned index_bits, Schedule& out) {
  CheckWarpInput(triplets, particle_count, width, index_bits);
  out.set_sizes.clear();
  out.triplets.clear();
  out.padding = 0;
  out.width = width;
  out.index_bits = index_bits;
  out.threads = 1;
}

}  // namespace adj::triplet_schedule
