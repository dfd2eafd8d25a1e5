// Every variant against the oracle on every real mesh `make data` fetched
// (CGAL's data set). Skips, naming `make data`, when the data is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "properties/variant_cases.h"
#include "reference/triangle_adjacency.h"
#include "scenes/mesh_io.h"
#include "scenes/registry.h"

namespace adj::triangle_adjacency {
namespace {

struct RealMesh {
  std::string name;
  Mesh mesh;
  Csr expected_ascending;
};

// Loaded once for all variants. Files the loaders reject are listed with
// the reason; only unsupported formats may be among them (checked below).
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
        Csr expected =
            reference::TriangleAdjacency(mesh.triangles, mesh.particles());
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

TEST(RealMeshes, EveryFileLoadsOrIsAnUnsupportedFormat) {
  if (scenes::RealMeshFiles().empty()) {
    GTEST_SKIP() << scenes::MissingDataHint();
  }
  EXPECT_FALSE(Loaded().meshes.empty());
  for (const auto& [name, reason] : Loaded().rejected) {
    EXPECT_NE(reason.find("binary PLY"), std::string::npos)
        << name << " rejected: " << reason;
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
    variant().run(real.mesh.triangles, real.mesh.particles(), out);
    const Csr expected = reference::InRowOrder(
        real.expected_ascending, out.order == RowOrder::kDescending);
    ASSERT_EQ(out.csr.offsets, expected.offsets) << real.name;
    ASSERT_EQ(out.csr.indices, expected.indices) << real.name;
    ASSERT_EQ(out.max_adjacent, reference::LongestRow(expected)) << real.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, TriangleAdjacencyOnRealMeshes,
                         ::testing::ValuesIn(testing::CasesOf(Variants())),
                         testing::CaseName);

}  // namespace
}  // namespace adj::triangle_adjacency
