#pragma once

// Internal to the family: the implementations behind the table and their
// tuning hooks. The table's own file and the family's tests include it;
// the build refuses it anywhere else (everyone else goes through
// Variants()).

#include "algorithms/hash_grid/hash_grid.h"

namespace adj::hash_grid {

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
// Peers (origin kPeer): the library's radius search behind the family's
// contract; without it at build time they throw Unavailable.
QueryAllFn NanoflannKdTree;
QueryAllFn NanoflannKdTreeTrusted;
QueryAllFn Open3dFixedRadius;
QueryAllFn Open3dFixedRadiusTrusted;
QueryAllFn CgalKdTree;
QueryAllFn CgalKdTreeTrusted;
QueryAllFn PclKdTree;
QueryAllFn PclKdTreeTrusted;
QueryAllFn PclOctree;
QueryAllFn PclOctreeTrusted;
// Their indexes (Traits::build_index); XTrusted is BuildXIndex then
// QueryAll.
BuildPeerIndexFn BuildNanoflannIndex;
BuildPeerIndexFn BuildOpen3dIndex;
BuildPeerIndexFn BuildCgalIndex;
BuildPeerIndexFn BuildPclKdTreeIndex;
BuildPeerIndexFn BuildPclOctreeIndex;
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
