#include <omp.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/fracture/belong_lists.h"
#include "algorithms/fracture/openmp_simulation.h"
#include "algorithms/fracture/variants.h"

namespace adj::fracture {
namespace {

// The openmp variant's parallel stages with a merge search whose outcome
// is a function of the state alone (rounds of proposals, see
// SearchMergeTargets) and belong lists kept as a Csr patched in parallel,
// so that every thread count gives the same frames.
class DataParallelSimulation final : public detail::OpenMpSimulation {
 public:
  DataParallelSimulation(const State& initial, const Params& params)
      : OpenMpSimulation(initial, params) {
    belong_ = detail::MakeCsrPatched(initial.Particles());
    belong_->Build(state_.clusters);
  }

 protected:
  // Rounds until no new cluster proposes. In a round every unsettled new
  // cluster walks the serial search order (from the member where its last
  // walk stopped: reserved sizes only grow, so nothing before it fits
  // again) and proposes to the first fit on the round's reserved sizes, or
  // settles unmerged; then each target takes its proposers in ascending
  // order, each one that still fits, and the others propose again. The
  // walks run in parallel; the acceptance is a pass over the proposals
  // sorted by (target, cluster).
  void SearchMergeTargets(Csr& merges) override {
    const auto& table = state_.clusters;
    reserved_.assign(table.slots.size(), 0);
    for (std::size_t s = 0; s < table.slots.size(); ++s) {
      reserved_[s] =
          static_cast<std::uint32_t>(table.slots[s].particles.size());
    }
    const std::size_t count = fresh_.rows();
    target_.assign(count, kNone);
    resume_.assign(count, 0);
    proposal_.assign(count, kNone);
    active_.resize(count);
    for (std::size_t c = 0; c < count; ++c) {
      active_[c] = static_cast<std::uint32_t>(c);
    }
    const std::uint32_t max = params_.max_cluster_size;
    while (!active_.empty()) {
      const auto walks = static_cast<std::int64_t>(active_.size());
      ExceptionTrap trap;
#pragma omp parallel for schedule(dynamic, 1)
      for (std::int64_t a = 0; a < walks; ++a) {
        trap.Run([&] {
          fault::Point("fracture.data_parallel.propose");
          Propose(active_[a], max);
        });
      }
      trap.Rethrow();
      offers_.clear();
      for (const std::uint32_t c : active_) {
        if (proposal_[c] != kNone) offers_.emplace_back(proposal_[c], c);
      }
      std::sort(offers_.begin(), offers_.end());
      active_.clear();
      for (const auto& [nc, c] : offers_) {
        const auto size = static_cast<std::uint32_t>(fresh_.RowSize(c));
        if (std::uint64_t{reserved_[nc]} + size < max) {
          reserved_[nc] += size;
          target_[c] = nc;
        } else {
          active_.push_back(c);
        }
      }
      std::sort(active_.begin(), active_.end());
    }
    merges.offsets.assign(1, 0);
    merges.indices.clear();
    for (std::size_t c = 0; c < count; ++c) {
      if (target_[c] != kNone) merges.indices.push_back(target_[c]);
      merges.offsets.push_back(
          static_cast<std::uint32_t>(merges.indices.size()));
    }
  }

 private:
  void Propose(std::uint32_t c, std::uint32_t max) {
    const auto& table = state_.clusters;
    const auto members = fresh_.Row(c);
    const auto size = static_cast<std::uint32_t>(members.size());
    proposal_[c] = kNone;
    for (std::uint32_t k = resume_[c]; k < members.size(); ++k) {
      topology_.ForEachIntactNeighbor(
          members[k], state_.node_is_particle, [&](std::uint32_t j) {
            if (proposal_[c] != kNone) return;
            for (const std::uint32_t nc : belong_->Of(j)) {
              if (table.valid[nc] &&
                  std::uint64_t{reserved_[nc]} + size < max) {
                proposal_[c] = nc;
                return;
              }
            }
          });
      if (proposal_[c] != kNone) {
        resume_[c] = k;
        return;
      }
    }
  }

  std::vector<std::uint32_t> target_;
  std::vector<std::uint32_t> resume_;
  std::vector<std::uint32_t> proposal_;
  std::vector<std::uint32_t> active_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> offers_;
};

}  // namespace

std::unique_ptr<Simulation> StartDataParallel(const State& initial,
                                              const Params& params) {
  Check(initial, params);
  return std::make_unique<DataParallelSimulation>(initial, params);
}

}  // namespace adj::fracture
