#include "reference/fracture.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace adj::reference::fracture {
namespace {

using Coord = std::array<std::uint32_t, 3>;

// Who sits where, by a search over every particle (brute force).
std::int64_t ParticleAt(const World& world, std::int64_t x, std::int64_t y,
                        std::int64_t z) {
  if (!world.particle_at.empty()) {
    return world.particle_at[x + std::int64_t{world.grid[0]} *
                                     (y + std::int64_t{world.grid[1]} * z)];
  }
  for (std::size_t p = 0; p < world.at.size(); ++p) {
    if (world.at[p][0] == x && world.at[p][1] == y && world.at[p][2] == z) {
      return static_cast<std::int64_t>(p);
    }
  }
  return -1;
}

std::uint64_t SplitMixStep(std::uint64_t& state) {
  state += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t Mixed(std::uint64_t value) { return SplitMixStep(value); }

bool Holds(const Cluster& cluster, std::uint32_t p) {
  return std::find(cluster.members.begin(), cluster.members.end(), p) !=
         cluster.members.end();
}

// Step 7's search order for one new cluster: for each member in order,
// each intact neighbour j of it in the contract's order, each live cluster
// holding j ascending (a cluster repeats where the loops meet it again).
std::vector<std::uint32_t> SearchOrder(
    const World& mid, bool all26, const std::vector<std::uint32_t>& members) {
  std::vector<std::uint32_t> order;
  for (const std::uint32_t i : members) {
    for (const std::uint32_t j : IntactNeighbors(mid, all26, i)) {
      for (std::uint32_t nc = 0; nc < mid.clusters.size(); ++nc) {
        if (mid.clusters[nc].valid && Holds(mid.clusters[nc], j)) {
          order.push_back(nc);
        }
      }
    }
  }
  return order;
}

// The contract's float rule, each operation rounded on its own.
bool TooFar(const Points& x, std::uint32_t a, std::uint32_t b, float limit) {
  const float dx = x.x[a] - x.x[b];
  const float dy = x.y[a] - x.y[b];
  const float dz = x.z[a] - x.z[b];
  const float xx = dx * dx;
  const float yy = dy * dy;
  const float zz = dz * dz;
  const float sum = xx + yy;
  return sum + zz > limit * limit;
}

}  // namespace

void Index(World& world) {
  world.particle_at.assign(
      std::size_t{world.grid[0]} * world.grid[1] * world.grid[2], -1);
  for (std::size_t p = 0; p < world.at.size(); ++p) {
    const auto& c = world.at[p];
    if (c[0] >= world.grid[0] || c[1] >= world.grid[1] ||
        c[2] >= world.grid[2]) {
      continue;
    }
    world.particle_at[c[0] + std::size_t{world.grid[0]} *
                                 (c[1] + std::size_t{world.grid[1]} * c[2])] =
        static_cast<std::int64_t>(p);
  }
}

std::vector<std::uint32_t> IntactNeighbors(const World& world, bool all26,
                                           std::uint32_t p) {
  std::vector<std::array<int, 3>> offsets;
  if (all26) {
    for (int dz = -1; dz <= 1; ++dz) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx != 0 || dy != 0 || dz != 0) offsets.push_back({dx, dy, dz});
        }
      }
    }
  } else {
    offsets = {{-1, 0, 0}, {1, 0, 0},  {0, -1, 0},
               {0, 1, 0},  {0, 0, -1}, {0, 0, 1}};
  }
  std::vector<std::uint32_t> out;
  for (const auto& o : offsets) {
    const std::int64_t x = std::int64_t{world.at[p][0]} + o[0];
    const std::int64_t y = std::int64_t{world.at[p][1]} + o[1];
    const std::int64_t z = std::int64_t{world.at[p][2]} + o[2];
    if (x < 0 || y < 0 || z < 0 || x >= world.grid[0] || y >= world.grid[1] ||
        z >= world.grid[2]) {
      continue;
    }
    const std::int64_t q = ParticleAt(world, x, y, z);
    if (q >= 0 && world.intact[q]) out.push_back(static_cast<std::uint32_t>(q));
  }
  return out;
}

std::vector<std::array<float, 3>> RestLocal(
    const World& world, const std::vector<std::uint32_t>& members) {
  std::array<std::int64_t, 3> sum{0, 0, 0};
  for (const std::uint32_t p : members) {
    for (int a = 0; a < 3; ++a) sum[a] += world.at[p][a];
  }
  std::vector<std::array<float, 3>> local;
  for (const std::uint32_t p : members) {
    std::array<float, 3> r{};
    for (int a = 0; a < 3; ++a) {
      const double mean =
          static_cast<double>(sum[a]) / static_cast<double>(members.size());
      r[a] = static_cast<float>(static_cast<double>(world.at[p][a]) - mean);
    }
    local.push_back(r);
  }
  return local;
}

std::vector<std::uint32_t> Candidates(
    const World& mid, bool all26, const std::vector<std::uint32_t>& members) {
  std::set<std::uint32_t> near;
  for (const std::uint32_t i : members) {
    for (const std::uint32_t j : IntactNeighbors(mid, all26, i)) {
      for (std::size_t s = 0; s < mid.clusters.size(); ++s) {
        if (mid.clusters[s].valid && Holds(mid.clusters[s], j)) {
          near.insert(static_cast<std::uint32_t>(s));
        }
      }
    }
  }
  return {near.begin(), near.end()};
}

Frame Split(const World& before, const Points& positions, const Rules& rules) {
  Frame frame;
  World world = before;
  // 1 and 2: every intact particle with a far intact neighbour, all judged
  // on the grid as it was.
  for (std::uint32_t p = 0; p < world.at.size(); ++p) {
    if (!before.intact[p]) continue;
    for (const std::uint32_t q : IntactNeighbors(before, rules.all26, p)) {
      if (TooFar(positions, p, q, rules.damage_distance)) {
        frame.removed.push_back(p);
        break;
      }
    }
  }
  for (const std::uint32_t p : frame.removed) world.intact[p] = false;
  // 3: every live cluster holding a removed particle.
  for (std::uint32_t s = 0; s < world.clusters.size(); ++s) {
    if (!world.clusters[s].valid) continue;
    for (const std::uint32_t p : world.clusters[s].members) {
      if (!world.intact[p]) {
        frame.influenced.push_back(s);
        break;
      }
    }
  }
  // 4 and 5: each influenced cluster's survivors, split by a search of its
  // own from each survivor not yet reached, in list order.
  for (const std::uint32_t s : frame.influenced) {
    std::vector<std::uint32_t> survivors;
    for (const std::uint32_t p : world.clusters[s].members) {
      if (world.intact[p]) survivors.push_back(p);
    }
    std::map<std::uint32_t, int> component;
    int components = 0;
    for (const std::uint32_t start : survivors) {
      if (component.count(start)) continue;
      std::vector<std::uint32_t> stack{start};
      component[start] = components;
      while (!stack.empty()) {
        const std::uint32_t p = stack.back();
        stack.pop_back();
        for (const std::uint32_t q : IntactNeighbors(world, rules.all26, p)) {
          if (component.count(q)) continue;
          if (std::find(survivors.begin(), survivors.end(), q) ==
              survivors.end()) {
            continue;
          }
          component[q] = components;
          stack.push_back(q);
        }
      }
      ++components;
    }
    for (int k = 0; k < components; ++k) {
      Fresh fresh{s, {}};
      for (const std::uint32_t p : survivors) {
        if (component[p] == k) fresh.members.push_back(p);
      }
      frame.fresh.push_back(std::move(fresh));
    }
  }
  // 6: a deleted slot is an empty cluster with the default attributes.
  for (const std::uint32_t s : frame.influenced) world.clusters[s] = Cluster{};
  frame.after = std::move(world);
  return frame;
}

// Long: the oracle's frame, stage after stage in the published order, so
// that it reads as the description it is checked against.
Frame Step(const World& before, const Points& positions, const Rules& rules,
           const std::vector<std::vector<std::uint32_t>>* choice) {
  Frame frame = Split(before, positions, rules);
  World& world = frame.after;
  const World mid = world;
  // 7: the search on reserved sizes, visiting c, i, j and nc (ascending) in
  // the contract's order.
  std::vector<std::uint64_t> reserved(world.clusters.size());
  for (std::size_t s = 0; s < world.clusters.size(); ++s) {
    reserved[s] = world.clusters[s].members.size();
  }
  frame.targets.assign(frame.fresh.size(), {});
  if (choice != nullptr) {
    if (choice->size() != frame.fresh.size()) {
      throw std::invalid_argument("a merge choice per fresh cluster needed");
    }
    frame.targets = *choice;
  } else if (rules.search == MergeSearch::kPriorityRounds) {
    std::vector<bool> settled(frame.fresh.size(), false);
    while (true) {
      std::vector<std::int64_t> proposal(frame.fresh.size(), -1);
      bool any = false;
      for (std::size_t c = 0; c < frame.fresh.size(); ++c) {
        if (settled[c]) continue;
        const auto& members = frame.fresh[c].members;
        for (const std::uint32_t nc : SearchOrder(mid, rules.all26, members)) {
          if (reserved[nc] + members.size() < rules.max_size) {
            proposal[c] = nc;
            break;
          }
        }
        if (proposal[c] < 0) {
          settled[c] = true;
        } else {
          any = true;
        }
      }
      if (!any) break;
      for (std::uint32_t nc = 0; nc < mid.clusters.size(); ++nc) {
        for (std::size_t c = 0; c < frame.fresh.size(); ++c) {
          if (proposal[c] != nc) continue;
          const std::size_t size = frame.fresh[c].members.size();
          if (reserved[nc] + size < rules.max_size) {
            reserved[nc] += size;
            frame.targets[c].push_back(nc);
            settled[c] = true;
          }
        }
      }
    }
  } else {
    const bool printed = rules.search == MergeSearch::kPrinted;
    for (std::size_t c = 0; c < frame.fresh.size(); ++c) {
      const auto& members = frame.fresh[c].members;
      for (const std::uint32_t nc : SearchOrder(mid, rules.all26, members)) {
        if (reserved[nc] + members.size() < rules.max_size) {
          reserved[nc] += members.size();
          frame.targets[c].push_back(nc);
          if (!printed) break;
        }
      }
    }
  }
  // 8: a target gains the members it lacks, in c's order.
  std::set<std::uint32_t> grown;
  for (std::size_t c = 0; c < frame.fresh.size(); ++c) {
    for (const std::uint32_t nc : frame.targets[c]) {
      for (const std::uint32_t p : frame.fresh[c].members) {
        if (!Holds(world.clusters[nc], p))
          world.clusters[nc].members.push_back(p);
      }
      grown.insert(nc);
    }
  }
  for (const std::uint32_t nc : grown) {
    world.clusters[nc].local = RestLocal(world, world.clusters[nc].members);
  }
  // 9: the lowest invalid slot, found by a scan, else a new one.
  std::vector<std::uint32_t> inserted;
  for (std::size_t c = 0; c < frame.fresh.size(); ++c) {
    if (!frame.targets[c].empty()) continue;
    std::uint32_t slot = 0;
    while (slot < world.clusters.size() && world.clusters[slot].valid) ++slot;
    if (slot == world.clusters.size()) world.clusters.emplace_back();
    const Cluster& parent = before.clusters[frame.fresh[c].parent];
    Cluster& cluster = world.clusters[slot];
    cluster.valid = true;
    cluster.members = frame.fresh[c].members;
    cluster.local = RestLocal(world, cluster.members);
    cluster.stiffness = parent.stiffness;
    cluster.rotation = parent.rotation;
    cluster.translation = parent.translation;
    inserted.push_back(slot);
  }
  // 10: growth by the rule, one cluster at a time.
  for (const std::uint32_t slot : inserted) {
    Cluster& cluster = world.clusters[slot];
    if (cluster.members.size() >= rules.min_size) continue;
    const std::size_t before_size = cluster.members.size();
    if (rules.random_expansion) {
      std::uint64_t state =
          rules.seed ^ Mixed(world.frame ^ Mixed(std::uint64_t{slot}));
      state = Mixed(state);
      std::vector<std::uint32_t> candidates = cluster.members;
      while (cluster.members.size() < rules.min_size && !candidates.empty()) {
        const std::size_t k = SplitMixStep(state) % candidates.size();
        std::vector<std::uint32_t> free;
        for (const std::uint32_t q :
             IntactNeighbors(world, rules.all26, candidates[k])) {
          if (!Holds(cluster, q)) free.push_back(q);
        }
        if (free.empty()) {
          candidates[k] = candidates.back();
          candidates.pop_back();
          continue;
        }
        const std::uint32_t q = free[SplitMixStep(state) % free.size()];
        cluster.members.push_back(q);
        candidates.push_back(q);
      }
    } else {
      for (std::size_t head = 0; head < cluster.members.size() &&
                                 cluster.members.size() < rules.min_size;
           ++head) {
        for (const std::uint32_t q :
             IntactNeighbors(world, rules.all26, cluster.members[head])) {
          if (cluster.members.size() >= rules.min_size) break;
          if (!Holds(cluster, q)) cluster.members.push_back(q);
        }
      }
    }
    if (cluster.members.size() != before_size) {
      cluster.local = RestLocal(world, cluster.members);
    }
  }
  ++world.frame;
  return frame;
}

}  // namespace adj::reference::fracture
