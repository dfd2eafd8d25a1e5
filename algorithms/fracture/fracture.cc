#include "algorithms/fracture/fracture.h"

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "algorithms/connected_components/connected_components.h"
#include "algorithms/fracture/split_mix.h"
#include "algorithms/fracture/topology.h"
#include "algorithms/fracture/variants.h"

namespace adj::fracture {

std::string TraitsText(const Traits& traits) {
  switch (traits.merge) {
    case Merge::kFirstFit:
      return "merge=first_fit";
    case Merge::kPrinted:
      return "merge=printed";
    case Merge::kAnyValid:
      return "merge=any_valid";
    case Merge::kPriorityRounds:
      return "merge=priority_rounds";
    case Merge::kUnset:
      return "merge=unset";
  }
  return "";
}

// Long: the variant table, one row per variant.
std::span<const Variant> Variants() {
  static constexpr std::array kVariants = {
    Variant{"serial",
            Backend::kSerial,
            Origin::kFixed,
            "the published update stage by stage on one thread: hash set "
            "and stream compaction for the removal, one connected-"
            "components call on the aggregated graph, the first fitting "
            "merge target (the break the printed search lacks), belong lists "
            "of any "
            "kind (Params::belong), the published random expansion",
            &StartSerial,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Merge::kFirstFit}},
    Variant{"serial_printed",
            Backend::kSerial,
            Origin::kFaithful,
            "serial with the merge search exactly as its pseudo-code is "
            "printed: no break, so a new cluster merges into every "
            "cluster that still fits when the loops reach it (the same "
            "one again through another particle pair)",
            &StartSerialPrinted,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Merge::kPrinted}},
    Variant{"openmp",
            Backend::kOpenMp,
            Origin::kFaithful,
            "the published concurrent form on OpenMP threads: damage, "
            "node update, removal (lock-free hash set), the aggregated "
            "graph and its components (ecl_cc_openmp) in parallel; the "
            "merge search as published (a lock per new cluster, a "
            "compare-and-swap on the target's size, a searched flag), so "
            "targets depend on the schedule (one thread: serial's); "
            "delete, merge, insert and expand serial",
            &StartOpenMp,
            {},
            nullptr,
            "its merge targets depend on the schedule, as published",
            nullptr,
            Traits{Merge::kAnyValid}},
    Variant{"data_parallel",
            Backend::kOpenMp,
            Origin::kOurs,
            "openmp's parallel stages with an outcome that does not depend "
            "on the thread count: merge targets by rounds of proposals "
            "(each new cluster proposes to its first fit in the serial "
            "search order; each target takes its proposers in ascending "
            "order while they fit; the rest propose again), belong lists "
            "in a Csr patched in parallel at the end of each frame "
            "(Params::belong is not used)",
            &StartDataParallel,
            {},
            nullptr,
            "no single-threaded row merges by rounds of proposals; its "
            "frames are the same on every thread count (tested)",
            nullptr,
            Traits{Merge::kPriorityRounds}},
    Variant{"flat_host",
            Backend::kSerial,
            Origin::kOurs,
            "cuda_data_parallel's passes (flat loops over particles, "
            "vertices, new clusters, targets and slots, with scans, "
            "stable compactions and sorts between them) run one item "
            "after another on the host: data_parallel's frames, and the "
            "test of the GPU formulation where there is no GPU",
            &StartFlatHost,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Merge::kPriorityRounds}},
#if ADJ_HAVE_CUDA
    Variant{"cuda",
            Backend::kCuda,
            Origin::kFaithful,
            "the published concurrent form on the GPU with flat kernels "
            "instead of dynamic parallelism: one thread per member of a "
            "new cluster searching, a lock per new cluster, a "
            "compare-and-swap on the target's size, a searched flag "
            "(targets depend on the schedule); the lock-free hash set, "
            "stream compaction and ECL-CC of the suite's device APIs; the "
            "table and the belong lists as Csr rebuilt on the device",
            &StartCuda,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Merge::kAnyValid}},
    Variant{"cuda_data_parallel",
            Backend::kCuda,
            Origin::kOurs,
            "cuda with data_parallel's rounds of proposals for the merge "
            "search: frames equal to data_parallel's and flat_host's",
            &StartCudaDataParallel,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Merge::kPriorityRounds}},
#endif
  };
  return kVariants;
}

std::span<const std::array<std::int8_t, 3>> NeighborOffsets(
    Neighborhood neighborhood) {
  static constexpr std::array<std::array<std::int8_t, 3>, 6> kFace = {
      {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}}};
  static const std::array<std::array<std::int8_t, 3>, 26> kAll = [] {
    std::array<std::array<std::int8_t, 3>, 26> all{};
    std::size_t k = 0;
    for (int dz = -1; dz <= 1; ++dz) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx == 0 && dy == 0 && dz == 0) continue;
          all[k++] = {static_cast<std::int8_t>(dx),
                      static_cast<std::int8_t>(dy),
                      static_cast<std::int8_t>(dz)};
        }
      }
    }
    return all;
  }();
  if (neighborhood == Neighborhood::kFace6) return kFace;
  return kAll;
}

std::size_t ClusterTable::Live() const {
  std::size_t live = 0;
  for (const std::uint8_t v : valid) live += v != 0;
  return live;
}

std::uint32_t ClusterTable::LowestFree() const {
  for (std::size_t s = 0; s < valid.size(); ++s) {
    if (!valid[s]) return static_cast<std::uint32_t>(s);
  }
  return static_cast<std::uint32_t>(valid.size());
}

std::string_view BelongKindName(BelongKind kind) {
  switch (kind) {
    case BelongKind::kBumpPool:
      return "bump_pool";
    case BelongKind::kCsrRebuilt:
      return "csr_rebuilt";
    case BelongKind::kSmallVectors:
      return "small_vectors";
    case BelongKind::kSizeClassPool:
      return "size_class_pool";
  }
  return "unknown";
}

std::string_view StageName(Stage stage) {
  static constexpr std::array<std::string_view, kStages> kNames = {
      "damage",     "nodes",  "influenced",        "remove",
      "components", "delete", "merge_search",      "merge",
      "insert",     "expand", "belong_maintenance"};
  return kNames[static_cast<std::size_t>(stage)];
}

namespace {

bool Finite(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

bool Finite(const Quat& q) {
  return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) &&
         std::isfinite(q.z);
}

void CheckParams(const Params& params) {
  if (!std::isfinite(params.damage_distance) || !(params.damage_distance > 0)) {
    throw Error("damage_distance must be finite and > 0, got " +
                std::to_string(params.damage_distance));
  }
  if (params.max_cluster_size < 2) {
    throw Error("max_cluster_size must be >= 2, got " +
                std::to_string(params.max_cluster_size));
  }
  if (params.min_cluster_size >= params.max_cluster_size) {
    throw Error("min_cluster_size (" + std::to_string(params.min_cluster_size) +
                ") must be below max_cluster_size (" +
                std::to_string(params.max_cluster_size) + ")");
  }
  if (params.neighborhood != Neighborhood::kFace6 &&
      params.neighborhood != Neighborhood::kAll26) {
    throw Error("unknown neighborhood");
  }
  if (params.expansion != Expansion::kRandomAsPublished &&
      params.expansion != Expansion::kBreadthFirst) {
    throw Error("unknown expansion");
  }
  if (BelongKindName(params.belong) == "unknown") {
    throw Error("unknown belong list kind");
  }
  if (FindVariant(connected_components::Variants(), params.components) ==
      nullptr) {
    throw Error("no connected_components variant named '" +
                std::string(params.components) + "'");
  }
}

}  // namespace

std::uint64_t ExpansionSeed(std::uint64_t seed, std::uint64_t frame,
                            std::uint32_t slot) {
  return detail::MixedSeed(seed, frame, slot);
}

std::vector<Vec3> RestLocal(const State& state,
                            std::span<const std::uint32_t> members) {
  std::int64_t sx = 0;
  std::int64_t sy = 0;
  std::int64_t sz = 0;
  for (const std::uint32_t p : members) {
    sx += state.particle_coord[p].x;
    sy += state.particle_coord[p].y;
    sz += state.particle_coord[p].z;
  }
  const double n = static_cast<double>(members.size());
  const double mx = static_cast<double>(sx) / n;
  const double my = static_cast<double>(sy) / n;
  const double mz = static_cast<double>(sz) / n;
  std::vector<Vec3> local;
  local.reserve(members.size());
  for (const std::uint32_t p : members) {
    const Coord c = state.particle_coord[p];
    local.push_back({static_cast<float>(c.x - mx), static_cast<float>(c.y - my),
                     static_cast<float>(c.z - mz)});
  }
  return local;
}

State MakeState(GridShape grid, std::vector<Coord> particle_coord,
                const Csr& clusters) {
  if (grid.Nodes() > kMaxNodes) {
    throw Error("grid of " + std::to_string(grid.Nodes()) +
                " nodes: node ids are 32-bit, at most 2^32 - 1 nodes");
  }
  try {
    ValidateCsr(clusters);
  } catch (const adj::Error& error) {
    throw Error(std::string("clusters: ") + error.what());
  }
  State state;
  state.grid = grid;
  state.particle_coord = std::move(particle_coord);
  state.node_is_particle.assign(grid.Nodes(), 0);
  for (std::size_t p = 0; p < state.Particles(); ++p) {
    const Coord c = state.particle_coord[p];
    if (c.x >= grid.nx || c.y >= grid.ny || c.z >= grid.nz) {
      throw Error("particle " + std::to_string(p) + " is outside the grid");
    }
    state.node_is_particle[NodeIndex(grid, c)] = 1;
  }
  for (std::size_t r = 0; r < clusters.rows(); ++r) {
    Cluster cluster;
    for (const std::uint32_t p : clusters.Row(r)) {
      if (p >= state.Particles()) {
        throw Error("cluster " + std::to_string(r) + " names particle " +
                    std::to_string(p) + ", which does not exist");
      }
      cluster.particles.push_back(p);
    }
    cluster.rest_local = RestLocal(state, cluster.particles);
    state.clusters.slots.push_back(std::move(cluster));
    state.clusters.valid.push_back(1);
  }
  return state;
}

namespace {

// The grid and the particles: every particle on its own node inside the
// grid, every node flagged as a particle holding one.
void CheckParticles(const State& state) {
  const GridShape grid = state.grid;
  if (grid.Nodes() > kMaxNodes) {
    throw Error("grid of " + std::to_string(grid.nx) + " x " +
                std::to_string(grid.ny) + " x " + std::to_string(grid.nz) +
                " nodes: node ids are 32-bit, at most 2^32 - 1 nodes");
  }
  if (state.Particles() == 0) throw Error("empty object: no particles");
  if (state.node_is_particle.size() != grid.Nodes()) {
    throw Error("node_is_particle has " +
                std::to_string(state.node_is_particle.size()) + " flags for " +
                std::to_string(grid.Nodes()) + " nodes");
  }
  std::vector<std::uint32_t> node_particle(grid.Nodes(), kNone);
  for (std::size_t p = 0; p < state.Particles(); ++p) {
    const Coord c = state.particle_coord[p];
    if (c.x >= grid.nx || c.y >= grid.ny || c.z >= grid.nz) {
      throw Error("particle " + std::to_string(p) + " at (" +
                  std::to_string(c.x) + ", " + std::to_string(c.y) + ", " +
                  std::to_string(c.z) + ") is outside the grid");
    }
    const std::uint64_t node = NodeIndex(grid, c);
    if (node_particle[node] != kNone) {
      throw Error("particles " + std::to_string(node_particle[node]) + " and " +
                  std::to_string(p) + " share a node");
    }
    node_particle[node] = static_cast<std::uint32_t>(p);
  }
  for (std::size_t node = 0; node < node_particle.size(); ++node) {
    if (state.node_is_particle[node] && node_particle[node] == kNone) {
      throw Error("node " + std::to_string(node) +
                  " is flagged as a particle but holds none");
    }
  }
}

// One live cluster, slot `s`: members that exist and survive, each once,
// fewer than max_cluster_size, its rest positions and finite attributes,
// and connected through grid neighbours. `seen` holds kNone or another
// slot's number for every particle; `queue` is scratch.
void CheckCluster(const State& state, const Params& params,
                  const detail::Topology& topology, std::size_t s,
                  std::vector<std::uint32_t>& seen,
                  std::vector<std::uint32_t>& queue) {
  const Cluster& cluster = state.clusters.slots[s];
  const std::string name = "cluster " + std::to_string(s);
  if (cluster.particles.empty()) throw Error(name + " is empty");
  if (cluster.particles.size() >= params.max_cluster_size) {
    throw Error(name + " holds " + std::to_string(cluster.particles.size()) +
                " particles, max_cluster_size is " +
                std::to_string(params.max_cluster_size));
  }
  for (const std::uint32_t p : cluster.particles) {
    if (p >= state.Particles()) {
      throw Error(name + " names particle " + std::to_string(p) +
                  ", which does not exist (" +
                  std::to_string(state.Particles()) + " particles)");
    }
    if (!state.node_is_particle[topology.NodeOf(p)]) {
      throw Error(name + " names particle " + std::to_string(p) +
                  ", which was removed");
    }
    if (seen[p] == s) {
      throw Error(name + " names particle " + std::to_string(p) + " twice");
    }
    seen[p] = static_cast<std::uint32_t>(s);
  }
  if (cluster.rest_local != RestLocal(state, cluster.particles)) {
    throw Error(name +
                "'s rest local positions are not its members' (see "
                "fracture::RestLocal)");
  }
  if (!std::isfinite(cluster.stiffness) || !Finite(cluster.rotation) ||
      !Finite(cluster.translation)) {
    throw Error(name + " has a NaN or infinite attribute");
  }
  // Connected: a search from the first member reaches every member. The
  // members are the particles stamped s; a reached one is re-stamped
  // kNone - 1, which no slot number equals.
  queue.assign(1, cluster.particles[0]);
  std::size_t count = 1;
  seen[cluster.particles[0]] = kNone - 1;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    topology.ForEachIntactNeighbor(queue[head], state.node_is_particle,
                                   [&](std::uint32_t q) {
                                     if (seen[q] == s) {
                                       seen[q] = kNone - 1;
                                       queue.push_back(q);
                                       ++count;
                                     }
                                   });
  }
  if (count != cluster.particles.size()) {
    throw Error(name + " is not connected through grid neighbours (" +
                std::to_string(count) + " of its " +
                std::to_string(cluster.particles.size()) +
                " particles reachable from the first)");
  }
}

}  // namespace

void Check(const State& state, const Params& params) {
  CheckParams(params);
  CheckParticles(state);
  const ClusterTable& table = state.clusters;
  if (table.slots.size() != table.valid.size()) {
    throw Error("cluster table has " + std::to_string(table.slots.size()) +
                " slots and " + std::to_string(table.valid.size()) +
                " valid flags");
  }
  if (table.slots.size() >= kNone) throw Error("too many cluster slots");
  const detail::Topology topology(state, params.neighborhood);
  std::vector<std::uint32_t> seen(state.Particles(), kNone);
  std::vector<std::uint32_t> queue;
  for (std::size_t s = 0; s < table.slots.size(); ++s) {
    if (table.valid[s]) {
      CheckCluster(state, params, topology, s, seen, queue);
    } else if (!table.slots[s].particles.empty() ||
               !table.slots[s].rest_local.empty()) {
      throw Error("deleted cluster " + std::to_string(s) +
                  " still holds particles");
    }
  }
}

void CheckPositions(const State& state, const Points& positions) {
  if (positions.x.size() != state.Particles() ||
      positions.y.size() != state.Particles() ||
      positions.z.size() != state.Particles()) {
    throw Error("positions hold " + std::to_string(positions.x.size()) +
                " particles, the object has " +
                std::to_string(state.Particles()));
  }
  const GridShape grid = state.grid;
  for (std::size_t p = 0; p < state.Particles(); ++p) {
    const Coord c = state.particle_coord[p];
    if (!state.node_is_particle[NodeIndex(grid, c)]) continue;
    if (!std::isfinite(positions.x[p]) || !std::isfinite(positions.y[p]) ||
        !std::isfinite(positions.z[p])) {
      throw Error("position of particle " + std::to_string(p) +
                  " is NaN or infinite");
    }
  }
}

}  // namespace adj::fracture
