// ColPack's greedy colourings of the triplets, called as its documentation
// shows for a pattern held in memory: ADOL-C's compressed rows (row r:
// its length, then its column indices), a GraphColoringInterface (distance
// 1, on the conflict graph) or BipartiteGraphPartialColoringInterface
// (partial distance 2, columns of the particle x triplet pattern), then
// the colouring under the ordering asked for. Serial, as ColPack's
// sequential colourings are.
#include "algorithms/triplet_schedule/peer_colourings.h"

#if ADJ_HAVE_PEER_COLPACK
#include <ColPack/ColPackHeaders.h>
#endif

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace adj::triplet_schedule {

std::string_view ColPackOrderingName(ColPackOrdering ordering) {
  switch (ordering) {
    case ColPackOrdering::kNatural:
      return "NATURAL";
    case ColPackOrdering::kLargestFirst:
      return "LARGEST_FIRST";
    case ColPackOrdering::kSmallestLast:
      return "SMALLEST_LAST";
    case ColPackOrdering::kIncidenceDegree:
      return "INCIDENCE_DEGREE";
    case ColPackOrdering::kDynamicLargestFirst:
      return "DYNAMIC_LARGEST_FIRST";
  }
  return "NATURAL";
}

namespace {

#if ADJ_HAVE_PEER_COLPACK
// ADOL-C's compressed rows over `rows`: each row's length, then its
// entries, the pointers into one buffer.
struct AdolcPattern {
  std::vector<unsigned int> words;
  std::vector<unsigned int*> rows;
};

// The colouring from ColPack's colours (0-based, one per vertex), the
// triplets in input order inside each colour.
Colouring FromColours(const std::vector<int>& colours) {
  Colouring colouring;
  colouring.colour.resize(colours.size());
  std::uint32_t count = 0;
  for (std::size_t t = 0; t < colours.size(); ++t) {
    if (colours[t] < 0) {
      throw Error("ColPack left triplet " + std::to_string(t) + " uncoloured");
    }
    colouring.colour[t] = static_cast<std::uint32_t>(colours[t]);
    count = std::max(count, colouring.colour[t] + 1);
  }
  colouring.colours = count;
  colouring.order.resize(colours.size());
  std::iota(colouring.order.begin(), colouring.order.end(), 0u);
  return colouring;
}

// ColPack counts vertices in int.
void CheckColPackSize(std::size_t vertices) {
  if (vertices > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw Error("ColPack takes at most 2^31 - 1 vertices, not " +
                std::to_string(vertices));
  }
}

#endif

}  // namespace

Colouring ColPackDistanceOne(std::span<const Triplet> triplets,
                             const triangle_adjacency::Adjacency& adjacency,
                             ColPackOrdering ordering) {
#if ADJ_HAVE_PEER_COLPACK
  if (triplets.empty()) return {};
  CheckColPackSize(triplets.size());
  const Csr conflicts = ConflictGraph(triplets, adjacency);
  AdolcPattern pattern;
  pattern.words.reserve(conflicts.rows() + conflicts.entries());
  std::vector<std::size_t> starts(conflicts.rows());
  for (std::size_t t = 0; t < conflicts.rows(); ++t) {
    starts[t] = pattern.words.size();
    pattern.words.push_back(static_cast<unsigned int>(conflicts.RowSize(t)));
    for (const std::uint32_t v : conflicts.Row(t)) pattern.words.push_back(v);
  }
  pattern.rows.resize(triplets.size());
  for (std::size_t t = 0; t < triplets.size(); ++t) {
    pattern.rows[t] = pattern.words.data() + starts[t];
  }
  ColPack::GraphColoringInterface graph(SRC_MEM_ADOLC, pattern.rows.data(),
                                        static_cast<int>(triplets.size()));
  graph.Coloring(std::string(ColPackOrderingName(ordering)), "DISTANCE_ONE");
  std::vector<int> colours;
  graph.GetVertexColors(colours);
  return FromColours(colours);
#else
  (void)triplets;
  (void)adjacency;
  (void)ordering;
  throw Unavailable("ColPack was not found at build time");
#endif
}

Colouring ColPackPartialDistanceTwo(
    std::span<const Triplet> triplets, std::size_t particle_count,
    const triangle_adjacency::Adjacency& adjacency, ColPackOrdering ordering) {
  if (ordering == ColPackOrdering::kDynamicLargestFirst) {
    throw Error(
        "ColPack's partial distance-2 colouring takes no dynamic "
        "largest-first ordering");
  }
#if ADJ_HAVE_PEER_COLPACK
  if (triplets.empty()) return {};
  CheckColPackSize(std::max(triplets.size(), particle_count));
  // Row p: the triplets naming particle p, once each (the adjacency lists
  // a triplet that names p twice twice).
  AdolcPattern pattern;
  std::vector<std::size_t> starts(particle_count);
  for (std::size_t p = 0; p < particle_count; ++p) {
    starts[p] = pattern.words.size();
    pattern.words.push_back(0);
    std::uint32_t previous = std::numeric_limits<std::uint32_t>::max();
    for (const std::uint32_t t : adjacency.csr.Row(p)) {
      if (t != previous) pattern.words.push_back(t);
      previous = t;
    }
    pattern.words[starts[p]] =
        static_cast<unsigned int>(pattern.words.size() - starts[p] - 1);
  }
  pattern.rows.resize(particle_count);
  for (std::size_t p = 0; p < particle_count; ++p) {
    pattern.rows[p] = pattern.words.data() + starts[p];
  }
  ColPack::BipartiteGraphPartialColoringInterface bipartite(
      SRC_MEM_ADOLC, pattern.rows.data(), static_cast<int>(particle_count),
      static_cast<int>(triplets.size()));
  bipartite.PartialDistanceTwoColoring(
      std::string(ColPackOrderingName(ordering)),
      "COLUMN_PARTIAL_DISTANCE_TWO");
  std::vector<int> colours;
  bipartite.GetVertexPartialColors(colours);
  if (colours.size() != triplets.size()) {
    throw Error("ColPack coloured " + std::to_string(colours.size()) +
                " columns of " + std::to_string(triplets.size()));
  }
  return FromColours(colours);
#else
  (void)triplets;
  (void)particle_count;
  (void)adjacency;
  throw Unavailable("ColPack was not found at build time");
#endif
}

}  // namespace adj::triplet_schedule
