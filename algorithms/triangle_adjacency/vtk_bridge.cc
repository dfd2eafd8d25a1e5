// The VTK rows' calls into VTK (vtk_bridge.h says why this file is C++17).
#include "algorithms/triangle_adjacency/vtk_bridge.h"

#if ADJ_HAVE_PEER_VTK
#include <vtkCellArray.h>
#include <vtkCellLinks.h>
#include <vtkCellType.h>
#include <vtkIdTypeArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkSMPTools.h>
#include <vtkStaticCellLinks.h>
#include <vtkUnstructuredGrid.h>
#endif

#include <algorithm>
#include <stdexcept>

namespace adj::triangle_adjacency::vtk_bridge {

#if ADJ_HAVE_PEER_VTK
namespace {

template <typename LinksType>
std::uint32_t ReadRows(LinksType& links, std::size_t particle_count,
                       std::uint32_t* offsets, std::uint32_t* indices) {
  offsets[0] = 0;
  std::uint32_t longest = 0;
  for (std::size_t p = 0; p < particle_count; ++p) {
    const vtkIdType id = static_cast<vtkIdType>(p);
    const auto count = static_cast<std::uint32_t>(links.GetNcells(id));
    const vtkIdType* cells = links.GetCells(id);
    std::uint32_t* row = indices + offsets[p];
    for (std::uint32_t k = 0; k < count; ++k) {
      row[k] = static_cast<std::uint32_t>(cells[k]);
    }
    std::sort(row, row + count);
    offsets[p + 1] = offsets[p] + count;
    longest = std::max(longest, count);
  }
  return longest;
}

}  // namespace
#endif

std::uint32_t BuildRows(Links links, const std::uint32_t* corners,
                        std::size_t triangle_count, std::size_t particle_count,
                        std::uint32_t* offsets, std::uint32_t* indices) {
#if ADJ_HAVE_PEER_VTK
  vtkNew<vtkPoints> points;
  points->SetNumberOfPoints(static_cast<vtkIdType>(particle_count));
  for (std::size_t p = 0; p < particle_count; ++p) {
    points->SetPoint(static_cast<vtkIdType>(p), 0.0, 0.0, 0.0);
  }
  vtkNew<vtkIdTypeArray> cell_offsets;
  cell_offsets->SetNumberOfValues(static_cast<vtkIdType>(triangle_count + 1));
  for (std::size_t t = 0; t <= triangle_count; ++t) {
    cell_offsets->SetValue(static_cast<vtkIdType>(t),
                           static_cast<vtkIdType>(3 * t));
  }
  vtkNew<vtkIdTypeArray> connectivity;
  connectivity->SetNumberOfValues(static_cast<vtkIdType>(3 * triangle_count));
  for (std::size_t k = 0; k < 3 * triangle_count; ++k) {
    connectivity->SetValue(static_cast<vtkIdType>(k), corners[k]);
  }
  vtkNew<vtkCellArray> cells;
  cells->SetData(cell_offsets, connectivity);
  vtkNew<vtkUnstructuredGrid> grid;
  grid->SetPoints(points);
  grid->SetCells(VTK_TRIANGLE, cells);
  if (links == Links::kStatic) {
    vtkNew<vtkStaticCellLinks> static_links;
    static_links->BuildLinks(grid);
    return ReadRows(*static_links, particle_count, offsets, indices);
  }
  vtkNew<vtkCellLinks> classic_links;
  classic_links->BuildLinks(grid);
  return ReadRows(*classic_links, particle_count, offsets, indices);
#else
  (void)links;
  (void)corners;
  (void)triangle_count;
  (void)particle_count;
  (void)offsets;
  (void)indices;
  throw std::logic_error("VTK was not found at build time");
#endif
}

int SmpThreads() {
#if ADJ_HAVE_PEER_VTK
  return vtkSMPTools::GetEstimatedNumberOfThreads();
#else
  return 1;
#endif
}

}  // namespace adj::triangle_adjacency::vtk_bridge
