#include "algorithms/triangle_adjacency/triangle_adjacency.h"

#include <algorithm>
#include <array>
#include <limits>
#include <string>

#include "algorithms/triangle_adjacency/variants.h"

namespace adj::triangle_adjacency {

std::span<const Variant> Variants() {
  static constexpr std::array kVariants = {
    Variant{"nvcloth", Backend::kSerial, Origin::kFaithful,
            "faithful NvCloth AdjacencyQuerier: count (one extra slot), "
            "inclusive scan in place, fill by decrementing; rows in "
            "descending triangle order",
            &NvClothBuild},
    Variant{"openmp", Backend::kOpenMp, Origin::kOurs,
            "per-thread counts over contiguous triangle slices, "
            "paired threads meeting where their work does on scattered "
            "meshes; each thread "
            "merges an equal share of the particles, reading only the "
            "counts of the threads that touched them; NvCloth's "
            "decrementing fill per thread, one cursor update per corner "
            "a quad's two consecutive halves share, prefetching cursors "
            "and slots "
            "on scattered meshes, placing entries by rank (kept by the "
            "count) where output and triangles alias in the page; the "
            "count pass range-checks on Highway lanes; rows in NvCloth's "
            "descending order, whatever the thread count",
            &OpenMpBuild, "nvcloth"},
    Variant{"partitioned", Backend::kOpenMp, Origin::kOurs,
            "entries radix-partitioned into blocks of 8192 particles, "
            "then NvCloth's count/scan/decrementing fill per block inside "
            "the cache, blocks shared among threads; rows in NvCloth's "
            "descending order",
            &PartitionedBuild, "nvcloth"},
    Variant{.name = "vtk_static_cell_links",
            .backend = Backend::kTbb,
            .origin = Origin::kPeer,
            .description =
                "VTK's vtkStaticCellLinks on a vtkUnstructuredGrid of "
                "VTK_TRIANGLE cells: BuildLinks threaded by vtkSMPTools "
                "(oneTBB), rows read by GetNcells/GetCells and sorted "
                "ascending",
            .run = &VtkStaticCellLinksBuild,
            .threads = &peers::OneTbbThreads,
            .peer = &peers::Vtk},
    Variant{.name = "vtk_cell_links",
            .backend = Backend::kSerial,
            .origin = Origin::kPeer,
            .description =
                "VTK's classic vtkCellLinks on a vtkUnstructuredGrid of "
                "VTK_TRIANGLE cells: BuildLinks (serial, rows ascending), "
                "rows read by GetNcells/GetCells",
            .run = &VtkCellLinksBuild,
            .peer = &peers::Vtk},
    Variant{.name = "openmesh_trimesh",
            .backend = Backend::kSerial,
            .origin = Origin::kPeer,
            .description =
                "OpenMesh's TriMesh: add_face per triangle, each vertex's "
                "faces by its vertex-face circulator, rows sorted "
                "ascending; holds only oriented manifold meshes (refuses "
                "the rest with NotManifold)",
            .run = &OpenMeshTriMeshBuild,
            .traits = {.manifold_only = true},
            .peer = &peers::OpenMesh},
    Variant{.name = "cgal_surface_mesh",
            .backend = Backend::kSerial,
            .origin = Origin::kPeer,
            .description =
                "CGAL's Surface_mesh: add_face per triangle, each vertex's "
                "faces by faces_around_target, rows sorted ascending; holds "
                "only oriented manifold meshes (refuses the rest with "
                "NotManifold)",
            .run = &CgalSurfaceMeshBuild,
            .traits = {.manifold_only = true},
            .peer = &peers::Cgal},
#if ADJ_HAVE_CUDA
    Variant{"cuda", Backend::kCuda, Origin::kOurs,
            "atomic counts, CUB scan, atomic fill, then CUB segmented sort "
            "of each row to NvCloth's descending order; host memory in and "
            "out",
            &CudaBuild},
#endif
  };
  return kVariants;
}

std::string TraitsText(const Traits& traits) {
  return traits.manifold_only ? "meshes=manifold" : "";
}

std::string_view RowOrderName(RowOrder order) {
  return order == RowOrder::kDescending ? "descending" : "ascending";
}

void CheckEntryCount(std::size_t triangle_count) {
  constexpr std::size_t kMaxEntries = std::numeric_limits<std::uint32_t>::max();
  if (triangle_count > kMaxEntries / 3) {
    throw Error("triangle_adjacency: " + std::to_string(triangle_count) +
                " triangles make " + std::to_string(3 * triangle_count) +
                " entries, more than uint32 offsets can address (" +
                std::to_string(kMaxEntries) + ")");
  }
}

void ThrowIndexError(std::size_t triangle, std::uint32_t particle,
                     std::size_t particle_count) {
  throw Error("triangle_adjacency: triangle " + std::to_string(triangle) +
              " refers to particle " + std::to_string(particle) +
              ", but there are only " + std::to_string(particle_count) +
              " particles");
}

void Check(std::span<const Triangle> triangles, std::size_t particle_count) {
  CheckEntryCount(triangles.size());
  // One branch-free pass for the common case, a second one only to name
  // the culprit.
  std::uint32_t largest = 0;
  for (const Triangle& t : triangles) {
    largest = std::max({largest, t[0], t[1], t[2]});
  }
  if (triangles.empty() || largest < particle_count) return;
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    for (const std::uint32_t p : triangles[t]) {
      if (p >= particle_count) ThrowIndexError(t, p, particle_count);
    }
  }
}

void ThrowFirstIndexError(std::span<const std::size_t> first_bad,
                          std::span<const Triangle> triangles,
                          std::size_t particle_count) {
  if (first_bad.empty()) return;
  const std::size_t bad = *std::min_element(first_bad.begin(), first_bad.end());
  if (bad == std::numeric_limits<std::size_t>::max()) return;
  for (const std::uint32_t p : triangles[bad]) {
    if (p >= particle_count) ThrowIndexError(bad, p, particle_count);
  }
}

}  // namespace adj::triangle_adjacency
