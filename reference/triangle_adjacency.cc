#include "reference/triangle_adjacency.h"

#include <algorithm>
#include <cstdint>
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

}  // namespace adj::reference
