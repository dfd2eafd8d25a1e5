#pragma once

// triangle_adjacency: particle -> incident triangles as one Csr, the table
// NvCloth's AdjacencyQuerier builds before scheduling (and every cloth solver
// needs for normals, bending and self-collision).
//
// Every variant obeys the same contract:
//   - row p lists every triangle that has p as a corner; a triangle that
//     repeats p (a degenerate one) is listed once per repetition, as NvCloth
//     does, and counts that often towards max_adjacent;
//   - rows come out in a fixed order that the variant reports in
//     Adjacency::order: descending triangle ids (NvCloth's decrementing fill)
//     or ascending (canonical); either way the output is deterministic;
//   - out.csr.rows() == particle_count; out's buffers are reused from call to
//     call, as a simulation rebuilding every frame would;
//   - a particle index >= particle_count, or 3 x triangles entries that do
//     not fit the uint32 offsets, throws triangle_adjacency::Error naming the
//     first offending triangle (out is then unspecified);
//   - no triangles is valid: particle_count empty rows.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "algorithms/common/csr.h"
#include "algorithms/common/errors.h"
#include "algorithms/common/mesh.h"
#include "algorithms/common/variant.h"

namespace adj::triangle_adjacency {

enum class RowOrder { kDescending, kAscending };
std::string_view RowOrderName(RowOrder order);

struct Adjacency {
  Csr csr;
  // NvCloth's maxAdjacentCount: the longest row, the lower bound on the
  // number of colours a triplet scheduler needs.
  std::uint32_t max_adjacent = 0;
  RowOrder order = RowOrder::kDescending;
  // CPU threads the build ran on (small inputs stay on one): what a
  // benchmark row reports as its thread count.
  int threads = 1;
};

class Error : public adj::Error {
 public:
  using adj::Error::Error;
};

using BuildFn = void(std::span<const Triangle> triangles,
                     std::size_t particle_count, Adjacency& out);
using Variant = adj::Variant<BuildFn>;

// The variant table (docs/triangle_adjacency.md lists it); CUDA rows only
// when built with CUDA.
std::span<const Variant> Variants();

// The family's input check as one pass of its own: throws the Error every
// variant throws for (triangles, particle_count) (CheckEntryCount, then the
// first triangle with a corner >= particle_count, by ThrowIndexError).
// The variants do not call it: each makes the same test inside its count
// pass, one compare per corner on values it loads anyway, where a pass of
// its own would read the triangles once more
// (docs/triangle_adjacency.md#the-input-checks-cost); so the table has no
// run_trusted.
void Check(std::span<const Triangle> triangles, std::size_t particle_count);

// Throws Error when 3 x triangles.size() entries overflow uint32 offsets.
// Reads no triangle, so it is safe to call first.
void CheckEntryCount(std::size_t triangle_count);

// The error every variant throws for triangle `triangle`, whose corner
// `particle` is out of range.
[[noreturn]] void ThrowIndexError(std::size_t triangle, std::uint32_t particle,
                                  std::size_t particle_count);

// For the threaded variants: each thread's first bad triangle (SIZE_MAX for
// none) in `first_bad`; throws ThrowIndexError's error for the smallest.
void ThrowFirstIndexError(std::span<const std::size_t> first_bad,
                          std::span<const Triangle> triangles,
                          std::size_t particle_count);

// The implementations, one file each; call them through Variants().
BuildFn NvClothBuild;
BuildFn OpenMpBuild;
BuildFn PartitionedBuild;

// PartitionedBuild's tuning, exposed so that tests can drive its block and
// thread logic with small meshes (blocks of 1 particle, a fork at 1
// triangle per thread).
struct PartitionedTuning {
  int block_shift = 13;  // blocks of 2^block_shift particles
  std::size_t min_triangles_per_thread = std::size_t{1} << 16;
};
void PartitionedBuildTuned(std::span<const Triangle> triangles,
                           std::size_t particle_count, Adjacency& out,
                           const PartitionedTuning& tuning);
// OpenMpBuild's tuning, exposed so that tests can drive its threaded paths
// (paired and lone threads, pairs meeting anywhere, merges over overlapping
// windows, errors) with small meshes.
struct OpenMpTuning {
  // Below this the fork, the barriers, and the cache lines both threads
  // write (rows hold one segment per thread) cost more than they save
  // (docs/triangle_adjacency.md#decisions-and-dead-ends).
  std::size_t min_triangles_per_thread = std::size_t{1} << 16;
  // What a thread of a pair claims at once; the second thread walks the
  // chunks backward, and the hardware prefetcher starts over at each
  // (docs/triangle_adjacency.md#decisions-and-dead-ends).
  std::size_t chunk_triangles = 32768;
  // Pairs meet wherever their work does on scattered meshes only (and never
  // when the fill is ranked); tests set this to drive the meeting on small
  // meshes, which never look scattered.
  bool meet_on_every_mesh = false;
  // Whether the fill places entries by rank: kAuto where a slice has
  // locality and the output aliases the triangles in the page (PageAliased
  // in openmp.cc), which depends on the allocator; tests force either fill.
  enum class RankedFill { kAuto, kAlways, kNever };
  RankedFill ranked_fill = RankedFill::kAuto;
  // Whether the decrementing fill on a slice with locality takes two
  // triangles at once where they share an edge as a quad's two halves do
  // (FillQuadPairs in openmp.cc); tests run it either way.
  bool paired_fill = true;
};
void OpenMpBuildTuned(std::span<const Triangle> triangles,
                      std::size_t particle_count, Adjacency& out,
                      const OpenMpTuning& tuning);
#if ADJ_HAVE_CUDA
BuildFn CudaBuild;
#endif

}  // namespace adj::triangle_adjacency
