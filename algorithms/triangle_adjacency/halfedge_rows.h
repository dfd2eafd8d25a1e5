#pragma once

// Internal to the family: the part the manifold-only peers (OpenMesh's
// TriMesh, CGAL's Surface_mesh) share, reading each particle's faces off a
// halfedge mesh into the family's rows and refusing what such a mesh
// cannot hold.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"

namespace adj::triangle_adjacency {

// The refusal of triangle `triangle` (corners `corners`) by `library`,
// saying why (`why`: "a repeated corner", "add_face refused it").
[[noreturn]] inline void ThrowNotManifold(std::string_view library,
                                          std::size_t triangle,
                                          const Triangle& corners,
                                          std::string_view why) {
  throw NotManifold("triangle_adjacency: " + std::string(library) +
                    " refused triangle " + std::to_string(triangle) + " (" +
                    std::to_string(corners[0]) + ", " +
                    std::to_string(corners[1]) + ", " +
                    std::to_string(corners[2]) + "): " + std::string(why) +
                    "; its mesh holds only oriented manifold meshes");
}

// out's rows from `faces_around(p, take)`, which calls take(face id) for
// every face at particle p; each row sorted ascending. A library that gave
// more entries than 3 per triangle would be refused, never written past
// the rows.
template <typename FacesAround>
void FillAscendingRows(std::size_t particle_count, std::size_t triangle_count,
                       Adjacency& out, FacesAround faces_around) {
  out.csr.offsets.resize(particle_count + 1);
  out.csr.indices.resize(3 * triangle_count);
  out.csr.offsets[0] = 0;
  std::uint32_t* const indices = out.csr.indices.data();
  const std::size_t capacity = out.csr.indices.size();
  std::size_t cursor = 0;
  std::uint32_t longest = 0;
  for (std::size_t p = 0; p < particle_count; ++p) {
    const std::size_t start = cursor;
    faces_around(p, [&](std::uint32_t face) {
      if (cursor == capacity) {
        throw Error("triangle_adjacency: the peer's mesh listed more than " +
                    std::to_string(capacity) + " particle-triangle entries");
      }
      indices[cursor++] = face;
    });
    std::sort(indices + start, indices + cursor);
    out.csr.offsets[p + 1] = static_cast<std::uint32_t>(cursor);
    longest = std::max(longest, static_cast<std::uint32_t>(cursor - start));
  }
  out.csr.indices.resize(cursor);
  out.max_adjacent = longest;
  out.order = RowOrder::kAscending;
  out.threads = 1;
}

}  // namespace adj::triangle_adjacency
