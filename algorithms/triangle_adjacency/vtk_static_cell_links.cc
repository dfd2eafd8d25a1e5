// VTK's vtkStaticCellLinks as a user with a triangle list calls it: the
// triangles as a vtkUnstructuredGrid of VTK_TRIANGLE cells, BuildLinks on
// it (VTK's threaded build: vtkSMPTools on the backend VTK was built to
// default to, oneTBB in Debian's VTK 9.1), then each point's cells read by
// GetNcells and GetCells into the family's rows, each sorted ascending (the
// threaded build leaves a row in whatever order the threads filled it).
// VTK reads corners unchecked, so the family's Check runs first.
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triangle_adjacency/variants.h"
#include "algorithms/triangle_adjacency/vtk_bridge.h"

namespace adj::triangle_adjacency {

void VtkStaticCellLinksBuild(std::span<const Triangle> triangles,
                             std::size_t particle_count, Adjacency& out) {
  BuildByVtk(vtk_bridge::Links::kStatic, triangles, particle_count, out);
  out.threads = vtk_bridge::SmpThreads();
}

}  // namespace adj::triangle_adjacency
