#include "algorithms/triplet_schedule/triplet_schedule.h"

#include <array>
#include <string>

#include "algorithms/triplet_schedule/input.h"
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/peer_colourings.h"
#include "algorithms/triplet_schedule/variants.h"

namespace adj::triplet_schedule {

std::string TraitsText(const Traits& traits) {
  if (traits.pipeline == Pipeline::kNone) return "";
  std::string text = traits.pipeline == Pipeline::kBreadthFirst
                         ? "pipeline=breadth_first"
                         : "pipeline=bank_matched";
  switch (traits.layout) {
    case Layout::kPipelines:
      break;
    case Layout::kBuiltWhole:
      text += " layout=built_whole";
      break;
    case Layout::kWalked:
      text += " layout=walked";
      break;
    case Layout::kRoundMatched:
      text += " layout=round_matched";
      break;
    case Layout::kTransversal:
      text += " layout=transversal";
      break;
  }
  if (traits.spread_passes > 0) {
    text += " spread_passes=" + std::to_string(traits.spread_passes);
  }
  if (traits.threaded) text += " threaded=yes";
  return text;
}

// The peer rows' colourings (peer_colourings.h).
constexpr PeerColouringRecipe kColPackNatural{
    PeerColouringRecipe::kColPackDistanceOne, ColPackOrdering::kNatural};
constexpr PeerColouringRecipe kColPackLargestFirst{
    PeerColouringRecipe::kColPackDistanceOne, ColPackOrdering::kLargestFirst};
constexpr PeerColouringRecipe kColPackSmallestLast{
    PeerColouringRecipe::kColPackDistanceOne, ColPackOrdering::kSmallestLast};
constexpr PeerColouringRecipe kColPackIncidenceDegree{
    PeerColouringRecipe::kColPackDistanceOne,
    ColPackOrdering::kIncidenceDegree};
constexpr PeerColouringRecipe kColPackDynamicLargestFirst{
    PeerColouringRecipe::kColPackDistanceOne,
    ColPackOrdering::kDynamicLargestFirst};
constexpr PeerColouringRecipe kColPackPd2SmallestLast{
    PeerColouringRecipe::kColPackPartialDistanceTwo,
    ColPackOrdering::kSmallestLast};
constexpr PeerColouringRecipe kBoostSequential{
    PeerColouringRecipe::kBoostSequential};

// Long: the variant table, one row per variant.
std::span<const Variant> SimdSchedulers() {
  static constexpr std::array kVariants = {
      Variant{"nvcloth_simd",
              Backend::kSerial,
              Origin::kFaithful,
              "faithful NvCloth >= 1.1.4 simd(N, W): greedy forward scan for "
              "the first triplet that fits the batch, swapped into place; a "
              "set closes only when none fits, and is padded to a multiple "
              "of W with (N, N+1, N+2, 0); 16-bit output",
              &NvClothSimd,
              {},
              &NvClothSimdTrusted},
      Variant{"nvcloth_simd_legacy",
              Backend::kSerial,
              Origin::kFaithful,
              "faithful PhysX 3.4 / NvCloth 1.0-1.1.3 simd: per-particle "
              "batch marks, conflicting candidates swapped to the back, sets "
              "longer than W trimmed to a multiple of W; padded as "
              "SwCloth did; 16-bit output",
              &NvClothSimdLegacy,
              {},
              &NvClothSimdLegacyTrusted},
      Variant{"stamped_simd",
              Backend::kSerial,
              Origin::kOurs,
              "NvCloth's simd schedule exactly (same sets, order and "
              "padding) with per-particle batch stamps instead of scanning "
              "the batch, and a search that skips triplets the open batch "
              "already rejected; 32-bit output",
              &StampedSimd,
              {},
              &StampedSimdTrusted},
      Variant{.name = "colpack_natural_simd",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "ColPack's greedy distance-1 colouring of the triplets' "
                  "conflict graph in natural (input) order "
                  "(GraphColoringInterface on "
                  "ADOL-C rows); each colour one set, padded to whole batches "
                  "as the suite pads; 32-bit output",
              .run = &PeerSimd<kColPackNatural>,
              .run_trusted = &PeerSimdTrusted<kColPackNatural>,
              .peer = &peers::ColPack},
      Variant{.name = "colpack_largest_first_simd",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "ColPack's greedy distance-1 colouring of the triplets' "
                  "conflict graph in largest-first order "
                  "(GraphColoringInterface on "
                  "ADOL-C rows); each colour one set, padded to whole batches "
                  "as the suite pads; 32-bit output",
              .run = &PeerSimd<kColPackLargestFirst>,
              .run_trusted = &PeerSimdTrusted<kColPackLargestFirst>,
              .peer = &peers::ColPack},
      Variant{.name = "colpack_smallest_last_simd",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "ColPack's greedy distance-1 colouring of the triplets' "
                  "conflict graph in smallest-last order "
                  "(GraphColoringInterface on "
                  "ADOL-C rows); each colour one set, padded to whole batches "
                  "as the suite pads; 32-bit output",
              .run = &PeerSimd<kColPackSmallestLast>,
              .run_trusted = &PeerSimdTrusted<kColPackSmallestLast>,
              .peer = &peers::ColPack},
      Variant{.name = "colpack_incidence_degree_simd",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "ColPack's greedy distance-1 colouring of the triplets' "
                  "conflict graph in incidence-degree order "
                  "(GraphColoringInterface on "
                  "ADOL-C rows); each colour one set, padded to whole batches "
                  "as the suite pads; 32-bit output",
              .run = &PeerSimd<kColPackIncidenceDegree>,
              .run_trusted = &PeerSimdTrusted<kColPackIncidenceDegree>,
              .peer = &peers::ColPack},
      Variant{.name = "colpack_dynamic_largest_first_simd",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "ColPack's greedy distance-1 colouring of the triplets' "
                  "conflict graph in dynamic largest-first order "
                  "(GraphColoringInterface on "
                  "ADOL-C rows); each colour one set, padded to whole batches "
                  "as the suite pads; 32-bit output",
              .run = &PeerSimd<kColPackDynamicLargestFirst>,
              .run_trusted = &PeerSimdTrusted<kColPackDynamicLargestFirst>,
              .peer = &peers::ColPack},
      Variant{.name = "colpack_pd2_smallest_last_simd",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "ColPack's partial distance-2 colouring of the columns "
                  "(triplets) of the particle x triplet pattern in "
                  "smallest-last order: the same conflicts without the "
                  "conflict graph; each colour one set, padded to whole "
                  "batches as the suite pads; 32-bit output",
              .run = &PeerSimd<kColPackPd2SmallestLast>,
              .run_trusted = &PeerSimdTrusted<kColPackPd2SmallestLast>,
              .peer = &peers::ColPack},
      Variant{.name = "boost_sequential_simd",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "Boost.Graph's sequential_vertex_coloring of the conflict "
                  "graph as an undirected adjacency_list, in vertex (input) "
                  "order; each colour one set, padded to whole batches as the "
                  "suite pads; 32-bit output",
              .run = &PeerSimd<kBoostSequential>,
              .run_trusted = &PeerSimdTrusted<kBoostSequential>,
              .peer = &peers::BoostGraph},
  };
  return kVariants;
}

// The recipes of the warp rows of ours (Traits, layouts.h).
constexpr Traits kBfsBanked{Pipeline::kBreadthFirst};
constexpr Traits kBfsBuilt{Pipeline::kBreadthFirst, Layout::kBuiltWhole};
constexpr Traits kBfsBuiltThreaded{Pipeline::kBreadthFirst, Layout::kBuiltWhole,
                                   0, /*threaded=*/true};
constexpr Traits kBfsWalk{Pipeline::kBreadthFirst, Layout::kWalked,
                          /*spread_passes=*/1};
constexpr Traits kBfsWalkThreaded{Pipeline::kBreadthFirst, Layout::kWalked,
                                  /*spread_passes=*/1, /*threaded=*/true};
constexpr Traits kBankMatched{Pipeline::kBankMatched};
constexpr Traits kRoundMatched{Pipeline::kBankMatched, Layout::kRoundMatched};
constexpr Traits kTransversal{Pipeline::kBankMatched, Layout::kTransversal};

// Long: the variant table, one row per variant.
std::span<const Variant> WarpSchedulers() {
  static constexpr std::array kVariants = {
      Variant{"nvcloth_warp", Backend::kSerial, Origin::kFaithful,
              "faithful NvCloth warp(N, W): maxAdj pre-created sets, best "
              "fit by added bank replays (early exit at 0), bank model reset "
              "every W insertions, and the final scatter that reverses each "
              "set (so the model misses the real warps); 16-bit output",
              &NvClothWarp},
      Variant{"nvcloth_warp_forward", Backend::kSerial, Origin::kFixed,
              "NvCloth's warp with a forward scatter (fixed): each set keeps "
              "insertion order, so the bank model matches the real warps; "
              "16-bit output",
              &NvClothWarpForward},
      Variant{"bfs_banked_warp",
              Backend::kSerial,
              Origin::kOurs,
              "greedy smallest-colour in input order where that "
              "takes at most maxAdj + 1 sets or Kempe chains bring it to "
              "maxAdj, else in breadth-first order "
              "over shared particles, most saturated triplet first in each "
              "particle's fan (at most maxAdj + 1 on permuted grids too), "
              "unless input order still takes fewer; colours above maxAdj "
              "then emptied by one-step Kempe swaps; each set cut into full "
              "warps of 32 filled by least added bank replays on the real "
              "layout, 16 warps' costs at once on 16-byte vectors, three "
              "sets at once; 32-bit output",
              &Recipe<kBfsBanked>,
              {},
              nullptr,
              {},
              nullptr,
              kBfsBanked},
      Variant{"bfs_built_warp",
              Backend::kSerial,
              Origin::kOurs,
              "bfs_banked_warp's sets; each set of at least 32 warps has "
              "its full warps built whole, one triplet per slot-0 bank with "
              "slot-1 and slot-2 banks free (fewest-cells bank first, one-step "
              "augmenting repair), leftovers into the holes by fewest added "
              "replays; sets whose first 4 warps leave more than 6 holes, and "
              "smaller ones, keep bfs_banked_warp's layout; fewer replays, "
              "more time; 32-bit output",
              &Recipe<kBfsBuilt>,
              {},
              nullptr,
              {},
              nullptr,
              kBfsBuilt},
      Variant{"bfs_built_warp_openmp",
              Backend::kOpenMp,
              Origin::kOurs,
              "bfs_built_warp's schedule (the same on every thread "
              "count), its sets laid out in parallel, one per OpenMP thread "
              "at a time; the colouring stays serial; 32-bit output",
              &Recipe<kBfsBuiltThreaded>,
              "bfs_built_warp",
              nullptr,
              {},
              nullptr,
              kBfsBuiltThreaded},
      Variant{"bfs_walk_warp",
              Backend::kSerial,
              Origin::kOurs,
              "bfs_built_warp with one pass of bank spreading after "
              "the colouring, sets built from 16 warps (not 32), and a "
              "random walk (WalkSAT's, for 3-D matching) where a warp's "
              "greedy build leaves lanes without a conflict-free triplet; "
              "where the input-order colouring "
              "crowds half the banks (natural alternating grids), NvCloth's "
              "best fit on colour masks instead; 32-bit output",
              &Recipe<kBfsWalk>,
              {},
              nullptr,
              {},
              nullptr,
              kBfsWalk},
      Variant{"bfs_walk_warp_openmp",
              Backend::kOpenMp,
              Origin::kOurs,
              "bfs_walk_warp's schedule (the same on every thread "
              "count), its sets laid out in parallel, one per OpenMP thread "
              "at a time; colouring and spreading stay serial; 32-bit output",
              &Recipe<kBfsWalkThreaded>,
              "bfs_walk_warp",
              nullptr,
              {},
              nullptr,
              kBfsWalkThreaded},
      Variant{"bank_matched_warp",
              Backend::kSerial,
              Origin::kOurs,
              "breadth-first greedy colouring, then the top colour "
              "emptied while one-step Kempe swaps allow (floor maxAdj); each "
              "set matched to its warps of 32 by per-bank bitsets (first "
              "warp free in all 3 banks, else fewest added replays); 32-bit "
              "output",
              &Recipe<kBankMatched>,
              {},
              nullptr,
              {},
              nullptr,
              kBankMatched},
      Variant{"round_matched_warp",
              Backend::kSerial,
              Origin::kOurs,
              "bank_matched_warp's sets; each set whose warps replay "
              "more than 1 % above its floor is also matched round by round "
              "(the set's triplets of one slot-0 bank spread over its warps by "
              "augmenting paths, so that slot 0 stays conflict-free and slots "
              "1-2 fill banks that cost nothing) and keeps the layout with "
              "fewer replays; slower, fewer replays; 32-bit output",
              &Recipe<kRoundMatched>,
              {},
              nullptr,
              {},
              nullptr,
              kRoundMatched},
      Variant{"transversal_warp",
              Backend::kSerial,
              Origin::kOurs,
              "bank_matched_warp's sets; each set whose warps replay "
              "more than 1 % above its floor is also laid out as whole "
              "conflict-free warps (one triplet per slot-0 bank, slot-1 and "
              "slot-2 banks all distinct, found by a depth-limited displacing "
              "search), the leftovers filling the holes where they add fewest "
              "replays, so that conflicts gather in few warps; keeps the "
              "layout with fewer replays; 32-bit output",
              &Recipe<kTransversal>,
              {},
              nullptr,
              {},
              nullptr,
              kTransversal},
      Variant{.name = "colpack_natural_warp",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "ColPack's greedy distance-1 colouring of the triplets' "
                  "conflict graph in natural (input) order "
                  "(GraphColoringInterface on "
                  "ADOL-C rows); each colour one set, laid into warps by "
                  "bfs_banked_warp's layout",
              .run = &PeerWarp<kColPackNatural>,
              .peer = &peers::ColPack},
      Variant{.name = "colpack_largest_first_warp",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "ColPack's greedy distance-1 colouring of the triplets' "
                  "conflict graph in largest-first order "
                  "(GraphColoringInterface on "
                  "ADOL-C rows); each colour one set, laid into warps by "
                  "bfs_banked_warp's layout",
              .run = &PeerWarp<kColPackLargestFirst>,
              .peer = &peers::ColPack},
      Variant{.name = "colpack_smallest_last_warp",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "ColPack's greedy distance-1 colouring of the triplets' "
                  "conflict graph in smallest-last order "
                  "(GraphColoringInterface on "
                  "ADOL-C rows); each colour one set, laid into warps by "
                  "bfs_banked_warp's layout",
              .run = &PeerWarp<kColPackSmallestLast>,
              .peer = &peers::ColPack},
      Variant{.name = "colpack_incidence_degree_warp",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "ColPack's greedy distance-1 colouring of the triplets' "
                  "conflict graph in incidence-degree order "
                  "(GraphColoringInterface on "
                  "ADOL-C rows); each colour one set, laid into warps by "
                  "bfs_banked_warp's layout",
              .run = &PeerWarp<kColPackIncidenceDegree>,
              .peer = &peers::ColPack},
      Variant{.name = "colpack_dynamic_largest_first_warp",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "ColPack's greedy distance-1 colouring of the triplets' "
                  "conflict graph in dynamic largest-first order "
                  "(GraphColoringInterface on "
                  "ADOL-C rows); each colour one set, laid into warps by "
                  "bfs_banked_warp's layout",
              .run = &PeerWarp<kColPackDynamicLargestFirst>,
              .peer = &peers::ColPack},
      Variant{.name = "colpack_pd2_smallest_last_warp",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "ColPack's partial distance-2 colouring of the columns "
                  "(triplets) of the particle x triplet pattern in "
                  "smallest-last order: the same conflicts without the "
                  "conflict graph; each colour one set, laid into warps by "
                  "bfs_banked_warp's layout",
              .run = &PeerWarp<kColPackPd2SmallestLast>,
              .peer = &peers::ColPack},
      Variant{.name = "boost_sequential_warp",
              .backend = Backend::kSerial,
              .origin = Origin::kPeer,
              .description =
                  "Boost.Graph's sequential_vertex_coloring of the conflict "
                  "graph as an undirected adjacency_list, in vertex (input) "
                  "order; each colour one set, laid into warps by "
                  "bfs_banked_warp's layout",
              .run = &PeerWarp<kBoostSequential>,
              .peer = &peers::BoostGraph},
  };
  return kVariants;
}

}  // namespace adj::triplet_schedule
