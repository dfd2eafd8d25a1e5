// igraph's connected components as a user with an edge list calls them
// (igraph 0.10's C API): the edges as an igraph_vector_int_t (each edge of
// the symmetric CSR once), igraph_create of an undirected graph on all V
// vertices, igraph_connected_components(IGRAPH_WEAK) (a breadth-first
// search; serial), then igraph's membership relabelled to the family's
// labels (each component's smallest vertex). igraph reports failures by
// error codes, which become the family's Error.
#include "algorithms/connected_components/connected_components.h"
#include "algorithms/connected_components/variants.h"

#if ADJ_HAVE_PEER_IGRAPH
#include <igraph/igraph.h>
#endif

#include <limits>
#include <string>
#include <vector>

namespace adj::connected_components {
namespace {

#if ADJ_HAVE_PEER_IGRAPH
void Require(igraph_error_t status, const char* what) {
  if (status != IGRAPH_SUCCESS) {
    throw Error(std::string("igraph_components: ") + what +
                " failed: " + igraph_strerror(status));
  }
}

// igraph objects freed on every way out.
struct IgraphVector {
  igraph_vector_int_t vector;
  explicit IgraphVector(igraph_integer_t size) {
    Require(igraph_vector_int_init(&vector, size), "igraph_vector_int_init");
  }
  ~IgraphVector() { igraph_vector_int_destroy(&vector); }
  IgraphVector(const IgraphVector&) = delete;
  IgraphVector& operator=(const IgraphVector&) = delete;
};
struct IgraphGraph {
  igraph_t graph;
  IgraphGraph(const igraph_vector_int_t& edges, igraph_integer_t vertices) {
    Require(igraph_create(&graph, &edges, vertices, IGRAPH_UNDIRECTED),
            "igraph_create");
  }
  ~IgraphGraph() { igraph_destroy(&graph); }
  IgraphGraph(const IgraphGraph&) = delete;
  IgraphGraph& operator=(const IgraphGraph&) = delete;
};
#endif

}  // namespace

void IgraphLabels(const Csr& graph, Components& out) {
  Check(graph);
  IgraphLabelsTrusted(graph, out);
}

void IgraphLabelsTrusted(const Csr& graph, Components& out) {
#if ADJ_HAVE_PEER_IGRAPH
  const std::size_t n = graph.rows();
  std::size_t edge_count = 0;
  for (std::uint32_t u = 0; u < n; ++u) {
    for (std::uint32_t k = graph.offsets[u]; k < graph.offsets[u + 1]; ++k) {
      if (graph.indices[k] >= u) ++edge_count;
    }
  }
  IgraphVector edges(static_cast<igraph_integer_t>(2 * edge_count));
  igraph_integer_t* ends = VECTOR(edges.vector);
  for (std::uint32_t u = 0; u < n; ++u) {
    for (std::uint32_t k = graph.offsets[u]; k < graph.offsets[u + 1]; ++k) {
      // The symmetric CSR lists each edge both ways: once is enough.
      if (graph.indices[k] < u) continue;
      *ends++ = u;
      *ends++ = graph.indices[k];
    }
  }
  const IgraphGraph igraph_graph(edges.vector,
                                 static_cast<igraph_integer_t>(n));
  IgraphVector membership(0);
  igraph_integer_t count = 0;
  Require(igraph_connected_components(&igraph_graph.graph, &membership.vector,
                                      nullptr, &count, IGRAPH_WEAK),
          "igraph_connected_components");
  constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> smallest(static_cast<std::size_t>(count), kUnset);
  out.labels.resize(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    std::uint32_t& label =
        smallest[static_cast<std::size_t>(VECTOR(membership.vector)[v])];
    if (label == kUnset) label = v;
    out.labels[v] = label;
  }
  out.count = static_cast<std::uint32_t>(count);
  out.threads = 1;
#else
  (void)graph;
  (void)out;
  throw Unavailable("igraph_components: igraph was not found at build time");
#endif
}

}  // namespace adj::connected_components
