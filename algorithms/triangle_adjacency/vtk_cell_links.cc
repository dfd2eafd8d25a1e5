// VTK's classic vtkCellLinks as a user with a triangle list calls it: the
// triangles as a vtkUnstructuredGrid of VTK_TRIANGLE cells, BuildLinks on
// it (serial; each point's cells in ascending cell order), then each
// point's cells read by GetNcells and GetCells into the family's rows.
// VTK reads corners unchecked, so the family's Check runs first.
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triangle_adjacency/variants.h"
#include "algorithms/triangle_adjacency/vtk_bridge.h"

namespace adj::triangle_adjacency {

void VtkCellLinksBuild(std::span<const Triangle> triangles,
                       std::size_t particle_count, Adjacency& out) {
  BuildByVtk(vtk_bridge::Links::kClassic, triangles, particle_count, out);
  out.threads = 1;
}

}  // namespace adj::triangle_adjacency
