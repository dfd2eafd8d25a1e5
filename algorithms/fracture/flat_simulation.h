#pragma once

// The update as flat passes over arrays, written once for two backends: the
// host, one item after another (flat_host.cc: the flat_host variant, which
// tests this formulation where there is no GPU), and CUDA (cuda.cu). A pass
// is B::ForEach(n, body) with a body from flat_passes.h; between passes
// come the backend's scans, stable compactions, stable radix sorts and
// connected-components labelling. Frames equal data_parallel's (with the
// published merge search on one host thread: serial's). Internal to the
// family.
//
// The table is one Csr of members by slot (with the rest local positions
// beside it) rebuilt in one pass per frame with removals; the belong lists
// are a Csr rebuilt from it by a stable sort of (particle, slot) pairs.
// Within a frame the search reads the belong lists of the frame's start:
// apart from the influenced clusters (now invalid, and skipped as such)
// and the removed particles (never a neighbour), they are the lists after
// step 6.
//
// A backend B provides
//   template <typename T> class Array: data(), size(), Resize(n) (contents
//       not kept);
//   ForEach(n, body): body(i) for i in [0, n);
//   Scan(in, n, out): out[0, n] = exclusive sums of in[0, n), returns
//       out[n];
//   Compact(values, drop, n, out): out = values[i] with drop[i] == 0, in
//       order (out has room for n and does not overlap values), returns
//       their count;
//   SortPairs(keys, values, n, end_bit): stable sort by the keys (below
//       2^end_bit), in place;
//   Labels(offsets, indices, n, labels): the smallest vertex of each
//       vertex's component;
//   RemovedSet(keys, n): a set of the n keys with a body-callable
//       Contains(key);
//   Copy(to, from, n), Upload(to, host, n), Download(host, from, n),
//   Sync().
// Every body captures copies of pointers, never `this` (CUDA's extended
// lambdas run on the device), which is also why the passes are public.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/common/points.h"
#include "algorithms/fracture/flat_passes.h"
#include "algorithms/fracture/fracture.h"
#include "algorithms/fracture/topology.h"

namespace adj::fracture::flat {

template <typename B>
class FlatSimulation final : public Simulation {
 public:
  template <typename T>
  using Array = typename B::template Array<T>;

  // published_search: the published protocol (a lock per new cluster, a
  // compare-and-swap on the target's size) instead of the rounds of
  // proposals.
  FlatSimulation(const State& initial, const Params& params,
                 bool published_search)
      : params_(params), published_search_(published_search) {
    host_.grid = initial.grid;
    host_.particle_coord = initial.particle_coord;
    host_.node_is_particle = initial.node_is_particle;
    host_.frame = initial.frame;
    particles_ = static_cast<std::uint32_t>(initial.Particles());
    const detail::Topology topology(initial, params.neighborhood);
    Put(coords_, initial.particle_coord);
    Put(node_of_, topology.NodesOfParticles());
    Put(node_particle_, topology.ParticlesAtNodes());
    Put(node_is_particle_, initial.node_is_particle);
    grid_.nx = initial.grid.nx;
    grid_.ny = initial.grid.ny;
    grid_.nz = initial.grid.nz;
    grid_.offset_count = static_cast<std::uint32_t>(topology.OffsetCount());
    for (std::size_t k = 0; k < topology.OffsetCount(); ++k) {
      for (int axis = 0; axis < 3; ++axis) {
        grid_.offsets[k][axis] = topology.Offset(k)[axis];
      }
      grid_.delta[k] = topology.NodeDelta(k);
    }
    UploadTable(initial.clusters);
    RebuildBelong();
    std::vector<std::uint32_t> iota(std::max<std::size_t>(particles_, 1));
    for (std::uint32_t i = 0; i < iota.size(); ++i) iota[i] = i;
    Put(iota_, iota);
  }

  void Step(const Points& positions, FrameReport& report) override {
    CheckPositions(host_, positions);
    report = FrameReport{};
    using Clock = std::chrono::steady_clock;
    Clock::time_point start = Clock::now();
    const auto lap = [&](Stage stage) {
      backend_.Sync();
      const Clock::time_point now = Clock::now();
      report.seconds[static_cast<std::size_t>(stage)] +=
          std::chrono::duration<double>(now - start).count();
      start = now;
    };
    for (Array<float>* axis : {&x_, &y_, &z_}) axis->Resize(particles_);
    backend_.Upload(x_.data(), positions.x.data(), particles_);
    backend_.Upload(y_.data(), positions.y.data(), particles_);
    backend_.Upload(z_.data(), positions.z.data(), particles_);
    const std::uint32_t removed = DetectDamage();
    lap(Stage::kDamage);
    report.removed = removed;
    if (removed > 0) {
      UpdateNodes(removed);
      lap(Stage::kNodes);
      const std::uint32_t influenced = FindInfluenced(removed);
      report.influenced = influenced;
      lap(Stage::kInfluenced);
      const std::uint32_t vertices = RemoveParticles(removed, influenced);
      lap(Stage::kRemove);
      const std::uint32_t fresh = SplitComponents(influenced, vertices);
      report.new_clusters = fresh;
      lap(Stage::kComponents);
      DeleteInfluenced(influenced, fresh);
      lap(Stage::kDelete);
      if (published_search_) {
        SearchPublished(fresh, vertices);
      } else {
        SearchRounds(fresh);
      }
      report.merges = Merges(fresh);
      lap(Stage::kMergeSearch);
      report.merged = Merge(fresh);
      lap(Stage::kMerge);
      const std::uint32_t inserted = AssignSlots(fresh);
      report.inserted = inserted;
      lap(Stage::kInsert);
      report.expanded = Expand(inserted);
      lap(Stage::kExpand);
      RebuildTable(influenced);
      lap(Stage::kInsert);
      RebuildBelong();
      lap(Stage::kBelongMaintenance);
    } else {
      report.merges = Csr{};
    }
    ++host_.frame;
  }

  State Snapshot() const override {
    State state = host_;
    const auto offsets = Get(offsets_, slots_ + 1);
    const auto members = Get(members_, offsets[slots_]);
    const auto rest = Get(rest_, offsets[slots_]);
    const auto valid = Get(valid_, slots_);
    const auto stiffness = Get(stiffness_, slots_);
    const auto rotation = Get(rotation_, slots_);
    const auto translation = Get(translation_, slots_);
    state.clusters.slots.resize(slots_);
    state.clusters.valid = valid;
    for (std::uint32_t s = 0; s < slots_; ++s) {
      Cluster& cluster = state.clusters.slots[s];
      cluster.particles.assign(members.begin() + offsets[s],
                               members.begin() + offsets[s + 1]);
      cluster.rest_local.assign(rest.begin() + offsets[s],
                                rest.begin() + offsets[s + 1]);
      cluster.stiffness = stiffness[s];
      cluster.rotation = rotation[s];
      cluster.translation = translation[s];
    }
    return state;
  }

  Csr BelongLists() const override {
    Csr lists;
    lists.offsets = Get(belong_offsets_, particles_ + 1);
    lists.indices = Get(belong_slots_, lists.offsets.back());
    return lists;
  }

  std::size_t BelongBytes() const override {
    return (particles_ + std::size_t{1} + belong_entries_) *
           sizeof(std::uint32_t);
  }

  // The passes (public only for CUDA's extended lambdas).

  GridView Grid() const {
    GridView grid = grid_;
    grid.coords = coords_.data();
    grid.node_of = node_of_.data();
    grid.node_particle = node_particle_.data();
    grid.node_is_particle = node_is_particle_.data();
    return grid;
  }

  // 1: removed_ = the damaged particles, ascending; returns their count.
  std::uint32_t DetectDamage() {
    const GridView grid = Grid();
    const float limit = params_.damage_distance * params_.damage_distance;
    const float* x = x_.data();
    const float* y = y_.data();
    const float* z = z_.data();
    drop_.Resize(particles_);
    std::uint8_t* drop = drop_.data();
    backend_.ForEach(particles_, [=] ADJ_FRACTURE_HD(std::uint32_t p) {
      drop[p] = !Damaged(grid, x, y, z, p, limit);
    });
    removed_.Resize(particles_);
    return backend_.Compact(iota_.data(), drop, particles_, removed_.data());
  }

  // 2, and the host's copy of the flags (CheckPositions reads it).
  void UpdateNodes(std::uint32_t removed_count) {
    const std::uint32_t* removed = removed_.data();
    const std::uint32_t* node_of = node_of_.data();
    std::uint8_t* node_is_particle = node_is_particle_.data();
    backend_.ForEach(removed_count, [=] ADJ_FRACTURE_HD(std::uint32_t r) {
      node_is_particle[node_of[removed[r]]] = 0;
    });
    const auto host_removed = Get(removed_, removed_count);
    for (const std::uint32_t p : host_removed) {
      host_.node_is_particle[NodeIndex(host_.grid, host_.particle_coord[p])] =
          0;
    }
  }

  // 3: influenced_ = the valid slots in the removed particles' lists,
  // ascending.
  std::uint32_t FindInfluenced(std::uint32_t removed_count) {
    slot_drop_.Resize(slots_);
    std::uint8_t* slot_drop = slot_drop_.data();
    backend_.ForEach(
        slots_, [=] ADJ_FRACTURE_HD(std::uint32_t s) { slot_drop[s] = 1; });
    const std::uint32_t* removed = removed_.data();
    const Rows belong = BelongRows();
    const std::uint8_t* valid = valid_.data();
    backend_.ForEach(removed_count, [=] ADJ_FRACTURE_HD(std::uint32_t r) {
      const std::uint32_t p = removed[r];
      for (std::uint32_t e = belong.Begin(p); e < belong.End(p); ++e) {
        const std::uint32_t s = belong.indices[e];
        if (valid[s]) slot_drop[s] = 0;
      }
    });
    EnsureIota(slots_);
    influenced_.Resize(slots_);
    return backend_.Compact(iota_.data(), slot_drop, slots_,
                            influenced_.data());
  }

  // 4: the influenced clusters' members without the removed particles, in
  // order, one after another: vertex_particle_ (vertex v of the aggregated
  // graph), vertex_base_ (cluster i's vertices start at vertex_base_[i]).
  // Returns the vertex count.
  std::uint32_t RemoveParticles(std::uint32_t removed_count,
                                std::uint32_t influenced_count) {
    auto set = backend_.RemovedSet(removed_.data(), removed_count);
    const auto contains = set.View();
    const std::uint32_t* influenced = influenced_.data();
    const Rows table = TableRows();
    counts_.Resize(influenced_count);
    std::uint32_t* counts = counts_.data();
    backend_.ForEach(influenced_count, [=] ADJ_FRACTURE_HD(std::uint32_t i) {
      counts[i] = table.Size(influenced[i]);
    });
    gathered_base_.Resize(influenced_count + 1);
    const std::uint32_t gathered_count =
        backend_.Scan(counts, influenced_count, gathered_base_.data());
    gathered_.Resize(gathered_count);
    entry_drop_.Resize(gathered_count);
    std::uint32_t* gathered = gathered_.data();
    std::uint8_t* entry_drop = entry_drop_.data();
    const std::uint32_t* gathered_base = gathered_base_.data();
    backend_.ForEach(influenced_count, [=] ADJ_FRACTURE_HD(std::uint32_t i) {
      const std::uint32_t s = influenced[i];
      std::uint32_t kept = 0;
      for (std::uint32_t e = table.Begin(s); e < table.End(s); ++e) {
        const std::uint32_t p = table.indices[e];
        const std::uint32_t at = gathered_base[i] + (e - table.Begin(s));
        gathered[at] = p;
        entry_drop[at] = contains(p) ? 1 : 0;
        kept += entry_drop[at] == 0;
      }
      counts[i] = kept;
    });
    vertex_base_.Resize(influenced_count + 1);
    const std::uint32_t vertices =
        backend_.Scan(counts, influenced_count, vertex_base_.data());
    vertex_particle_.Resize(gathered_count);
    backend_.Compact(gathered, entry_drop, gathered_count,
                     vertex_particle_.data());
    vertex_cluster_.Resize(vertices);
    std::uint32_t* vertex_cluster = vertex_cluster_.data();
    const std::uint32_t* vertex_base = vertex_base_.data();
    backend_.ForEach(influenced_count, [=] ADJ_FRACTURE_HD(std::uint32_t i) {
      for (std::uint32_t v = vertex_base[i]; v < vertex_base[i + 1]; ++v) {
        vertex_cluster[v] = i;
      }
    });
    return vertices;
  }

  // 5: the aggregated graph (membership by the sorted (cluster, particle)
  // keys), its components, and the new clusters: fresh_offsets_ /
  // fresh_members_ (rows in order of their smallest vertex, members in
  // vertex order) and fresh_parent_. Returns the new cluster count.
  std::uint32_t SplitComponents(std::uint32_t influenced_count,
                                std::uint32_t vertices) {
    fresh_offsets_.Resize(vertices + 1);
    if (vertices == 0) {
      const std::uint32_t zero = 0;
      backend_.Upload(fresh_offsets_.data(), &zero, 1);
      return 0;
    }
    const GridView grid = Grid();
    const std::uint32_t* vertex_particle = vertex_particle_.data();
    const std::uint32_t* vertex_cluster = vertex_cluster_.data();
    const std::uint32_t* vertex_base = vertex_base_.data();
    keys_.Resize(vertices);
    values_.Resize(vertices);
    std::uint64_t* keys = keys_.data();
    std::uint32_t* values = values_.data();
    backend_.ForEach(vertices, [=] ADJ_FRACTURE_HD(std::uint32_t v) {
      keys[v] = PairKey(vertex_cluster[v], vertex_particle[v]);
      values[v] = v;
    });
    backend_.SortPairs(keys, values, vertices, 32 + Bits(influenced_count));
    counts_.Resize(vertices);
    std::uint32_t* degree = counts_.data();
    backend_.ForEach(vertices, [=] ADJ_FRACTURE_HD(std::uint32_t v) {
      const std::uint32_t i = vertex_cluster[v];
      degree[v] = Edges(grid, i, vertex_particle[v], keys, values,
                        vertex_base[i], vertex_base[i + 1], nullptr);
    });
    graph_offsets_.Resize(vertices + 1);
    const std::uint32_t edges =
        backend_.Scan(degree, vertices, graph_offsets_.data());
    graph_indices_.Resize(edges);
    const std::uint32_t* graph_offsets = graph_offsets_.data();
    std::uint32_t* graph_indices = graph_indices_.data();
    backend_.ForEach(vertices, [=] ADJ_FRACTURE_HD(std::uint32_t v) {
      const std::uint32_t i = vertex_cluster[v];
      Edges(grid, i, vertex_particle[v], keys, values, vertex_base[i],
            vertex_base[i + 1], graph_indices + graph_offsets[v]);
    });
    labels_.Resize(vertices);
    std::uint32_t* labels = labels_.data();
    backend_.Labels(graph_offsets, graph_indices, vertices, labels);

    std::uint32_t* is_root = counts_.data();
    backend_.ForEach(vertices, [=] ADJ_FRACTURE_HD(std::uint32_t v) {
      is_root[v] = labels[v] == v ? 1 : 0;
    });
    row_of_root_.Resize(vertices + 1);
    std::uint32_t* row_of_root = row_of_root_.data();
    const std::uint32_t fresh = backend_.Scan(is_root, vertices, row_of_root);
    fresh_parent_.Resize(fresh);
    std::uint32_t* fresh_parent = fresh_parent_.data();
    const std::uint32_t* influenced = influenced_.data();
    backend_.ForEach(vertices, [=] ADJ_FRACTURE_HD(std::uint32_t v) {
      keys[v] = row_of_root[labels[v]];
      values[v] = vertex_particle[v];
      if (labels[v] == v) {
        fresh_parent[row_of_root[v]] = influenced[vertex_cluster[v]];
      }
    });
    backend_.SortPairs(keys, values, vertices, Bits(fresh));
    fresh_members_.Resize(vertices);
    backend_.Copy(fresh_members_.data(), values, vertices);
    std::uint32_t* fresh_offsets = fresh_offsets_.data();
    backend_.ForEach(vertices, [=] ADJ_FRACTURE_HD(std::uint32_t e) {
      if (e == 0 || keys[e] != keys[e - 1]) {
        fresh_offsets[keys[e]] = e;
      }
      if (e + 1 == vertices) fresh_offsets[keys[e] + 1] = vertices;
    });
    return fresh;
  }

  // 6: the new clusters' inherited attributes are read, then the
  // influenced slots turn invalid.
  void DeleteInfluenced(std::uint32_t influenced_count, std::uint32_t fresh) {
    fresh_stiffness_.Resize(fresh);
    fresh_rotation_.Resize(fresh);
    fresh_translation_.Resize(fresh);
    float* fresh_stiffness = fresh_stiffness_.data();
    Quat* fresh_rotation = fresh_rotation_.data();
    Vec3* fresh_translation = fresh_translation_.data();
    const std::uint32_t* fresh_parent = fresh_parent_.data();
    const float* stiffness = stiffness_.data();
    const Quat* rotation = rotation_.data();
    const Vec3* translation = translation_.data();
    backend_.ForEach(fresh, [=] ADJ_FRACTURE_HD(std::uint32_t c) {
      fresh_stiffness[c] = stiffness[fresh_parent[c]];
      fresh_rotation[c] = rotation[fresh_parent[c]];
      fresh_translation[c] = translation[fresh_parent[c]];
    });
    const std::uint32_t* influenced = influenced_.data();
    std::uint8_t* valid = valid_.data();
    backend_.ForEach(influenced_count, [=] ADJ_FRACTURE_HD(std::uint32_t i) {
      valid[influenced[i]] = 0;
    });
  }

  SearchView Search() const {
    SearchView view;
    view.grid = Grid();
    view.fresh = Rows{fresh_offsets_.data(), fresh_members_.data()};
    view.belong = BelongRows();
    view.valid = valid_.data();
    view.max_cluster_size = params_.max_cluster_size;
    return view;
  }

  // reserved_[s] = the size of live slot s (0 for the others).
  void ResetReserved() {
    reserved_.Resize(slots_);
    std::uint32_t* reserved = reserved_.data();
    const Rows table = TableRows();
    const std::uint8_t* valid = valid_.data();
    backend_.ForEach(slots_, [=] ADJ_FRACTURE_HD(std::uint32_t s) {
      reserved[s] = valid[s] ? table.Size(s) : 0;
    });
  }

  // 7, ours: data_parallel's rounds of proposals; target_[c] = the slot c
  // merges into, or kNone.
  void SearchRounds(std::uint32_t fresh) {
    ResetReserved();
    const SearchView view = Search();
    target_.Resize(fresh);
    resume_.Resize(fresh);
    proposal_.Resize(fresh);
    active_.Resize(fresh);
    next_active_.Resize(fresh);
    fresh_drop_.Resize(fresh);
    std::uint32_t* target = target_.data();
    std::uint32_t* resume = resume_.data();
    std::uint32_t* proposal = proposal_.data();
    backend_.ForEach(fresh, [=] ADJ_FRACTURE_HD(std::uint32_t c) {
      target[c] = kNone;
      resume[c] = 0;
    });
    EnsureIota(fresh);
    backend_.Copy(active_.data(), iota_.data(), fresh);
    std::uint32_t active_count = fresh;
    std::uint32_t* reserved = reserved_.data();
    const std::uint32_t max = params_.max_cluster_size;
    while (active_count > 0) {
      const std::uint32_t* active = active_.data();
      std::uint8_t* drop = fresh_drop_.data();
      backend_.ForEach(active_count, [=] ADJ_FRACTURE_HD(std::uint32_t a) {
        const std::uint32_t c = active[a];
        proposal[c] = Propose(view, reserved, c, resume + c);
        drop[a] = proposal[c] == kNone ? 1 : 0;
      });
      offers_.Resize(active_count);
      const std::uint32_t offer_count =
          backend_.Compact(active, drop, active_count, offers_.data());
      keys_.Resize(std::max<std::uint32_t>(offer_count, 1));
      std::uint64_t* keys = keys_.data();
      std::uint32_t* offers = offers_.data();
      backend_.ForEach(offer_count, [=] ADJ_FRACTURE_HD(std::uint32_t o) {
        const std::uint32_t c = offers[o];
        keys[o] = PairKey(proposal[c], c);
      });
      backend_.SortPairs(keys, offers, offer_count, 32 + Bits(slots_));
      // Each target's first offer takes its proposers in order; the
      // rejected ones propose again.
      const Rows fresh_rows = view.fresh;
      rejected_.Resize(fresh);
      std::uint8_t* rejected_by_cluster = rejected_.data();
      backend_.ForEach(offer_count, [=] ADJ_FRACTURE_HD(std::uint32_t o) {
        rejected_by_cluster[offers[o]] = 0;
      });
      backend_.ForEach(offer_count, [=] ADJ_FRACTURE_HD(std::uint32_t o) {
        const auto nc = HighHalf(keys[o]);
        if (o > 0 && HighHalf(keys[o - 1]) == nc) {
          return;
        }
        for (std::uint32_t e = o; e < offer_count && HighHalf(keys[e]) == nc;
             ++e) {
          const std::uint32_t c = offers[e];
          const std::uint32_t size = fresh_rows.Size(c);
          if (static_cast<std::uint64_t>(reserved[nc]) + size < max) {
            reserved[nc] += size;
            target[c] = nc;
          } else {
            rejected_by_cluster[c] = 1;
          }
        }
      });
      std::uint8_t* rejected = fresh_drop_.data();
      backend_.ForEach(active_count, [=] ADJ_FRACTURE_HD(std::uint32_t a) {
        const std::uint32_t c = active[a];
        rejected[a] = (proposal[c] != kNone && rejected_by_cluster[c]) ? 0 : 1;
      });
      active_count =
          backend_.Compact(active, rejected, active_count, next_active_.data());
      std::swap(active_, next_active_);
    }
  }

  // 7, as published: one work item per member of a new cluster.
  void SearchPublished(std::uint32_t fresh, std::uint32_t entries) {
    ResetReserved();
    target_.Resize(fresh);
    lock_.Resize(fresh);
    searched_.Resize(fresh);
    row_of_.Resize(entries);
    std::uint32_t* target = target_.data();
    std::uint32_t* lock = lock_.data();
    std::uint32_t* searched = searched_.data();
    std::uint32_t* row_of = row_of_.data();
    const Rows fresh_rows{fresh_offsets_.data(), fresh_members_.data()};
    backend_.ForEach(fresh, [=] ADJ_FRACTURE_HD(std::uint32_t c) {
      target[c] = kNone;
      lock[c] = 0;
      searched[c] = 0;
      for (std::uint32_t e = fresh_rows.Begin(c); e < fresh_rows.End(c); ++e) {
        row_of[e] = c;
      }
    });
    PublishedSearch search;
    search.view = Search();
    search.reserved = reserved_.data();
    search.lock = lock;
    search.searched = searched;
    search.target = target;
    backend_.ForEach(entries, [=] ADJ_FRACTURE_HD(std::uint32_t e) {
      search.Item(row_of[e], e);
    });
  }

  // The report's merges: row c holds target_[c] unless kNone.
  Csr Merges(std::uint32_t fresh) {
    const auto target = Get(target_, fresh);
    Csr merges;
    for (const std::uint32_t nc : target) {
      if (nc != kNone) merges.indices.push_back(nc);
      merges.offsets.push_back(
          static_cast<std::uint32_t>(merges.indices.size()));
    }
    return merges;
  }

  // 8: per target, its new clusters in ascending order append the members
  // it lacks, each once, in that order (added_[nc] of them from
  // extras_[extra_start_[nc]]). One item per candidate (a member of a
  // merging new cluster): a stable sort by (target, particle) puts each
  // particle's first candidate per target first, so no thread walks a
  // target's candidates alone. Returns how many new clusters merged.
  std::uint32_t Merge(std::uint32_t fresh) {
    const std::uint32_t* target = target_.data();
    fresh_drop_.Resize(fresh);
    std::uint8_t* drop = fresh_drop_.data();
    backend_.ForEach(fresh, [=] ADJ_FRACTURE_HD(std::uint32_t c) {
      drop[c] = target[c] == kNone ? 1 : 0;
    });
    EnsureIota(fresh);
    merged_.Resize(fresh);
    const std::uint32_t merged =
        backend_.Compact(iota_.data(), drop, fresh, merged_.data());
    added_.Resize(slots_);
    extra_start_.Resize(slots_);
    std::uint32_t* added = added_.data();
    backend_.ForEach(slots_,
                     [=] ADJ_FRACTURE_HD(std::uint32_t s) { added[s] = 0; });
    if (merged == 0) return 0;
    keys_.Resize(merged);
    std::uint64_t* keys = keys_.data();
    std::uint32_t* pairs = merged_.data();
    backend_.ForEach(merged, [=] ADJ_FRACTURE_HD(std::uint32_t m) {
      const std::uint32_t c = pairs[m];
      keys[m] = PairKey(target[c], c);
    });
    backend_.SortPairs(keys, pairs, merged, 32 + Bits(slots_));
    const Rows fresh_rows{fresh_offsets_.data(), fresh_members_.data()};
    counts_.Resize(merged);
    std::uint32_t* sizes = counts_.data();
    backend_.ForEach(merged, [=] ADJ_FRACTURE_HD(std::uint32_t m) {
      sizes[m] = fresh_rows.Size(pairs[m]);
    });
    extra_base_.Resize(merged + 1);
    const std::uint32_t candidate_count =
        backend_.Scan(sizes, merged, extra_base_.data());
    if (candidate_count == 0) return merged;
    candidate_keys_.Resize(candidate_count);
    candidate_order_.Resize(candidate_count);
    candidate_member_.Resize(candidate_count);
    candidate_target_.Resize(candidate_count);
    candidate_drop_.Resize(candidate_count);
    std::uint64_t* candidate_keys = candidate_keys_.data();
    std::uint32_t* order = candidate_order_.data();
    std::uint32_t* member = candidate_member_.data();
    std::uint32_t* target_of = candidate_target_.data();
    std::uint8_t* candidate_drop = candidate_drop_.data();
    const std::uint32_t* extra_base = extra_base_.data();
    backend_.ForEach(candidate_count, [=] ADJ_FRACTURE_HD(std::uint32_t q) {
      const std::uint32_t m = UpperBound(extra_base + 1, merged, q);
      const std::uint32_t nc = HighHalf(keys[m]);
      const std::uint32_t p =
          fresh_rows.indices[fresh_rows.Begin(pairs[m]) + (q - extra_base[m])];
      candidate_keys[q] = PairKey(nc, p);
      order[q] = q;
      member[q] = p;
      target_of[q] = nc;
    });
    backend_.SortPairs(candidate_keys, order, candidate_count,
                       32 + Bits(slots_));
    const Rows belong = BelongRows();
    backend_.ForEach(candidate_count, [=] ADJ_FRACTURE_HD(std::uint32_t t) {
      const std::uint32_t q = order[t];
      const bool first = t == 0 || candidate_keys[t - 1] != candidate_keys[t];
      candidate_drop[q] =
          first && !RowHolds(belong, member[q], target_of[q]) ? 0 : 1;
    });
    extras_.Resize(candidate_count);
    extra_target_.Resize(candidate_count);
    const std::uint32_t kept = backend_.Compact(
        member, candidate_drop, candidate_count, extras_.data());
    backend_.Compact(target_of, candidate_drop, candidate_count,
                     extra_target_.data());
    const std::uint32_t* extra_target = extra_target_.data();
    std::uint32_t* extra_start = extra_start_.data();
    backend_.ForEach(kept, [=] ADJ_FRACTURE_HD(std::uint32_t t) {
      if (t == 0 || extra_target[t - 1] != extra_target[t]) {
        extra_start[extra_target[t]] = t;
      }
    });
    backend_.ForEach(kept, [=] ADJ_FRACTURE_HD(std::uint32_t t) {
      const std::uint32_t nc = extra_target[t];
      if (t + 1 == kept || extra_target[t + 1] != nc) {
        added[nc] = t + 1 - extra_start[nc];
      }
    });
    return merged;
  }

  // 9: the k-th unmerged new cluster takes the k-th lowest invalid slot,
  // else a slot past the end (slot_of_[k]); the table grows to slots_next_.
  std::uint32_t AssignSlots(std::uint32_t fresh) {
    const std::uint32_t* target = target_.data();
    std::uint8_t* drop = fresh_drop_.data();
    backend_.ForEach(fresh, [=] ADJ_FRACTURE_HD(std::uint32_t c) {
      drop[c] = target[c] == kNone ? 0 : 1;
    });
    EnsureIota(std::max(fresh, slots_));
    unmerged_.Resize(fresh);
    const std::uint32_t inserted =
        backend_.Compact(iota_.data(), drop, fresh, unmerged_.data());
    slot_drop_.Resize(slots_);
    std::uint8_t* slot_drop = slot_drop_.data();
    const std::uint8_t* valid = valid_.data();
    backend_.ForEach(slots_, [=] ADJ_FRACTURE_HD(std::uint32_t s) {
      slot_drop[s] = valid[s];
    });
    free_.Resize(slots_);
    const std::uint32_t free_count =
        backend_.Compact(iota_.data(), slot_drop, slots_, free_.data());
    slots_next_ = slots_ + (inserted > free_count ? inserted - free_count : 0);
    slot_of_.Resize(inserted);
    unmerged_at_.Resize(slots_next_);
    std::uint32_t* slot_of = slot_of_.data();
    std::uint32_t* unmerged_at = unmerged_at_.data();
    const std::uint32_t* free = free_.data();
    const std::uint32_t old_slots = slots_;
    backend_.ForEach(slots_next_, [=] ADJ_FRACTURE_HD(std::uint32_t s) {
      unmerged_at[s] = kNone;
    });
    backend_.ForEach(inserted, [=] ADJ_FRACTURE_HD(std::uint32_t u) {
      const std::uint32_t slot =
          u < free_count ? free[u] : old_slots + (u - free_count);
      slot_of[u] = slot;
      unmerged_at[slot] = u;
    });
    return inserted;
  }

  // 10: each inserted cluster below min_cluster_size grows (grown_count_[u]
  // particles from grown_[grown_base_[u]]). Returns how many grew.
  std::uint32_t Expand(std::uint32_t inserted) {
    const std::uint32_t min = params_.min_cluster_size;
    const Rows fresh_rows{fresh_offsets_.data(), fresh_members_.data()};
    const std::uint32_t* unmerged = unmerged_.data();
    counts_.Resize(inserted);
    std::uint32_t* room = counts_.data();
    backend_.ForEach(inserted, [=] ADJ_FRACTURE_HD(std::uint32_t u) {
      room[u] = fresh_rows.Size(unmerged[u]) < min ? min : 0;
    });
    grown_base_.Resize(inserted + 1);
    const std::uint32_t total =
        backend_.Scan(room, inserted, grown_base_.data());
    grown_.Resize(std::max<std::uint32_t>(total, 1));
    candidates_.Resize(std::max<std::uint32_t>(total, 1));
    grown_count_.Resize(inserted);
    const GridView grid = Grid();
    const bool breadth_first = params_.expansion == Expansion::kBreadthFirst;
    const std::uint64_t seed = params_.seed;
    const std::uint64_t frame = host_.frame;
    const std::uint32_t* grown_base = grown_base_.data();
    const std::uint32_t* slot_of = slot_of_.data();
    std::uint32_t* grown = grown_.data();
    std::uint32_t* candidates = candidates_.data();
    std::uint32_t* grown_count = grown_count_.data();
    backend_.ForEach(inserted, [=] ADJ_FRACTURE_HD(std::uint32_t u) {
      const std::uint32_t c = unmerged[u];
      grown_count[u] = 0;
      if (fresh_rows.Size(c) >= min) return;
      grown_count[u] = Grow(grid, fresh_rows.indices + fresh_rows.Begin(c),
                            fresh_rows.Size(c), min, breadth_first,
                            detail::MixedSeed(seed, frame, slot_of[u]),
                            grown + grown_base[u], candidates + grown_base[u]);
    });
    std::uint32_t expanded = 0;
    for (const std::uint32_t count : Get(grown_count_, inserted)) {
      expanded += count > 0;
    }
    return expanded;
  }

  // Long: one pass over the grown table's slots writing its member Csr,
  // rest positions and attributes together.
  // 8-10 written: one pass over the slots of the grown table builds its
  // member Csr, rest local positions and attributes.
  void RebuildTable(std::uint32_t influenced_count) {
    const std::uint32_t slots = slots_next_;
    const std::uint32_t old_slots = slots_;
    slot_drop_.Resize(old_slots);
    std::uint8_t* was_influenced = slot_drop_.data();
    backend_.ForEach(old_slots, [=] ADJ_FRACTURE_HD(std::uint32_t s) {
      was_influenced[s] = 0;
    });
    const std::uint32_t* influenced = influenced_.data();
    backend_.ForEach(influenced_count, [=] ADJ_FRACTURE_HD(std::uint32_t i) {
      was_influenced[influenced[i]] = 1;
    });
    const Rows table = TableRows();
    const Rows fresh_rows{fresh_offsets_.data(), fresh_members_.data()};
    const std::uint8_t* valid = valid_.data();
    const std::uint32_t* added = added_.data();
    const std::uint32_t* unmerged_at = unmerged_at_.data();
    const std::uint32_t* unmerged = unmerged_.data();
    const std::uint32_t* grown_count = grown_count_.data();
    counts_.Resize(slots);
    std::uint32_t* sizes = counts_.data();
    backend_.ForEach(slots, [=] ADJ_FRACTURE_HD(std::uint32_t s) {
      const std::uint32_t u = unmerged_at[s];
      if (u != kNone) {
        sizes[s] = fresh_rows.Size(unmerged[u]) + grown_count[u];
      } else {
        sizes[s] = s < old_slots && valid[s] ? table.Size(s) + added[s] : 0;
      }
    });
    next_offsets_.Resize(slots + 1);
    const std::uint32_t entries =
        backend_.Scan(sizes, slots, next_offsets_.data());
    next_members_.Resize(entries);
    next_rest_.Resize(entries);
    next_valid_.Resize(slots);
    next_stiffness_.Resize(slots);
    next_rotation_.Resize(slots);
    next_translation_.Resize(slots);
    const std::uint32_t* next_offsets = next_offsets_.data();
    std::uint32_t* next_members = next_members_.data();
    Vec3* next_rest = next_rest_.data();
    std::uint8_t* next_valid = next_valid_.data();
    float* next_stiffness = next_stiffness_.data();
    Quat* next_rotation = next_rotation_.data();
    Vec3* next_translation = next_translation_.data();
    const Vec3* rest = rest_.data();
    const float* stiffness = stiffness_.data();
    const Quat* rotation = rotation_.data();
    const Vec3* translation = translation_.data();
    const float* fresh_stiffness = fresh_stiffness_.data();
    const Quat* fresh_rotation = fresh_rotation_.data();
    const Vec3* fresh_translation = fresh_translation_.data();
    const std::uint32_t* extras = extras_.data();
    const std::uint32_t* extra_start = extra_start_.data();
    const std::uint32_t* grown = grown_.data();
    const std::uint32_t* grown_base = grown_base_.data();
    const Coord* coords = coords_.data();
    backend_.ForEach(slots, [=] ADJ_FRACTURE_HD(std::uint32_t s) {
      std::uint32_t* out = next_members + next_offsets[s];
      Vec3* out_rest = next_rest + next_offsets[s];
      const std::uint32_t u = unmerged_at[s];
      if (u != kNone) {
        const std::uint32_t c = unmerged[u];
        std::uint32_t n = 0;
        for (std::uint32_t e = fresh_rows.Begin(c); e < fresh_rows.End(c);
             ++e) {
          out[n++] = fresh_rows.indices[e];
        }
        for (std::uint32_t k = 0; k < grown_count[u]; ++k) {
          out[n++] = grown[grown_base[u] + k];
        }
        WriteRestLocal(coords, out, n, out_rest);
        next_valid[s] = 1;
        next_stiffness[s] = fresh_stiffness[c];
        next_rotation[s] = fresh_rotation[c];
        next_translation[s] = fresh_translation[c];
        return;
      }
      if (s < old_slots && valid[s]) {
        std::uint32_t n = 0;
        for (std::uint32_t e = table.Begin(s); e < table.End(s); ++e, ++n) {
          out[n] = table.indices[e];
          out_rest[n] = rest[e];
        }
        for (std::uint32_t k = 0; k < added[s]; ++k) {
          out[n++] = extras[extra_start[s] + k];
        }
        if (added[s] > 0) WriteRestLocal(coords, out, n, out_rest);
      }
      const bool reset = s >= old_slots || was_influenced[s];
      next_valid[s] = s < old_slots ? valid[s] : 0;
      next_stiffness[s] = reset ? 1.0f : stiffness[s];
      next_rotation[s] = reset ? Quat{} : rotation[s];
      next_translation[s] = reset ? Vec3{} : translation[s];
    });
    std::swap(offsets_, next_offsets_);
    std::swap(members_, next_members_);
    std::swap(rest_, next_rest_);
    std::swap(valid_, next_valid_);
    std::swap(stiffness_, next_stiffness_);
    std::swap(rotation_, next_rotation_);
    std::swap(translation_, next_translation_);
    slots_ = slots;
  }

  // The belong lists from the table: (particle, slot) pairs in slot order,
  // sorted stably by particle.
  void RebuildBelong() {
    std::uint32_t entries = 0;
    backend_.Download(&entries, offsets_.data() + slots_, 1);
    keys_.Resize(std::max<std::uint32_t>(entries, 1));
    belong_slots_.Resize(std::max<std::uint32_t>(entries, 1));
    std::uint64_t* keys = keys_.data();
    std::uint32_t* slots_of = belong_slots_.data();
    const std::uint32_t* offsets = offsets_.data();
    const std::uint32_t* members = members_.data();
    const std::uint32_t slots = slots_;
    backend_.ForEach(entries, [=] ADJ_FRACTURE_HD(std::uint32_t e) {
      keys[e] = members[e];
      slots_of[e] = UpperBound(offsets, slots + 1, e) - 1;
    });
    backend_.SortPairs(keys, slots_of, entries, Bits(particles_));
    belong_offsets_.Resize(particles_ + 1);
    std::uint32_t* belong_offsets = belong_offsets_.data();
    backend_.ForEach(particles_ + 1, [=] ADJ_FRACTURE_HD(std::uint32_t p) {
      belong_offsets[p] = Find(keys, 0, entries, p);
    });
    belong_entries_ = entries;
  }

 private:
  Rows BelongRows() const {
    return Rows{belong_offsets_.data(), belong_slots_.data()};
  }
  Rows TableRows() const { return Rows{offsets_.data(), members_.data()}; }

  void UploadTable(const ClusterTable& table) {
    slots_ = static_cast<std::uint32_t>(table.slots.size());
    std::vector<std::uint32_t> offsets{0};
    std::vector<std::uint32_t> members;
    std::vector<Vec3> rest;
    std::vector<float> stiffness;
    std::vector<Quat> rotation;
    std::vector<Vec3> translation;
    for (const Cluster& cluster : table.slots) {
      members.insert(members.end(), cluster.particles.begin(),
                     cluster.particles.end());
      rest.insert(rest.end(), cluster.rest_local.begin(),
                  cluster.rest_local.end());
      offsets.push_back(static_cast<std::uint32_t>(members.size()));
      stiffness.push_back(cluster.stiffness);
      rotation.push_back(cluster.rotation);
      translation.push_back(cluster.translation);
    }
    Put(offsets_, offsets);
    Put(members_, members);
    Put(rest_, rest);
    Put(valid_, table.valid);
    Put(stiffness_, stiffness);
    Put(rotation_, rotation);
    Put(translation_, translation);
  }

  void EnsureIota(std::uint32_t n) {
    if (n <= iota_.size()) return;
    std::vector<std::uint32_t> iota(n);
    for (std::uint32_t i = 0; i < n; ++i) iota[i] = i;
    Put(iota_, iota);
  }

  // Bits that hold every value below n + 1.
  static int Bits(std::uint32_t n) {
    int bits = 1;
    while (bits < 32 && (std::uint64_t{1} << bits) <= n) ++bits;
    return bits;
  }

  template <typename T>
  void Put(Array<T>& array, const std::vector<T>& host) {
    array.Resize(host.size());
    backend_.Upload(array.data(), host.data(), host.size());
  }
  template <typename T>
  std::vector<T> Get(const Array<T>& array, std::size_t n) const {
    std::vector<T> host(n);
    backend_.Download(host.data(), array.data(), n);
    return host;
  }

  Params params_;
  bool published_search_;
  mutable B backend_;
  // The host's copy of the grid, the flags and the frame (the table lives
  // in the backend's arrays).
  State host_;
  std::uint32_t particles_ = 0;
  std::uint32_t slots_ = 0;
  std::uint32_t slots_next_ = 0;
  std::uint32_t belong_entries_ = 0;
  GridView grid_;

  Array<Coord> coords_;
  Array<std::uint32_t> node_of_, node_particle_, iota_;
  Array<std::uint8_t> node_is_particle_;
  Array<float> x_, y_, z_;
  // The table.
  Array<std::uint32_t> offsets_, members_;
  Array<Vec3> rest_, translation_;
  Array<std::uint8_t> valid_;
  Array<float> stiffness_;
  Array<Quat> rotation_;
  Array<std::uint32_t> belong_offsets_, belong_slots_;
  // The table being written.
  Array<std::uint32_t> next_offsets_, next_members_;
  Array<Vec3> next_rest_, next_translation_;
  Array<std::uint8_t> next_valid_;
  Array<float> next_stiffness_;
  Array<Quat> next_rotation_;
  // A frame's scratch.
  Array<std::uint8_t> drop_, slot_drop_, entry_drop_, fresh_drop_, rejected_;
  Array<std::uint32_t> removed_, influenced_, counts_, gathered_base_,
      gathered_, vertex_base_, vertex_particle_, vertex_cluster_, values_,
      graph_offsets_, graph_indices_, labels_, row_of_root_, fresh_parent_,
      fresh_offsets_, fresh_members_, reserved_, target_, resume_, proposal_,
      active_, next_active_, offers_, lock_, searched_, row_of_, merged_,
      added_, extra_start_, extra_base_, extras_, unmerged_, free_, slot_of_,
      unmerged_at_, grown_base_, grown_, candidates_, grown_count_,
      candidate_order_, candidate_member_, candidate_target_, extra_target_;
  Array<std::uint8_t> candidate_drop_;
  Array<std::uint64_t> keys_, candidate_keys_;
  Array<float> fresh_stiffness_;
  Array<Quat> fresh_rotation_;
  Array<Vec3> fresh_translation_;
};

}  // namespace adj::fracture::flat
