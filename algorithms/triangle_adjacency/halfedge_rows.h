#pragma once

// Internal to the family: the part the manifold-only peers (OpenMesh's
// TriMesh, CGAL's Surface_mesh) share, reading each particle's faces off a
// halfedge mesh into the family's rows and refusing what such a mesh
// cannot hold.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
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
// every face at particle p; each row sorted ascending. A halfedge mesh
// reaches one fan per vertex: where add_face took every triangle but left a
// vertex with more than one (CGAL's Surface_mesh relinks a bow-tie and can
// then close one of its fans), the library's rows would silently miss
// triangles. So each row is checked against the triangles themselves: its
// length against the particle's corner count (else NotManifold naming the
// particle), and each entry for being a distinct triangle with that corner
// (else Error: the library listed what is not there). Nothing is written
// past a row.
template <typename FacesAround>
void FillAscendingRows(std::string_view library,
                       std::span<const Triangle> triangles,
                       std::size_t particle_count, Adjacency& out,
                       FacesAround faces_around) {
  // The offsets the rows must have: each particle's corner count, summed.
  out.csr.offsets.assign(particle_count + 1, 0);
  for (const Triangle& corners : triangles) {
    for (const std::uint32_t corner : corners) ++out.csr.offsets[corner + 1];
  }
  for (std::size_t p = 0; p < particle_count; ++p) {
    out.csr.offsets[p + 1] += out.csr.offsets[p];
  }
  out.csr.indices.resize(3 * triangles.size());
  std::uint32_t* const indices = out.csr.indices.data();
  std::uint32_t longest = 0;
  for (std::size_t p = 0; p < particle_count; ++p) {
    const std::size_t start = out.csr.offsets[p];
    const std::size_t end = out.csr.offsets[p + 1];
    std::size_t cursor = start;
    const auto reached = [&] {
      return std::string(library) +
             " took every triangle, but its faces "
             "around particle " +
             std::to_string(p) + " reach ";
    };
    faces_around(p, [&](std::uint32_t face) {
      if (cursor == end) {
        throw Error("triangle_adjacency: " + reached() + "more than its " +
                    std::to_string(end - start) + " triangles");
      }
      const bool is_corner =
          face < triangles.size() &&
          std::find(triangles[face].begin(), triangles[face].end(), p) !=
              triangles[face].end();
      if (!is_corner) {
        throw Error("triangle_adjacency: " + reached() + "triangle " +
                    std::to_string(face) + ", which is not at it");
      }
      indices[cursor++] = face;
    });
    std::sort(indices + start, indices + cursor);
    if (std::adjacent_find(indices + start, indices + cursor) !=
        indices + cursor) {
      throw Error("triangle_adjacency: " + reached() +
                  "one of its triangles twice");
    }
    if (cursor != end) {
      throw NotManifold("triangle_adjacency: " + reached() +
                        std::to_string(cursor - start) + " of its " +
                        std::to_string(end - start) +
                        " triangles: it is a non-manifold vertex, and the "
                        "library's mesh holds only oriented manifold meshes");
    }
    longest = std::max(longest, static_cast<std::uint32_t>(end - start));
  }
  out.max_adjacent = longest;
  out.order = RowOrder::kAscending;
  out.threads = 1;
}

}  // namespace adj::triangle_adjacency
