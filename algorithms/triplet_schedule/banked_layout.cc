// BfsBankedSchedule, the pipeline of the bfs_* warp schedulers: colour
// first, then lay each colour out in warps for the banks.
//
// Colouring: greedy smallest free colour in input order where that takes
// at most maxAdj + 1 colours, or where RemoveColours with Kempe chains
// brings it from at most maxAdj + 3 down to maxAdj; else
// BreadthFirstColouring (the same greedy, breadth first over shared
// particles, most saturated triplet first in each particle's fan) unless
// input order still takes fewer; then RemoveColours toward maxAdj.
//
// Banks: each set of n triplets is cut into ceil(n / 32) warps, all full
// but the last, and its triplets are placed, in colouring order, into the
// warp whose bank replays grow least (NvCloth's cost model: a slot costs 1
// when its bank already holds that slot's maximum), the first such among
// the kWarpWindow warps from the first open one (full ones skipped). The
// model is the real layout: warp m is
// positions [32m, 32m + 32) of the set. The window's 16 costs are computed
// at once on 16-byte vectors (GCC / Clang vector extensions: plain SSE2 on
// baseline x86-64, where Highway 1.0.3's static target is scalar), with the
// scalar loop's placements (docs/triplet_schedule.md#decisions-and-dead-ends).
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_schedule/bank_model.h"
#include "algorithms/triplet_schedule/colouring.h"
#include "algorithms/triplet_schedule/input.h"
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/padding.h"
#include "algorithms/triplet_schedule/recolouring.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {
namespace {

// With spreading (bfs_walk_warp), input-order colourings whose
// SetReplaysFloor exceeds this many tenths of ideal try
// WarpModelColouring: the natural alternating grids are far above it, every
// other input-order colouring of the scenes below it. Tuned: see
// docs/triplet_schedule.md#decisions-and-dead-ends (kBestFitAbove).
constexpr std::uint64_t kBestFitAbove = 16;

// Input-order colourings up to maxAdj + this many colours go to
// RemoveColours before the breadth-first colouring is tried.
constexpr std::uint32_t kInputOrderRepairs = 3;

// How many warps a triplet may try, from the first open one (full ones
// among them skipped): one byte per warp in a WarpBytes. The model's greedy,
// not the window, limits the replays: see
// docs/triplet_schedule.md#decisions-and-dead-ends (kWarpWindow).
constexpr std::uint32_t kWarpWindow = 16;
using WarpBytes = std::uint8_t __attribute__((vector_size(kWarpWindow)));
using WarpWords = std::uint64_t __attribute__((vector_size(kWarpWindow)));

WarpBytes LoadWindow(const std::uint8_t* bytes) {
  WarpBytes window;
  std::memcpy(&window, bytes, sizeof window);
  return window;
}

void StoreWindow(std::uint8_t* bytes, WarpBytes window) {
  std::memcpy(bytes, &window, sizeof window);
}

WarpBytes Min(WarpBytes a, WarpBytes b) { return a < b ? a : b; }
WarpBytes Max(WarpBytes a, WarpBytes b) { return a > b ? a : b; }

static_assert(std::endian::native == std::endian::little,
              "SmallestByte folds towards byte 0 by right shifts");

// The smallest byte, folding halves of the vector, then of each 8-byte
// word, by SSE2 shuffles and shifts (a byte shuffle would need SSSE3).
std::uint8_t SmallestByte(WarpBytes bytes) {
  const auto words = reinterpret_cast<WarpWords>(bytes);
#if defined(__clang__)
  const WarpWords swapped = __builtin_shufflevector(words, words, 1, 0);
#else
  const WarpWords swapped = __builtin_shuffle(words, WarpWords{1, 0});
#endif
  bytes = Min(bytes, reinterpret_cast<WarpBytes>(swapped));
  for (const int shift : {32, 16, 8}) {
    bytes = Min(bytes, reinterpret_cast<WarpBytes>(
                           reinterpret_cast<WarpWords>(bytes) >> shift));
  }
  return bytes[0];
}

// One set's warps as bytes, warp-contiguous so that a window of
// kWarpWindow warps is one WarpBytes: per slot and bank, how many of a
// warp's triplets hold that bank in that slot; per slot, the most on one
// bank (at least 1: NvCloth's replay count); whether the warp is full.
// Every row runs kWarpWindow warps past the last, marked full.
struct SetWarps {
  std::uint32_t stride = 0;
  std::vector<std::uint8_t> counts;   // [slot][bank][warp]
  std::vector<std::uint8_t> replays;  // [slot][warp]
  std::vector<std::uint8_t> full;     // [warp]: 0xff when full, else 0
  std::vector<std::uint8_t> size;     // [warp]
  std::vector<std::uint32_t> warp_of;

  void Reset(std::uint32_t warps) {
    stride = warps + kWarpWindow;
    counts.assign(3 * kBanks * stride, 0);
    replays.assign(3 * stride, 1);
    full.assign(stride, 0xff);
    std::fill(full.begin(), full.begin() + warps, 0);
    size.assign(warps, 0);
  }
  std::uint8_t* Counts(int slot, std::uint32_t particle, std::uint32_t warp) {
    return &counts[(slot * kBanks + particle % kBanks) * stride + warp];
  }
};

// Places a set's triplets into its warps, one Place per triplet in set
// order, then writes them to out in warp order (Finish).
// Sets laid out at once, a triplet of each in turn: each placement is a
// chain of dependent loads and stores through its own set's counts, and
// independent chains overlap in the core; SSE2's 16 vector registers are
// too few for four (docs/triplet_schedule.md#decisions-and-dead-ends).
constexpr std::size_t kInterleaved = 3;

class SetLayout {
 public:
  SetLayout() {
    for (std::uint32_t j = 0; j < kWarpWindow; ++j) {
      lane_[j] = static_cast<std::uint8_t>(j);
    }
  }
  void Start(std::span<const Triplet> set, Triplet* out) {
    set_ = set;
    out_ = out;
    n_ = static_cast<std::uint32_t>(set.size());
    warp_count_ = (n_ + kWarp - 1) / kWarp;
    warps_.Reset(warp_count_);
    warps_.warp_of.resize(n_);
    first_open_ = 0;
  }
  std::uint32_t size() const { return n_; }

  void Place(std::uint32_t i) {
    SetWarps& warps = warps_;
    std::uint32_t first_open = first_open_;
    while (warps.full[first_open] != 0) ++first_open;
    first_open_ = first_open;
    // Each warp's key: its added replays (0-3) x 16, plus 64 if full, plus
    // its lane, so that the smallest key is the first warp of least cost.
    std::uint8_t* counts[3];
    WarpBytes count[3];
    WarpBytes most[3];
    WarpBytes key = (LoadWindow(&warps.full[first_open]) & 0x40) | lane_;
    for (int k = 0; k < 3; ++k) {
      counts[k] = warps.Counts(k, set_[i][k], first_open);
      count[k] = LoadWindow(counts[k]);
      most[k] = LoadWindow(&warps.replays[k * warps.stride + first_open]);
      key += reinterpret_cast<WarpBytes>(count[k] == most[k]) & 0x10;
    }
    // Lane 0 is open, so a key below 0x10 there is a warp that costs nothing.
    const std::uint32_t best = key[0] < 0x10 ? 0 : SmallestByte(key) & 0xf;
    const WarpBytes chosen =
        reinterpret_cast<WarpBytes>(lane_ == static_cast<std::uint8_t>(best)) &
        1;
    for (int k = 0; k < 3; ++k) {
      const WarpBytes grown = count[k] + chosen;
      StoreWindow(counts[k], grown);
      StoreWindow(&warps.replays[k * warps.stride + first_open],
                  Max(most[k], grown));
    }
    const std::uint32_t warp = first_open + best;
    const std::uint32_t capacity =
        warp + 1 < warp_count_ ? kWarp : n_ - kWarp * (warp_count_ - 1);
    if (++warps.size[warp] == capacity) warps.full[warp] = 0xff;
    warps.warp_of[i] = warp;
  }

  void Finish() {
    cursor_.resize(warp_count_);
    for (std::uint32_t w = 0; w < warp_count_; ++w) cursor_[w] = w * kWarp;
    for (std::uint32_t i = 0; i < n_; ++i) {
      out_[cursor_[warps_.warp_of[i]]++] = set_[i];
    }
  }

 private:
  SetWarps warps_;
  WarpBytes lane_;
  std::span<const Triplet> set_;
  Triplet* out_ = nullptr;
  std::uint32_t n_ = 0;
  std::uint32_t warp_count_ = 0;
  std::uint32_t first_open_ = 0;
  std::vector<std::uint32_t> cursor_;
};

}  // namespace

// Long: the scheduler's decisions in order (which colouring to keep,
// whether to repair it, bank spreading, the sets' layout, on threads or
// not), each reading what the ones before it chose; the comment at each
// step is its design record.
void BfsBankedSchedule(std::span<const Triplet> input,
                       std::size_t particle_count, unsigned width,
                       Schedule& out, const BfsOptions& options) {
  SetBuilder* const builder = options.builder;
  const int threads = options.threads;
  StartWarpSchedule(input, particle_count, width, 32, out);
  if (input.empty()) return;
  const triangle_adjacency::Adjacency adjacency =
      TripletAdjacency(input, particle_count);
  if (options.colour) {
    LayOutSets(input, options.colour(adjacency), builder, threads, out);
    return;
  }
  // Greedy in input order first, where its masks allow, kept where it
  // takes at most maxAdj + 1 colours: a mesh in generator order often
  // does, and its sets then replay no more than breadth-first ones (the
  // natural grids replay less:
  // docs/triplet_schedule.md#decisions-and-dead-ends), and the breadth-first
  // colouring is not run. Elsewhere the breadth-first one is kept unless input
  // order still takes fewer colours. maxAdj is a floor only where no triplet
  // names a particle twice (NvCloth's adjacency lists such a triplet twice in
  // that row), so with a repeat the breadth-first colouring always runs.
  const bool masked = adjacency.max_adjacent <= kMaskedMaxAdjacent;
  const bool floor_holds =
      std::none_of(input.begin(), input.end(), [](const Triplet& triplet) {
        return triplet[0] == triplet[1] || triplet[1] == triplet[2] ||
               triplet[0] == triplet[2];
      });
  Colouring colouring =
      masked ? InputOrderColouring(input, particle_count) : Colouring{};
  bool input_order = masked;
  // A few colours above maxAdj + 1 (the real meshes' input orders: bunny00
  // and both elephants, 2-3 above maxAdj), RemoveColours first: with its
  // Kempe chains it brings them down to maxAdj, which no colouring can
  // beat, at a fraction of the breadth-first colouring's time. Kept only
  // there; the permuted grids' input orders, further above, are not tried
  // (docs/triplet_schedule.md#decisions-and-dead-ends, kInputOrderRepairs).
  if (masked && floor_holds && colouring.colours > adjacency.max_adjacent + 1 &&
      colouring.colours <= adjacency.max_adjacent + kInputOrderRepairs) {
    std::vector<std::uint32_t> repaired = colouring.colour;
    const std::uint32_t colours =
        RemoveColours(input, adjacency, repaired, colouring.colours,
                      adjacency.max_adjacent, /*kempe_chains=*/true);
    if (colours == adjacency.max_adjacent) {
      colouring.colour = std::move(repaired);
      colouring.colours = colours;
    }
  }
  if (!masked || !floor_holds ||
      colouring.colours > adjacency.max_adjacent + 1) {
    Colouring breadth_first =
        BreadthFirstColouring(input, adjacency, FanOrder::kMostSaturated);
    if (!masked || breadth_first.colours <= colouring.colours) {
      colouring = std::move(breadth_first);
      input_order = false;
    }
  }
  // Sets already in the order of their warps (WarpModelColouring's), which
  // no layout below changes.
  bool laid_out = false;
  if (options.spread_passes > 0 && input_order && floor_holds) {
    // A natural grid with alternating diagonals, coloured smallest first in
    // input order, puts each colour's slot-0 particles on the 16 banks of
    // one parity (SetReplaysFloor 2 x ideal), and neither spreading nor
    // any of the layouts here brings it down; NvCloth's best fit by the
    // warp model, whose warps are its sets in input order, reaches 1.33
    // there (bfs_walk_warp's rows from 2048 to 32768 triplets,
    // reports/medians/epyc-avx2-2vcpu/triplet_schedule-0844896.json). Where the
    // input-order colouring is that crowded, the best fit is run too and kept
    // if it takes at most maxAdj + 1 colours and replays less than any layout
    // of the first could. At 250^2 quads the best fit's sets stay far above
    // their floor, and the layouts tried on them do no better: see
    // docs/triplet_schedule.md#decisions-and-dead-ends.
    std::uint64_t ideal = 0;
    const std::uint64_t crowded = ColouringReplaysFloor(
        input, colouring.colour, colouring.colours, ideal);
    if (crowded * 10 > ideal * kBestFitAbove) {
      std::uint64_t replays = 0;
      Colouring best_fit = WarpModelColouring(input, particle_count,
                                              adjacency.max_adjacent, replays);
      if (best_fit.colours <= adjacency.max_adjacent + 1 && replays < crowded) {
        colouring = std::move(best_fit);
        laid_out = true;
      }
    }
  }
  // Then colours above maxAdj are emptied where one-step Kempe swaps can:
  // greedy leaves many real meshes one to three above it; a failed try stops
  // at the first triplet that cannot move, so it costs little
  // (docs/triplet_schedule.md#decisions-and-dead-ends).
  const std::uint32_t floor = floor_holds ? adjacency.max_adjacent : 1;
  if (colouring.colours > floor && !laid_out) {
    colouring.colours = RemoveColours(input, adjacency, colouring.colour,
                                      colouring.colours, floor);
  }
  if (options.spread_passes > 0 && !laid_out) {
    SpreadBanks(input, adjacency, particle_count, colouring.colour,
                colouring.colours, options.spread_passes);
  }
  if (laid_out) {
    const std::vector<std::uint32_t> members =
        GroupByColour(colouring, out.set_sizes);
    out.triplets.resize(members.size());
    for (std::size_t i = 0; i < members.size(); ++i) {
      out.triplets[i] = input[members[i]];
    }
    return;
  }
  LayOutSets(input, colouring, builder, threads, out);
}

void LayOutSets(std::span<const Triplet> input, const Colouring& colouring,
                SetBuilder* builder, int threads, Schedule& out) {
  const std::vector<std::uint32_t> members =
      GroupByColour(colouring, out.set_sizes);

  // Each set, in colouring order, laid out.
  std::vector<Triplet> by_set(members.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    by_set[i] = input[members[i]];
  }
  out.triplets.resize(members.size());
  std::vector<std::size_t> starts(out.set_sizes.size() + 1, 0);
  for (std::size_t c = 0; c < out.set_sizes.size(); ++c) {
    starts[c + 1] = starts[c] + out.set_sizes[c];
  }
  // Every set's layout depends on that set alone, so with threads > 1 the
  // sets are shared out among them (the builder's state is thread_local)
  // and the schedule is the same on every thread count. The sets `builder`
  // declines (all without one) are laid out by Place, kInterleaved at a
  // time.
  const auto set_count = static_cast<std::int64_t>(out.set_sizes.size());
  std::vector<std::uint8_t> built(out.set_sizes.size(), 0);
  std::vector<std::size_t> placed_sets;
  int team = 1;
  // Every piece of work runs in the trap, so that a thread that fails
  // still reaches every barrier and worksharing loop.
  ExceptionTrap trap;
#pragma omp parallel num_threads(std::max(threads, 1)) if (threads > 1)
  {
#pragma omp single
    team = omp_get_num_threads();
    if (builder != nullptr) {
#pragma omp for schedule(dynamic, 1)
      for (std::int64_t c = 0; c < set_count; ++c) {
        trap.Run([&] {
          fault::Point("triplet_schedule.banked_layout.build");
          built[c] =
              builder(std::span(by_set).subspan(starts[c], out.set_sizes[c]),
                      out.triplets.data() + starts[c]);
        });
      }
    }
#pragma omp single
    trap.Run([&] {
      for (std::int64_t c = 0; c < set_count; ++c) {
        if (built[c] == 0) placed_sets.push_back(static_cast<std::size_t>(c));
      }
    });
    SetLayout layouts[kInterleaved];
    const auto groups = static_cast<std::int64_t>(
        (placed_sets.size() + kInterleaved - 1) / kInterleaved);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t group = 0; group < groups; ++group) {
      trap.Run([&] {
        fault::Point("triplet_schedule.banked_layout.place");
        const std::size_t first =
            static_cast<std::size_t>(group) * kInterleaved;
        std::uint32_t common = ~0u;
        for (std::size_t j = 0; j < kInterleaved; ++j) {
          if (first + j < placed_sets.size()) {
            const std::size_t c = placed_sets[first + j];
            layouts[j].Start(
                std::span(by_set).subspan(starts[c], out.set_sizes[c]),
                out.triplets.data() + starts[c]);
          } else {
            layouts[j].Start({}, nullptr);
          }
          common = std::min(common, layouts[j].size());
        }
        for (std::uint32_t i = 0; i < common; ++i) {
          for (SetLayout& layout : layouts) layout.Place(i);
        }
        for (SetLayout& layout : layouts) {
          for (std::uint32_t i = common; i < layout.size(); ++i)
            layout.Place(i);
          layout.Finish();
        }
      });
    }
  }
  trap.Rethrow();
  out.threads = team;
}

int LayoutThreads(std::size_t triplets) {
  return triplets >= kThreadedTriplets ? omp_get_max_threads() : 1;
}

}  // namespace adj::triplet_schedule
