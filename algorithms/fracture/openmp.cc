#include <omp.h>

#include <atomic>
#include <memory>
#include <vector>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/compaction/compaction.h"
#include "algorithms/connected_components/connected_components.h"
#include "algorithms/fracture/openmp_simulation.h"
#include "algorithms/fracture/variants.h"
#include "algorithms/hash_set/hash_set.h"

namespace adj::fracture {
namespace detail {

OpenMpSimulation::OpenMpSimulation(const State& initial, const Params& params)
    : SerialSimulation(initial, params, false) {
  components_ = FindVariant(connected_components::Variants(), "ecl_cc_openmp");
}

void OpenMpSimulation::DetectDamage(const Points& positions) {
  const float limit = params_.damage_distance * params_.damage_distance;
  const auto particles = static_cast<std::int64_t>(state_.Particles());
  mask_.assign(state_.Particles(), 0);
  ExceptionTrap trap;
#pragma omp parallel for schedule(static)
  for (std::int64_t p = 0; p < particles; ++p) {
    trap.Run([&] {
      fault::Point("fracture.openmp.damage");
      mask_[p] = Damaged(static_cast<std::uint32_t>(p), positions, limit);
    });
  }
  trap.Rethrow();
  removed_.clear();
  for (std::uint32_t p = 0; p < state_.Particles(); ++p) {
    if (mask_[p]) removed_.push_back(p);
  }
}

void OpenMpSimulation::RemoveParticles() {
  const auto set =
      FindVariant(hash_set::Variants(), "lock_free")->run(removed_.size());
  set->InsertAll(removed_);
  const auto* compact = FindVariant(compaction::Variants(), "serial");
  const auto clusters = static_cast<std::int64_t>(influenced_.size());
  ExceptionTrap trap;
#pragma omp parallel
  {
    std::vector<std::uint8_t> flags;
#pragma omp for schedule(dynamic)
    for (std::int64_t i = 0; i < clusters; ++i) {
      trap.Run([&] {
        fault::Point("fracture.openmp.remove");
        auto& members = state_.clusters.slots[influenced_[i]].particles;
        flags.resize(members.size());
        for (std::size_t k = 0; k < members.size(); ++k) {
          flags[k] = set->Contains(members[k]);
        }
        members.resize(compact->run(members, flags, members));
      });
    }
  }
  trap.Rethrow();
}

void OpenMpSimulation::BuildGraph() {
  const auto& slots = state_.clusters.slots;
  base_.assign(1, 0);
  for (const std::uint32_t s : influenced_) {
    base_.push_back(base_.back() +
                    static_cast<std::uint32_t>(slots[s].particles.size()));
  }
  const std::size_t vertices = base_.back();
  graph_.offsets.assign(vertices + 1, 0);
  const auto clusters = static_cast<std::int64_t>(influenced_.size());
  scratch_.resize(static_cast<std::size_t>(omp_get_max_threads()));
  for (auto& local : scratch_) local.assign(state_.Particles(), kNone);
  for (int pass = 0; pass < 2; ++pass) {
    ExceptionTrap trap;
#pragma omp parallel
    {
      auto& local = scratch_[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic)
      for (std::int64_t i = 0; i < clusters; ++i) {
        trap.Run([&] {
          fault::Point("fracture.openmp.graph");
          const auto& members = slots[influenced_[i]].particles;
          for (std::uint32_t k = 0; k < members.size(); ++k) {
            local[members[k]] = k;
          }
          for (std::uint32_t k = 0; k < members.size(); ++k) {
            const std::uint32_t v = base_[i] + k;
            std::uint32_t at = pass == 0 ? 0 : graph_.offsets[v];
            topology_.ForEachIntactNeighbor(
                members[k], state_.node_is_particle, [&](std::uint32_t q) {
                  if (local[q] == kNone) return;
                  if (pass == 1) graph_.indices[at] = base_[i] + local[q];
                  ++at;
                });
            if (pass == 0) graph_.offsets[v + 1] = at;
          }
          for (const std::uint32_t p : members) local[p] = kNone;
        });
      }
    }
    trap.Rethrow();
    if (pass == 0) {
      for (std::size_t v = 0; v < vertices; ++v) {
        graph_.offsets[v + 1] += graph_.offsets[v];
      }
      graph_.indices.resize(graph_.offsets[vertices]);
    }
  }
}

void OpenMpSimulation::SearchMergeTargets(Csr& merges) {
  const auto& table = state_.clusters;
  reserved_.assign(table.slots.size(), 0);
  for (std::size_t s = 0; s < table.slots.size(); ++s) {
    reserved_[s] = static_cast<std::uint32_t>(table.slots[s].particles.size());
  }
  const std::size_t count = fresh_.rows();
  lock_.assign(count, 0);
  searched_.assign(count, 0);
  target_.assign(count, kNone);
  row_of_.resize(fresh_.entries());
  for (std::size_t c = 0; c < count; ++c) {
    for (std::uint32_t e = fresh_.offsets[c]; e < fresh_.offsets[c + 1]; ++e) {
      row_of_[e] = static_cast<std::uint32_t>(c);
    }
  }
  const std::uint32_t max = params_.max_cluster_size;
  const auto items = static_cast<std::int64_t>(fresh_.entries());
  ExceptionTrap trap;
#pragma omp parallel for schedule(dynamic, 16)
  for (std::int64_t e = 0; e < items; ++e) {
    trap.Run([&] {
      fault::Point("fracture.openmp.merge");
      const std::uint32_t c = row_of_[e];
      std::atomic_ref<std::uint8_t> searched(searched_[c]);
      if (searched.load(std::memory_order_relaxed)) return;
      const auto size = static_cast<std::uint32_t>(fresh_.RowSize(c));
      topology_.ForEachIntactNeighbor(
          fresh_.indices[e], state_.node_is_particle, [&](std::uint32_t j) {
            for (const std::uint32_t nc : belong_->Of(j)) {
              if (searched.load(std::memory_order_relaxed)) return;
              if (!table.valid[nc]) continue;
              Try(c, nc, size, max);
            }
          });
    });
  }
  trap.Rethrow();
  merges.offsets.assign(1, 0);
  merges.indices.clear();
  for (std::size_t c = 0; c < count; ++c) {
    if (target_[c] != kNone) merges.indices.push_back(target_[c]);
    merges.offsets.push_back(static_cast<std::uint32_t>(merges.indices.size()));
  }
}

void OpenMpSimulation::Try(std::uint32_t c, std::uint32_t nc,
                           std::uint32_t size, std::uint32_t max) {
  std::atomic_ref<std::uint8_t> searched(searched_[c]);
  std::atomic_ref<std::uint32_t> lock(lock_[c]);
  std::atomic_ref<std::uint32_t> reserved(reserved_[nc]);
  while (true) {
    if (searched.load(std::memory_order_relaxed)) return;
    std::uint32_t old = reserved.load(std::memory_order_relaxed);
    const std::uint64_t grown = std::uint64_t{old} + size;
    if (grown >= max) return;
    while (true) {
      if (searched.load(std::memory_order_relaxed)) return;
      std::uint32_t unlocked = 0;
      if (lock.compare_exchange_strong(unlocked, 1,
                                       std::memory_order_acquire)) {
        if (reserved.compare_exchange_strong(old,
                                             static_cast<std::uint32_t>(grown),
                                             std::memory_order_relaxed)) {
          target_[c] = nc;
          searched.store(1, std::memory_order_relaxed);
        }
        lock.store(0, std::memory_order_release);
        break;
      }
    }
  }
}

}  // namespace detail

std::unique_ptr<Simulation> StartOpenMp(const State& initial,
                                        const Params& params) {
  Check(initial, params);
  return std::make_unique<detail::OpenMpSimulation>(initial, params);
}

}  // namespace adj::fracture
