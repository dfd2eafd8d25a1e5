// triplet_schedule's exported cases: meshes' virtual particles at high
// valence, shuffled, with repeated corners. A schedule is judged valid,
// not compared with one expected order, so each case's expected output is
// one the validator accepts that is obviously valid: every triplet a set
// of its own, back to back (the warp layout).
#include <string>
#include <vector>

#include "registry/array_views.h"
#include "registry/corpus.h"
#include "registry/corpus_families.h"
#include "scenes/meshes.h"

namespace adj::registry {
namespace {

CorpusCase ScheduleCase(std::string name, std::string purpose, const Mesh& mesh,
                        unsigned width) {
  const std::vector<Triplet> triplets = scenes::VirtualParticles(mesh);
  CorpusCase made;
  made.name = std::move(name);
  made.purpose = std::move(purpose);
  made.inputs["triplets"] = RowsArray<4>(triplets);
  made.inputs["particles"] =
      ScalarArray(static_cast<std::int64_t>(mesh.particles()));
  made.inputs["width"] = ScalarArray(width);
  made.inputs["simd"] = ScalarArray(0);
  made.expected["order"] = made.inputs["triplets"];
  made.expected["set_sizes"] = IntegerArray(
      {triplets.size()}, std::vector<std::int64_t>(triplets.size(), 1));
  return made;
}

}  // namespace

std::vector<CorpusCase> TripletScheduleCorpus() {
  std::vector<CorpusCase> cases;
  cases.push_back(ScheduleCase(
      "cloth", "a 32 x 32 cloth's virtual particles, one per triangle",
      scenes::ClothGrid(32, 32, scenes::Diagonals::kUniform), 32));
  cases.push_back(ScheduleCase(
      "high_valence",
      "a disc whose centre is in 300 triangles: maxAdjacentCount 300, at "
      "least 300 sets",
      scenes::Disc(300, 3), 32));
  cases.push_back(ScheduleCase(
      "shuffled_cloth", "a 40 x 40 cloth, ids and triangle order shuffled",
      scenes::Shuffled(
          scenes::ClothGrid(40, 40, scenes::Diagonals::kAlternating), 7),
      32));
  cases.push_back(ScheduleCase(
      "soup_half_warp",
      "3,000 triangles with random corners among 500 particles (repeated "
      "corners included), for warps of 16",
      scenes::TriangleSoup(3000, 500, 3), 16));
  cases.push_back(ScheduleCase("empty", "no triplets", Mesh{}, 32));
  return cases;
}

}  // namespace adj::registry
