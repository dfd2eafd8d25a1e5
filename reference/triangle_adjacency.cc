#include "reference/triangle_adjacency.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace adj::reference {

Csr TriangleAdjacency(std::span<const Triangle> triangles,
                      std::size_t particle_count) {
  constexpr std::size_t kParticlesPerScan = 4096;
  std::vector<std::vector<std::uint32_t>> rows(particle_count);
  for (std::size_t first = 0; first < particle_count;
       first += kParticlesPerScan) {
    const std::size_t last =
        std::min(particle_count, first + kParticlesPerScan);
    for (std::size_t t = 0; t < triangles.size(); ++t) {
      for (const std::uint32_t corner : triangles[t]) {
        if (corner >= first && corner < last) {
          rows[corner].push_back(static_cast<std::uint32_t>(t));
        }
      }
    }
  }
  Csr csr;
  for (const auto& row : rows) {
    csr.indices.insert(csr.indices.end(), row.begin(), row.end());
    csr.offsets.push_back(static_cast<std::uint32_t>(csr.indices.size()));
  }
  return csr;
}

Csr InRowOrder(Csr ascending, bool descending) {
  if (descending) {
    for (std::size_t p = 0; p < ascending.rows(); ++p) {
      std::reverse(ascending.indices.begin() + ascending.offsets[p],
                   ascending.indices.begin() + ascending.offsets[p + 1]);
    }
  }
  return ascending;
}

std::uint32_t LongestRow(const Csr& csr) {
  std::uint32_t longest = 0;
  for (std::size_t p = 0; p < csr.rows(); ++p) {
    longest = std::max(longest, static_cast<std::uint32_t>(csr.RowSize(p)));
  }
  return longest;
}

namespace {

// The representative of `x` in a union-find over the indices of `parent`.
std::size_t Root(std::vector<std::size_t>& parent, std::size_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

// Whether the edges opposite one particle (a -> b for each of its
// triangles (p, a, b)) join into one piece.
bool OneFan(std::vector<std::pair<std::uint32_t, std::uint32_t>> link) {
  std::vector<std::uint32_t> ends;
  for (const auto& [a, b] : link) ends.insert(ends.end(), {a, b});
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  std::vector<std::size_t> parent(ends.size());
  std::iota(parent.begin(), parent.end(), 0);
  const auto index = [&](std::uint32_t particle) {
    return static_cast<std::size_t>(
        std::lower_bound(ends.begin(), ends.end(), particle) - ends.begin());
  };
  std::size_t pieces = ends.size();
  for (const auto& [a, b] : link) {
    const std::size_t ra = Root(parent, index(a));
    const std::size_t rb = Root(parent, index(b));
    if (ra != rb) {
      parent[ra] = rb;
      --pieces;
    }
  }
  return pieces <= 1;
}

}  // namespace

bool OrientedManifold(std::span<const Triangle> triangles,
                      std::size_t particle_count) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> directed;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> links(
      particle_count);
  for (const Triangle& t : triangles) {
    if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) return false;
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t p = t[k];
      const std::uint32_t next = t[(k + 1) % 3];
      const std::uint32_t last = t[(k + 2) % 3];
      directed.emplace_back(p, next);
      if (p < particle_count) links[p].emplace_back(next, last);
    }
  }
  std::sort(directed.begin(), directed.end());
  if (std::adjacent_find(directed.begin(), directed.end()) != directed.end()) {
    return false;
  }
  for (auto& link : links) {
    if (!OneFan(std::move(link))) return false;
  }
  return true;
}

}  // namespace adj::reference
