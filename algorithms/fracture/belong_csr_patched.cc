#include <omp.h>

#include <algorithm>
#include <vector>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/fracture/belong_lists.h"

namespace adj::fracture::detail {
namespace {

// A Csr patched at the end of every frame on OpenMP threads: Add and
// Remove only note the slot as touched; EndFrame keeps each row's
// untouched live slots, merges in the touched live slots that hold the
// particle now (from the table), and writes the result to a second buffer.
// Each row is a function of the table alone, so the lists do not depend on
// the thread count. Inside a frame it still lists the frame's first state.
class CsrPatched final : public BelongStore {
 public:
  explicit CsrPatched(std::size_t particles) : particles_(particles) {}

  void Build(const ClusterTable& table) override {
    RowsOfSlots(table, ValidSlots(table), particles_, offsets_, indices_,
                cursor_);
    touched_.assign(table.slots.size(), 0);
    touched_slots_.clear();
  }

  std::span<const std::uint32_t> Of(std::uint32_t particle) const override {
    return {indices_.data() + offsets_[particle],
            offsets_[particle + 1] - offsets_[particle]};
  }

  void Add(std::uint32_t, std::uint32_t slot) override { Touch(slot); }
  void Remove(std::uint32_t, std::uint32_t slot) override { Touch(slot); }
  void Clear(std::uint32_t particle) override {
    for (const std::uint32_t slot : Of(particle)) Touch(slot);
  }

  void EndFrame(const ClusterTable& table) override {
    if (touched_slots_.empty()) return;
    touched_.resize(table.slots.size(), 0);
    std::sort(touched_slots_.begin(), touched_slots_.end());
    // The touched live slots' members, as rows per particle.
    live_touched_.clear();
    for (const std::uint32_t s : touched_slots_) {
      if (table.valid[s]) live_touched_.push_back(s);
    }
    RowsOfSlots(table, live_touched_, particles_, added_offsets_, added_,
                cursor_);
    const auto kept = [&](std::uint32_t s) {
      return s < table.valid.size() && table.valid[s] && !touched_[s];
    };
    const auto particles = static_cast<std::int64_t>(particles_);
    next_offsets_.assign(particles_ + 1, 0);
    ExceptionTrap count_trap;
#pragma omp parallel for schedule(static)
    for (std::int64_t p = 0; p < particles; ++p) {
      count_trap.Run([&] {
        fault::Point("fracture.belong_csr_patched.count");
        std::uint32_t count = added_offsets_[p + 1] - added_offsets_[p];
        for (std::uint32_t e = offsets_[p]; e < offsets_[p + 1]; ++e) {
          count += kept(indices_[e]);
        }
        next_offsets_[p + 1] = count;
      });
    }
    count_trap.Rethrow();
    for (std::size_t p = 0; p < particles_; ++p) {
      next_offsets_[p + 1] += next_offsets_[p];
    }
    next_indices_.resize(next_offsets_[particles_]);
    ExceptionTrap fill_trap;
#pragma omp parallel for schedule(static)
    for (std::int64_t p = 0; p < particles; ++p) {
      fill_trap.Run([&] {
        fault::Point("fracture.belong_csr_patched.fill");
        std::uint32_t out = next_offsets_[p];
        std::uint32_t a = added_offsets_[p];
        const std::uint32_t a_end = added_offsets_[p + 1];
        for (std::uint32_t e = offsets_[p]; e < offsets_[p + 1]; ++e) {
          const std::uint32_t s = indices_[e];
          if (!kept(s)) continue;
          while (a < a_end && added_[a] < s) {
            next_indices_[out++] = added_[a++];
          }
          next_indices_[out++] = s;
        }
        while (a < a_end) next_indices_[out++] = added_[a++];
      });
    }
    fill_trap.Rethrow();
    offsets_.swap(next_offsets_);
    indices_.swap(next_indices_);
    for (const std::uint32_t s : touched_slots_) touched_[s] = 0;
    touched_slots_.clear();
  }

  std::size_t Bytes() const override {
    return (offsets_.capacity() + indices_.capacity() +
            next_offsets_.capacity() + next_indices_.capacity() +
            added_offsets_.capacity() + added_.capacity() + cursor_.capacity() +
            touched_slots_.capacity()) *
               sizeof(std::uint32_t) +
           touched_.capacity();
  }

 private:
  void Touch(std::uint32_t slot) {
    if (slot >= touched_.size()) touched_.resize(slot + 1, 0);
    if (!touched_[slot]) {
      touched_[slot] = 1;
      touched_slots_.push_back(slot);
    }
  }

  std::size_t particles_;
  std::vector<std::uint32_t> offsets_;
  std::vector<std::uint32_t> indices_;
  std::vector<std::uint32_t> next_offsets_;
  std::vector<std::uint32_t> next_indices_;
  std::vector<std::uint32_t> added_offsets_;
  std::vector<std::uint32_t> added_;
  std::vector<std::uint32_t> cursor_;
  std::vector<std::uint8_t> touched_;
  std::vector<std::uint32_t> touched_slots_;
  std::vector<std::uint32_t> live_touched_;
};

}  // namespace

std::unique_ptr<BelongStore> MakeCsrPatched(std::size_t particles) {
  return std::make_unique<CsrPatched>(particles);
}

}  // namespace adj::fracture::detail
