// Boost.Graph's sequential_vertex_coloring of the triplets' conflict graph,
// as its documentation calls it: an undirected adjacency_list<vecS, vecS>
// built from the edge list (each conflict once), a vertex-indexed colour
// map, the default vertex order (the vertices in index order: the input
// order). Header-only; serial.
#include "algorithms/triplet_schedule/peer_colourings.h"

#if ADJ_HAVE_PEER_BOOST_GRAPH
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/sequential_vertex_coloring.hpp>
#include <boost/property_map/property_map.hpp>
#endif

#include <numeric>
#include <utility>
#include <vector>

namespace adj::triplet_schedule {

Colouring BoostSequentialColouring(
    std::span<const Triplet> triplets,
    const triangle_adjacency::Adjacency& adjacency) {
#if ADJ_HAVE_PEER_BOOST_GRAPH
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  const Csr conflicts = ConflictGraph(triplets, adjacency);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  edges.reserve(conflicts.entries() / 2);
  for (std::uint32_t t = 0; t < conflicts.rows(); ++t) {
    for (const std::uint32_t v : conflicts.Row(t)) {
      if (v > t) edges.emplace_back(t, v);
    }
  }
  const Graph graph(edges.begin(), edges.end(), triplets.size());
  std::vector<std::size_t> colours(triplets.size());
  const auto colour_map = boost::make_iterator_property_map(
      colours.begin(), boost::get(boost::vertex_index, graph));
  const std::size_t count =
      boost::sequential_vertex_coloring(graph, colour_map);
  Colouring colouring;
  colouring.colour.assign(colours.begin(), colours.end());
  colouring.colours = static_cast<std::uint32_t>(count);
  colouring.order.resize(triplets.size());
  std::iota(colouring.order.begin(), colouring.order.end(), 0u);
  return colouring;
#else
  (void)triplets;
  (void)adjacency;
  throw Unavailable("Boost.Graph was not found at build time");
#endif
}

}  // namespace adj::triplet_schedule
