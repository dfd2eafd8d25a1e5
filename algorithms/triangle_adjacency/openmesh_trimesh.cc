// OpenMesh's TriMesh as a user with a triangle list builds one: a vertex
// per particle (at the origin: adjacency reads no coordinate), the sizes
// reserved as OpenMesh's documentation advises, add_face per triangle in
// order, then each vertex's faces by its vertex-face circulator (vf_range)
// into the family's rows, sorted ascending (the circulator walks the fan in
// rotation order). OpenMesh's halfedge mesh holds only oriented manifold
// meshes: where add_face refuses a triangle (an edge already used in its
// direction, a fan it cannot join) the row throws NotManifold naming it. A
// triangle with a repeated corner is refused before add_face, whose
// assertion (kept in Debian's build) would abort the process. OpenMesh's
// own messages for refused faces (omerr) are silenced while it builds.
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triangle_adjacency/variants.h"

#if ADJ_HAVE_PEER_OPENMESH
#include <OpenMesh/Core/Mesh/TriMesh_ArrayKernelT.hh>
#include <limits>
#include <string>

#include "algorithms/triangle_adjacency/halfedge_rows.h"
#endif

namespace adj::triangle_adjacency {

#if ADJ_HAVE_PEER_OPENMESH
namespace {

using OpenMeshTriMesh = OpenMesh::TriMesh_ArrayKernelT<>;

// Silences omerr() for its lifetime, whatever leaves the scope.
class QuietOpenMesh {
 public:
  QuietOpenMesh() { omerr().disable(); }
  ~QuietOpenMesh() { omerr().enable(); }
  QuietOpenMesh(const QuietOpenMesh&) = delete;
  QuietOpenMesh& operator=(const QuietOpenMesh&) = delete;
};

}  // namespace
#endif

void OpenMeshTriMeshBuild(std::span<const Triangle> triangles,
                          std::size_t particle_count, Adjacency& out) {
  Check(triangles, particle_count);
#if ADJ_HAVE_PEER_OPENMESH
  constexpr std::string_view kLibrary = "OpenMesh's TriMesh";
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const Triangle& c = triangles[t];
    if (c[0] == c[1] || c[1] == c[2] || c[0] == c[2]) {
      ThrowNotManifold(kLibrary, t, c, "a repeated corner");
    }
  }
  if (particle_count > std::size_t{std::numeric_limits<int>::max()}) {
    throw Error("triangle_adjacency: " + std::to_string(particle_count) +
                " particles are more than " + std::string(kLibrary) +
                "'s int handles address");
  }
  const QuietOpenMesh quiet;
  OpenMeshTriMesh mesh;
  // Euler's formula: a mesh of one boundary has V + F - 1 edges.
  mesh.reserve(particle_count, particle_count + triangles.size(),
               triangles.size());
  for (std::size_t p = 0; p < particle_count; ++p) {
    mesh.add_vertex(OpenMeshTriMesh::Point(0, 0, 0));
  }
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const Triangle& c = triangles[t];
    const auto face =
        mesh.add_face(OpenMesh::VertexHandle{static_cast<int>(c[0])},
                      OpenMesh::VertexHandle{static_cast<int>(c[1])},
                      OpenMesh::VertexHandle{static_cast<int>(c[2])});
    if (!face.is_valid())
      ThrowNotManifold(kLibrary, t, c, "add_face refused it");
  }
  FillAscendingRows(kLibrary, triangles, particle_count, out,
                    [&](std::size_t p, auto take) {
                      const OpenMesh::VertexHandle vertex{static_cast<int>(p)};
                      for (const auto face : mesh.vf_range(vertex)) {
                        take(static_cast<std::uint32_t>(face.idx()));
                      }
                    });
#else
  (void)out;
  throw Unavailable(
      "OpenMesh was not found at build time (Debian: libopenmesh-dev)");
#endif
}

}  // namespace adj::triangle_adjacency
