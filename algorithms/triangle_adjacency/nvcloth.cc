// NvCloth's AdjacencyQuerier (NvCloth 1.1.4, TripletScheduler.cpp), line for
// line: see docs/triangle_adjacency.md. The only
// addition is the range check, folded into the count loop (NvCloth trusts its
// input and would write out of bounds).
#include <algorithm>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triangle_adjacency/variants.h"

namespace adj::triangle_adjacency {

void NvClothBuild(std::span<const Triangle> triangles,
                  std::size_t particle_count, Adjacency& out) {
  CheckEntryCount(triangles.size());
  // The count array becomes the offsets in place; its extra slot ends up
  // holding the total.
  std::vector<std::uint32_t>& offsets = out.csr.offsets;
  offsets.assign(particle_count + 1, 0);
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    for (const std::uint32_t p : triangles[t]) {
      if (p >= particle_count) ThrowIndexError(t, p, particle_count);
      ++offsets[p];
    }
  }
  out.max_adjacent = *std::max_element(offsets.begin(), offsets.end());

  std::uint32_t sum = 0;
  for (std::uint32_t& entry : offsets) {
    sum += entry;
    entry = sum;
  }

  std::vector<std::uint32_t>& indices = out.csr.indices;
  indices.resize(3 * triangles.size());
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    for (const std::uint32_t p : triangles[t]) {
      indices[--offsets[p]] = static_cast<std::uint32_t>(t);
    }
  }
  out.order = RowOrder::kDescending;
  out.threads = 1;
}

}  // namespace adj::triangle_adjacency
