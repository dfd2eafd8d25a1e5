#pragma once

// hash_grid's verifier: neighbour lists against the brute-force oracle, and
// the statistics of a list (what the benchmark counters and `adjacent
// neighbors` report).

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/common/csr.h"
#include "algorithms/common/points.h"
#include "algorithms/hash_grid/hash_grid.h"

namespace adj::checks::hash_grid {

// The oracle's rows for a cloud, computed once and shared by every variant
// checked on it.
struct Expected {
  std::size_t particles = 0;
  // The particles whose rows are checked, ascending: every particle when
  // `every_row`.
  std::vector<std::size_t> rows;
  // Row k: the oracle's full row of particle rows[k], ascending.
  Csr full_rows;
  bool every_row = false;
  // What the check covers, in words.
  std::string Scope() const;
};

// Every row, by brute force over all pairs: O(N^2).
Expected ExpectedOf(const Points& points, float max_dist);
// `count` rows spread over the ids (particle k * N / count), each by an
// O(N) scan: for clouds too large for the full oracle. Every row when
// count >= N.
Expected ExpectedOnRows(const Points& points, float max_dist,
                        std::size_t count);

// "" when `got` agrees with the oracle on the rows of `expected`, else the
// first difference in words. Whatever the rows: a well-formed list of one
// row per particle, no fewer candidates than entries. On each checked row,
// by the order the variant declares:
//   - ascending: the oracle's row in the list kind (half: j < i), exactly;
//   - cell (full lists only): the oracle's row once sorted, and in the row
//     itself entries by cell (z, y, x; floor(c / spacing) in double), then
//     by id;
//   - Müller's (half lists only): the oracle's half row once sorted and its
//     repeats removed, less the pairs Müller's window misses (those none of
//     whose window cells shares j's bucket: hash_grid.h), and, when
//     `muller_multiplicity`, each j exactly as often as cells of i's window
//     share j's bucket (reference::MullerMultiplicity, O(window cells) per
//     pair); a row whose query meets more candidates than there are
//     particles, entry by entry as reference::MullerRow defines it (the 0s
//     Müller's page stores for the candidates its queryIds drops).
std::string FirstDifference(const Points& points,
                            const adj::hash_grid::Params& params,
                            const Expected& expected,
                            const adj::hash_grid::Neighbors& got,
                            bool muller_multiplicity = true);

// How many of Müller's queries meet more candidates than there are
// particles (the rows that end in the 0s his page stores: hash_grid's
// variants.h, MullerHashGrid).
std::uint64_t MullerQueriesPastSlots(const Points& points,
                                     const adj::hash_grid::Params& params);

// The pairs (i, j < i) of an exact variant's lists (`exact`, any list kind)
// that Müller's query for i never meets: his window, with max_dist, ends
// just before j's cell and no cell of it shares j's bucket (hash_grid.h).
std::vector<std::pair<std::uint32_t, std::uint32_t>> MullerWindowMisses(
    const Points& points, const adj::hash_grid::Params& params,
    const adj::hash_grid::Neighbors& exact);

struct Statistics {
  std::uint64_t entries = 0;
  std::uint64_t duplicates = 0;  // Müller's repeated entries
  std::uint64_t distinct = 0;    // entries - duplicates
  std::uint64_t pairs = 0;       // distinct unordered pairs
  // Per particle: candidates (self and repeats included) and distinct
  // neighbours (2 pairs / N); 0 for an empty cloud.
  double candidates_per_particle = 0;
  double neighbors_per_particle = 0;
  // Distinct neighbours of each particle (a half list counts each pair for
  // both ends).
  std::vector<std::uint64_t> neighbor_counts;
};
Statistics StatisticsOf(const adj::hash_grid::Neighbors& got);

}  // namespace adj::checks::hash_grid
