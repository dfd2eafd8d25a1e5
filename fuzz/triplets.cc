// Fuzz target: every CPU triplet scheduler on any triplets, particle count
// and width. Whatever the bytes: the scheduler throws triplet_schedule::Error
// or returns a schedule the independent validator accepts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "checks/triplet_schedule.h"
#include "fuzz/fuzz_input.h"

namespace adj::fuzz {
namespace {

namespace ts = triplet_schedule;

void FuzzTriplets(Input& in) {
  const bool simd = (in.Take<std::uint8_t>() & 1) != 0;
  const std::span<const ts::Variant> table =
      simd ? ts::SimdSchedulers() : ts::WarpSchedulers();
  const ts::Variant& variant =
      table[in.Below(static_cast<std::uint32_t>(table.size()))];
  if (!CanRun(variant).available) return;
  // Widths: usually a valid one, sometimes any byte.
  const auto width_byte = in.Take<std::uint8_t>();
  unsigned width = width_byte;
  if (width_byte < 128) {
    width = simd ? 1 + width_byte % 64 : (width_byte % 2 == 0 ? 16 : 32);
  }
  // Particle counts near 16-bit limits too.
  const auto count_byte = in.Take<std::uint8_t>();
  std::size_t particles = count_byte % 48;
  if (count_byte >= 250) particles = 65530 + (count_byte - 250);
  std::vector<Triplet> triplets;
  while (in.remaining() >= 16 && triplets.size() < 256) {
    Triplet triplet;
    for (std::size_t k = 0; k < 4; ++k) {
      const auto raw = in.Take<std::uint32_t>();
      triplet[k] = (raw >> 31) != 0
                       ? raw
                       : raw % static_cast<std::uint32_t>(particles + 1);
    }
    triplets.push_back(triplet);
  }
  ts::Schedule got;
  try {
    variant.run(triplets, particles, width, got);
  } catch (const ts::Error&) {
    return;  // bad input, said in words; anything else escapes and crashes
  }
  const std::string problem = checks::triplet_schedule::FirstProblem(
      triplets, particles,
      simd ? checks::triplet_schedule::Layout::kSimd
           : checks::triplet_schedule::Layout::kWarp,
      width, got);
  if (!problem.empty()) Broken(std::string(variant.name) + ": " + problem);
}

}  // namespace
}  // namespace adj::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  adj::fuzz::Input in(data, size);
  adj::fuzz::FuzzTriplets(in);
  return 0;
}
