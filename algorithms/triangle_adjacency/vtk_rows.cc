// The VTK rows' common part: the family's check, VTK's links through the
// bridge, the family's output.
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triangle_adjacency/variants.h"
#include "algorithms/triangle_adjacency/vtk_bridge.h"

namespace adj::triangle_adjacency {

// Check, the rows through the bridge (sized before: 3 entries a triangle),
// the family's order.
void BuildByVtk(vtk_bridge::Links links, std::span<const Triangle> triangles,
                std::size_t particle_count, Adjacency& out) {
  Check(triangles, particle_count);
#if ADJ_HAVE_PEER_VTK
  out.csr.offsets.resize(particle_count + 1);
  out.csr.indices.resize(3 * triangles.size());
  out.max_adjacent = vtk_bridge::BuildRows(
      links, triangles.empty() ? nullptr : triangles[0].data(),
      triangles.size(), particle_count, out.csr.offsets.data(),
      out.csr.indices.data());
  out.order = RowOrder::kAscending;
#else
  (void)links;
  (void)out;
  throw Unavailable("VTK was not found at build time (Debian: libvtk9-dev)");
#endif
}

}  // namespace adj::triangle_adjacency
