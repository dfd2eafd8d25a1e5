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
//     accepts (WindowReach says why), so every variant finds the same pairs.
//     The faithful `muller` searches Müller's own window, with max_dist in
//     place of the reach: it misses the rare pair whose exact distance
//     exceeds max_dist by less than half an ulp yet rounds to it, where the
//     other particle lies just past a cell boundary (1 and -1e-30, max_dist
//     and spacing 1), exactly when no cell of its window shares the other's
//     bucket (checks/hash_grid.h checks that too);
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
using Variant = adj::Variant<QueryAllFn>;

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

// Müller's parameters as his pages hold them, JavaScript numbers: his cloth
// demo searches maxDist = 0.2 * t / dtSub / 60 = 0.020000000000000004 with
// spacing 0.01, neither of which a float holds.
struct MullerParams {
  double spacing = 0;
  double max_dist = 0;
  std::uint32_t table_size = 0;
};

// The check of the hashed variants, for double parameters.
void Check(const Points& points, const MullerParams& params);

// The faithful variant on Müller's own parameters, computed as his page
// computes with them: MullerQueryAll is this with the float Params widened.
void MullerQueryAllJs(const Points& points, const MullerParams& params,
                      Neighbors& out);

// Müller's intCoord: floor(c / spacing) in double (a float widens exactly).
std::int64_t IntCoord(double c, double spacing);

// How far a window reaches from a particle: the double just above max_dist.
// If the predicate accepts (i, j), then |fl(c_i - c_j)| <= max_dist on
// every axis (a rounded difference of max_dist + ulp or more squares to
// more than max_dist^2, and adding squares never lowers a sum), so the
// exact c_i - c_j is at most max_dist + ulp/2 < reach; as c_j is a double
// and rounding is monotone, fl(c_i - reach) <= c_j <= fl(c_i + reach), and
// dividing by the spacing and flooring keep that order. With max_dist
// itself the bound fails by that half ulp.
double WindowReach(float max_dist);

// Müller's hashCoords with JavaScript semantics, for |x|, |y|, |z| <=
// kMaxCellCoord and table_size > 0: the products wrapped to 32 bits, XORed,
// read as int32, absolute value in 64 bits, modulo table_size.
std::uint32_t MullerHash(std::int64_t x, std::int64_t y, std::int64_t z,
                         std::uint32_t table_size);

// Müller's dense hash (Ten Minute Physics 11 and 15), line for line; see
// docs/hash_grid.md. The positions and
// parameters must have passed Check (the variant does it).
//
// His queryIds is an Int32Array of maxNumObjects (= particles) slots. A
// query that meets more candidates (a bucket visited twice counts twice)
// keeps counting querySize while the typed array drops the writes, and
// queryAll then reads undefined for each slot past the end: `undefined >=
// id0` is false, the distance is NaN, `NaN > maxDist2` is false, and
// adjIds, an Int32Array, stores undefined as 0. So such a row ends with one
// entry 0 per dropped candidate, even in row 0 and at any distance. This
// class does the same (the faithful quirk; the other variants have none).
class MullerHashGrid {
 public:
  MullerHashGrid(double spacing, std::uint32_t table_size);
  // New parameters, the buffers kept.
  void Configure(double spacing, std::uint32_t table_size) {
    spacing_ = spacing;
    table_size_ = table_size;
  }
  // Count per bucket, inclusive scan (bucket ends), decrementing fill (ends
  // become starts, ids inside a bucket descending).
  void Create(const Points& points);
  // The candidates of particle i: every searched cell's bucket appended, no
  // distance test, no de-duplication, self included; at most particles()
  // of them are stored (query_ids), query_size() counts them all.
  std::span<const std::uint32_t> Query(const Points& points, std::size_t i,
                                       double max_dist);
  std::uint64_t query_size() const { return query_size_; }
  // Müller's half list; out.candidates sums the query sizes.
  void QueryAll(const Points& points, double max_dist, Neighbors& out);

  std::span<const std::uint32_t> cell_start() const { return cell_start_; }
  std::span<const std::uint32_t> cell_entries() const { return cell_entries_; }

 private:
  double spacing_;
  std::uint32_t table_size_;
  std::vector<std::uint32_t> cell_start_;  // table_size + 1 (guard)
  std::vector<std::uint32_t> cell_entries_;
  std::vector<std::uint32_t> query_ids_;  // maxNumObjects slots
  std::uint64_t query_size_ = 0;
};

// Entries of `csr` beyond the first of each (row, index) pair: Müller's
// duplicate count (0 for every other variant).
std::uint64_t RepeatedEntries(const Csr& csr);

// The implementations, one file each; call them through Variants(). Each
// X is Check followed by XTrusted, which reads input the caller has checked
// and never validates it (the table's run_trusted).
// What an SPH step needs beside the self-search, CompactNSearch's extras:
// a second point set (fluid particles searching a static boundary set), a
// query at one point, and the cell order handed to the caller. The
// targets are sorted by exact cell once (cell_sorted's engine); a query
// finds every target within max_dist of it by this header's pair test (in
// double, distance <= max_dist), never skipping one of the same id (the
// sets are different). Rows are ascending.
class PointSearch {
 public:
  // Throws Error as Check(targets, params, false) does.
  PointSearch(const Points& targets, const Params& params);
  ~PointSearch();
  PointSearch(PointSearch&&) noexcept;
  PointSearch& operator=(PointSearch&&) noexcept;

  // The targets within max_dist of (x, y, z). Throws Error for a point
  // that is not finite or whose window leaves the cell range (as Check).
  std::vector<std::uint32_t> Query(float x, float y, float z) const;
  // One row per query point (Check on `queries` first).
  Csr QueryAll(const Points& queries) const;
  // The targets in cell order: cell_order()[k] is the id at sorted place
  // k (cells in z, y, x order, ids ascending inside a cell), for the
  // caller to reorder every array of the set alike.
  std::span<const std::uint32_t> cell_order() const;

 private:
  struct Grid;
  std::unique_ptr<Grid> grid_;
  Params params_;
};

QueryAllFn MullerQueryAll;
QueryAllFn CellSortedFull;
QueryAllFn CellSortedHalf;
QueryAllFn CellSortedSimd;
QueryAllFn CellOrderSimd;
QueryAllFn CellOrderSimdOpenMp;
QueryAllFn CellSortedOpenMp;
QueryAllFn MullerQueryAllTrusted;
QueryAllFn CellSortedFullTrusted;
QueryAllFn CellSortedHalfTrusted;
QueryAllFn CellSortedSimdTrusted;
QueryAllFn CellOrderSimdTrusted;
QueryAllFn CellOrderSimdOpenMpTrusted;
QueryAllFn CellSortedOpenMpTrusted;
#if ADJ_HAVE_CUDA
QueryAllFn CudaCellOrder;
QueryAllFn CudaCellOrderTrusted;
#endif
// CellSortedOpenMp with its fork threshold exposed (default 8192 particles
// per thread), so that tests drive the threaded path with small clouds.
void CellSortedOpenMpTuned(const Points& points, const Params& params,
                           Neighbors& out,
                           std::size_t min_particles_per_thread);
void CellOrderSimdOpenMpTuned(const Points& points, const Params& params,
                              Neighbors& out,
                              std::size_t min_particles_per_thread);

}  // namespace adj::hash_grid
