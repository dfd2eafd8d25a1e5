// triangle_adjacency's exported cases: degenerate and repeated triangles,
// a non-manifold edge, particles in no triangle, a high valence, and the
// oracle's rows as (particle, triangle) memberships.
#include <string>
#include <vector>

#include "checks/triangle_adjacency.h"
#include "registry/array_views.h"
#include "registry/corpus.h"
#include "registry/corpus_families.h"
#include "scenes/meshes.h"

namespace adj::registry {
namespace {

CorpusCase MeshCase(std::string name, std::string purpose,
                    const std::vector<Triangle>& triangles,
                    std::size_t particles) {
  CorpusCase made;
  made.name = std::move(name);
  made.purpose = std::move(purpose);
  made.inputs["triangles"] = RowsArray<3>(triangles);
  made.inputs["particles"] = ScalarArray(static_cast<std::int64_t>(particles));
  const Csr rows = checks::triangle_adjacency::ExpectedOf(triangles, particles);
  Array& memberships = made.expected["memberships"];
  memberships.integral = true;
  memberships.shape = {rows.entries(), 2};
  for (std::size_t p = 0; p < particles; ++p) {
    for (const std::uint32_t t : rows.Row(p)) {
      memberships.integers.insert(memberships.integers.end(),
                                  {static_cast<std::int64_t>(p), t});
    }
  }
  return made;
}

}  // namespace

std::vector<CorpusCase> TriangleAdjacencyCorpus() {
  std::vector<CorpusCase> cases;
  cases.push_back(MeshCase(
      "degenerate_and_repeated",
      "a triangle with a repeated corner and a triangle listed twice, among "
      "ordinary ones",
      {{0, 1, 2}, {2, 1, 3}, {3, 3, 4}, {0, 1, 2}, {4, 3, 2}}, 5));
  std::vector<Triangle> fan;
  for (std::uint32_t k = 2; k < 12; ++k) fan.push_back({0, 1, k});
  cases.push_back(MeshCase("non_manifold_edge",
                           "ten triangles on one edge (0, 1)", fan, 12));
  cases.push_back(MeshCase("isolated_particles",
                           "two triangles among 50 particles: rows of length "
                           "0 before, between and after them",
                           {{10, 11, 12}, {30, 31, 12}}, 50));
  const Mesh disc = scenes::Disc(300, 2);
  cases.push_back(MeshCase("high_valence",
                           "a disc whose centre is in 300 triangles",
                           disc.triangles, disc.particles()));
  const Mesh cloth = scenes::Shuffled(
      scenes::ClothGrid(24, 24, scenes::Diagonals::kAlternating), 1);
  cases.push_back(MeshCase("shuffled_cloth",
                           "a 24 x 24 cloth, ids and triangle order shuffled",
                           cloth.triangles, cloth.particles()));
  const Mesh soup = scenes::TriangleSoup(2000, 300, 2);
  cases.push_back(MeshCase("soup",
                           "2,000 triangles with random corners among 300 "
                           "particles, degenerate ones included",
                           soup.triangles, soup.particles()));
  cases.push_back(MeshCase("empty", "no triangles, no particles", {}, 0));
  return cases;
}

}  // namespace adj::registry
