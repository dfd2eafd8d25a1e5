#pragma once

// The update with stages 1, 2, 4, 5 and 7 on OpenMP threads (openmp.cc);
// the data-parallel variant reuses its first stages. Internal to the
// family.

#include <cstdint>
#include <vector>

#include "algorithms/fracture/serial_simulation.h"

namespace adj::fracture::detail {

// Deleting, merging, inserting and expanding stay serial, as published (the
// belong lists are not thread-safe). The merge search is the published
// concurrent protocol, so which target a new cluster takes depends on the
// schedule; with one thread it is the serial search.
class OpenMpSimulation : public SerialSimulation {
 public:
  OpenMpSimulation(const State& initial, const Params& params);

 protected:
  void DetectDamage(const Points& positions) override;
  void RemoveParticles() override;
  // Rows counted, then filled, per cluster on any thread; each thread marks
  // the members of its cluster in a particle-indexed array of its own.
  void BuildGraph() override;
  // The published protocol (docs/sources/cutting-simulation-update.md, step 7):
  // work items are the (new cluster, particle) pairs, so two particles of one
  // cluster search at once; a lock per new cluster, then a compare-and-swap on
  // the target's reserved size, and a searched flag that ends the cluster's
  // other items. The published flags are plain memory; here they are
  // relaxed atomics (the same protocol without a data race), the lock
  // acquire and release.
  void SearchMergeTargets(Csr& merges) override;

 private:
  void Try(std::uint32_t c, std::uint32_t nc, std::uint32_t size,
           std::uint32_t max);

  std::vector<std::uint8_t> mask_;
  std::vector<std::vector<std::uint32_t>> scratch_;
  std::vector<std::uint32_t> lock_;
  std::vector<std::uint8_t> searched_;
  std::vector<std::uint32_t> target_;
  std::vector<std::uint32_t> row_of_;
};

}  // namespace adj::fracture::detail
