#pragma once

// fracture: the per-frame cluster-topology update of a GPU cutting
// simulation (shape-matching clusters on a voxel grid;
// docs/sources/cutting-simulation-update.md). After the physics has predicted
// the particles' positions, one frame
//   1. masks every intact particle with an intact grid neighbour farther
//      than damage_distance (float: dx*dx + dy*dy + dz*dz > d*d, each
//      operation rounded on its own);
//   2. empties the masked particles' nodes (they are removed);
//   3. finds the influenced clusters: those holding a removed particle;
//   4. removes the removed particles from them, keeping their order;
//   5. splits each influenced cluster into its connected components (grid
//      neighbours among its own remaining members); every component is a
//      new cluster inheriting the parent's stiffness, rotation and
//      translation;
//   6. deletes the influenced clusters;
//   7. searches a merge target for each new cluster: an old cluster nc in
//      the belong list of an intact neighbour j of one of its particles i,
//      with reserved(nc) + size(c) < max_cluster_size; a merge reserves
//      size(c) in nc;
//   8. merges (nc gains the members of c it lacks, in c's order);
//   9. inserts the new clusters that found no target, each in the lowest
//      free slot of the table (lazy deletion: deleted slots are invalid and
//      reused), else at the end;
//  10. expands each inserted cluster smaller than min_cluster_size by
//      growth over grid neighbours (Expansion says how).
//
// Everything a frame produces is canonical, so that variants compare with
// == (the merge choice aside, which concurrent variants make in any order):
//   - new clusters are numbered by parent slot, then by the position in the
//     parent's list of their first member; members keep the parent's order;
//   - the serial search visits new clusters in that order, i in list order,
//     j in NeighborOffsets order, nc in ascending slot order, and takes the
//     first fit;
//   - belong lists are ascending slot ids;
//   - rest local positions are a function of the members: grid coordinate
//     minus the members' mean coordinate (summed exactly in 64-bit
//     integers, divided in double, the difference rounded to float).
//
// Bad input throws fracture::Error before the state changes: an empty
// object, a grid of more than 2^32 - 1 nodes, a particle outside the grid or
// two at one node, a cluster naming a missing or removed particle or one
// twice, an empty or disconnected cluster, a cluster of max_cluster_size
// or more, rest local positions that are not the members', NaN or infinite
// cluster attributes or positions of intact particles, and parameters out
// of range (see Check).

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/csr.h"
#include "algorithms/common/errors.h"
#include "algorithms/common/points.h"
#include "algorithms/common/variant.h"

namespace adj::fracture {

class Error : public adj::Error {
 public:
  using adj::Error::Error;
};

// Node ids are x + nx * (y + ny * z); 2^32 - 1 marks "no particle".
inline constexpr std::uint32_t kNone = 0xFFFFFFFFu;
inline constexpr std::uint64_t kMaxNodes = 0xFFFFFFFFull;

struct GridShape {
  std::uint32_t nx = 0;
  std::uint32_t ny = 0;
  std::uint32_t nz = 0;
  std::uint64_t Nodes() const {
    return std::uint64_t{nx} * std::uint64_t{ny} * std::uint64_t{nz};
  }
  friend bool operator==(const GridShape&, const GridShape&) = default;
};

struct Coord {
  std::uint32_t x = 0;
  std::uint32_t y = 0;
  std::uint32_t z = 0;
  friend bool operator==(const Coord&, const Coord&) = default;
};

// The id of the node at `c` (inside `grid`): x + nx * (y + ny * z).
inline std::uint64_t NodeIndex(const GridShape& grid, const Coord& c) {
  return c.x + std::uint64_t{grid.nx} * (c.y + std::uint64_t{grid.ny} * c.z);
}

struct Vec3 {
  float x = 0;
  float y = 0;
  float z = 0;
  friend bool operator==(const Vec3&, const Vec3&) = default;
};

struct Quat {
  float w = 1;
  float x = 0;
  float y = 0;
  float z = 0;
  friend bool operator==(const Quat&, const Quat&) = default;
};

// Face neighbours only (the default), or all 26 around a node.
enum class Neighborhood : std::uint8_t { kFace6, kAll26 };

// The neighbour offsets in the order every search visits them: for kFace6
// -x, +x, -y, +y, -z, +z; for kAll26 dz, then dy, then dx ascending over
// {-1, 0, 1}, (0, 0, 0) left out.
std::span<const std::array<std::int8_t, 3>> NeighborOffsets(Neighborhood);

struct Cluster {
  std::vector<std::uint32_t> particles;
  std::vector<Vec3> rest_local;
  float stiffness = 1;
  Quat rotation;
  Vec3 translation;
  friend bool operator==(const Cluster&, const Cluster&) = default;
};

// The cluster table with lazy deletion: slot s holds a cluster when
// valid[s]; deleting a cluster leaves Cluster{} in its slot (no members,
// the default attributes), and the slot is reused, lowest first.
struct ClusterTable {
  std::vector<Cluster> slots;
  std::vector<std::uint8_t> valid;

  std::size_t Live() const;
  // The lowest invalid slot, or slots.size() when every slot is live.
  std::uint32_t LowestFree() const;
  friend bool operator==(const ClusterTable&, const ClusterTable&) = default;
};

// What a variant starts from and hands back between frames.
struct State {
  GridShape grid;
  // particle p sits at node coordinate particle_coord[p], its rest position
  // (grid spacing 1); the particles never move between nodes.
  std::vector<Coord> particle_coord;
  // The grid manager's flag, one per node: the node holds an intact
  // particle. A removed particle's node is empty.
  std::vector<std::uint8_t> node_is_particle;
  ClusterTable clusters;
  // Frames stepped so far; seeds the random expansion.
  std::uint64_t frame = 0;

  std::size_t Particles() const { return particle_coord.size(); }
  friend bool operator==(const State&, const State&) = default;
};

// How an inserted cluster below min_cluster_size grows (step 10), one
// particle at a time until it reaches the size or cannot grow:
//   - kRandomAsPublished: pick a random candidate member, add a random one
//     of its free neighbours (intact, not in the cluster, in
//     NeighborOffsets order); a candidate without one is dropped for good.
//     Candidates start as the members in list order; an added particle
//     becomes one. Random numbers: SplitMix64 seeded with ExpansionSeed, a
//     choice among n is next() % n; a dropped candidate's place is taken by
//     the last one.
//   - kBreadthFirst: members in list order, then added particles, each
//     adding its free neighbours in NeighborOffsets order.
enum class Expansion : std::uint8_t { kRandomAsPublished, kBreadthFirst };

// Where each particle's clusters are kept (the ParticleBelongList):
//   - kBumpPool: the published pool; a list that outgrows its block moves to
//     a block of twice the capacity at the end of the pool; nothing is
//     freed or shrunk;
//   - kCsrRebuilt: one Csr rebuilt from the table by a counting sort at the
//     end of every frame;
//   - kSmallVectors: one growable array per particle;
//   - kSizeClassPool: blocks of 4, 8, 16, ... entries, a free list per
//     size, so that blocks left behind are reused.
enum class BelongKind : std::uint8_t {
  kBumpPool,
  kCsrRebuilt,
  kSmallVectors,
  kSizeClassPool
};
std::string_view BelongKindName(BelongKind);

struct Params {
  // Step 1's distEpsilon; finite and > 0.
  float damage_distance = 1.5f;
  // CLUSTER_MAX_SIZE: every cluster holds fewer; >= 2.
  std::uint32_t max_cluster_size = 1024;
  // Inserted clusters below it grow (step 10); < max_cluster_size.
  std::uint32_t min_cluster_size = 8;
  Neighborhood neighborhood = Neighborhood::kFace6;
  Expansion expansion = Expansion::kRandomAsPublished;
  std::uint64_t seed = 0;
  // For the variants that keep their belong lists in any kind.
  BelongKind belong = BelongKind::kBumpPool;
  // The connected_components variant of step 5 (by name).
  std::string_view components = "ecl_cc";
};

// The seed of frame `frame`'s expansion of the cluster in `slot`.
std::uint64_t ExpansionSeed(std::uint64_t seed, std::uint64_t frame,
                            std::uint32_t slot);

enum class Stage : std::uint8_t {
  kDamage,
  kNodes,
  kInfluenced,
  kRemove,
  kComponents,
  kDelete,
  kMergeSearch,
  kMerge,
  kInsert,
  kExpand,
  kBelongMaintenance,
};
inline constexpr std::size_t kStages = 11;
std::string_view StageName(Stage);

struct FrameReport {
  // Wall time of each stage (steady clock), for benchmarks; tests never
  // read it.
  std::array<double, kStages> seconds{};
  std::uint32_t removed = 0;
  std::uint32_t influenced = 0;
  std::uint32_t new_clusters = 0;
  std::uint32_t merged = 0;
  std::uint32_t inserted = 0;
  std::uint32_t expanded = 0;
  // Row c, one per new cluster in canonical order: the slots c was merged
  // into, in the order the search found them (at most one, except for
  // serial_printed, which may repeat a slot).
  Csr merges;
};

// A variant's running simulation; it owns its copy of the state, on the
// host or on a device.
class Simulation {
 public:
  virtual ~Simulation() = default;
  // One frame on the predicted positions (one per particle; only intact
  // particles' are read). Throws Error (state unchanged) on a size mismatch
  // or a NaN or infinite position of an intact particle.
  virtual void Step(const Points& positions, FrameReport& report) = 0;
  virtual State Snapshot() const = 0;
  // Row p: the slots of the clusters holding particle p, ascending.
  virtual Csr BelongLists() const = 0;
  // Bytes the belong lists hold now (pool, blocks and per-particle heads).
  virtual std::size_t BelongBytes() const = 0;
};

// Checks `initial` and `params` (throws Error) and starts a simulation.
using StartFn = std::unique_ptr<Simulation>(const State& initial,
                                            const Params& params);
// How a row picks its merge targets (the update's step 7): the serial
// search's first fit (with the break the printed search lacks), the
// printed search's (every cluster that still fits), any choice the
// concurrent protocol can make (threads race for targets), or rounds of
// proposals (the same frames on every thread count).
// kUnset, the default, is no choice: every row must name its own (the
// check refuses a row that does not).
enum class Merge { kUnset, kFirstFit, kPrinted, kAnyValid, kPriorityRounds };
struct Traits {
  Merge merge = Merge::kUnset;
};
// "merge=first_fit", ...
std::string TraitsText(const Traits& traits);
using Variant = adj::Variant<StartFn, Traits>;

// serial, serial_printed, openmp, data_parallel, flat_host, and cuda,
// cuda_data_parallel when built with CUDA.
std::span<const Variant> Variants();

// Throws Error unless `state` and `params` obey the contract above.
void Check(const State& state, const Params& params);

// Throws Error unless `positions` holds one finite position per particle of
// `state` (removed particles' may be anything).
void CheckPositions(const State& state, const Points& positions);

// A state with every particle intact and one live cluster per row of
// `clusters` (in slots 0, 1, ...; default stiffness, rotation and
// translation; rest local positions by the rule). Throws Error on a grid of
// more than 2^32 - 1 nodes, a particle outside it, or a cluster naming a
// particle that does not exist; Check says the rest.
State MakeState(GridShape grid, std::vector<Coord> particle_coord,
                const Csr& clusters);

// The rest local positions of `members` by the contract's rule.
std::vector<Vec3> RestLocal(const State& state,
                            std::span<const std::uint32_t> members);

}  // namespace adj::fracture
