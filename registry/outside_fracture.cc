// fracture's outside check: one frame of the cluster-topology update
// computed anywhere, from the clusters before to the clusters after,
// against the oracle's frame (reference/fracture through checks::fracture)
// for the merge search the caller says it runs. Cluster attributes and
// rest local positions are not read: both sides get the contract's
// (defaults, inherited; rest positions by the rule), so what is judged is
// the topology: which particles are removed, which clusters live in which
// slots with which members in which order, the merges and belong lists.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "algorithms/common/memory_budget.h"
#include "algorithms/fracture/fracture.h"
#include "checks/fracture.h"
#include "registry/array_views.h"
#include "registry/outside_families.h"

namespace adj::registry {
namespace {

namespace fr = adj::fracture;

const Array& Need(const Arrays& arrays, std::string_view name,
                  std::string_view where) {
  const Array* array = Find(arrays, name);
  if (array == nullptr) {
    throw CheckInputError("fracture: the " + std::string(where) + " " +
                          std::string(name) + " is required");
  }
  return *array;
}

std::uint64_t ParameterOr(const Parameters& parameters, std::string_view name,
                          std::uint64_t low, std::uint64_t high,
                          std::uint64_t absent) {
  return parameters.contains(name)
             ? WholeParameterOf(parameters, name, low, high)
             : absent;
}

// The live clusters (offsets, members, optionally slots; else slots 0, 1,
// ...) as a table of at least `min_slots` slots, every other slot deleted,
// rest local positions by the rule; and the particles' intact flags.
void FillClusters(const Arrays& arrays, std::string_view where,
                  std::size_t min_slots, fr::State& state) {
  const std::size_t particles = state.Particles();
  const Array& offsets = Need(arrays, "cluster_offsets", where);
  const Array& members = Need(arrays, "cluster_members", where);
  if (offsets.size() == 0) {
    throw CheckInputError("cluster_offsets: empty, expected (K + 1,)");
  }
  const std::size_t clusters = offsets.size() - 1;
  const Csr csr = CsrOf(offsets, members, clusters, particles,
                        std::string(where) + " clusters");
  std::vector<std::uint32_t> slots(clusters);
  for (std::size_t k = 0; k < clusters; ++k) {
    slots[k] = static_cast<std::uint32_t>(k);
  }
  if (const Array* given = Find(arrays, "cluster_slots")) {
    slots = IndicesOf(*given, "cluster_slots", fr::kNone);
    if (slots.size() != clusters) {
      throw CheckInputError("cluster_slots: " + std::to_string(slots.size()) +
                            " entries for " + std::to_string(clusters) +
                            " clusters");
    }
  }
  std::size_t table = min_slots;
  for (const std::uint32_t slot : slots) {
    table = std::max<std::size_t>(table, std::size_t{slot} + 1);
  }
  memory::Require(memory::Bytes(table, sizeof(fr::Cluster)),
                  "fracture: the cluster table");
  state.clusters.slots.assign(table, fr::Cluster{});
  state.clusters.valid.assign(table, 0);
  for (std::size_t k = 0; k < clusters; ++k) {
    if (state.clusters.valid[slots[k]]) {
      throw CheckInputError("cluster_slots: slot " + std::to_string(slots[k]) +
                            " is given twice");
    }
    const auto row = csr.Row(k);
    fr::Cluster& cluster = state.clusters.slots[slots[k]];
    cluster.particles.assign(row.begin(), row.end());
    cluster.rest_local = fr::RestLocal(state, cluster.particles);
    state.clusters.valid[slots[k]] = 1;
  }
}

void FillIntact(const Arrays& arrays, std::string_view where,
                fr::State& state) {
  std::fill(state.node_is_particle.begin(), state.node_is_particle.end(), 0);
  std::vector<std::uint32_t> intact(state.Particles(), 1);
  if (const Array* given = Find(arrays, "intact")) {
    intact = IndicesOf(*given, std::string(where) + " intact", 2);
    if (intact.size() != state.Particles()) {
      throw CheckInputError(
          std::string(where) + " intact: " + std::to_string(intact.size()) +
          " entries for " + std::to_string(state.Particles()) + " particles");
    }
  } else if (where == "output") {
    throw CheckInputError("fracture: the output intact is required");
  }
  for (std::size_t p = 0; p < state.Particles(); ++p) {
    if (intact[p]) {
      state.node_is_particle[fr::NodeIndex(state.grid,
                                           state.particle_coord[p])] = 1;
    }
  }
}

fr::State BeforeOf(const Arrays& inputs) {
  const std::vector<std::uint32_t> grid =
      IndicesOf(Need(inputs, "grid", "input"), "grid", fr::kNone);
  if (grid.size() != 3) throw CheckInputError("grid: expected (3,) nx, ny, nz");
  fr::State state;
  state.grid = {grid[0], grid[1], grid[2]};
  if (state.grid.Nodes() > fr::kMaxNodes) {
    throw CheckInputError("grid: " + std::to_string(state.grid.Nodes()) +
                          " nodes, at most 2^32 - 1");
  }
  // The grid is the caller's number, not an array it gave: budgeted before
  // its node flags (a byte a node) and the oracle's node index (8 bytes a
  // node) are allocated.
  memory::Require(memory::Bytes(state.grid.Nodes(), 9),
                  "fracture: the grid's node flags and index");
  const Array& coords = Need(inputs, "coords", "input");
  if (coords.size() != 0 &&
      (coords.shape.size() != 2 || coords.shape[1] != 3)) {
    throw CheckInputError("coords: expected (N, 3) node coordinates");
  }
  Array column = coords;
  column.shape = {coords.size()};
  const std::vector<std::uint32_t> values =
      IndicesOf(column, "coords", fr::kNone);
  state.node_is_particle.assign(state.grid.Nodes(), 0);
  for (std::size_t p = 0; p < values.size() / 3; ++p) {
    const fr::Coord c{values[3 * p], values[3 * p + 1], values[3 * p + 2]};
    if (c.x >= state.grid.nx || c.y >= state.grid.ny || c.z >= state.grid.nz) {
      throw CheckInputError("coords: particle " + std::to_string(p) +
                            " is outside the grid");
    }
    state.particle_coord.push_back(c);
  }
  return state;
}

// Row c: the slots new cluster c merged into, from merges (C,) (a slot, or
// -1 for none) or merge_offsets (C + 1,) and merge_slots.
Csr MergesOf(const Arrays& outputs, std::size_t slots) {
  if (const Array* merges = Find(outputs, "merges")) {
    if (merges->shape.size() != 1) {
      throw CheckInputError(
          "merges: expected (C,), a slot or -1 per new "
          "cluster");
    }
    Csr csr;  // offsets {0}
    for (std::size_t c = 0; c < merges->size(); ++c) {
      const double value = merges->integral
                               ? static_cast<double>(merges->integers[c])
                               : merges->reals[c];
      if (value != -1) {
        if (!(value >= 0 && value < static_cast<double>(slots) &&
              std::floor(value) == value)) {
          throw CheckInputError("merges: entry " + std::to_string(c) + " is " +
                                std::to_string(value) +
                                ", neither -1 nor a slot in [0, " +
                                std::to_string(slots) + ")");
        }
        csr.indices.push_back(static_cast<std::uint32_t>(value));
      }
      csr.offsets.push_back(static_cast<std::uint32_t>(csr.indices.size()));
    }
    return csr;
  }
  const Array* offsets = Find(outputs, "merge_offsets");
  const Array* targets = Find(outputs, "merge_slots");
  if (offsets == nullptr || targets == nullptr || offsets->size() == 0) {
    throw CheckInputError(
        "fracture: the output merges (or merge_offsets and merge_slots) is "
        "required when the merge choice is any valid one");
  }
  return CsrOf(*offsets, *targets, offsets->size() - 1, slots, "merges");
}

// Row p: the live slots holding particle p, ascending.
Csr BelongOf(const fr::State& state) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> entries;
  for (std::size_t s = 0; s < state.clusters.slots.size(); ++s) {
    if (!state.clusters.valid[s]) continue;
    for (const std::uint32_t p : state.clusters.slots[s].particles) {
      entries.emplace_back(p, static_cast<std::uint32_t>(s));
    }
  }
  return CsrOfEntries(entries, state.Particles());
}

OutsideVerdict CheckFractureOutput(const Arrays& inputs, const Arrays& outputs,
                                   const Parameters& parameters) {
  fr::State before = BeforeOf(inputs);
  FillIntact(inputs, "input", before);
  FillClusters(inputs, "input", 0, before);
  before.frame = ParameterOr(parameters, "frame", 0, 0xffffffffu, 0);
  fr::Params params;
  params.damage_distance =
      static_cast<float>(ParameterOf(parameters, "damage_distance"));
  params.max_cluster_size = static_cast<std::uint32_t>(
      WholeParameterOf(parameters, "max_cluster_size", 2, 0xfffffffeu));
  params.min_cluster_size = static_cast<std::uint32_t>(
      WholeParameterOf(parameters, "min_cluster_size", 0, 0xfffffffeu));
  const std::uint64_t neighborhood =
      ParameterOr(parameters, "neighborhood", 6, 26, 6);
  if (neighborhood != 6 && neighborhood != 26) {
    throw CheckInputError("the parameter neighborhood is " +
                          std::to_string(neighborhood) + ", not 6 or 26");
  }
  params.neighborhood =
      neighborhood == 26 ? fr::Neighborhood::kAll26 : fr::Neighborhood::kFace6;
  params.expansion = ParameterOr(parameters, "expansion", 0, 1, 1) == 1
                         ? fr::Expansion::kBreadthFirst
                         : fr::Expansion::kRandomAsPublished;
  params.seed = ParameterOr(parameters, "seed", 0, 0xffffffffu, 0);
  const std::uint64_t merge = ParameterOr(parameters, "merge", 0, 3, 0);
  const checks::fracture::MergeChoice choice =
      merge == 0   ? checks::fracture::MergeChoice::kFirstFit
      : merge == 1 ? checks::fracture::MergeChoice::kPrinted
      : merge == 2 ? checks::fracture::MergeChoice::kAnyValid
                   : checks::fracture::MergeChoice::kPriorityRounds;
  fr::Check(before, params);
  const Points positions =
      PointsOf(Need(inputs, "positions", "input"), "positions");
  fr::CheckPositions(before, positions);

  fr::State after = before;
  after.frame = before.frame + 1;
  FillIntact(outputs, "output", after);
  FillClusters(outputs, "output", before.clusters.slots.size(), after);
  const Csr belong =
      Find(outputs, "belong_offsets") != nullptr
          ? CsrOf(Need(outputs, "belong_offsets", "output"),
                  Need(outputs, "belong_indices", "output"), after.Particles(),
                  after.clusters.slots.size(), "belong")
          : BelongOf(after);
  // The report's counts are the oracle's but for the merges, which are the
  // caller's when given (any valid choice must give them).
  const checks::fracture::Expected expected = checks::fracture::ExpectedOf(
      before, positions, params,
      choice == checks::fracture::MergeChoice::kAnyValid
          ? checks::fracture::MergeChoice::kFirstFit
          : choice);
  fr::FrameReport report = expected.report;
  const bool merges_given = Find(outputs, "merges") != nullptr ||
                            Find(outputs, "merge_offsets") != nullptr;
  if (merges_given || choice == checks::fracture::MergeChoice::kAnyValid) {
    report.merges = MergesOf(outputs, after.clusters.slots.size());
    report.merged = 0;
    for (std::size_t c = 0; c < report.merges.rows(); ++c) {
      report.merged += !report.merges.Row(c).empty();
    }
    report.inserted = report.new_clusters >= report.merged
                          ? report.new_clusters - report.merged
                          : 0;
  }
  OutsideVerdict verdict;
  verdict.scope = "the oracle's frame of all " +
                  std::to_string(before.Particles()) + " particles and " +
                  std::to_string(before.clusters.Live()) + " clusters" +
                  (merges_given ? "" : " (merges not given: not compared)") +
                  (Find(outputs, "belong_offsets") != nullptr
                       ? ""
                       : " (belong lists not given: the clusters' own)");
  verdict.difference = checks::fracture::FirstDifference(
      before, positions, params, choice, after, belong, report);
  verdict.statistics = {
      {"removed", static_cast<double>(expected.report.removed)},
      {"influenced", static_cast<double>(expected.report.influenced)},
      {"new_clusters", static_cast<double>(expected.report.new_clusters)},
      {"merged", static_cast<double>(report.merged)},
      {"live_clusters", static_cast<double>(after.clusters.Live())}};
  return verdict;
}

}  // namespace

OutsideCheck FractureOutsideCheck() {
  return {
      "fracture",
      "grid (3,) of nx, ny, nz; coords (N, 3): each particle's node; "
      "optionally intact (N,) (1 intact, 0 removed; default all intact); the "
      "live clusters as cluster_offsets (K + 1,) and cluster_members, "
      "optionally cluster_slots (K,) (default 0, 1, ...); positions (N, 3): "
      "the frame's predicted positions; the parameters damage_distance, "
      "max_cluster_size, min_cluster_size, optionally neighborhood (6 or "
      "26, default 6), expansion (1 breadth-first, the default; 0 random as "
      "published, seeded by seed), seed, frame (the frames stepped before, "
      "default 0) and merge (0 first fit, the default; 1 printed; 2 any "
      "valid; 3 priority rounds)",
      "intact (N,) after the frame; the live clusters as cluster_offsets, "
      "cluster_members and optionally cluster_slots (members in the "
      "contract's order); optionally merges (C,) (per new cluster in "
      "canonical order, the slot it merged into or -1; or merge_offsets and "
      "merge_slots; required with merge 2) and belong_offsets and "
      "belong_indices (each particle's slots, ascending)",
      {"grid", "coords", "intact", "cluster_offsets", "cluster_members",
       "cluster_slots", "positions"},
      {"intact", "cluster_offsets", "cluster_members", "cluster_slots",
       "merges", "merge_offsets", "merge_slots", "belong_offsets",
       "belong_indices"},
      {"damage_distance", "max_cluster_size", "min_cluster_size",
       "neighborhood", "expansion", "seed", "frame", "merge"},
      "positions",
      "cluster_members",
      &CheckFractureOutput};
}

}  // namespace adj::registry
