#pragma once

// Internal to the family's peer rows: full lists with ascending rows (the
// contract's kFull, kAscending) from a library that answers one radius query
// per particle, queries threaded with OpenMP as a user would thread them.

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <vector>

#include "algorithms/common/memory_budget.h"
#include "algorithms/hash_grid/hash_grid.h"

namespace adj::hash_grid {

// Calls query(i, row) for every particle i, on omp_get_max_threads()
// threads, each over one contiguous block of particles; query appends to
// `row` the ids the library found within max_dist of i (self included or
// not, any order) and may throw. Each row is sorted, self dropped, and the
// blocks laid out as out's CSR. The lists are refused (ResourceError) once
// the entries found would pass the memory budget, before they are copied.
template <typename Query>
void FullListsFromQueries(std::size_t particles, const Query& query,
                          Neighbors& out) {
  const int threads = static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(omp_get_max_threads()),
                            std::max<std::size_t>(particles, 1)));
  std::vector<std::vector<std::uint32_t>> blocks(threads);
  std::vector<std::uint32_t> counts(particles);
  // The entries found so far by all threads, against the budget (found
  // once in the blocks, once more in the CSR).
  std::atomic<std::uint64_t> entries{0};
  const std::uint64_t entry_limit =
      memory::Budget() / (2 * sizeof(std::uint32_t));
  std::atomic<bool> over_budget{false};
  std::exception_ptr failure;
  // What the library returned, selves included: the candidates a peer
  // reports, a lower bound of the pairs it tested (it does not say more).
  std::vector<std::uint64_t> returned(threads);
#pragma omp parallel num_threads(threads)
  {
    const std::size_t thread = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t begin = particles * thread / threads;
    const std::size_t end = particles * (thread + 1) / threads;
    std::vector<std::uint32_t>& block = blocks[thread];
    std::vector<std::uint32_t> row;
    std::uint64_t returned_here = 0;
    try {
      for (std::size_t i = begin; i < end && !over_budget.load(); ++i) {
        row.clear();
        query(i, row);
        returned_here += row.size();
        std::erase(row, static_cast<std::uint32_t>(i));
        std::sort(row.begin(), row.end());
        counts[i] = static_cast<std::uint32_t>(row.size());
        if (entries.fetch_add(row.size()) + row.size() > entry_limit) {
          over_budget.store(true);
          break;
        }
        block.insert(block.end(), row.begin(), row.end());
      }
      returned[thread] = returned_here;
    } catch (...) {
#pragma omp critical(adj_hash_grid_peer_failure)
      if (!failure) failure = std::current_exception();
      over_budget.store(true);
    }
  }
  if (failure) std::rethrow_exception(failure);
  if (over_budget.load()) {
    memory::Require(memory::Bytes(entries.load(), 2 * sizeof(std::uint32_t)),
                    "hash_grid: the neighbour lists");
  }
  if (entries.load() > 0xffffffffu) {
    throw Error("hash_grid: more entries than 32-bit offsets address");
  }
  out.csr.offsets.resize(particles + 1);
  out.csr.offsets[0] = 0;
  for (std::size_t i = 0; i < particles; ++i) {
    out.csr.offsets[i + 1] = out.csr.offsets[i] + counts[i];
  }
  out.csr.indices.resize(out.csr.offsets[particles]);
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int thread = 0; thread < threads; ++thread) {
    const std::size_t begin = particles * thread / threads;
    std::copy(blocks[thread].begin(), blocks[thread].end(),
              out.csr.indices.begin() + out.csr.offsets[begin]);
  }
  out.list = ListKind::kFull;
  out.order = RowOrder::kAscending;
  out.candidates = 0;
  for (const std::uint64_t count : returned) out.candidates += count;
  out.threads = threads;
}

}  // namespace adj::hash_grid
