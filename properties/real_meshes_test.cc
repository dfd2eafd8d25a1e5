// Every variant against the oracle on every real mesh `make data` fetched
// (CGAL's data set). Skips, naming `make data`, when the data is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "checks/triangle_adjacency.h"
#include "checks/triplet_schedule.h"
#include "properties/variant_cases.h"
#include "reference/triangle_adjacency.h"
#include "scenes/mesh_io.h"
#include "scenes/meshes.h"
#include "scenes/registry.h"

namespace adj::triangle_adjacency {
namespace {

struct RealMesh {
  std::string name;
  Mesh mesh;
  Csr expected_ascending;
};

// Loaded once for all variants. Files the loaders reject are listed with
// the reason; only the known malformed ones may be (checked below).
struct RealMeshes {
  std::vector<RealMesh> meshes;
  std::map<std::string, std::string> rejected;
};

const RealMeshes& Loaded() {
  static const RealMeshes loaded = [] {
    RealMeshes result;
    for (const auto& path : scenes::RealMeshFiles()) {
      try {
        Mesh mesh = scenes::LoadMesh(path);
        Csr expected = checks::triangle_adjacency::ExpectedOf(mesh.triangles,
                                                              mesh.particles());
        result.meshes.push_back(
            {path.filename().string(), std::move(mesh), std::move(expected)});
      } catch (const adj::Error& error) {
        result.rejected[path.filename().string()] = error.what();
      }
    }
    return result;
  }();
  return loaded;
}

// CGAL's files that are malformed, with what the loader must say: prim.off
// holds one face more than its counts declare, and data after the declared
// counts is refused rather than loaded in part (mesh_io.h).
const std::map<std::string, std::string>& MalformedFiles() {
  static const std::map<std::string, std::string> malformed = {
      {"prim.off",
       "prim.off:24: data after the 11 vertices and 7 faces the counts on "
       "line 2 declare"},
  };
  return malformed;
}

TEST(RealMeshes, EveryFileLoadsButTheMalformedOnes) {
  if (scenes::RealMeshFiles().empty()) {
    GTEST_SKIP() << scenes::MissingDataHint();
  }
  EXPECT_FALSE(Loaded().meshes.empty());
  for (const auto& [name, reason] : Loaded().rejected) {
    const auto expected = MalformedFiles().find(name);
    if (expected == MalformedFiles().end()) {
      ADD_FAILURE() << name << " rejected: " << reason;
    } else {
      EXPECT_NE(reason.find(expected->second), std::string::npos)
          << name << " rejected for another reason: " << reason;
    }
  }
  for (const auto& [name, reason] : MalformedFiles()) {
    bool present = false;
    for (const auto& path : scenes::RealMeshFiles()) {
      present |= path.filename().string() == name;
    }
    if (present) {
      EXPECT_TRUE(Loaded().rejected.contains(name)) << name << " loaded";
    }
  }
}

class TriangleAdjacencyOnRealMeshes
    : public testing::VariantTest<&triangle_adjacency::Variants> {};

TEST_P(TriangleAdjacencyOnRealMeshes, AgreesWithOracleOnEveryMesh) {
  if (scenes::RealMeshFiles().empty()) {
    GTEST_SKIP() << scenes::MissingDataHint();
  }
  Adjacency out;  // reused from mesh to mesh, as a simulation would
  for (const RealMesh& real : Loaded().meshes) {
    try {
      variant().run(real.mesh.triangles, real.mesh.particles(), out);
    } catch (const NotManifold& refusal) {
      // The contract's one exception (triangle_adjacency.h), asserted.
      EXPECT_TRUE(variant().traits.manifold_only) << refusal.what();
      EXPECT_FALSE(reference::OrientedManifold(real.mesh.triangles,
                                               real.mesh.particles()))
          << real.name << ": " << refusal.what();
      continue;
    }
    ASSERT_EQ(checks::triangle_adjacency::FirstDifference(
                  real.expected_ascending, real.mesh.triangles.size(), out),
              "")
        << real.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, TriangleAdjacencyOnRealMeshes,
                         ::testing::ValuesIn(testing::CasesOf(Variants())),
                         testing::CaseName);

}  // namespace
}  // namespace adj::triangle_adjacency

namespace adj::triplet_schedule {
namespace {

using triangle_adjacency::Loaded;
using triangle_adjacency::RealMesh;

// Every scheduler on every real mesh's virtual particles (one per
// triangle), against the reference validator. A 16-bit scheduler may refuse
// a mesh past its indices, with an Error that says so; nothing else.
template <bool kSimd>
void ScheduleEveryRealMesh(const Variant& variant, unsigned width) {
  if (scenes::RealMeshFiles().empty()) {
    GTEST_SKIP() << scenes::MissingDataHint();
  }
  Schedule out;  // reused from mesh to mesh
  std::size_t scheduled = 0;
  for (const RealMesh& real : Loaded().meshes) {
    const std::vector<Triplet> triplets = scenes::VirtualParticles(real.mesh);
    const std::size_t particles = real.mesh.particles();
    try {
      variant.run(triplets, particles, width, out);
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find("16-bit"), std::string::npos)
          << real.name << ": " << error.what();
      EXPECT_GT(particles, 65533u) << real.name;
      continue;
    }
    ++scheduled;
    const std::string problem = checks::triplet_schedule::FirstProblem(
        triplets, particles,
        kSimd ? checks::triplet_schedule::Layout::kSimd
              : checks::triplet_schedule::Layout::kWarp,
        width, out);
    ASSERT_EQ(problem, "") << real.name;
  }
  EXPECT_GT(scheduled, 0u);
}

class SimdSchedulerOnRealMeshes : public testing::VariantTest<&SimdSchedulers> {
};
class WarpSchedulerOnRealMeshes : public testing::VariantTest<&WarpSchedulers> {
};

TEST_P(SimdSchedulerOnRealMeshes, PassesTheValidatorOnEveryMesh) {
  ScheduleEveryRealMesh<true>(variant(), kNvClothSimdWidth);
}

TEST_P(WarpSchedulerOnRealMeshes, PassesTheValidatorOnEveryMesh) {
  ScheduleEveryRealMesh<false>(variant(), 32);
}

INSTANTIATE_TEST_SUITE_P(
    Variants, SimdSchedulerOnRealMeshes,
    ::testing::ValuesIn(testing::CasesOf(SimdSchedulers())), testing::CaseName);
INSTANTIATE_TEST_SUITE_P(
    Variants, WarpSchedulerOnRealMeshes,
    ::testing::ValuesIn(testing::CasesOf(WarpSchedulers())), testing::CaseName);

}  // namespace
}  // namespace adj::triplet_schedule
