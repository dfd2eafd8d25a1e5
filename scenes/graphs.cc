#include "scenes/graphs.h"

#include <algorithm>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace adj::scenes {
namespace {

constexpr std::size_t kMaxIds = std::numeric_limits<std::uint32_t>::max();

void CheckVertexCount(const char* generator, std::size_t vertices) {
  if (vertices > kMaxIds) {
    throw std::invalid_argument(std::string(generator) + ": " +
                                std::to_string(vertices) +
                                " vertices do not fit uint32 ids");
  }
}

// Fisher-Yates from raw engine output (every standard library gives the same
// permutation).
std::vector<std::uint32_t> Permutation(std::size_t n, std::mt19937_64& engine) {
  std::vector<std::uint32_t> permutation(n);
  for (std::size_t i = 0; i < n; ++i) {
    permutation[i] = static_cast<std::uint32_t>(i);
  }
  for (std::size_t i = n; i > 1; --i) {
    std::swap(permutation[i - 1], permutation[engine() % i]);
  }
  return permutation;
}

// A uniform id below n (n <= 2^32) by multiply-shift of 32 random bits.
std::uint32_t Below(std::mt19937_64& engine, std::size_t n) {
  return static_cast<std::uint32_t>(((engine() >> 32) * n) >> 32);
}

// [0, 1) with 53 bits.
double Unit(std::mt19937_64& engine) {
  return static_cast<double>(engine() >> 11) * 0x1.0p-53;
}

// Rows in `unsorted` transposed: row v of the result lists the u with v in
// row u, ascending (for a symmetric multiset of entries: the same rows,
// sorted).
Csr Transposed(const Csr& unsorted) {
  const std::size_t n = unsorted.rows();
  Csr sorted;
  sorted.offsets.assign(n + 1, 0);
  for (const std::uint32_t v : unsorted.indices) ++sorted.offsets[v + 1];
  for (std::size_t v = 0; v < n; ++v) {
    sorted.offsets[v + 1] += sorted.offsets[v];
  }
  sorted.indices.resize(unsorted.entries());
  std::vector<std::uint32_t> cursor(sorted.offsets.begin(),
                                    sorted.offsets.end() - 1);
  for (std::size_t u = 0; u < n; ++u) {
    for (const std::uint32_t v : unsorted.Row(u)) {
      sorted.indices[cursor[v]++] = static_cast<std::uint32_t>(u);
    }
  }
  return sorted;
}

// Ascending rows without repeats, compacted in place.
void RemoveRepeats(Csr& graph) {
  std::uint32_t write = 0;
  std::uint32_t begin = 0;
  for (std::size_t v = 0; v < graph.rows(); ++v) {
    const std::uint32_t end = graph.offsets[v + 1];
    for (std::uint32_t k = begin; k < end; ++k) {
      const std::uint32_t u = graph.indices[k];
      if (k == begin || u != graph.indices[k - 1]) graph.indices[write++] = u;
    }
    begin = end;
    graph.offsets[v + 1] = write;
  }
  graph.indices.resize(write);
  graph.indices.shrink_to_fit();
}

}  // namespace

Csr UndirectedGraph(std::size_t vertices, std::span<const Edge> edges) {
  CheckVertexCount("UndirectedGraph", vertices);
  std::size_t entries = 0;
  for (const Edge& edge : edges) {
    if (edge[0] >= vertices || edge[1] >= vertices) {
      throw std::invalid_argument(
          "UndirectedGraph: edge (" + std::to_string(edge[0]) + ", " +
          std::to_string(edge[1]) +
          ") names a vertex >= " + std::to_string(vertices));
    }
    entries += edge[0] != edge[1] ? 2 : 0;
  }
  if (entries > kMaxIds) {
    throw std::invalid_argument("UndirectedGraph: " + std::to_string(entries) +
                                " entries overflow uint32 offsets");
  }
  Csr unsorted;
  unsorted.offsets.assign(vertices + 1, 0);
  for (const Edge& edge : edges) {
    if (edge[0] == edge[1]) continue;
    ++unsorted.offsets[edge[0] + 1];
    ++unsorted.offsets[edge[1] + 1];
  }
  for (std::size_t v = 0; v < vertices; ++v) {
    unsorted.offsets[v + 1] += unsorted.offsets[v];
  }
  unsorted.indices.resize(entries);
  std::vector<std::uint32_t> cursor(unsorted.offsets.begin(),
                                    unsorted.offsets.end() - 1);
  for (const Edge& edge : edges) {
    if (edge[0] == edge[1]) continue;
    unsorted.indices[cursor[edge[0]]++] = edge[1];
    unsorted.indices[cursor[edge[1]]++] = edge[0];
  }
  cursor = {};
  Csr graph = Transposed(unsorted);
  unsorted = {};
  RemoveRepeats(graph);
  return graph;
}

Csr Relabelled(const Csr& graph, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  const std::vector<std::uint32_t> new_id = Permutation(graph.rows(), engine);
  Csr moved;
  moved.offsets.assign(graph.rows() + 1, 0);
  for (std::size_t v = 0; v < graph.rows(); ++v) {
    moved.offsets[new_id[v] + 1] = static_cast<std::uint32_t>(graph.RowSize(v));
  }
  for (std::size_t v = 0; v < graph.rows(); ++v) {
    moved.offsets[v + 1] += moved.offsets[v];
  }
  moved.indices.resize(graph.entries());
  for (std::size_t v = 0; v < graph.rows(); ++v) {
    std::uint32_t k = moved.offsets[new_id[v]];
    for (const std::uint32_t u : graph.Row(v)) moved.indices[k++] = new_id[u];
  }
  return Transposed(moved);
}

Csr WithRepeats(const Csr& graph, std::size_t extra, std::uint64_t seed) {
  const std::size_t n = graph.rows();
  if (n == 0 && extra > 0) {
    throw std::invalid_argument("WithRepeats: no vertex to repeat");
  }
  std::mt19937_64 engine(seed);
  std::vector<std::vector<std::uint32_t>> rows(n);
  for (std::size_t v = 0; v < n; ++v) {
    rows[v].assign(graph.Row(v).begin(), graph.Row(v).end());
  }
  for (std::size_t i = 0; i < extra; ++i) {
    const std::uint32_t v = Below(engine, n);
    if ((engine() & 1) == 0 || graph.RowSize(v) == 0) {
      rows[v].push_back(v);
    } else {
      const std::uint32_t u = graph.Row(v)[Below(engine, graph.RowSize(v))];
      rows[v].push_back(u);
      if (u != v) rows[u].push_back(v);
    }
  }
  Csr out;
  out.offsets.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) {
    for (std::size_t i = rows[v].size(); i > 1; --i) {
      std::swap(rows[v][i - 1], rows[v][engine() % i]);
    }
    if (out.indices.size() + rows[v].size() > kMaxIds) {
      throw std::invalid_argument("WithRepeats: entries overflow uint32");
    }
    out.indices.insert(out.indices.end(), rows[v].begin(), rows[v].end());
    out.offsets[v + 1] = static_cast<std::uint32_t>(out.indices.size());
  }
  return out;
}

Csr LatticeWithRemovals(std::size_t nx, std::size_t ny, std::size_t nz,
                        double removal, std::uint64_t seed) {
  if (!(removal >= 0 && removal <= 1)) {
    throw std::invalid_argument(
        "LatticeWithRemovals: removal must be in "
        "[0, 1]");
  }
  const std::size_t sites = nx * ny * nz;
  if ((ny != 0 && nz != 0 && nx > kMaxIds / ny / nz) || sites > kMaxIds) {
    throw std::invalid_argument("LatticeWithRemovals: too many sites");
  }
  std::mt19937_64 engine(seed);
  constexpr std::uint32_t kRemoved = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> id(sites);
  std::uint32_t survivors = 0;
  for (std::size_t s = 0; s < sites; ++s) {
    id[s] = Unit(engine) < removal ? kRemoved : survivors++;
  }
  std::vector<Edge> edges;
  const auto bond = [&](std::size_t a, std::size_t b) {
    if (id[a] != kRemoved && id[b] != kRemoved) edges.push_back({id[a], id[b]});
  };
  for (std::size_t x = 0; x < nx; ++x) {
    for (std::size_t y = 0; y < ny; ++y) {
      for (std::size_t z = 0; z < nz; ++z) {
        const std::size_t s = (x * ny + y) * nz + z;
        if (x + 1 < nx) bond(s, s + ny * nz);
        if (y + 1 < ny) bond(s, s + nz);
        if (z + 1 < nz) bond(s, s + 1);
      }
    }
  }
  return UndirectedGraph(survivors, edges);
}

Csr MeshVertexGraph(const Mesh& mesh) {
  std::vector<Edge> edges;
  edges.reserve(3 * mesh.triangles.size());
  for (const Triangle& t : mesh.triangles) {
    edges.push_back({t[0], t[1]});
    edges.push_back({t[1], t[2]});
    edges.push_back({t[2], t[0]});
  }
  return UndirectedGraph(mesh.particles(), edges);
}

Csr Kronecker(int scale, std::size_t degree, std::uint64_t seed) {
  if (scale < 0 || scale > 31) {
    throw std::invalid_argument("Kronecker: scale must be in [0, 31]");
  }
  const std::size_t vertices = std::size_t{1} << scale;
  const std::size_t edge_count = vertices * degree;
  if (degree != 0 && edge_count / degree != vertices) {
    throw std::invalid_argument("Kronecker: too many edges");
  }
  // A, A + B, A + B + C in units of 2^-16.
  constexpr std::uint32_t kA = 37355;    // 0.57
  constexpr std::uint32_t kAB = 49807;   // 0.76
  constexpr std::uint32_t kABC = 62259;  // 0.95
  std::mt19937_64 engine(seed);
  std::vector<Edge> edges(edge_count);
  for (Edge& edge : edges) {
    std::uint32_t src = 0;
    std::uint32_t dst = 0;
    std::uint64_t bits = 0;
    for (int level = 0; level < scale; ++level) {
      if (level % 4 == 0) bits = engine();
      const auto r = static_cast<std::uint32_t>(bits & 0xFFFF);
      bits >>= 16;
      src <<= 1;
      dst <<= 1;
      if (r < kAB) {
        dst |= r >= kA ? 1 : 0;
      } else {
        src |= 1;
        dst |= r >= kABC ? 1 : 0;
      }
    }
    edge = {src, dst};
  }
  const std::vector<std::uint32_t> new_id = Permutation(vertices, engine);
  for (Edge& edge : edges) edge = {new_id[edge[0]], new_id[edge[1]]};
  return UndirectedGraph(vertices, edges);
}

Csr UniformRandomGraph(std::size_t vertices, std::size_t degree,
                       std::uint64_t seed) {
  CheckVertexCount("UniformRandomGraph", vertices);
  if (vertices == 0) return Csr{};
  std::mt19937_64 engine(seed);
  std::vector<Edge> edges(vertices * degree);
  for (Edge& edge : edges)
    edge = {Below(engine, vertices), Below(engine, vertices)};
  return UndirectedGraph(vertices, edges);
}

Csr TinyComponents(std::size_t components, std::size_t max_size,
                   std::uint64_t seed) {
  if (components > 0 && max_size == 0) {
    throw std::invalid_argument("TinyComponents: max_size must be > 0");
  }
  std::mt19937_64 engine(seed);
  std::vector<Edge> edges;
  std::size_t vertices = 0;
  for (std::size_t c = 0; c < components; ++c) {
    const std::size_t size = 1 + engine() % max_size;
    CheckVertexCount("TinyComponents", vertices + size);
    const auto first = static_cast<std::uint32_t>(vertices);
    for (std::size_t i = 1; i < size; ++i) {
      edges.push_back(
          {first + static_cast<std::uint32_t>(i), first + Below(engine, i)});
    }
    const std::size_t extra = engine() % size;
    for (std::size_t i = 0; i < extra; ++i) {
      edges.push_back(
          {first + Below(engine, size), first + Below(engine, size)});
    }
    vertices += size;
  }
  const std::vector<std::uint32_t> new_id = Permutation(vertices, engine);
  for (Edge& edge : edges) edge = {new_id[edge[0]], new_id[edge[1]]};
  return UndirectedGraph(vertices, edges);
}

Csr Path(std::size_t vertices) {
  CheckVertexCount("Path", vertices);
  Csr path;
  path.offsets.resize(vertices + 1);
  path.indices.resize(vertices < 2 ? 0 : 2 * (vertices - 1));
  std::uint32_t k = 0;
  for (std::size_t v = 0; v < vertices; ++v) {
    path.offsets[v] = k;
    if (v > 0) path.indices[k++] = static_cast<std::uint32_t>(v - 1);
    if (v + 1 < vertices) path.indices[k++] = static_cast<std::uint32_t>(v + 1);
  }
  path.offsets[vertices] = k;
  return path;
}

std::size_t OverlappingClusterCount(std::size_t side, std::size_t stride) {
  if (stride == 0) {
    throw std::invalid_argument("OverlappingClusters: stride must be > 0");
  }
  const std::size_t per_axis = (side + stride - 1) / stride;
  return per_axis * per_axis * per_axis;
}

Csr OverlappingClusters(std::size_t side, std::size_t cluster_side,
                        std::size_t stride, double removal,
                        std::uint64_t seed) {
  const std::size_t clusters = OverlappingClusterCount(side, stride);
  if (cluster_side == 0) {
    throw std::invalid_argument(
        "OverlappingClusters: cluster_side must be > 0");
  }
  if (!(removal >= 0 && removal <= 1)) {
    throw std::invalid_argument(
        "OverlappingClusters: removal must be in "
        "[0, 1]");
  }
  const std::size_t sites = side * side * side;
  std::mt19937_64 engine(seed);
  std::vector<bool> present(sites);
  for (std::size_t s = 0; s < sites; ++s)
    present[s] = !(Unit(engine) < removal);
  const std::size_t per_axis = (side + stride - 1) / stride;
  std::vector<Edge> edges;
  std::vector<std::uint32_t> local;  // site -> vertex inside the cluster
  constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();
  std::size_t vertices = 0;
  for (std::size_t c = 0; c < clusters; ++c) {
    const std::size_t ox = c / (per_axis * per_axis) * stride;
    const std::size_t oy = c / per_axis % per_axis * stride;
    const std::size_t oz = c % per_axis * stride;
    const std::size_t ex = std::min(side, ox + cluster_side) - ox;
    const std::size_t ey = std::min(side, oy + cluster_side) - oy;
    const std::size_t ez = std::min(side, oz + cluster_side) - oz;
    local.assign(ex * ey * ez, kAbsent);
    for (std::size_t x = 0; x < ex; ++x) {
      for (std::size_t y = 0; y < ey; ++y) {
        for (std::size_t z = 0; z < ez; ++z) {
          if (!present[((ox + x) * side + oy + y) * side + oz + z]) continue;
          CheckVertexCount("OverlappingClusters", vertices + 1);
          local[(x * ey + y) * ez + z] = static_cast<std::uint32_t>(vertices++);
        }
      }
    }
    const auto bond = [&](std::size_t a, std::size_t b) {
      if (local[a] != kAbsent && local[b] != kAbsent) {
        edges.push_back({local[a], local[b]});
      }
    };
    for (std::size_t x = 0; x < ex; ++x) {
      for (std::size_t y = 0; y < ey; ++y) {
        for (std::size_t z = 0; z < ez; ++z) {
          const std::size_t s = (x * ey + y) * ez + z;
          if (x + 1 < ex) bond(s, s + ey * ez);
          if (y + 1 < ey) bond(s, s + ez);
          if (z + 1 < ez) bond(s, s + 1);
        }
      }
    }
  }
  return UndirectedGraph(vertices, edges);
}

}  // namespace adj::scenes
