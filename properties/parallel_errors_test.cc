// No exception leaves a parallel region: a failure planted inside each
// OpenMP region of the suite (fault::Point, as an allocation failing there
// would) arrives at the caller as the std::bad_alloc it is, once, on 2 and
// 3 threads, instead of std::terminate or a hang; and the same call with
// nothing planted still runs. A region whose point is never reached fails
// its test (Strikes() == 0), so a point cannot silently go dead.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include "algorithms/common/fault_points.h"
#include "algorithms/compaction/compaction.h"
#include "algorithms/compaction/variants.h"
#include "algorithms/connected_components/connected_components.h"
#include "algorithms/connected_components/variants.h"
#include "algorithms/fracture/fracture.h"
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/prefix_sum/prefix_sum.h"
#include "algorithms/prefix_sum/variants.h"
#include "algorithms/sph/sph.h"
#include "algorithms/sph/staging.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triangle_adjacency/variants.h"
#include "algorithms/triplet_collide/triplet_collide.h"
#include "algorithms/triplet_collide/variants.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "scenes/arrays.h"
#include "scenes/clouds.h"
#include "scenes/fluids.h"
#include "scenes/graphs.h"
#include "scenes/meshes.h"
#include "scenes/solids.h"

namespace adj {
namespace {

using Words = std::vector<std::uint32_t>;

// Plants `point`, runs `run` on 2 and 3 threads, and expects the planted
// std::bad_alloc back, once; then runs it again with nothing planted.
void ExpectPlantedFailureArrives(const std::string& point,
                                 const std::function<void()>& run) {
  const int default_threads = omp_get_max_threads();
  for (const int threads : {2, 3}) {
    omp_set_num_threads(threads);
    {
      const fault::ScopedPlant plant(point);
      EXPECT_THROW(run(), std::bad_alloc)
          << point << ", " << threads << " threads";
      EXPECT_EQ(fault::Strikes(), 1)
          << point << " was not reached on " << threads << " threads";
    }
    EXPECT_NO_THROW(run()) << point << ", " << threads << " threads";
  }
  omp_set_num_threads(default_threads);
}

TEST(ParallelErrors, Compaction) {
  const std::size_t n = 100000;
  const Words values = scenes::RandomWords(n, 1);
  std::vector<std::uint8_t> flags(n);
  for (std::size_t i = 0; i < n; ++i) flags[i] = values[i] % 3 == 0;
  Words out(n);
  ExpectPlantedFailureArrives("compaction.openmp.chained", [&] {
    compaction::OpenMpCompactTuned(values, flags, out, 1, 1024);
  });
  ExpectPlantedFailureArrives("compaction.openmp.in_place", [&] {
    Words in_place = values;
    compaction::OpenMpCompactTuned(in_place, flags, in_place, 1, 1024);
  });
}

TEST(ParallelErrors, PrefixSum) {
  const Words in = scenes::RandomWords(std::size_t{1} << 17, 2);
  Words out(in.size());
  ExpectPlantedFailureArrives("prefix_sum.openmp.sums", [&] {
    prefix_sum::OpenMpScan(prefix_sum::Kind::kInclusive, in, out);
  });
}

TEST(ParallelErrors, TriangleAdjacency) {
  const Mesh mesh = scenes::ClothGrid(60, 60, scenes::Diagonals::kUniform);
  triangle_adjacency::Adjacency out;
  triangle_adjacency::OpenMpTuning tuning;
  tuning.min_triangles_per_thread = 1;
  tuning.chunk_triangles = 64;
  for (const char* point :
       {"triangle_adjacency.openmp.count", "triangle_adjacency.openmp.merge",
        "triangle_adjacency.openmp.fill"}) {
    ExpectPlantedFailureArrives(point, [&] {
      triangle_adjacency::OpenMpBuildTuned(mesh.triangles, mesh.particles(),
                                           out, tuning);
    });
  }
  triangle_adjacency::PartitionedTuning partitioned;
  partitioned.block_shift = 4;
  partitioned.min_triangles_per_thread = 1;
  for (const char* point : {"triangle_adjacency.partitioned.count",
                            "triangle_adjacency.partitioned.rows"}) {
    ExpectPlantedFailureArrives(point, [&] {
      triangle_adjacency::PartitionedBuildTuned(
          mesh.triangles, mesh.particles(), out, partitioned);
    });
  }
}

TEST(ParallelErrors, ConnectedComponents) {
  const Csr graph = scenes::UniformRandomGraph(20000, 4, 3);
  connected_components::Components out;
  ExpectPlantedFailureArrives("connected_components.afforest", [&] {
    connected_components::AfforestLabels(graph, out);
  });
  ExpectPlantedFailureArrives("connected_components.ecl_cc_openmp", [&] {
    connected_components::EclCcOpenMpLabels(graph, out);
  });
  ExpectPlantedFailureArrives("connected_components.check", [&] {
    connected_components::Check(graph, omp_get_max_threads());
  });
}

TEST(ParallelErrors, HashGrid) {
  const Points points = scenes::UniformCloud(40000, 20.0f, 4);
  const hash_grid::Params params{1.0f, 1.0f, 80000};
  const hash_grid::Variant* variant =
      FindVariant(hash_grid::Variants(), "cell_sorted_openmp");
  ASSERT_NE(variant, nullptr);
  hash_grid::Neighbors out;
  ExpectPlantedFailureArrives("hash_grid.cell_sorted.query",
                              [&] { variant->run(points, params, out); });
}

TEST(ParallelErrors, TripletSchedule) {
  const Mesh mesh = scenes::ClothGrid(40, 40, scenes::Diagonals::kUniform);
  const std::vector<Triplet> triplets = scenes::VirtualParticles(mesh);
  triplet_schedule::Schedule schedule;
  for (const auto& [name, point] :
       std::vector<std::pair<std::string, std::string>>{
           {"bfs_built_warp_openmp", "triplet_schedule.banked_layout.build"},
           {"bfs_walk_warp_openmp", "triplet_schedule.banked_layout.place"}}) {
    const triplet_schedule::Variant* variant =
        FindVariant(triplet_schedule::WarpSchedulers(), name);
    ASSERT_NE(variant, nullptr) << name;
    ExpectPlantedFailureArrives(
        point, [&] { variant->run(triplets, mesh.particles(), 32, schedule); });
  }
}

TEST(ParallelErrors, TripletCollide) {
  const Mesh mesh = scenes::ClothGrid(40, 40, scenes::Diagonals::kUniform);
  const triplet_schedule::Schedule schedule =
      triplet_collide::InputOrder(scenes::VirtualParticles(mesh));
  const std::vector<triplet_collide::Weight> weights = {
      triplet_collide::kCentroidWeight};
  triplet_collide::Shapes shapes;
  shapes.spheres.push_back({{0.2f, 0.2f, 0.0f}, 0.1f});
  // The mesh's particles, then the static dummies the contract ends with.
  std::vector<triplet_collide::Particle> particles(
      mesh.particles() + triplet_collide::kDummyParticles,
      triplet_collide::Particle{0, 0, 0, 0});
  for (std::size_t i = 0; i < mesh.particles(); ++i) {
    particles[i] = {mesh.positions.x[i], mesh.positions.y[i],
                    mesh.positions.z[i], 1.0f};
  }
  ExpectPlantedFailureArrives("triplet_collide.atomic_unscheduled", [&] {
    std::vector<triplet_collide::Particle> work = particles;
    triplet_collide::AtomicUnscheduledCollideTuned(schedule, weights, shapes,
                                                   work, 3, 1);
  });
}

// Frames of a blade through a block until the planted point strikes.
void StepUntilStruck(const fracture::Variant& variant,
                     const fracture::Params& params) {
  const scenes::Voxels voxels = scenes::Block(16, 16, 16);
  std::vector<fracture::Coord> coords;
  for (const auto& c : voxels.cells) coords.push_back({c[0], c[1], c[2]});
  const fracture::State initial = fracture::MakeState(
      {voxels.grid[0], voxels.grid[1], voxels.grid[2]}, std::move(coords),
      scenes::CubeClusters(voxels, 4, 2));
  auto simulation = variant.run(initial, params);
  fracture::FrameReport report;
  for (std::uint32_t f = 0; f < 16; ++f) {
    simulation->Step(scenes::BladePositions(voxels, {7.5f, 1, 2, 14, 1}, f),
                     report);
  }
}

TEST(ParallelErrors, Fracture) {
  fracture::Params params;
  params.max_cluster_size = 200;
  const fracture::Variant* openmp = FindVariant(fracture::Variants(), "openmp");
  const fracture::Variant* data_parallel =
      FindVariant(fracture::Variants(), "data_parallel");
  ASSERT_NE(openmp, nullptr);
  ASSERT_NE(data_parallel, nullptr);
  for (const char* point : {"fracture.openmp.damage", "fracture.openmp.remove",
                            "fracture.openmp.graph", "fracture.openmp.merge"}) {
    ExpectPlantedFailureArrives(point,
                                [&] { StepUntilStruck(*openmp, params); });
  }
  ExpectPlantedFailureArrives("fracture.data_parallel.propose",
                              [&] { StepUntilStruck(*data_parallel, params); });
  // data_parallel keeps its belong lists as a patched CSR.
  for (const char* point : {"fracture.belong_csr_patched.count",
                            "fracture.belong_csr_patched.fill"}) {
    ExpectPlantedFailureArrives(
        point, [&] { StepUntilStruck(*data_parallel, params); });
  }
}

// A glass of 30,000 particles at rest, stepped by the OpenMP rows (which
// also check the state on the threads), and one of 70,000 reordered by
// cell.
TEST(ParallelErrors, Sph) {
  const scenes::FluidScene scene = scenes::GlassAtRest(30000, 0.01f);
  const sph::Fluid fluid =
      sph::LatticeFluid(scene.positions, scene.spacing, scene.height,
                        sph::ContainerOf(scene.glass, scene.lo, scene.hi));
  const sph::Variant* gather =
      FindVariant(sph::Variants(), "sorted_gather_openmp");
  const sph::Variant* pairs =
      FindVariant(sph::Variants(), "sorted_pairs_simd_openmp");
  ASSERT_NE(gather, nullptr);
  ASSERT_NE(pairs, nullptr);
  const auto step = [&fluid](const sph::Variant* variant) {
    return [&fluid, variant] {
      sph::State state = fluid.state;
      sph::Workspace workspace;
      sph::StepReport report;
      variant->run(state, fluid.params, workspace, report);
    };
  };
  for (const char* point :
       {"sph.sorted_gather.1", "sph.sorted_gather.2", "sph.sorted_gather.3",
        "sph.check.1", "sph.cell_sort.cells", "sph.cell_sort.keys",
        "sph.cell_sort.sorted_keys", "sph.cell_sort.rows"}) {
    ExpectPlantedFailureArrives(point, step(gather));
  }
  for (const char* point :
       {"sph.sorted_pairs_simd.1", "sph.sorted_pairs_simd.2",
        "sph.sorted_pairs_simd.3", "sph.sorted_pairs_simd.4",
        "sph.sorted_pairs_simd.5", "sph.cell_sort.by_x"}) {
    ExpectPlantedFailureArrives(point, step(pairs));
  }
  // The threaded counting sort takes 2^16 particles or more.
  const scenes::FluidScene large = scenes::GlassAtRest(70000, 0.01f);
  const sph::Fluid large_fluid =
      sph::LatticeFluid(large.positions, large.spacing, large.height,
                        sph::ContainerOf(large.glass, large.lo, large.hi));
  for (const char* point : {"sph.cell_sort.count", "sph.reorder.permute"}) {
    ExpectPlantedFailureArrives(point, [&] {
      sph::State state = large_fluid.state;
      sph::ReorderByCell(state, large_fluid.params, /*parallel=*/true);
    });
  }
  const std::vector<float> from(std::size_t{1} << 18, 1.0f);
  std::vector<float> to(from.size());
  ExpectPlantedFailureArrives("sph.staging.1", [&] {
    sph::detail::StagingCopy(to.data(), from.data(), from.size());
  });
}

}  // namespace
}  // namespace adj
