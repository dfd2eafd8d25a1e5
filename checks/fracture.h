#pragma once

// fracture's verifier: a variant's frame against the oracle's
// (reference/fracture: the frame recomputed from scratch), and the
// invariants every state between frames keeps.

#include <string>
#include <string_view>

#include "algorithms/common/backend.h"
#include "algorithms/common/csr.h"
#include "algorithms/common/points.h"
#include "algorithms/fracture/fracture.h"

namespace adj::checks::fracture {

// "" when `state` and its belong lists keep every invariant, else the first
// broken one in words: each live cluster non-empty, below max_cluster_size,
// of distinct intact particles, connected through grid neighbours among its
// own members, with its members' rest local positions; deleted slots
// empty; row p of `belong` exactly the live clusters holding p,
// ascending. Written on the oracle's model, not on adj::fracture::Check.
std::string FirstBrokenInvariant(const adj::fracture::State& state,
                                 const Csr& belong,
                                 const adj::fracture::Params& params);

// "" when every particle that is intact in `after` and was in a cluster in
// `before` is in a cluster in `after`.
std::string FirstUnclusteredSurvivor(const adj::fracture::State& before,
                                     const adj::fracture::State& after);

// How a variant chooses its merge targets.
enum class MergeChoice {
  kFirstFit,  // exactly the serial search's
  kPrinted,   // exactly the printed search's (serial_printed)
  kAnyValid,  // any choice the concurrent protocol can make
  // exactly the rounds of proposals the oracle defines (data_parallel)
  kPriorityRounds,
};

// How a row chooses, as its Traits say.
MergeChoice MergeChoiceOf(const adj::fracture::Variant& variant);

// The oracle's frame from `before` on `positions`, with the merge targets
// `merge_choice` defines (not kAnyValid, which defines no one choice): the
// state after it, its belong lists and its report (counts and merges;
// no times). What FirstDifference holds such a variant to.
struct Expected {
  adj::fracture::State after;
  Csr belong;
  adj::fracture::FrameReport report;
};
Expected ExpectedOf(const adj::fracture::State& before, const Points& positions,
                    const adj::fracture::Params& params,
                    MergeChoice merge_choice);

// "" when the frame a variant stepped from `before` on `positions` (giving
// `after`, `belong` and `report`) is the oracle's, else the first
// difference in words. With kAnyValid the variant's merges (report.merges)
// must be a choice the published protocol can make: at most one target per
// new cluster, each an old live cluster holding a neighbour of one of its
// particles, every target's reserved size below max_cluster_size, and a
// new cluster left unmerged only if none of its candidates could still take
// it, a candidate that some merged new cluster could also reach excepted
// (the published Try can leave a phantom reservation there: two threads of
// one new cluster both reserve, one target is recorded; docs/fracture.md);
// the rest of the frame must then be the oracle's for that choice.
std::string FirstDifference(const adj::fracture::State& before,
                            const Points& positions,
                            const adj::fracture::Params& params,
                            MergeChoice merge_choice,
                            const adj::fracture::State& after,
                            const Csr& belong,
                            const adj::fracture::FrameReport& report);

}  // namespace adj::checks::fracture
