#pragma once

// triplet_schedule: reorder virtual-particle triplets (p0, p1, p2, weight)
// so that the kernels that scatter into their particles can run many at
// once without two touching the same particle. Two targets, two tables:
//
//   simd schedulers (NvCloth's TripletScheduler::simd, width W = SIMD lanes):
//     out.triplets is the input permuted, cut into sets, each set followed
//     by (W - size % W) % W copies of the dummy (N, N+1, N+2, 0); every
//     aligned group of W (a batch) holds W triplets no two of which share a
//     particle below N. A triplet may repeat its own particle.
//
//   warp schedulers (NvCloth's TripletScheduler::warp, W = warp width 16 or
//     32): out.triplets is the input permuted, no padding, cut into
//     consecutive sets (out.set_sizes) that are independent sets: no two
//     triplets of a set share a particle. The order inside a set is what the
//     bank-conflict model optimises: warp m of a set is its positions
//     [32m, 32m + 32).
//
// Every scheduler:
//   - sums out.set_sizes to the triplet count (sizes without padding, as
//     NvCloth's mSetSizes), and reports its padding;
//   - throws triplet_schedule::Error naming the first triplet with a
//     particle index >= particle_count, and, where its output is 16-bit as
//     NvCloth's Vec4us, when an index (the dummies N..N+2 included) or a
//     weight index does not fit 16 bits;
//   - accepts no triplets (no sets) and reuses out's buffers.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/errors.h"
#include "algorithms/common/mesh.h"
#include "algorithms/common/variant.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"

namespace adj::triplet_schedule {

struct Schedule {
  // The final order, padding included (simd).
  std::vector<Triplet> triplets;
  // Triplets per set, padding excluded.
  std::vector<std::uint32_t> set_sizes;
  // Dummy triplets in `triplets`.
  std::uint32_t padding = 0;
  // The lane or warp width the schedule was built for.
  unsigned width = 0;
  // 16 where the variant's output is NvCloth's 16-bit Vec4us (the indices
  // here are those values, widened), else 32.
  unsigned index_bits = 32;
  // Threads the scheduler ran on.
  int threads = 1;
};

class Error : public adj::Error {
 public:
  using adj::Error::Error;
};

// Valid input past the schedulers' stated limit on a particle's valence
// (kMaxValence): their greedy colourings compare a triplet with the sets
// of every triplet it shares a particle with, quadratic in the valence, so
// a fan of 100,000 triangles would take minutes. A caller that runs every
// scheduler reports it as skipped, not as a disagreement.
class ValenceLimit : public Error {
 public:
  using Error::Error;
};

// The most triplets one particle may belong to (cloth meshes have about 6;
// a fan of this many triangles schedules in about a second).
inline constexpr std::size_t kMaxValence = 8192;

using ScheduleFn = void(std::span<const Triplet> triplets,
                        std::size_t particle_count, unsigned width,
                        Schedule& out);
// The shared parts a warp scheduler of ours is a recipe of (layouts.h):
// the pipeline (breadth-first colouring and the banked layout, or bank
// matching), what lays each set out beside the pipeline's own layout,
// passes of bank spreading, and whether the sets are laid out on OpenMP
// threads. The default is no recipe (the NvCloth and simd rows are code of
// their own).
enum class Pipeline { kNone, kBreadthFirst, kBankMatched };
enum class Layout {
  kPipelines,
  kBuiltWhole,
  kWalked,
  kRoundMatched,
  kTransversal
};
struct Traits {
  Pipeline pipeline = Pipeline::kNone;
  Layout layout = Layout::kPipelines;
  int spread_passes = 0;
  bool threaded = false;
};
// "pipeline=breadth_first layout=walked spread_passes=1 threaded=yes",
// "" for no recipe.
std::string TraitsText(const Traits& traits);
using Variant = adj::Variant<ScheduleFn, Traits>;

// Widths each table accepts; anything else is an Error.
inline constexpr unsigned kNvClothSimdWidth = 4;
bool IsValidSimdWidth(unsigned width);  // 1..64
bool IsValidWarpWidth(unsigned width);  // 16 or 32, as NvCloth asserts

std::span<const Variant> SimdSchedulers();
std::span<const Variant> WarpSchedulers();

// The family's input check, the pass over the triplets every scheduler
// opens with (after checking its width and that the particle count and
// dummies fit its index width): throws Error naming the first triplet with
// a particle index >= particle_count, or, when index_bits == 16, a weight
// index past 16 bits. It costs a tenth or more of a simd scheduler, under
// a hundredth of a warp scheduler
// (docs/triplet_schedule.md#the-input-checks-cost): the simd rows have a
// run_trusted (the scheduler after only its O(1) checks of width and
// particle count), the warp rows none.
void Check(std::span<const Triplet> triplets, std::size_t particle_count,
           unsigned index_bits);

// The dummy triplet simd schedules pad with: three particles just past the
// real ones (a consumer keeps them zeroed, inverse mass 0), weight 0.
inline Triplet DummyTriplet(std::size_t particle_count) {
  const auto n = static_cast<std::uint32_t>(particle_count);
  return {n, n + 1, n + 2, 0};
}

// The warp the bank model counts replays in: 32 triplets, whatever the
// schedule's width (NvCloth's calculateNumReplays).
inline constexpr std::uint32_t kWarp = 32;

}  // namespace adj::triplet_schedule
