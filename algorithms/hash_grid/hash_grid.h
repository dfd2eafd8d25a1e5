#pragma once

// hash_grid: fixed-radius neighbour lists, the table cloth self-collision and
// SPH rebuild every frame. Row i of the output lists the particles j != i
// with |p_i - p_j|^2 <= max_dist^2.
//
// Every variant obeys the same contract:
//   - the pair predicate is Müller's, in double precision (JavaScript
//     numbers): dx = double(x_i) - double(x_j) (likewise y, z),
//     d2 = (dx * dx + dy * dy) + dz * dz, rounded op by op (no fused
//     multiply-add), kept when d2 <= double(max_dist)^2. Pairs exactly
//     max_dist apart are neighbours. The predicate is exact whenever the
//     coordinate differences are (coordinates within 2^29 ulps of one
//     another, as every generated test cloud);
//   - which pairs are in is decided by that predicate alone (the oracle
//     tests every pair with it). The cells searched for particle i are the
//     window floor((double(c_i) -/+ WindowReach(max_dist)) /
//     double(spacing)) per axis, which provably holds every j the predicate
//     accepts (variants.h's WindowReach says why: the double just above
//     max_dist), so every variant finds the same pairs. The faithful `muller`
//     searches Müller's own window, with max_dist in place of the reach: it
//     misses the rare pair whose exact distance exceeds max_dist by less than
//     half an ulp yet rounds to it, where the other particle lies just past a
//     cell boundary (1 and -1e-30, max_dist and spacing 1), exactly when no
//     cell of its window shares the other's bucket (checks/hash_grid.h checks
//     that too);
//   - the output says which list it is (Neighbors::list): kHalf is Müller's
//     half list, row i holding only j < i (each unordered pair once, at its
//     larger id); kFull holds each pair in both rows (symmetric);
//   - and in which order rows come (Neighbors::order): kMuller is Müller's
//     queryAll order (searched cells x-major, then y, then z; inside a
//     bucket descending ids, from the decrementing fill), duplicates
//     included when two searched cells share a bucket (the faithful quirk);
//     kAscending rows are strictly ascending, no duplicates; kCell rows
//     follow the cell-sorted grid: by cell (z, then y, then x, cell =
//     floor(double(c) / double(spacing)) per axis), then ascending id inside
//     a cell, no duplicates (what a consumer that walks cells gets, without
//     a sort per row; deterministic, whatever the thread count);
//   - out.csr.rows() == points.size(); out's buffers are reused from call to
//     call;
//   - bad input throws hash_grid::Error before anything is read twice: a
//     NaN or infinite coordinate (naming the first such particle), spacing
//     or max_dist not finite and > 0, max_dist > kMaxWindowRatio x spacing
//     (windows of more than ~2 x 64 + 1 cells per axis), table_size 0 for
//     a hashed variant, a searched cell coordinate with |c| >
//     kMaxCellCoord (Müller's hash is exact in JavaScript only while the
//     products stay below 2^53), more than 2^31 - 1 particles, or more
//     neighbour entries than uint32 offsets can address (the searched cells
//     are those of the widened window);
//   - no particles is valid: one offset, 0.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/csr.h"
#include "algorithms/common/errors.h"
#include "algorithms/common/points.h"
#include "algorithms/common/variant.h"

namespace adj::hash_grid {

struct Params {
  float spacing = 0;   // cell edge length
  float max_dist = 0;  // search radius (inclusive)
  // Buckets of a hashed variant (Müller: 2N in the balls demo, 5N in the
  // cloth demo); variants that key cells exactly ignore it.
  std::uint32_t table_size = 0;
};

enum class ListKind { kHalf, kFull };
enum class RowOrder { kMuller, kAscending, kCell };
std::string_view ListKindName(ListKind kind);
std::string_view RowOrderName(RowOrder order);

struct Neighbors {
  Csr csr;
  ListKind list = ListKind::kHalf;
  RowOrder order = RowOrder::kMuller;
  // Candidate entries the queries handed to the distance test, self and
  // repeats included: the work a variant did per pair found.
  std::uint64_t candidates = 0;
  // CPU threads the variant ran on.
  int threads = 1;
};

class Error : public adj::Error {
 public:
  using adj::Error::Error;
};

// |cell coordinate| limit: 13e6 x 689287499 (the largest multiplier) <
// 2^53, so the JavaScript products are exact and equal the uint32 ones.
constexpr std::int64_t kMaxCellCoord = 13'000'000;
constexpr float kMaxWindowRatio = 64;
constexpr std::size_t kMaxParticles = 0x7fffffff;

using QueryAllFn = void(const Points& points, const Params& params,
                        Neighbors& out);
// A peer whose library builds an index once and then answers queries
// against it (a k-d tree): the row as shipped is the build and the queries;
// the benchmark also times the queries alone on an index built before
// timing (`query:1` rows), as a user who searches one set many times pays.
class PeerIndex {
 public:
  virtual ~PeerIndex() = default;
  // Every point's full list, rows ascending: the row's output.
  virtual void QueryAll(Neighbors& out) const = 0;
};
// Builds a peer's index on `points` (which must outlive it) for
// params.max_dist; the points must have passed Check.
using BuildPeerIndexFn = std::unique_ptr<PeerIndex>(const Points& points,
                                                    const Params& params);
// Whether a row keys cells by Müller's hash into table_size buckets
// (muller: Check asks for a table size) rather than exactly; and for a peer
// with a separate build and query, how to build its index (else null).
struct Traits {
  bool hashed = false;
  BuildPeerIndexFn* build_index = nullptr;
};
// "cells=hashed", "index=separate" or "".
std::string TraitsText(const Traits& traits);
using Variant = adj::Variant<QueryAllFn, Traits>;

// The variant table (docs/hash_grid.md lists it); CUDA rows only when built
// with CUDA.
std::span<const Variant> Variants();

// The family's input check: throws Error unless (points, params) satisfy
// the contract above; the table size is checked only when `hashed` (the
// muller row). One pass over the coordinates. Only the neighbour-entry
// total, which depends on the output, is checked inside the variants.
void Check(const Points& points, const Params& params, bool hashed);

// The table size the command line and the Python package give a hashed
// variant when the caller names none: Müller's balls demo's 2N buckets (at
// least 1, at most 2^32 - 1).
std::uint32_t DefaultTableSize(std::size_t particles);

}  // namespace adj::hash_grid
