#include <algorithm>
#include <chrono>
#include <functional>
#include <queue>
#include <vector>

#include "algorithms/compaction/compaction.h"
#include "algorithms/connected_components/connected_components.h"
#include "algorithms/fracture/serial_simulation.h"
#include "algorithms/fracture/variants.h"
#include "algorithms/hash_set/hash_set.h"

namespace adj::fracture {
namespace detail {

using Clock = std::chrono::steady_clock;

SerialSimulation::SerialSimulation(const State& initial, const Params& params,
                                   bool printed)
    : state_(initial),
      params_(params),
      printed_(printed),
      topology_(initial, params.neighborhood),
      belong_(detail::MakeBelongStore(params.belong, initial.Particles())),
      components_(
          FindVariant(connected_components::Variants(), params.components)),
      local_index_(initial.Particles(), kNone),
      stamp_(initial.Particles(), 0) {
  belong_->Build(state_.clusters);
  for (std::size_t s = 0; s < state_.clusters.valid.size(); ++s) {
    if (!state_.clusters.valid[s]) {
      free_slots_.push(static_cast<std::uint32_t>(s));
    }
  }
}

void SerialSimulation::Step(const Points& positions, FrameReport& report) {
  CheckPositions(state_, positions);
  report = FrameReport{};
  Clock::time_point start = Clock::now();
  const auto lap = [&](Stage stage) {
    const Clock::time_point now = Clock::now();
    report.seconds[static_cast<std::size_t>(stage)] +=
        std::chrono::duration<double>(now - start).count();
    start = now;
  };
  DetectDamage(positions);
  lap(Stage::kDamage);
  UpdateNodes();
  lap(Stage::kNodes);
  report.removed = static_cast<std::uint32_t>(removed_.size());
  if (!removed_.empty()) {
    FindInfluenced();
    lap(Stage::kInfluenced);
    RemoveParticles();
    lap(Stage::kRemove);
    SplitComponents();
    lap(Stage::kComponents);
    DeleteInfluenced();
    lap(Stage::kDelete);
    SearchMergeTargets(report.merges);
    lap(Stage::kMergeSearch);
    report.merged = Merge(report.merges);
    lap(Stage::kMerge);
    InsertUnmerged(report.merges);
    lap(Stage::kInsert);
    report.expanded = Expand();
    lap(Stage::kExpand);
  } else {
    fresh_ = Csr{};
    inserted_.clear();
    influenced_.clear();
  }
  report.influenced = static_cast<std::uint32_t>(influenced_.size());
  report.new_clusters = static_cast<std::uint32_t>(fresh_.rows());
  report.inserted = static_cast<std::uint32_t>(inserted_.size());
  if (report.merges.rows() != fresh_.rows()) {
    report.merges.offsets.assign(fresh_.rows() + 1, 0);
  }
  belong_->EndFrame(state_.clusters);
  lap(Stage::kBelongMaintenance);
  ++state_.frame;
}

Csr SerialSimulation::BelongLists() const {
  return belong_->ToCsr(state_.Particles());
}

bool SerialSimulation::Damaged(std::uint32_t p, const Points& positions,
                               float limit) const {
  if (!state_.node_is_particle[topology_.NodeOf(p)]) return false;
  const float px = positions.x[p];
  const float py = positions.y[p];
  const float pz = positions.z[p];
  bool damaged = false;
  topology_.ForEachIntactNeighbor(
      p, state_.node_is_particle, [&](std::uint32_t q) {
        const float dx = px - positions.x[q];
        const float dy = py - positions.y[q];
        const float dz = pz - positions.z[q];
        damaged |= dx * dx + dy * dy + dz * dz > limit;
      });
  return damaged;
}

void SerialSimulation::DetectDamage(const Points& positions) {
  const float limit = params_.damage_distance * params_.damage_distance;
  removed_.clear();
  for (std::uint32_t p = 0; p < state_.Particles(); ++p) {
    if (Damaged(p, positions, limit)) removed_.push_back(p);
  }
}

void SerialSimulation::UpdateNodes() {
  for (const std::uint32_t p : removed_) {
    state_.node_is_particle[topology_.NodeOf(p)] = 0;
  }
}

void SerialSimulation::FindInfluenced() {
  influenced_.clear();
  slot_mark_.assign(state_.clusters.slots.size(), 0);
  for (const std::uint32_t p : removed_) {
    for (const std::uint32_t s : belong_->Of(p)) {
      if (state_.clusters.valid[s] && !slot_mark_[s]) {
        slot_mark_[s] = 1;
        influenced_.push_back(s);
      }
    }
  }
  std::sort(influenced_.begin(), influenced_.end());
}

void SerialSimulation::RemoveParticles() {
  const auto* open_addressing =
      FindVariant(hash_set::Variants(), "open_addressing");
  const auto* compact = FindVariant(compaction::Variants(), "serial");
  const auto set = open_addressing->run(removed_.size());
  set->InsertAll(removed_);
  for (const std::uint32_t s : influenced_) {
    auto& members = state_.clusters.slots[s].particles;
    flags_.resize(members.size());
    set->ContainsAll(members, flags_);
    members.resize(compact->run(members, flags_, members));
  }
}

void SerialSimulation::BuildGraph() {
  const auto& slots = state_.clusters.slots;
  base_.assign(1, 0);
  for (const std::uint32_t s : influenced_) {
    base_.push_back(base_.back() +
                    static_cast<std::uint32_t>(slots[s].particles.size()));
  }
  graph_.offsets.assign(1, 0);
  graph_.indices.clear();
  for (std::size_t i = 0; i < influenced_.size(); ++i) {
    const auto& members = slots[influenced_[i]].particles;
    for (std::uint32_t k = 0; k < members.size(); ++k) {
      local_index_[members[k]] = k;
    }
    for (const std::uint32_t p : members) {
      topology_.ForEachIntactNeighbor(
          p, state_.node_is_particle, [&](std::uint32_t q) {
            if (local_index_[q] != kNone) {
              graph_.indices.push_back(base_[i] + local_index_[q]);
            }
          });
      graph_.offsets.push_back(
          static_cast<std::uint32_t>(graph_.indices.size()));
    }
    for (const std::uint32_t p : members) local_index_[p] = kNone;
  }
}

void SerialSimulation::SplitComponents() {
  BuildGraph();
  const auto& slots = state_.clusters.slots;
  if (components_->run_trusted != nullptr) {
    components_->run_trusted(graph_, labels_);
  } else {
    components_->run(graph_, labels_);
  }
  // Stable counting sort of the vertices by label.
  const std::size_t vertices = base_.back();
  std::vector<std::uint32_t>& row_of_root = cursor_;
  row_of_root.assign(vertices, kNone);
  fresh_parent_.clear();
  fresh_.offsets.assign(1, 0);
  std::size_t cluster = 0;
  for (std::uint32_t v = 0; v < vertices; ++v) {
    while (v >= base_[cluster + 1]) ++cluster;
    if (labels_.labels[v] == v) {
      row_of_root[v] = static_cast<std::uint32_t>(fresh_parent_.size());
      fresh_parent_.push_back(influenced_[cluster]);
      fresh_.offsets.push_back(0);
    }
  }
  for (std::uint32_t v = 0; v < vertices; ++v) {
    ++fresh_.offsets[row_of_root[labels_.labels[v]] + 1];
  }
  for (std::size_t r = 0; r + 1 < fresh_.offsets.size(); ++r) {
    fresh_.offsets[r + 1] += fresh_.offsets[r];
  }
  fresh_.indices.resize(vertices);
  std::vector<std::uint32_t> next(fresh_.offsets.begin(),
                                  fresh_.offsets.end() - 1);
  cluster = 0;
  for (std::uint32_t v = 0; v < vertices; ++v) {
    while (v >= base_[cluster + 1]) ++cluster;
    const auto& members = slots[influenced_[cluster]].particles;
    fresh_.indices[next[row_of_root[labels_.labels[v]]]++] =
        members[v - base_[cluster]];
  }
}

void SerialSimulation::DeleteInfluenced() {
  auto& table = state_.clusters;
  inherited_.resize(table.slots.size());
  for (const std::uint32_t s : influenced_) {
    const Cluster& parent = table.slots[s];
    inherited_[s] = {parent.stiffness, parent.rotation, parent.translation};
    for (const std::uint32_t p : parent.particles) {
      belong_->Remove(p, s);
    }
    table.slots[s] = Cluster{};
    table.valid[s] = 0;
    free_slots_.push(s);
  }
  for (const std::uint32_t p : removed_) belong_->Clear(p);
}

void SerialSimulation::SearchMergeTargets(Csr& merges) {
  const auto& table = state_.clusters;
  reserved_.assign(table.slots.size(), 0);
  for (std::size_t s = 0; s < table.slots.size(); ++s) {
    reserved_[s] = static_cast<std::uint32_t>(table.slots[s].particles.size());
  }
  merges.offsets.assign(1, 0);
  merges.indices.clear();
  for (std::size_t c = 0; c < fresh_.rows(); ++c) {
    const auto members = fresh_.Row(c);
    const auto size = static_cast<std::uint32_t>(members.size());
    bool found = false;
    for (const std::uint32_t i : members) {
      topology_.ForEachIntactNeighbor(
          i, state_.node_is_particle, [&](std::uint32_t j) {
            if (found && !printed_) return;
            for (const std::uint32_t nc : belong_->Of(j)) {
              if (!table.valid[nc]) continue;
              if (std::uint64_t{reserved_[nc]} + size <
                  params_.max_cluster_size) {
                reserved_[nc] += size;
                merges.indices.push_back(nc);
                found = true;
                if (!printed_) return;
              }
            }
          });
      if (found && !printed_) break;
    }
    merges.offsets.push_back(static_cast<std::uint32_t>(merges.indices.size()));
  }
}

std::uint32_t SerialSimulation::Merge(const Csr& merges) {
  auto& table = state_.clusters;
  changed_.clear();
  std::uint32_t merged = 0;
  for (std::size_t c = 0; c < fresh_.rows(); ++c) {
    if (merges.RowSize(c) == 0) continue;
    ++merged;
    for (const std::uint32_t nc : merges.Row(c)) {
      auto& target = table.slots[nc].particles;
      ++stamp_value_;
      for (const std::uint32_t p : target) stamp_[p] = stamp_value_;
      for (const std::uint32_t p : fresh_.Row(c)) {
        if (stamp_[p] == stamp_value_) continue;
        stamp_[p] = stamp_value_;
        target.push_back(p);
        belong_->Add(p, nc);
      }
      changed_.push_back(nc);
    }
  }
  std::sort(changed_.begin(), changed_.end());
  changed_.erase(std::unique(changed_.begin(), changed_.end()), changed_.end());
  for (const std::uint32_t nc : changed_) {
    table.slots[nc].rest_local = RestLocal(state_, table.slots[nc].particles);
  }
  return merged;
}

void SerialSimulation::InsertUnmerged(const Csr& merges) {
  auto& table = state_.clusters;
  inserted_.clear();
  for (std::size_t c = 0; c < fresh_.rows(); ++c) {
    if (merges.RowSize(c) != 0) continue;
    std::uint32_t slot;
    if (!free_slots_.empty()) {
      slot = free_slots_.top();
      free_slots_.pop();
    } else {
      slot = static_cast<std::uint32_t>(table.slots.size());
      table.slots.emplace_back();
      table.valid.push_back(0);
    }
    if (table.valid[slot]) throw std::logic_error("a live slot was free");
    Cluster cluster;
    const auto members = fresh_.Row(c);
    cluster.particles.assign(members.begin(), members.end());
    cluster.rest_local = RestLocal(state_, cluster.particles);
    const Inherited& from = inherited_[fresh_parent_[c]];
    cluster.stiffness = from.stiffness;
    cluster.rotation = from.rotation;
    cluster.translation = from.translation;
    for (const std::uint32_t p : members) belong_->Add(p, slot);
    table.slots[slot] = std::move(cluster);
    table.valid[slot] = 1;
    inserted_.push_back(slot);
  }
}

std::uint32_t SerialSimulation::Expand() {
  auto& table = state_.clusters;
  std::uint32_t expanded = 0;
  for (const std::uint32_t slot : inserted_) {
    auto& members = table.slots[slot].particles;
    if (members.size() >= params_.min_cluster_size) continue;
    const std::size_t before = members.size();
    ++stamp_value_;
    for (const std::uint32_t p : members) stamp_[p] = stamp_value_;
    if (params_.expansion == Expansion::kBreadthFirst) {
      for (std::size_t head = 0;
           head < members.size() && members.size() < params_.min_cluster_size;
           ++head) {
        topology_.ForEachIntactNeighbor(
            members[head], state_.node_is_particle, [&](std::uint32_t q) {
              if (stamp_[q] == stamp_value_ ||
                  members.size() >= params_.min_cluster_size) {
                return;
              }
              stamp_[q] = stamp_value_;
              members.push_back(q);
            });
      }
    } else {
      detail::SplitMix64 random(
          ExpansionSeed(params_.seed, state_.frame, slot));
      candidates_.assign(members.begin(), members.end());
      while (members.size() < params_.min_cluster_size &&
             !candidates_.empty()) {
        const std::size_t k = random.Next() % candidates_.size();
        free_neighbors_.clear();
        topology_.ForEachIntactNeighbor(candidates_[k], state_.node_is_particle,
                                        [&](std::uint32_t q) {
                                          if (stamp_[q] != stamp_value_)
                                            free_neighbors_.push_back(q);
                                        });
        if (free_neighbors_.empty()) {
          candidates_[k] = candidates_.back();
          candidates_.pop_back();
          continue;
        }
        const std::uint32_t q =
            free_neighbors_[random.Next() % free_neighbors_.size()];
        stamp_[q] = stamp_value_;
        members.push_back(q);
        candidates_.push_back(q);
      }
    }
    if (members.size() == before) continue;
    ++expanded;
    for (std::size_t k = before; k < members.size(); ++k) {
      belong_->Add(members[k], slot);
    }
    table.slots[slot].rest_local = RestLocal(state_, members);
  }
  return expanded;
}

}  // namespace detail

std::unique_ptr<Simulation> StartSerial(const State& initial,
                                        const Params& params) {
  Check(initial, params);
  return std::make_unique<detail::SerialSimulation>(initial, params, false);
}

std::unique_ptr<Simulation> StartSerialPrinted(const State& initial,
                                               const Params& params) {
  Check(initial, params);
  return std::make_unique<detail::SerialSimulation>(initial, params, true);
}

}  // namespace adj::fracture
