#include "algorithms/triangle_adjacency/triangle_adjacency.h"

#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "algorithms/common/simd.h"
#if ADJ_HAVE_CUDA
#include "algorithms/common/cuda.h"
#include "algorithms/triangle_adjacency/device_builder.h"
#endif
#include "algorithms/triangle_adjacency/count_kernel.h"
#include "algorithms/triangle_adjacency/variants.h"
#include "checks/triangle_adjacency.h"
#include "properties/mesh_generators.h"
#include "properties/variant_cases.h"
#include "reference/triangle_adjacency.h"
#include "scenes/meshes.h"

namespace adj::triangle_adjacency {
namespace {

using Words = std::vector<std::uint32_t>;

// `got` against the oracle's rows in the order it declares (rows compare
// as exact sequences either way) and the longest row.
std::string Disagreement(std::span<const Triangle> triangles,
                         std::size_t particles, const Adjacency& got) {
  return checks::triangle_adjacency::FirstDifference(
      checks::triangle_adjacency::ExpectedOf(triangles, particles),
      triangles.size(), got);
}

class TriangleAdjacency
    : public testing::VariantTest<&triangle_adjacency::Variants> {
 protected:
  Adjacency Run(std::span<const Triangle> triangles,
                std::size_t particles) const {
    Adjacency out;
    variant().run(triangles, particles, out);
    return out;
  }
  // Inside a RapidCheck property. The contract's one exception, asserted:
  // only a manifold-only peer may refuse, only with NotManifold and only a
  // mesh that is not an oriented manifold.
  void CheckAgainstOracle(const Mesh& mesh) const {
    const bool manifold =
        reference::OrientedManifold(mesh.triangles, mesh.particles());
    RC_CLASSIFY(manifold, "oriented manifold");
    Adjacency got;
    try {
      variant().run(mesh.triangles, mesh.particles(), got);
    } catch (const NotManifold& refusal) {
      RC_ASSERT(variant().traits.manifold_only);
      RC_ASSERT(!manifold);
      return;
    }
    RC_ASSERT(Disagreement(mesh.triangles, mesh.particles(), got) == "");
  }
};

// NvCloth's documentation (AdjacencyTables.svg): a 3 x 3 grid, 9 particles,
// 8 triangles, no alternating diagonals. Rows worked out by hand.
const std::vector<Triangle> kDocumentedGrid = {{0, 1, 4}, {0, 4, 3}, {1, 2, 5},
                                               {1, 5, 4}, {3, 4, 7}, {3, 7, 6},
                                               {4, 5, 8}, {4, 8, 7}};

TEST(ClothGrid, TwoByTwoQuadsIsNvClothsDocumentedExample) {
  const Mesh mesh = scenes::ClothGrid(2, 2, scenes::Diagonals::kUniform);
  EXPECT_EQ(mesh.particles(), 9u);
  EXPECT_EQ(mesh.triangles, kDocumentedGrid);
}

TEST_P(TriangleAdjacency, NvClothsDocumentedThreeByThreeGrid) {
  const Adjacency got = Run(kDocumentedGrid, 9);
  // Counts 2,3,1,3,6,3,1,3,2 as documented; max 6 (the centre).
  EXPECT_EQ(got.csr.offsets, (Words{0, 2, 5, 6, 9, 15, 18, 19, 22, 24}));
  EXPECT_EQ(got.max_adjacent, 6u);
  Words descending = {1, 0, 3, 2, 0, 2, 5, 4, 1, 7, 6, 4,
                      3, 1, 0, 6, 3, 2, 5, 7, 5, 4, 7, 6};
  if (got.order == RowOrder::kAscending) {
    for (std::size_t p = 0; p < 9; ++p) {
      std::reverse(descending.begin() + got.csr.offsets[p],
                   descending.begin() + got.csr.offsets[p + 1]);
    }
  }
  EXPECT_EQ(got.csr.indices, descending);
  // p0 -> [t1, t0], the documented row.
  if (got.order == RowOrder::kDescending) {
    EXPECT_EQ(got.csr.indices[0], 1u);
    EXPECT_EQ(got.csr.indices[1], 0u);
  }
}

TEST_P(TriangleAdjacency, DegenerateTriangleIsListedOncePerCorner) {
  const std::vector<Triangle> triangles = {{2, 2, 2}, {0, 1, 1}, {1, 2, 0}};
  if (variant().traits.manifold_only) {
    // No halfedge mesh holds a triangle with a repeated corner: the first.
    try {
      Run(triangles, 4);
      ADD_FAILURE() << "a manifold-only peer took a degenerate triangle";
    } catch (const NotManifold& refusal) {
      EXPECT_NE(std::string(refusal.what()).find("triangle 0 (2, 2, 2)"),
                std::string::npos)
          << refusal.what();
    }
    return;
  }
  const Adjacency got = Run(triangles, 4);
  EXPECT_EQ(Disagreement(triangles, 4, got), "");
  EXPECT_EQ(got.csr.RowSize(2), 4u);  // t0 three times, t2 once
  EXPECT_EQ(got.csr.RowSize(1), 3u);  // t1 twice, t2 once
  EXPECT_EQ(got.csr.RowSize(3), 0u);
  EXPECT_EQ(got.max_adjacent, 4u);
}

TEST_P(TriangleAdjacency, TrianglesWithoutParticlesAreRejected) {
  const std::vector<Triangle> triangles = {{0, 0, 0}};
  EXPECT_THROW(Run(triangles, 0), Error);
}

TEST_P(TriangleAdjacency, EmptyInputs) {
  const Adjacency nothing = Run({}, 0);
  EXPECT_EQ(nothing.csr.offsets, Words{0});
  EXPECT_TRUE(nothing.csr.indices.empty());
  EXPECT_EQ(nothing.max_adjacent, 0u);
  const Adjacency lonely = Run({}, 5);
  EXPECT_EQ(lonely.csr.offsets, Words(6, 0));
  EXPECT_EQ(lonely.max_adjacent, 0u);
}

TEST_P(TriangleAdjacency, OutputBuffersAreReusedCorrectly) {
  // A larger result first, so that stale entries would show.
  const Mesh big = scenes::ClothGrid(300, 200, scenes::Diagonals::kUniform);
  const Mesh small = scenes::Disc(7, 3);
  Adjacency out;
  variant().run(big.triangles, big.particles(), out);
  variant().run(small.triangles, small.particles(), out);
  EXPECT_EQ(Disagreement(small.triangles, small.particles(), out), "");
  EXPECT_EQ(out.max_adjacent, 7u);
}

TEST_P(TriangleAdjacency, RejectsOutOfRangeIndexNamingTheFirstTriangle) {
  // 180k triangles: past the threaded variants' fork threshold.
  const Mesh grid = scenes::ClothGrid(300, 300, scenes::Diagonals::kUniform);
  for (const std::uint32_t bad : {static_cast<std::uint32_t>(grid.particles()),
                                  std::numeric_limits<std::uint32_t>::max()}) {
    for (const std::size_t at : {std::size_t{0}, grid.triangles.size() / 3,
                                 grid.triangles.size() - 1}) {
      std::vector<Triangle> triangles = grid.triangles;
      triangles[at][1] = bad;
      triangles.back()[2] = bad;  // a later one must not be the one named
      std::string checked;
      try {
        Check(triangles, grid.particles());
        ADD_FAILURE() << "Check found no error for index " << bad
                      << " in triangle " << at;
      } catch (const Error& error) {
        checked = error.what();
      }
      try {
        Run(triangles, grid.particles());
        ADD_FAILURE() << "no error for index " << bad << " in triangle " << at;
      } catch (const Error& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("triangle " + std::to_string(at) + " "),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find(std::to_string(bad)), std::string::npos)
            << message;
        // The family's Check, a pass of its own, says exactly the same.
        EXPECT_EQ(message, checked);
      }
    }
  }
}

// 3 x triangles must fit the uint32 offsets. The triangles are real memory:
// untouched anonymous pages, which read as zeros and cost nothing until
// touched; a variant must refuse before reading them.
TEST_P(TriangleAdjacency, RejectsEntryCountsThatOverflowUint32) {
  const std::size_t too_many =
      std::numeric_limits<std::uint32_t>::max() / 3 + 1;
  const std::size_t bytes = too_many * sizeof(Triangle);
  void* memory = mmap(nullptr, bytes, PROT_READ,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) GTEST_SKIP() << "cannot reserve " << bytes;
  const std::span<const Triangle> triangles(
      static_cast<const Triangle*>(memory), too_many);
  EXPECT_THROW(Run(triangles, 1), Error);
  EXPECT_THROW(Check(triangles, 1), Error);
  EXPECT_NO_THROW(CheckEntryCount(too_many - 1));
  munmap(memory, bytes);
}

// Small meshes (at most ~1.2k triangles) stay below the threaded variants'
// fork threshold; LargeMeshes... below and RejectsOutOfRange... above run
// their parallel paths.
TEST_P(TriangleAdjacency, GeneratedMeshesMatchOracle) {
  EXPECT_TRUE(rc::check("small meshes", [this] {
    CheckAgainstOracle(testing::BuildMesh(*testing::AnyMeshSpec(24)));
  }));
}

TEST_P(TriangleAdjacency, LargeMeshesMatchOracleOnAnyThreadCount) {
  const bool threaded = variant().backend == Backend::kOpenMp;
  const int default_threads = omp_get_max_threads();
  EXPECT_TRUE(rc::check("meshes up to ~180k triangles", [&] {
    const testing::MeshSpec spec =
        *rc::gen::resize(100, testing::AnyMeshSpec(300));
    if (threaded) omp_set_num_threads(*rc::gen::inRange(1, 8));
    const Mesh mesh = testing::BuildMesh(spec);
    RC_CLASSIFY(mesh.triangles.size() >= 131072, ">= 2^17 triangles");
    CheckAgainstOracle(mesh);
  }));
  omp_set_num_threads(default_threads);
}

// Large enough (720k triangles) that 1 to 7 threads all get their share:
// slices that do not divide evenly, and more threads than cores.
TEST_P(TriangleAdjacency, EveryThreadCountOnALargeMesh) {
  const Mesh grid = scenes::ClothGrid(600, 600, scenes::Diagonals::kUniform);
  const Mesh shuffled = scenes::Shuffled(grid, 7);
  for (const Mesh* mesh : {&grid, &shuffled}) {
    const Csr ascending = checks::triangle_adjacency::ExpectedOf(
        mesh->triangles, mesh->particles());
    testing::OnEveryThreadCount(7, [&](int threads) {
      const Adjacency got = Run(mesh->triangles, mesh->particles());
      EXPECT_EQ(checks::triangle_adjacency::FirstDifference(
                    ascending, mesh->triangles.size(), got),
                "");
      EXPECT_EQ(got.max_adjacent, 6u);
      if (variant().backend == Backend::kOpenMp) {
        EXPECT_EQ(got.threads, threads);
      }
    });
  }
}

// Hand-checked meshes a halfedge mesh cannot hold, each refused at the
// triangle named (the first one the mesh cannot take in order), and ones
// it can, in an order that makes it join separate fans.
class ManifoldOnlyTriangleAdjacency : public TriangleAdjacency {};

TEST_P(ManifoldOnlyTriangleAdjacency, RefusesWhatNoHalfedgeMeshHolds) {
  struct Refused {
    std::vector<Triangle> triangles;
    std::string named;
  };
  const std::vector<Refused> refused = {
      // The second triangle uses edge 0 -> 1 in the first one's direction.
      {{{0, 1, 2}, {0, 1, 3}}, "triangle 1 (0, 1, 3)"},
      // A third triangle on edge 0-1.
      {{{0, 1, 2}, {1, 0, 3}, {0, 1, 4}}, "triangle 2 (0, 1, 4)"},
      // The same triangle twice.
      {{{0, 1, 2}, {3, 4, 0}, {0, 1, 2}}, "triangle 2 (0, 1, 2)"},
      // A repeated corner after valid ones.
      {{{0, 1, 2}, {3, 3, 4}}, "triangle 1 (3, 3, 4)"},
  };
  for (const Refused& mesh : refused) {
    EXPECT_FALSE(reference::OrientedManifold(mesh.triangles, 5));
    try {
      Run(mesh.triangles, 5);
      ADD_FAILURE() << "took " << mesh.named;
    } catch (const NotManifold& refusal) {
      EXPECT_NE(std::string(refusal.what()).find(mesh.named), std::string::npos)
          << refusal.what();
    }
  }
  // A closed fan around particle 0 whose triangles come in an order that
  // leaves two separate fans at 0 until the last joins them; and a
  // tetrahedron, closed.
  const std::vector<Triangle> fan = {
      {0, 1, 2}, {0, 3, 4}, {0, 2, 3}, {0, 4, 5}, {0, 5, 1}};
  const std::vector<Triangle> tetrahedron = {
      {0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {0, 2, 3}};
  for (const auto* triangles : {&fan, &tetrahedron}) {
    ASSERT_TRUE(reference::OrientedManifold(*triangles, 6));
    EXPECT_EQ(Disagreement(*triangles, 6, Run(*triangles, 6)), "");
  }
}

// A halfedge mesh reaches one fan per vertex. A bow-tie (two fans at a
// particle) can be taken by relinking the fans, but once one of them
// closes, circulating the vertex reaches only one: the row must then refuse,
// naming the particle, never return the row with triangles missing. The
// first mesh is the smallest such case found by hand: particle 0 is a
// corner of two open fans (triangles 0 and 1) and of the closed pillow 2-3;
// the second is the one fuzzing found (particle 4, in triangles 0, 2, 3 and
// 4).
TEST_P(ManifoldOnlyTriangleAdjacency, RefusesAVertexWithAClosedFanAndAnother) {
  struct NonManifoldVertex {
    std::vector<Triangle> triangles;
    std::size_t particles;
    Words row;
    std::uint32_t particle;
  };
  const std::vector<NonManifoldVertex> meshes = {
      {{{0, 1, 2}, {0, 3, 4}, {0, 5, 6}, {0, 6, 5}}, 7, {0, 1, 2, 3}, 0},
      {{{21, 4, 18}, {18, 15, 6}, {17, 2, 4}, {0, 4, 8}, {4, 0, 8}},
       22,
       {0, 2, 3, 4},
       4},
  };
  for (const NonManifoldVertex& mesh : meshes) {
    EXPECT_FALSE(reference::OrientedManifold(mesh.triangles, mesh.particles));
    Adjacency got;
    try {
      got = Run(mesh.triangles, mesh.particles);
    } catch (const NotManifold& refusal) {
      const std::string what = refusal.what();
      EXPECT_TRUE(what.find("particle " + std::to_string(mesh.particle)) !=
                      std::string::npos ||
                  what.find("triangle ") != std::string::npos)
          << what;
      continue;
    }
    const auto& offsets = got.csr.offsets;
    ASSERT_GT(offsets.size(), mesh.particle + 1);
    EXPECT_EQ(Words(got.csr.indices.begin() + offsets[mesh.particle],
                    got.csr.indices.begin() + offsets[mesh.particle + 1]),
              mesh.row);
    EXPECT_EQ(Disagreement(mesh.triangles, mesh.particles, got), "");
  }
}

// More particles than the library's indices address (OpenMesh's int
// handles, Surface_mesh's 32-bit indices) is refused before a vertex is
// added, never wrapped.
TEST_P(ManifoldOnlyTriangleAdjacency, RefusesMoreParticlesThanItsIndices) {
  const std::size_t too_many = std::size_t{1} << 32;
  try {
    Run({}, too_many);
    ADD_FAILURE() << "took " << too_many << " particles";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find(std::to_string(too_many)),
              std::string::npos)
        << error.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Peers, ManifoldOnlyTriangleAdjacency,
                         ::testing::ValuesIn(testing::CasesWhere(
                             Variants(),
                             [](const Variant& variant) {
                               return variant.traits.manifold_only;
                             })),
                         testing::CaseName);

INSTANTIATE_TEST_SUITE_P(Variants, TriangleAdjacency,
                         ::testing::ValuesIn(testing::CasesOf(Variants())),
                         testing::CaseName);

// The rows with a twin: its CSR, row order and maxAdjacent on every thread
// count, on meshes large enough that 1 to 6 threads each get their share.
class TwinTriangleAdjacency : public TriangleAdjacency {};

TEST_P(TwinTriangleAdjacency, GivesItsTwinsOutputOnEveryThreadCount) {
  const Variant& twin = testing::TwinOf(Variants(), variant());
  const Mesh grid = scenes::ClothGrid(600, 600, scenes::Diagonals::kUniform);
  const Mesh shuffled = scenes::Shuffled(
      scenes::ClothGrid(600, 600, scenes::Diagonals::kAlternating), 8);
  for (const Mesh* mesh : {&grid, &shuffled}) {
    Adjacency expected;
    twin.run(mesh->triangles, mesh->particles(), expected);
    testing::OnEveryThreadCount(6, [&](int threads) {
      const Adjacency got = Run(mesh->triangles, mesh->particles());
      EXPECT_EQ(got.threads, threads);
      EXPECT_EQ(got.order, expected.order);
      EXPECT_EQ(got.max_adjacent, expected.max_adjacent);
      EXPECT_TRUE(got.csr == expected.csr);
    });
  }
}

INSTANTIATE_TEST_SUITE_P(
    Variants, TwinTriangleAdjacency,
    ::testing::ValuesIn(testing::CasesWithTwin(Variants())), testing::CaseName);

// The exact-order checks above adapt to the order a variant declares; this
// pins that the faithful variant declares NvCloth's.
TEST(TriangleAdjacencyVariants, NvClothKeepsItsDescendingOrder) {
  const Variant* nvcloth = FindVariant(Variants(), "nvcloth");
  ASSERT_NE(nvcloth, nullptr);
  Adjacency out;
  nvcloth->run(kDocumentedGrid, 9, out);
  EXPECT_EQ(out.order, RowOrder::kDescending);
}

// partitioned's block and thread logic on small, adversarial meshes: blocks
// of 1 to 16 particles and a fork at a single triangle per thread, so that
// rows, blocks and thread slices split everywhere they can.
TEST(TriangleAdjacencyPartitioned, AnyBlockSizeAndThreadCountMatchOracle) {
  const int default_threads = omp_get_max_threads();
  EXPECT_TRUE(rc::check("small meshes, tiny blocks", [] {
    const Mesh mesh = testing::BuildMesh(*testing::AnyMeshSpec(24));
    const PartitionedTuning tuning{
        .block_shift = *rc::gen::inRange(0, 5),
        .min_triangles_per_thread = *rc::gen::inRange<std::size_t>(1, 4)};
    omp_set_num_threads(*rc::gen::inRange(1, 6));
    Adjacency got;
    PartitionedBuildTuned(mesh.triangles, mesh.particles(), got, tuning);
    RC_ASSERT(got.order == RowOrder::kDescending);
    RC_ASSERT(Disagreement(mesh.triangles, mesh.particles(), got) == "");
  }));
  omp_set_num_threads(default_threads);
}

TEST(TriangleAdjacencyPartitioned, RejectsOutOfRangeWithTinyBlocks) {
  const std::vector<Triangle> triangles = {{0, 1, 2}, {2, 3, 9}, {9, 9, 0}};
  Adjacency out;
  omp_set_num_threads(2);
  EXPECT_THROW(
      PartitionedBuildTuned(triangles, 4, out,
                            {.block_shift = 1, .min_triangles_per_thread = 1}),
      Error);
  EXPECT_THROW(PartitionedBuildTuned(triangles, 4, out, {.block_shift = 32}),
               Error);
}

// openmp's threaded paths on small meshes: a fork at 1 to 4 triangles per
// thread, chunks of 1 to 4, 1 to 6 threads: pairs that meet anywhere in
// their region, a thread left over, merges whose rows one thread, two or
// more counted, either fill; on every Highway target, since the count pass
// (count_kernel.cc) is dispatched per target. Builds run back to back on one
// thread's workspace, with an out-of-range mesh between them, because each
// build relies on the last one (even one that threw) having cleared the
// counts it touched.
TEST(TriangleAdjacencyOpenMp, AnyForkThresholdAndThreadCountMatchOracle) {
  const int default_threads = omp_get_max_threads();
  for (const std::int64_t target : simd::RunnableTargets()) {
    simd::ForceTarget(target);
    EXPECT_TRUE(rc::check(
        "small meshes, tiny slices, back to back, on " +
            simd::TargetName(target),
        [] {
          const OpenMpTuning tuning = {
              .min_triangles_per_thread = *rc::gen::inRange<std::size_t>(1, 5),
              .chunk_triangles = *rc::gen::inRange<std::size_t>(1, 5),
              .meet_on_every_mesh = *rc::gen::arbitrary<bool>(),
              .ranked_fill =
                  *rc::gen::element(OpenMpTuning::RankedFill::kAuto,
                                    OpenMpTuning::RankedFill::kAlways,
                                    OpenMpTuning::RankedFill::kNever)};
          omp_set_num_threads(*rc::gen::inRange(1, 7));
          const auto build_and_check = [&](const Mesh& mesh) {
            Adjacency got;
            OpenMpBuildTuned(mesh.triangles, mesh.particles(), got, tuning);
            RC_ASSERT(got.order == RowOrder::kDescending);
            RC_ASSERT(Disagreement(mesh.triangles, mesh.particles(), got) ==
                      "");
          };
          build_and_check(testing::BuildMesh(*testing::AnyMeshSpec(24)));
          Mesh broken = testing::BuildMesh(*testing::AnyMeshSpec(24));
          if (!broken.triangles.empty()) {
            const std::size_t bad =
                *rc::gen::inRange<std::size_t>(0, broken.triangles.size());
            broken.triangles[bad][*rc::gen::inRange(0, 3)] =
                static_cast<std::uint32_t>(broken.particles());
            Adjacency got;
            try {
              OpenMpBuildTuned(broken.triangles, broken.particles(), got,
                               tuning);
              RC_FAIL("no error for triangle " + std::to_string(bad));
            } catch (const Error& error) {
              // The first bad triangle is named, whichever thread found one.
              std::size_t first = bad;
              for (std::size_t t = 0; t < bad; ++t) {
                for (const std::uint32_t p : broken.triangles[t]) {
                  if (p >= broken.particles()) first = std::min(first, t);
                }
              }
              RC_ASSERT(std::string(error.what())
                            .find("triangle " + std::to_string(first) + " ") !=
                        std::string::npos);
            }
          }
          build_and_check(testing::BuildMesh(*testing::AnyMeshSpec(24)));
        }));
  }
  simd::ForceTarget(0);
  omp_set_num_threads(default_threads);
}

// openmp's ranked fill places each entry by its rank within its thread's
// part of the row, kept in a byte; a particle in more than 256 triangles of
// one slice overflows it and the fill falls back to decrementing cursors.
// Discs with centres of valence 250 to 600, natural (locality) and shuffled
// (scattered: over 6000 particles, so that 48 random corners span more than
// detail::kScatteredSpan, which prefetches), on 1 to 4 threads, cross that
// bound in one slice, in several, or in none; each with the ranked fill
// forced, the decrementing one forced, and as openmp chooses; on every
// Highway target of the count pass.
TEST(TriangleAdjacencyOpenMp, HighValenceCentresMatchOracleOnEitherFill) {
  const int default_threads = omp_get_max_threads();
  for (const std::int64_t target : simd::RunnableTargets()) {
    simd::ForceTarget(target);
    for (const std::size_t segments : {250, 256, 257, 300, 600}) {
      for (const bool shuffled : {false, true}) {
        const Mesh disc = scenes::Disc(segments, 6000 / segments + 1);
        const Mesh mesh = shuffled ? scenes::Shuffled(disc, segments) : disc;
        for (int threads = 1; threads <= 4; ++threads) {
          // The premise: each thread pair's region (openmp.cc) looks
          // scattered exactly when shuffled, so kAuto takes the scattered
          // fill there and the fill for meshes with locality here.
          const auto team = static_cast<std::size_t>(threads);
          const std::size_t count = mesh.triangles.size();
          for (std::size_t first = 0; first < team; first += 2) {
            EXPECT_EQ(detail::LooksScattered(
                          mesh.triangles.data(), count * first / team,
                          count * std::min(first + 2, team) / team),
                      shuffled)
                << segments << " segments, " << threads << " threads";
          }
          using RankedFill = OpenMpTuning::RankedFill;
          for (const RankedFill fill :
               {RankedFill::kAuto, RankedFill::kAlways, RankedFill::kNever}) {
            omp_set_num_threads(threads);
            Adjacency got;
            OpenMpBuildTuned(
                mesh.triangles, mesh.particles(), got,
                {.min_triangles_per_thread = 1, .ranked_fill = fill});
            EXPECT_EQ(got.order, RowOrder::kDescending);
            EXPECT_EQ(Disagreement(mesh.triangles, mesh.particles(), got), "")
                << segments << " segments, shuffled " << shuffled << ", "
                << threads << " threads, fill " << static_cast<int>(fill)
                << ", " << simd::TargetName(target);
          }
        }
      }
    }
  }
  simd::ForceTarget(0);
  omp_set_num_threads(default_threads);
}

// openmp's paired fill (FillQuadPair) takes a quad's two halves at once:
// b = (a0, a2, y) or (a1, y, a2). Pairs built in both shapes from 4 to 9
// particles, so that corners repeat inside and across the pair, mixed with
// arbitrary triangles so that pairs start anywhere in a slice, on 2 to 5
// threads, each with the paired fill on and off.
TEST(TriangleAdjacencyOpenMp, QuadPairsWithRepeatedCornersMatchOracle) {
  const int default_threads = omp_get_max_threads();
  EXPECT_TRUE(rc::check("quad pairs over few particles", [] {
    // At least 4, the corners of a quad; few, so that corners repeat.
    const auto particles = *rc::gen::inRange<std::uint32_t>(4, 10);
    const auto corner = [&] {
      return *rc::gen::inRange<std::uint32_t>(0, particles);
    };
    std::vector<Triangle> triangles;
    const int steps = *rc::gen::inRange(0, 40);
    for (int step = 0; step < steps; ++step) {
      const Triangle a = {corner(), corner(), corner()};
      triangles.push_back(a);
      switch (*rc::gen::inRange(0, 3)) {
        case 0:
          triangles.push_back({a[0], a[2], corner()});
          break;
        case 1:
          triangles.push_back({a[1], corner(), a[2]});
          break;
        default:
          break;  // a alone
      }
    }
    omp_set_num_threads(*rc::gen::inRange(2, 6));
    const Csr ascending =
        checks::triangle_adjacency::ExpectedOf(triangles, particles);
    for (const bool paired : {true, false}) {
      Adjacency got;
      OpenMpBuildTuned(triangles, particles, got,
                       {.min_triangles_per_thread = 1,
                        .ranked_fill = OpenMpTuning::RankedFill::kNever,
                        .paired_fill = paired});
      RC_ASSERT(got.order == RowOrder::kDescending);
      RC_ASSERT(checks::triangle_adjacency::FirstDifference(
                    ascending, triangles.size(), got) == "");
    }
  }));
  omp_set_num_threads(default_threads);
}

// The oracle itself, on a case small enough to write out.
// The device entry on resident triangles (DeviceBuilder, what benchmarks
// time with CUDA events) builds the oracle's rows in descending order: no
// triangles, a degenerate triangle, a disc, a shuffled grid; twice each (the
// buffers reused).
TEST(TriangleAdjacencyCuda, DeviceBuilderMatchesTheOracle) {
#if !ADJ_HAVE_CUDA
  GTEST_SKIP() << "built without CUDA";
#else
  if (!cuda::Available().available) GTEST_SKIP() << cuda::Available().reason;
  Mesh empty;
  empty.positions.Resize(5);
  Mesh degenerate;
  degenerate.positions.Resize(3);
  degenerate.triangles = {{0, 0, 1}, {2, 1, 0}};
  const std::vector<Mesh> meshes = {
      empty, degenerate, scenes::Disc(7, 3),
      scenes::Shuffled(scenes::ClothGrid(300, 200, scenes::Diagonals::kUniform),
                       5)};
  for (const Mesh& mesh : meshes) {
    Check(mesh.triangles, mesh.particles());
    DeviceBuilder builder(mesh.triangles, mesh.particles());
    for (int call = 0; call < 2; ++call) {
      EXPECT_GE(builder.TimeBuild(), 0.0);
      EXPECT_EQ(
          Disagreement(mesh.triangles, mesh.particles(), builder.Result()), "")
          << mesh.triangles.size() << " triangles, call " << call;
    }
  }
#endif
}

TEST(TriangleAdjacencyOracle, ListsEachCornerInAscendingOrder) {
  const std::vector<Triangle> triangles = {{1, 0, 1}, {0, 2, 3}};
  const Csr csr = reference::TriangleAdjacency(triangles, 5);
  EXPECT_EQ(csr.offsets, (Words{0, 2, 4, 5, 6, 6}));
  EXPECT_EQ(csr.indices, (Words{0, 1, 0, 0, 1, 1}));
}

// Worked out by hand: what is and is not an oriented manifold.
TEST(TriangleAdjacencyOracle, OrientedManifoldByHand) {
  using reference::OrientedManifold;
  EXPECT_TRUE(OrientedManifold({}, 3));
  EXPECT_TRUE(OrientedManifold(kDocumentedGrid, 9));
  // Two triangles sharing edge 0-1 in opposite directions.
  EXPECT_TRUE(OrientedManifold({{{0, 1, 2}, {1, 0, 3}}}, 4));
  // The same edge in the same direction: one of them flipped.
  EXPECT_FALSE(OrientedManifold({{{0, 1, 2}, {0, 1, 3}}}, 4));
  // Two fans meeting at particle 0 only (a bow tie).
  EXPECT_FALSE(OrientedManifold({{{0, 1, 2}, {0, 3, 4}}}, 5));
  // The closed fan that joins them.
  EXPECT_TRUE(OrientedManifold(
      {{{0, 1, 2}, {0, 3, 4}, {0, 2, 3}, {0, 4, 5}, {0, 5, 1}}}, 6));
  // A repeated corner.
  EXPECT_FALSE(OrientedManifold({{{0, 1, 1}}}, 2));
}

}  // namespace
}  // namespace adj::triangle_adjacency
