// fracture's exported cases: frames of the cluster-topology update with
// splits, merges, refused merges, freed slots reused, and nothing at all,
// on blocks with overlapping cube clusters. Expected: the oracle's frame
// (checks::fracture::ExpectedOf) for the merge search the case names,
// breadth-first expansion (the published random one needs the suite's
// generator; docs/fracture.md).
#include <string>
#include <vector>

#include "algorithms/fracture/fracture.h"
#include "checks/fracture.h"
#include "registry/array_views.h"
#include "registry/corpus.h"
#include "registry/corpus_families.h"
#include "scenes/solids.h"

namespace adj::registry {
namespace {

namespace fr = adj::fracture;

Array CoordsArray(const scenes::Voxels& voxels) {
  return RowsArray<3>(
      std::span<const std::array<std::uint32_t, 3>>(voxels.cells));
}

Array PositionsArray(const Points& positions) {
  std::vector<double> values;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    values.insert(values.end(),
                  {positions.x[i], positions.y[i], positions.z[i]});
  }
  return RealArray({positions.size(), 3}, std::move(values));
}

Array UnsignedArray(std::span<const std::uint32_t> values) {
  return IntegerArray({values.size()}, {values.begin(), values.end()});
}

struct Frame {
  scenes::Voxels voxels;
  Csr clusters;
  Points positions;
  fr::Params params;
  checks::fracture::MergeChoice merge =
      checks::fracture::MergeChoice::kFirstFit;
};

CorpusCase FractureCase(std::string name, std::string purpose,
                        const Frame& frame) {
  std::vector<fr::Coord> coords;
  for (const auto& c : frame.voxels.cells) coords.push_back({c[0], c[1], c[2]});
  const fr::State before = fr::MakeState(
      {frame.voxels.grid[0], frame.voxels.grid[1], frame.voxels.grid[2]},
      coords, frame.clusters);
  const checks::fracture::Expected expected = checks::fracture::ExpectedOf(
      before, frame.positions, frame.params, frame.merge);
  CorpusCase made;
  made.name = std::move(name);
  made.purpose = std::move(purpose);
  made.inputs["grid"] = UnsignedArray(frame.voxels.grid);
  made.inputs["coords"] = CoordsArray(frame.voxels);
  made.inputs["cluster_offsets"] = UnsignedArray(frame.clusters.offsets);
  made.inputs["cluster_members"] = UnsignedArray(frame.clusters.indices);
  made.inputs["positions"] = PositionsArray(frame.positions);
  made.inputs["damage_distance"] =
      RealArray({}, {frame.params.damage_distance});
  made.inputs["max_cluster_size"] = ScalarArray(frame.params.max_cluster_size);
  made.inputs["min_cluster_size"] = ScalarArray(frame.params.min_cluster_size);
  made.inputs["neighborhood"] = ScalarArray(
      frame.params.neighborhood == fr::Neighborhood::kAll26 ? 26 : 6);
  made.inputs["expansion"] = ScalarArray(1);
  made.inputs["merge"] = ScalarArray(
      frame.merge == checks::fracture::MergeChoice::kPrinted          ? 1
      : frame.merge == checks::fracture::MergeChoice::kPriorityRounds ? 3
                                                                      : 0);
  std::vector<std::int64_t> intact;
  for (const fr::Coord& c : expected.after.particle_coord) {
    intact.push_back(
        expected.after.node_is_particle[fr::NodeIndex(expected.after.grid, c)]);
  }
  made.expected["intact"] = IntegerArray({intact.size()}, intact);
  std::vector<std::int64_t> offsets = {0};
  std::vector<std::int64_t> members;
  std::vector<std::int64_t> slots;
  const fr::ClusterTable& table = expected.after.clusters;
  for (std::size_t s = 0; s < table.slots.size(); ++s) {
    if (!table.valid[s]) continue;
    const auto& particles = table.slots[s].particles;
    members.insert(members.end(), particles.begin(), particles.end());
    offsets.push_back(static_cast<std::int64_t>(members.size()));
    slots.push_back(static_cast<std::int64_t>(s));
  }
  made.expected["cluster_offsets"] = IntegerArray({offsets.size()}, offsets);
  made.expected["cluster_members"] = IntegerArray({members.size()}, members);
  made.expected["cluster_slots"] = IntegerArray({slots.size()}, slots);
  const Csr& merges = expected.report.merges;
  made.expected["merge_offsets"] = UnsignedArray(merges.offsets);
  made.expected["merge_slots"] = UnsignedArray(merges.indices);
  made.expected["belong_offsets"] = UnsignedArray(expected.belong.offsets);
  made.expected["belong_indices"] = UnsignedArray(expected.belong.indices);
  return made;
}

fr::Params BreadthFirst(std::uint32_t max_size, std::uint32_t min_size) {
  fr::Params params;
  params.max_cluster_size = max_size;
  params.min_cluster_size = min_size;
  params.expansion = fr::Expansion::kBreadthFirst;
  return params;
}

// A 12 x 8 x 6 block in overlapping cubes of side 4 every 3 nodes, cut by a
// blade down the plane x = 5.5 at its third frame.
Frame BladeFrame(fr::Params params) {
  Frame frame;
  frame.voxels = scenes::Block(12, 8, 6);
  frame.clusters = scenes::CubeClusters(frame.voxels, 4, 3);
  scenes::Blade blade;
  blade.plane_x = 5.5f;
  blade.width = 2;
  blade.z_begin = 0;
  blade.z_end = 6;
  frame.positions = scenes::BladePositions(frame.voxels, blade, 3);
  frame.params = params;
  return frame;
}

}  // namespace

std::vector<CorpusCase> FractureCorpus() {
  std::vector<CorpusCase> cases;
  cases.push_back(FractureCase(
      "blade_cut",
      "a blade partway down a block of overlapping cube clusters: clusters "
      "split along the cut, the pieces merge into neighbours (first fit)",
      BladeFrame(BreadthFirst(128, 8))));
  Frame refused = BladeFrame(BreadthFirst(70, 8));
  cases.push_back(FractureCase(
      "merges_refused",
      "the same cut with max_cluster_size 70 over clusters of up to 64: most "
      "merges would overfill "
      "their target, so pieces are inserted in freed slots and grown",
      refused));
  Frame printed = BladeFrame(BreadthFirst(128, 8));
  printed.merge = checks::fracture::MergeChoice::kPrinted;
  cases.push_back(FractureCase(
      "printed_search",
      "the cut under the printed search (merge 1): every fit is taken, so a "
      "piece may merge into several clusters",
      printed));
  Frame rounds = BladeFrame(BreadthFirst(128, 8));
  rounds.merge = checks::fracture::MergeChoice::kPriorityRounds;
  cases.push_back(FractureCase(
      "priority_rounds",
      "the cut under rounds of proposals (merge 3): each target takes its "
      "proposers in ascending order while they fit",
      rounds));
  Frame all26 = BladeFrame(BreadthFirst(128, 8));
  all26.params.neighborhood = fr::Neighborhood::kAll26;
  // Corner neighbours rest sqrt(3) apart: past the default 1.5 every
  // particle would be damaged.
  all26.params.damage_distance = 2.0f;
  cases.push_back(FractureCase(
      "all_26_neighbours",
      "the cut with 26 neighbours per node (damage_distance 2, above the "
      "corner neighbours' sqrt(3)): damage, components and growth across "
      "edges and corners too",
      all26));
  Frame random;
  random.voxels = scenes::Block(10, 10, 10);
  random.clusters = scenes::CubeClusters(random.voxels, 5, 4);
  random.positions = scenes::RandomDamage(random.voxels, 40, 2.0f, 5);
  random.params = BreadthFirst(200, 10);
  cases.push_back(FractureCase(
      "random_damage",
      "40 particles of a 10^3 block moved by 2 nodes: scattered removals, "
      "clusters split into many pieces",
      random));
  Frame still = BladeFrame(BreadthFirst(128, 8));
  still.positions = scenes::BladePositions(still.voxels, scenes::Blade{}, 0);
  cases.push_back(FractureCase(
      "at_rest", "every particle at its rest position: nothing changes",
      still));
  return cases;
}

}  // namespace adj::registry
