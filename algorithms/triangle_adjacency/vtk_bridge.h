#pragma once

// Internal to the family's VTK rows. VTK 9.1's vtkSMPTools.h, which
// vtkStaticCellLinks.h includes, does not compile as C++20 (a constructor
// declared with a template-id), so the code that includes VTK is compiled
// as C++17 (vtk_bridge.cc) behind this header, which C++17 and the
// family's C++20 both read.

#include <cstddef>
#include <cstdint>

namespace adj::triangle_adjacency::vtk_bridge {

enum class Links { kStatic, kClassic };

// The triangles (3 corners each, all < particle_count: the caller checks)
// as a vtkUnstructuredGrid of VTK_TRIANGLE cells over particle_count points
// at the origin (links read no coordinate), VTK's links of kind `links`
// built on it, and each point's cells read by GetNcells and GetCells:
// offsets (particle_count + 1 entries) and indices (3 x triangle_count),
// each row sorted ascending. Returns the longest row.
std::uint32_t BuildRows(Links links, const std::uint32_t* corners,
                        std::size_t triangle_count, std::size_t particle_count,
                        std::uint32_t* offsets, std::uint32_t* indices);

// The threads vtkSMPTools runs on.
int SmpThreads();

}  // namespace adj::triangle_adjacency::vtk_bridge
