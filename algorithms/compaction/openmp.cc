// Ours: count, scan, scatter, one pass over memory.
//   - Out of place: the items are cut into chunks, dealt to the threads in
//     turn. A thread counts a chunk's kept items (its flags, a quarter of
//     its values' bytes, stay cached), waits until the chunk before it has
//     published where its output ends, publishes where this chunk's ends,
//     and compacts the chunk there with the simd kernel. Values and flags
//     are read from memory once and out is written once; the wait is short
//     because a chunk publishes before it compacts. Why chained, and the
//     chunk size: docs/compaction.md#decisions-and-dead-ends.
//   - In place: a thread's destination may be a slice another thread has
//     not read yet, so each thread first compacts its slice where it lies,
//     then the kept runs move down in slice order (memmove; each run's
//     destination ends at or before its source, and earlier runs are placed
//     first).
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/compaction/compact_kernel.h"
#include "algorithms/compaction/compaction.h"
#include "algorithms/compaction/variants.h"

namespace adj::compaction {
namespace {

// Below this many items per thread the fork and barrier cost more than
// the slice saves.
constexpr std::size_t kMinItemsPerThread = std::size_t{1} << 16;
// Flags of a chunk (a byte per item) stay in L2 between its count and its
// compaction; 512 chunks at 2^26 items, each costing one
// published word.
constexpr std::size_t kChunkItems = std::size_t{1} << 17;
// Polls of a predecessor's published end before each yield: a predecessor
// normally publishes within one chunk's count, but a thread descheduled by
// an oversubscribed machine must get its core back.
constexpr int kSpinsBeforeYield = 1 << 10;

// Out of place, chained: chunk c's output starts where chunk c - 1's ends.
// ends[c] holds that end plus one once published (0: not yet).
std::size_t ChainedCompact(const std::uint32_t* values,
                           const std::uint8_t* flags, std::size_t n,
                           std::uint32_t* out, int threads,
                           std::size_t chunk_items) {
  const std::size_t chunks = (n + chunk_items - 1) / chunk_items;
  const bool streaming = n >= detail::kStreamingMinItems;
  const auto ends = std::make_unique<std::atomic<std::size_t>[]>(chunks);
  for (std::size_t c = 0; c < chunks; ++c) {
    ends[c].store(0, std::memory_order_relaxed);
  }
  // A chunk waits for its predecessor's end: a thread whose chunk failed
  // never publishes it, so the waits give up once the trap holds a failure.
  ExceptionTrap trap;
#pragma omp parallel num_threads(threads)
  {
    const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
    for (std::size_t c = static_cast<std::size_t>(omp_get_thread_num());
         c < chunks; c += team) {
      trap.Run([&] {
        fault::Point("compaction.openmp.chained");
        const std::size_t b = c * chunk_items;
        const std::size_t size = std::min(n, b + chunk_items) - b;
        const std::size_t kept = detail::CountKeptKernel(flags + b, size);
        std::size_t begin = 0;
        if (c > 0) {
          int spins = 0;
          while ((begin = ends[c - 1].load(std::memory_order_acquire)) == 0) {
            if (trap.Failed()) return;
            if (++spins == kSpinsBeforeYield) {
              spins = 0;
              std::this_thread::yield();
            }
          }
          --begin;
        }
        ends[c].store(begin + kept + 1, std::memory_order_release);
        if (streaming) {
          detail::CompactStreamingKernel(values + b, flags + b, size,
                                         out + begin);
        } else {
          // Room = what this chunk keeps: the next chunk's output starts
          // there.
          detail::CompactKernel(values + b, flags + b, size, out + begin, kept);
        }
      });
    }
  }
  trap.Rethrow();
  return ends[chunks - 1].load(std::memory_order_relaxed) - 1;
}

// Out of place a thread takes whole chunks, so a thread past the chunk
// count would be forked to do nothing (2^17 items on 2 threads: one chunk).
int ForkedThreads(std::size_t n, bool in_place,
                  std::size_t min_items_per_thread, std::size_t chunk_items) {
  std::size_t most = static_cast<std::size_t>(omp_get_max_threads());
  if (!in_place) most = std::min(most, (n + chunk_items - 1) / chunk_items);
  return static_cast<int>(std::clamp<std::size_t>(
      n / std::max<std::size_t>(min_items_per_thread, 1), 1,
      std::max<std::size_t>(most, 1)));
}

}  // namespace

int OpenMpCompactThreads(std::size_t n, bool in_place) {
  return ForkedThreads(n, in_place, kMinItemsPerThread, kChunkItems);
}

std::size_t OpenMpCompactTuned(std::span<const std::uint32_t> values,
                               std::span<const std::uint8_t> flags,
                               std::span<std::uint32_t> out,
                               std::size_t min_items_per_thread,
                               std::size_t chunk_items) {
  Check(values, flags, out);
  const std::size_t n = values.size();
  const bool in_place = values.data() == out.data();
  chunk_items = std::max<std::size_t>(chunk_items, 1);
  const int threads =
      ForkedThreads(n, in_place, min_items_per_thread, chunk_items);
  if (threads == 1) {
    return detail::CompactKernel(values.data(), flags.data(), n, out.data(), n);
  }
  if (!in_place) {
    return ChainedCompact(values.data(), flags.data(), n, out.data(), threads,
                          chunk_items);
  }
  std::vector<std::size_t> kept(static_cast<std::size_t>(threads), 0);
  std::vector<std::size_t> begin(static_cast<std::size_t>(threads), n);
  std::size_t total = 0;

  ExceptionTrap trap;
#pragma omp parallel num_threads(threads)
  {
    const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
    trap.Run([&] {
      fault::Point("compaction.openmp.in_place");
      const std::size_t b = n * t / team;
      const std::size_t e = n * (t + 1) / team;
      begin[t] = b;
      kept[t] = detail::CompactKernel(values.data() + b, flags.data() + b,
                                      e - b, out.data() + b, e - b);
    });
#pragma omp barrier
#pragma omp single
    trap.Run([&] {
      std::size_t destination = 0;
      for (std::size_t u = 0; u < team; ++u) {
        if (destination != begin[u] && kept[u] != 0) {
          std::memmove(out.data() + destination, out.data() + begin[u],
                       kept[u] * sizeof(std::uint32_t));
        }
        destination += kept[u];
      }
      total = destination;
    });
  }
  trap.Rethrow();
  return total;
}

std::size_t OpenMpCompact(std::span<const std::uint32_t> values,
                          std::span<const std::uint8_t> flags,
                          std::span<std::uint32_t> out) {
  return OpenMpCompactTuned(values, flags, out, kMinItemsPerThread,
                            kChunkItems);
}

}  // namespace adj::compaction
