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
// One documented exception: a peer whose library holds only oriented
// manifold meshes (Traits::manifold_only: OpenMesh's and CGAL's halfedge
// meshes) gives the contract's rows on every oriented manifold mesh and on
// anything else either the same rows or NotManifold, naming the triangle
// its library would not take or the particle whose triangles its mesh
// does not all reach.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
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

// A manifold-only peer's refusal: its library's mesh cannot hold the
// triangle it names (a repeated corner, an edge already used in the same
// direction, or one its add-face otherwise refused), or a particle whose
// triangles its mesh took but does not all reach (a vertex with two fans).
// The verification shows it as refused, not as a difference.
class NotManifold : public Error {
 public:
  using Error::Error;
};

using BuildFn = void(std::span<const Triangle> triangles,
                     std::size_t particle_count, Adjacency& out);
struct Traits {
  // The row's library holds only oriented manifold meshes (the exception
  // above); false for every row of the suite's own.
  bool manifold_only = false;
};
// "meshes=manifold" or "".
std::string TraitsText(const Traits& traits);
using Variant = adj::Variant<BuildFn, Traits>;

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

}  // namespace adj::triangle_adjacency
