#include "algorithms/triplet_schedule/triplet_schedule.h"

#include <array>

#include "algorithms/triplet_schedule/input.h"
#include "algorithms/triplet_schedule/variants.h"

namespace adj::triplet_schedule {

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
  };
  return kVariants;
}

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
      Variant{"bfs_banked_warp", Backend::kSerial, Origin::kOurs,
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
              &BfsBankedWarp},
      Variant{"bfs_built_warp", Backend::kSerial, Origin::kOurs,
              "bfs_banked_warp's sets; each set of at least 32 warps has "
              "its full warps built whole, one triplet per slot-0 bank with "
              "slot-1 and slot-2 banks free (fewest-cells bank first, one-step "
              "augmenting repair), leftovers into the holes by fewest added "
              "replays; sets whose first 4 warps leave more than 6 holes, and "
              "smaller ones, keep bfs_banked_warp's layout; fewer replays, "
              "more time; 32-bit output",
              &BfsBuiltWarp},
      Variant{"bfs_built_warp_openmp", Backend::kOpenMp, Origin::kOurs,
              "bfs_built_warp's schedule (the same on every thread "
              "count), its sets laid out in parallel, one per OpenMP thread "
              "at a time; the colouring stays serial; 32-bit output",
              &BfsBuiltWarpOpenMp, "bfs_built_warp"},
      Variant{"bfs_walk_warp", Backend::kSerial, Origin::kOurs,
              "bfs_built_warp with one pass of bank spreading after "
              "the colouring, sets built from 16 warps (not 32), and a "
              "random walk (WalkSAT's, for 3-D matching) where a warp's "
              "greedy build leaves lanes without a conflict-free triplet; "
              "where the input-order colouring "
              "crowds half the banks (natural alternating grids), NvCloth's "
              "best fit on colour masks instead; 32-bit output",
              &BfsWalkWarp},
      Variant{"bfs_walk_warp_openmp", Backend::kOpenMp, Origin::kOurs,
              "bfs_walk_warp's schedule (the same on every thread "
              "count), its sets laid out in parallel, one per OpenMP thread "
              "at a time; colouring and spreading stay serial; 32-bit output",
              &BfsWalkWarpOpenMp, "bfs_walk_warp"},
      Variant{"bank_matched_warp", Backend::kSerial, Origin::kOurs,
              "breadth-first greedy colouring, then the top colour "
              "emptied while one-step Kempe swaps allow (floor maxAdj); each "
              "set matched to its warps of 32 by per-bank bitsets (first "
              "warp free in all 3 banks, else fewest added replays); 32-bit "
              "output",
              &BankMatchedWarp},
      Variant{"round_matched_warp", Backend::kSerial, Origin::kOurs,
              "bank_matched_warp's sets; each set whose warps replay "
              "more than 1 % above its floor is also matched round by round "
              "(the set's triplets of one slot-0 bank spread over its warps by "
              "augmenting paths, so that slot 0 stays conflict-free and slots "
              "1-2 fill banks that cost nothing) and keeps the layout with "
              "fewer replays; slower, fewer replays; 32-bit output",
              &RoundMatchedWarp},
      Variant{"transversal_warp", Backend::kSerial, Origin::kOurs,
              "bank_matched_warp's sets; each set whose warps replay "
              "more than 1 % above its floor is also laid out as whole "
              "conflict-free warps (one triplet per slot-0 bank, slot-1 and "
              "slot-2 banks all distinct, found by a depth-limited displacing "
              "search), the leftovers filling the holes where they add fewest "
              "replays, so that conflicts gather in few warps; keeps the "
              "layout with fewer replays; 32-bit output",
              &TransversalWarp},
  };
  return kVariants;
}

}  // namespace adj::triplet_schedule
