#include "checks/fracture.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "checks/show.h"
#include "reference/fracture.h"

namespace adj::checks::fracture {
namespace {

namespace model = reference::fracture;
using adj::fracture::Params;
using adj::fracture::State;

model::World WorldOf(const State& state) {
  model::World world;
  world.grid = {state.grid.nx, state.grid.ny, state.grid.nz};
  world.frame = state.frame;
  for (const auto& c : state.particle_coord) {
    world.at.push_back({c.x, c.y, c.z});
    const std::uint64_t node =
        c.x + std::uint64_t{state.grid.nx} *
                  (c.y + std::uint64_t{state.grid.ny} * c.z);
    world.intact.push_back(node < state.node_is_particle.size() &&
                           state.node_is_particle[node] != 0);
  }
  for (std::size_t s = 0; s < state.clusters.slots.size(); ++s) {
    const auto& from = state.clusters.slots[s];
    model::Cluster cluster;
    cluster.valid = s < state.clusters.valid.size() && state.clusters.valid[s];
    cluster.members = from.particles;
    for (const auto& r : from.rest_local)
      cluster.local.push_back({r.x, r.y, r.z});
    cluster.stiffness = from.stiffness;
    cluster.rotation = {from.rotation.w, from.rotation.x, from.rotation.y,
                        from.rotation.z};
    cluster.translation = {from.translation.x, from.translation.y,
                           from.translation.z};
    world.clusters.push_back(std::move(cluster));
  }
  model::Index(world);
  return world;
}

State StateOf(const model::World& world) {
  State state;
  state.grid = {world.grid[0], world.grid[1], world.grid[2]};
  state.frame = world.frame;
  state.node_is_particle.assign(state.grid.Nodes(), 0);
  for (std::size_t p = 0; p < world.at.size(); ++p) {
    const auto& at = world.at[p];
    state.particle_coord.push_back({at[0], at[1], at[2]});
    if (world.intact[p]) {
      state.node_is_particle[adj::fracture::NodeIndex(
          state.grid, state.particle_coord.back())] = 1;
    }
  }
  for (const model::Cluster& from : world.clusters) {
    adj::fracture::Cluster cluster;
    cluster.particles = from.members;
    for (const auto& r : from.local)
      cluster.rest_local.push_back({r[0], r[1], r[2]});
    cluster.stiffness = from.stiffness;
    cluster.rotation = {from.rotation[0], from.rotation[1], from.rotation[2],
                        from.rotation[3]};
    cluster.translation = {from.translation[0], from.translation[1],
                           from.translation[2]};
    state.clusters.slots.push_back(std::move(cluster));
    state.clusters.valid.push_back(from.valid ? 1 : 0);
  }
  return state;
}

Csr CsrOfRows(const std::vector<std::vector<std::uint32_t>>& rows) {
  Csr csr;  // offsets {0}
  for (const auto& row : rows) {
    csr.indices.insert(csr.indices.end(), row.begin(), row.end());
    csr.offsets.push_back(static_cast<std::uint32_t>(csr.indices.size()));
  }
  return csr;
}

model::MergeSearch SearchOf(MergeChoice merge_choice) {
  return merge_choice == MergeChoice::kPrinted ? model::MergeSearch::kPrinted
         : merge_choice == MergeChoice::kPriorityRounds
             ? model::MergeSearch::kPriorityRounds
             : model::MergeSearch::kFirstFit;
}

model::Rules RulesOf(const Params& params, model::MergeSearch search) {
  model::Rules rules;
  rules.damage_distance = params.damage_distance;
  rules.max_size = params.max_cluster_size;
  rules.min_size = params.min_cluster_size;
  rules.all26 = params.neighborhood == adj::fracture::Neighborhood::kAll26;
  rules.random_expansion =
      params.expansion == adj::fracture::Expansion::kRandomAsPublished;
  rules.seed = params.seed;
  rules.search = search;
  return rules;
}

std::string Slot(std::size_t s) { return "cluster " + std::to_string(s); }

// The inverse of the live clusters, rows ascending.
std::vector<std::vector<std::uint32_t>> Inverse(const model::World& world) {
  std::vector<std::vector<std::uint32_t>> inverse(world.at.size());
  for (std::size_t s = 0; s < world.clusters.size(); ++s) {
    if (!world.clusters[s].valid) continue;
    for (const std::uint32_t p : world.clusters[s].members) {
      if (p < inverse.size())
        inverse[p].push_back(static_cast<std::uint32_t>(s));
    }
  }
  return inverse;
}

std::string CompareBelong(const model::World& world, const Csr& belong) {
  const auto inverse = Inverse(world);
  if (belong.rows() != inverse.size()) {
    return "belong lists have " + std::to_string(belong.rows()) + " rows for " +
           std::to_string(inverse.size()) + " particles";
  }
  for (std::size_t p = 0; p < inverse.size(); ++p) {
    const auto row = belong.Row(p);
    if (!std::equal(row.begin(), row.end(), inverse[p].begin(),
                    inverse[p].end())) {
      return "belong list of particle " + std::to_string(p) + " is " +
             ShowRow(row) + ", the clusters holding it are " +
             ShowRow(inverse[p]);
    }
  }
  return "";
}

std::string BrokenInvariant(const model::World& world, const Csr& belong,
                            const Params& params) {
  const bool all26 = params.neighborhood == adj::fracture::Neighborhood::kAll26;
  for (std::size_t s = 0; s < world.clusters.size(); ++s) {
    const model::Cluster& cluster = world.clusters[s];
    if (!cluster.valid) {
      if (!cluster.members.empty())
        return "deleted " + Slot(s) + " holds particles";
      continue;
    }
    if (cluster.members.empty()) return Slot(s) + " is empty";
    if (cluster.members.size() >= params.max_cluster_size) {
      return Slot(s) + " holds " + std::to_string(cluster.members.size()) +
             " particles, not below max_cluster_size " +
             std::to_string(params.max_cluster_size);
    }
    std::set<std::uint32_t> members;
    for (const std::uint32_t p : cluster.members) {
      if (p >= world.at.size()) {
        return Slot(s) + " names particle " + std::to_string(p) +
               ", which does not exist";
      }
      if (!world.intact[p]) {
        return Slot(s) + " holds removed particle " + std::to_string(p);
      }
      if (!members.insert(p).second) {
        return Slot(s) + " holds particle " + std::to_string(p) + " twice";
      }
    }
    std::set<std::uint32_t> reached{cluster.members[0]};
    std::vector<std::uint32_t> stack{cluster.members[0]};
    while (!stack.empty()) {
      const std::uint32_t p = stack.back();
      stack.pop_back();
      for (const std::uint32_t q : model::IntactNeighbors(world, all26, p)) {
        if (members.count(q) && reached.insert(q).second) stack.push_back(q);
      }
    }
    if (reached.size() != members.size()) {
      return Slot(s) + " is not connected: " + std::to_string(reached.size()) +
             " of its " + std::to_string(members.size()) +
             " particles are reachable from particle " +
             std::to_string(cluster.members[0]);
    }
    if (cluster.local != model::RestLocal(world, cluster.members)) {
      return Slot(s) + "'s rest local positions are not its members'";
    }
  }
  return CompareBelong(world, belong);
}

std::string CompareWorlds(const model::World& got,
                          const model::World& expected) {
  if (got.at.size() != expected.at.size()) return "particle count differs";
  for (std::size_t p = 0; p < got.at.size(); ++p) {
    if (got.intact[p] != expected.intact[p]) {
      return "particle " + std::to_string(p) +
             (got.intact[p] ? " is intact, expected removed"
                            : " was removed, expected intact");
    }
  }
  if (got.frame != expected.frame) {
    return "frame counter " + std::to_string(got.frame) + ", expected " +
           std::to_string(expected.frame);
  }
  if (got.clusters.size() != expected.clusters.size()) {
    return std::to_string(got.clusters.size()) + " cluster slots, expected " +
           std::to_string(expected.clusters.size());
  }
  for (std::size_t s = 0; s < got.clusters.size(); ++s) {
    const model::Cluster& a = got.clusters[s];
    const model::Cluster& b = expected.clusters[s];
    if (a.valid != b.valid) {
      return Slot(s) + (a.valid ? " is live, expected deleted"
                                : " is deleted, expected live");
    }
    if (a.members != b.members) {
      return Slot(s) + " holds " + ShowRow(a.members) + ", expected " +
             ShowRow(b.members);
    }
    if (a.local != b.local) {
      return Slot(s) + "'s rest local positions differ from the expected";
    }
    if (a.stiffness != b.stiffness || a.rotation != b.rotation ||
        a.translation != b.translation) {
      return Slot(s) +
             "'s stiffness, rotation or translation differs from the "
             "expected (inherited from its parent)";
    }
  }
  return "";
}

// A choice the concurrent protocol can make, or why not.
std::string InvalidChoice(
    const model::Frame& split, const model::Rules& rules,
    const std::vector<std::vector<std::uint32_t>>& choice) {
  const model::World& mid = split.after;
  std::vector<std::uint64_t> reserved(mid.clusters.size());
  for (std::size_t s = 0; s < mid.clusters.size(); ++s) {
    reserved[s] = mid.clusters[s].members.size();
  }
  std::vector<std::vector<std::uint32_t>> candidates(split.fresh.size());
  for (std::size_t c = 0; c < split.fresh.size(); ++c) {
    candidates[c] = model::Candidates(mid, rules.all26, split.fresh[c].members);
    if (choice[c].size() > 1) {
      return "new cluster " + std::to_string(c) + " merged " +
             std::to_string(choice[c].size()) + " times";
    }
    for (const std::uint32_t nc : choice[c]) {
      if (!std::binary_search(candidates[c].begin(), candidates[c].end(), nc)) {
        return "new cluster " + std::to_string(c) + " merged into " + Slot(nc) +
               ", which is not an old live cluster next to it";
      }
      reserved[nc] += split.fresh[c].members.size();
    }
  }
  for (std::size_t s = 0; s < reserved.size(); ++s) {
    if (mid.clusters[s].valid && reserved[s] >= rules.max_size) {
      return Slot(s) + " was reserved " + std::to_string(reserved[s]) +
             " particles by its merges, not below max_cluster_size";
    }
  }
  // The published Try re-reads searched[c] only before taking c's lock, so
  // two threads of one new cluster can both reserve (on one target or two)
  // and only the last target is recorded: a phantom reservation that fills
  // a slot without a merge. A slot a merged new cluster could reach may
  // thus refuse others it had room for.
  std::vector<std::uint8_t> phantom_reachable(reserved.size(), 0);
  for (std::size_t c = 0; c < split.fresh.size(); ++c) {
    if (choice[c].empty()) continue;
    for (const std::uint32_t nc : candidates[c]) phantom_reachable[nc] = 1;
  }
  for (std::size_t c = 0; c < split.fresh.size(); ++c) {
    if (!choice[c].empty()) continue;
    for (const std::uint32_t nc : candidates[c]) {
      if (phantom_reachable[nc]) continue;
      if (reserved[nc] + split.fresh[c].members.size() < rules.max_size) {
        return "new cluster " + std::to_string(c) +
               " stayed unmerged although " + Slot(nc) +
               " next to it could still take it";
      }
    }
  }
  return "";
}

}  // namespace

std::string FirstBrokenInvariant(const State& state, const Csr& belong,
                                 const Params& params) {
  return BrokenInvariant(WorldOf(state), belong, params);
}

std::string FirstUnclusteredSurvivor(const State& before, const State& after) {
  const model::World a = WorldOf(before);
  const model::World b = WorldOf(after);
  const auto was = Inverse(a);
  const auto is = Inverse(b);
  for (std::size_t p = 0; p < std::min(was.size(), is.size()); ++p) {
    if (b.intact[p] && !was[p].empty() && is[p].empty()) {
      return "particle " + std::to_string(p) +
             " survived but is in no cluster any more";
    }
  }
  return "";
}

MergeChoice MergeChoiceOf(const adj::fracture::Variant& variant) {
  switch (variant.traits.merge) {
    case adj::fracture::Merge::kFirstFit:
      return MergeChoice::kFirstFit;
    case adj::fracture::Merge::kPrinted:
      return MergeChoice::kPrinted;
    case adj::fracture::Merge::kAnyValid:
      return MergeChoice::kAnyValid;
    case adj::fracture::Merge::kPriorityRounds:
      return MergeChoice::kPriorityRounds;
    case adj::fracture::Merge::kUnset:
      break;
  }
  throw std::invalid_argument("checks::fracture: " + std::string(variant.name) +
                              " names no merge in its Traits");
}

Expected ExpectedOf(const State& before, const Points& positions,
                    const Params& params, MergeChoice merge_choice) {
  if (merge_choice == MergeChoice::kAnyValid) {
    throw std::invalid_argument(
        "checks::fracture::ExpectedOf: any valid merge choice is not one "
        "frame");
  }
  const model::Frame frame = model::Step(
      WorldOf(before), positions, RulesOf(params, SearchOf(merge_choice)));
  Expected expected;
  expected.after = StateOf(frame.after);
  expected.belong = CsrOfRows(Inverse(frame.after));
  expected.report.removed = static_cast<std::uint32_t>(frame.removed.size());
  expected.report.influenced =
      static_cast<std::uint32_t>(frame.influenced.size());
  expected.report.new_clusters = static_cast<std::uint32_t>(frame.fresh.size());
  for (const auto& targets : frame.targets) {
    expected.report.merged += !targets.empty();
  }
  expected.report.inserted =
      expected.report.new_clusters - expected.report.merged;
  expected.report.merges = CsrOfRows(frame.targets);
  return expected;
}

std::string FirstDifference(const State& before, const Points& positions,
                            const Params& params, MergeChoice merge_choice,
                            const State& after, const Csr& belong,
                            const adj::fracture::FrameReport& report) {
  const model::World world = WorldOf(before);
  const model::Rules rules = RulesOf(params, SearchOf(merge_choice));
  std::vector<std::vector<std::uint32_t>> choice(report.merges.rows());
  for (std::size_t c = 0; c < report.merges.rows(); ++c) {
    const auto row = report.merges.Row(c);
    choice[c].assign(row.begin(), row.end());
  }
  model::Frame expected;
  if (merge_choice == MergeChoice::kAnyValid) {
    const model::Frame split = model::Split(world, positions, rules);
    if (choice.size() != split.fresh.size()) {
      return "report lists merges of " + std::to_string(choice.size()) +
             " new clusters, expected " + std::to_string(split.fresh.size());
    }
    const std::string invalid = InvalidChoice(split, rules, choice);
    if (!invalid.empty()) return "merge choice: " + invalid;
    expected = model::Step(world, positions, rules, &choice);
  } else {
    expected = model::Step(world, positions, rules);
    if (choice != expected.targets) {
      for (std::size_t c = 0;
           c < std::min(choice.size(), expected.targets.size()); ++c) {
        if (choice[c] != expected.targets[c]) {
          return "new cluster " + std::to_string(c) + " merged into " +
                 ShowRow(choice[c]) + ", expected " +
                 ShowRow(expected.targets[c]);
        }
      }
      return "report lists merges of " + std::to_string(choice.size()) +
             " new clusters, expected " +
             std::to_string(expected.targets.size());
    }
  }
  const std::string worlds = CompareWorlds(WorldOf(after), expected.after);
  if (!worlds.empty()) return worlds;
  const std::string lists = CompareBelong(expected.after, belong);
  if (!lists.empty()) return lists;
  std::uint32_t merged = 0;
  for (const auto& row : expected.targets) merged += !row.empty();
  const auto counts =
      std::vector<std::pair<std::string, std::pair<std::size_t, std::size_t>>>{
          {"removed", {report.removed, expected.removed.size()}},
          {"influenced", {report.influenced, expected.influenced.size()}},
          {"new_clusters", {report.new_clusters, expected.fresh.size()}},
          {"merged", {report.merged, merged}},
          {"inserted", {report.inserted, expected.fresh.size() - merged}}};
  for (const auto& [name, values] : counts) {
    if (values.first != values.second) {
      return "report." + name + " is " + std::to_string(values.first) +
             ", expected " + std::to_string(values.second);
    }
  }
  const std::string invariant = BrokenInvariant(WorldOf(after), belong, params);
  if (!invariant.empty()) return invariant;
  return FirstUnclusteredSurvivor(before, after);
}

}  // namespace adj::checks::fracture
