// CGAL's Surface_mesh as a user with a triangle list builds one: a vertex
// per particle (at the origin: adjacency reads no coordinate), the sizes
// reserved, add_face per triangle in order, then each vertex's faces by
// CGAL::faces_around_target on its halfedge (the border's null faces
// skipped) into the family's rows, sorted ascending. Surface_mesh holds only
// oriented manifold meshes: where add_face refuses a triangle (a repeated
// corner, an edge already used in its direction, a fan it cannot join) it
// returns the null face, and the row throws NotManifold naming it. It takes
// a bow-tie (two fans at a vertex) by relinking them, but once one of them
// closes its faces_around_target reaches only one: the rows' check against
// the triangles refuses that as NotManifold naming the particle.
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triangle_adjacency/variants.h"

#if ADJ_HAVE_PEER_CGAL
#include <CGAL/Simple_cartesian.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/boost/graph/iterator.h>

#include <limits>
#include <string>
#include <string_view>

#include "algorithms/triangle_adjacency/halfedge_rows.h"
#endif

namespace adj::triangle_adjacency {

void CgalSurfaceMeshBuild(std::span<const Triangle> triangles,
                          std::size_t particle_count, Adjacency& out) {
  Check(triangles, particle_count);
#if ADJ_HAVE_PEER_CGAL
  using Kernel = CGAL::Simple_cartesian<double>;
  using SurfaceMesh = CGAL::Surface_mesh<Kernel::Point_3>;
  using VertexIndex = SurfaceMesh::Vertex_index;
  // Surface_mesh's indices are 32-bit, the largest one its null index: a
  // larger count would wrap, not fail.
  if (particle_count >=
      std::size_t{std::numeric_limits<SurfaceMesh::size_type>::max()}) {
    throw Error("triangle_adjacency: " + std::to_string(particle_count) +
                " particles are more than CGAL's Surface_mesh indices "
                "address");
  }
  constexpr std::string_view kLibrary = "CGAL's Surface_mesh";
  SurfaceMesh mesh;
  // Euler's formula: a mesh of one boundary has V + F - 1 edges.
  mesh.reserve(SurfaceMesh::size_type(particle_count),
               SurfaceMesh::size_type(particle_count + triangles.size()),
               SurfaceMesh::size_type(triangles.size()));
  for (std::size_t p = 0; p < particle_count; ++p) {
    mesh.add_vertex(Kernel::Point_3(0, 0, 0));
  }
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const Triangle& c = triangles[t];
    const auto face =
        mesh.add_face(VertexIndex(c[0]), VertexIndex(c[1]), VertexIndex(c[2]));
    if (face == SurfaceMesh::null_face()) {
      ThrowNotManifold(kLibrary, t, c, "add_face refused it");
    }
  }
  FillAscendingRows(
      kLibrary, triangles, particle_count, out, [&](std::size_t p, auto take) {
        const auto halfedge =
            mesh.halfedge(VertexIndex(SurfaceMesh::size_type(p)));
        if (halfedge == SurfaceMesh::null_halfedge()) return;
        for (const auto face : CGAL::faces_around_target(halfedge, mesh)) {
          if (face != SurfaceMesh::null_face()) {
            take(static_cast<std::uint32_t>(face.idx()));
          }
        }
      });
#else
  (void)out;
  throw Unavailable("CGAL was not found at build time (Debian: libcgal-dev)");
#endif
}

}  // namespace adj::triangle_adjacency
