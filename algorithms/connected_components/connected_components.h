#pragma once

// connected_components: one label per vertex of an undirected graph, the
// building block of the fracture update (clusters re-split into components
// after particles are removed).
//
// Every variant obeys the same contract:
//   - the input is an undirected graph as a symmetric Csr: row v lists the
//     neighbours of v, and u appears in row v exactly as often as v appears
//     in row u (a symmetrised edge list, duplicates and all). Rows need not
//     be sorted. Self loops (v in row v) and duplicate edges are allowed:
//     they change nothing;
//   - out.labels[v] is the smallest vertex id of v's component (canonical:
//     every variant's labels compare with ==, whatever the thread count or
//     the schedule); out.count is the number of components (the vertices v
//     with labels[v] == v); out's buffers are reused from call to call;
//   - bad input throws connected_components::Error before any label is
//     written: malformed offsets (empty, not starting at 0, decreasing, not
//     ending at the entry count), a neighbour id >= the vertex count (naming
//     the row and entry), more than kMaxVertices vertices, or an asymmetric
//     Csr. Symmetry is checked by a fingerprint in one streaming pass (see
//     Check): a graph one entry away from symmetric (a mirror missing
//     or extra) is always caught, and passing one with more defects takes
//     their terms cancelling modulo 2^64; IsSymmetricExact decides exactly,
//     at the cost of a transpose;
//   - no vertices is valid: no labels, count 0.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "algorithms/common/csr.h"
#include "algorithms/common/errors.h"
#include "algorithms/common/variant.h"

namespace adj::connected_components {

// Labels are vertex ids; 2^32 - 1 stays free as the "no label yet" marker.
constexpr std::size_t kMaxVertices = 0xFFFFFFFEu;

struct Components {
  std::vector<std::uint32_t> labels;
  std::uint32_t count = 0;
  // CPU threads the variant ran on.
  int threads = 1;
};

class Error : public adj::Error {
 public:
  using adj::Error::Error;
};

using LabelFn = void(const Csr& graph, Components& out);
using Variant = adj::Variant<LabelFn>;

// dfs, bfs, union_find, ecl_cc, ecl_cc_openmp, afforest, and cuda_ecl_cc
// when built with CUDA.
std::span<const Variant> Variants();

// Throws Error unless `graph` satisfies the contract above. One pass over
// the offsets and entries checks every row's range and every id and sums the
// fingerprint F = sum over entries (u, v) of H2(u) H1(v) - H1(u) H2(v)
// (mod 2^64; H1 an odd one-to-one mix of the id, H2 = H1^2, so an entry
// adds H1(u) H1(v) (H1(u) - H1(v)), nonzero unless u == v), which is 0 for
// every symmetric Csr since each entry (v, u) cancels its mirror (u, v).
// `threads`
// > 1 splits the pass among OpenMP threads (the parallel variants use it).
void Check(const Csr& graph, int threads = 1);

namespace detail {
// Check's fingerprint over rows [row_begin, row_end) on the best
// Highway target; sets *out_of_range when a neighbour id >= the vertex count
// was seen (possibly one of another row: only the whole graph's verdict
// counts). Offsets need only start at 0 and end at the entry count: a row
// whose range decreases or passes the end sets *malformed_offsets (when
// given) and stops the pass (the fingerprint is then meaningless) before
// any entry outside the array is read.
std::uint64_t SymmetryFingerprint(const Csr& graph, std::size_t row_begin,
                                  std::size_t row_end, bool* out_of_range,
                                  bool* malformed_offsets = nullptr);
}  // namespace detail

// Exact symmetry (u in row v as often as v in row u), by counting-sorting
// the entries into the transpose and comparing rows as multisets. O(V + E)
// time and memory. For well-formed Csr only (ValidateCsr with the vertex
// count as bound).
bool IsSymmetricExact(const Csr& graph);

// Vertices v with labels[v] == v.
std::uint32_t CountRoots(std::span<const std::uint32_t> labels);

}  // namespace adj::connected_components
