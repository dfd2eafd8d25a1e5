// Ours: NvCloth's count / scan / decrementing fill, split over threads by
// contiguous triangle slices. Each thread counts its slice into a private
// array (no atomics, no false sharing), the counts become per-thread fill
// cursors, and each thread fills its own slots. Because thread t's slice
// holds smaller triangle ids than thread t + 1's, placing the later slices
// first in each row reproduces NvCloth's descending rows exactly, for any
// thread count.
//
// What makes it fast on meshes stored with locality (generator order, the
// vertex order of a modelling tool), where each slice touches a narrow
// window of particles and consecutive windows barely overlap:
//   - the private count arrays stay zero between calls, so a thread clears
//     only the window it touched, not all n particles;
//   - when the windows are ordered (each overlaps at most its neighbours),
//     thread t scans its own particle range right after the count barrier:
//     its starting offset is 3 x (triangles before its slice) minus what its
//     predecessor counted inside t's window, so no pass over all particles
//     and no exchange of partial sums is needed;
//   - the count pass (count_kernel.cc, compiled by Highway for the CPU at
//     hand: its vector min / max took a third of the pass as baseline
//     x86-64 code) range-checks 16 triangles at a time, then counts with
//     plain increments, and the fill decrements as NvCloth's does.
// Where corners are scattered (a shuffled mesh, or a subdivided one, whose
// new vertices are numbered far from their parents'), judged per slice from
// 32 sampled blocks, every count and fill store would miss the cache. There
// the count also keeps each entry's rank within its thread's part of the
// row (a byte, three packed in a word per triangle), so the fill knows
// every slot ahead (cursor[p] - 1 - rank, no decrement) and prefetches it,
// as the count prefetches its counters, 64 triangles ahead. CGAL's
// armadillo subdivided to 3.3M triangles went from 1.5x to 2.2x nvcloth's
// speed (2 threads). On a mesh with locality the ranks cost more in the
// count than they save in the fill (2M-triangle grid: 4.0 -> 3.8 ms without
// them), except where the output and the triangles alias in the page
// (PageAliased). A particle in more than 256 triangles of one slice
// overflows its byte, and the fill then decrements instead.
// Meshes whose slices' windows are not ordered take a general merge over
// every thread's counts, still exact.
#include <hwy/cache_control.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "algorithms/triangle_adjacency/count_kernel.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"

namespace adj::triangle_adjacency {
namespace {

// Below this many triangles per thread the fork, the barriers, and the cache
// lines both threads write (rows hold one segment per thread) cost more than
// they save: with 2^14, CGAL's bunny00 (75k triangles, rows of scattered
// particles) built at 0.49x nvcloth's speed on 2 vCPUs.
constexpr std::size_t kMinTrianglesPerThread = std::size_t{1} << 16;
using detail::kNoError;
// How far ahead the ranked fill prefetches its slots (and twice as far, the
// cursors that locate them). CGAL's armadillo subdivided to 3.3M triangles,
// 2 threads, 2-vCPU EPYC, same process (scratch): none 22 ms, 16 triangles
// 16, 32 15, 64 14.5, 128 13.5.
constexpr std::size_t kFillPrefetch = 64;
// A slice counts as scattered when more than 1 / kScatteredShare of
// kSampledBlocks blocks spread over it span more than kScatteredSpan
// particles (count_kernel.h).
constexpr std::size_t kSampledBlocks = 32;
constexpr std::size_t kScatteredShare = 4;
// Triangles and output closer than this to the same offset in a 4 KiB page
// count as aliased (see PageAliased): the benchmark measured NvCloth's fill
// slowed 2x at 0 bytes and not at 48 bytes or more.
constexpr std::uintptr_t kAliasWindow = 256;

// Per-thread counts, all zero between calls (each call clears what it
// touched), kept so that a frame-by-frame rebuild neither faults in fresh
// pages nor clears n entries per thread.
std::vector<std::uint32_t>& Workspace() {
  thread_local std::vector<std::uint32_t> workspace;
  return workspace;
}

// Each entry's rank within its particle's part of its thread's slice (how
// many earlier triangles of the slice share that corner), as the count pass
// saw it, one byte per corner packed into a word per triangle: with it the
// fill needs no decrement. Kept on scattered slices only (see the top).
std::vector<std::uint32_t>& Ranks() {
  thread_local std::vector<std::uint32_t> ranks;
  return ranks;
}

// The particles a thread's slice touched: [low, high), empty when low >= high.
struct Window {
  std::size_t low = std::numeric_limits<std::size_t>::max();
  std::size_t high = 0;
};

// True when every window starts no earlier than the one before and ends no
// later than the start of the one after next, so each particle is counted by
// at most two consecutive threads.
bool WindowsAreOrdered(std::span<const Window> windows) {
  for (std::size_t t = 1; t < windows.size(); ++t) {
    if (windows[t].low < windows[t - 1].low) return false;
    if (t >= 2 && windows[t - 2].high > windows[t].low) return false;
  }
  return true;
}

// Whether triangles [begin, end) lack locality, judged from kSampledBlocks
// blocks of kCheckBlock triangles spread over them. Reads corners only as
// numbers, so out-of-range ones are harmless here.
bool LooksScattered(const Triangle* triangles, std::size_t begin,
                    std::size_t end) {
  const std::size_t count = end - begin;
  if (count < kSampledBlocks * detail::kCheckBlock) return false;
  std::size_t scattered = 0;
  for (std::size_t sample = 0; sample < kSampledBlocks; ++sample) {
    const std::size_t first = begin + count * sample / kSampledBlocks;
    std::uint32_t low = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t high = 0;
    for (std::size_t t = first; t < first + detail::kCheckBlock; ++t) {
      for (const std::uint32_t p : triangles[t]) {
        low = std::min(low, p);
        high = std::max(high, p);
      }
    }
    if (high - low > detail::kScatteredSpan) ++scattered;
  }
  return scattered * kScatteredShare > kSampledBlocks;
}

// A build reads triangle t at 12 t bytes and, on a mesh with locality,
// writes its entries near 12 t bytes of the output. When both arrays start
// at nearly the same offset in a 4 KiB page, the decrementing fill's loads
// wait on stores they only seem to depend on (4K aliasing), as NvCloth's
// do; the ranked fill gives each store its address early and avoids that
// (2M-triangle grid aliased, 2 threads: 8.8 ms decrementing, 6.6 ranked).
bool PageAliased(const Triangle* triangles, const std::uint32_t* indices) {
  constexpr std::uintptr_t kPage = 4096;
  const std::uintptr_t gap = (reinterpret_cast<std::uintptr_t>(indices) -
                              reinterpret_cast<std::uintptr_t>(triangles)) %
                             kPage;
  return gap < kAliasWindow || gap > kPage - kAliasWindow;
}

}  // namespace

void OpenMpBuildTuned(std::span<const Triangle> triangles,
                      std::size_t particle_count, Adjacency& out,
                      std::size_t min_triangles_per_thread) {
  CheckEntryCount(triangles.size());
  const std::size_t triangle_count = triangles.size();
  const int threads = static_cast<int>(std::clamp<std::size_t>(
      triangle_count / std::max<std::size_t>(min_triangles_per_thread, 1), 1,
      static_cast<std::size_t>(omp_get_max_threads())));
  if (threads == 1) {
    NvClothBuild(triangles, particle_count, out);
    return;
  }
  const std::size_t n = particle_count;
  std::vector<std::uint32_t>& counts = Workspace();
  if (counts.size() < n * static_cast<std::size_t>(threads)) {
    counts.resize(n * static_cast<std::size_t>(threads));  // new entries are 0
  }
  std::vector<std::uint32_t>& ranks = Ranks();
  if (ranks.size() < triangle_count) ranks.resize(triangle_count);
  std::uint32_t* rank = ranks.data();
  out.csr.offsets.resize(n + 1);
  out.csr.indices.resize(3 * triangle_count);
  std::uint32_t* offsets = out.csr.offsets.data();
  std::uint32_t* indices = out.csr.indices.data();
  std::vector<std::size_t> first_bad(static_cast<std::size_t>(threads),
                                     kNoError);
  std::vector<Window> windows(static_cast<std::size_t>(threads));
  std::vector<std::uint32_t> range_sums(static_cast<std::size_t>(threads));
  std::vector<std::uint32_t> range_max(static_cast<std::size_t>(threads));
  bool failed = false;
  bool ordered = false;
  // Per thread, the largest count of one particle in one slice seen by its
  // scan: past 256 some rank did not fit its byte, and the fill then
  // decrements cursors as NvCloth does.
  std::vector<std::uint32_t> part_max(static_cast<std::size_t>(threads), 0);
  int team_size = threads;

#pragma omp parallel num_threads(threads)
  {
    const std::size_t thread = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t t_begin = triangle_count * thread / team;
    const std::size_t t_end = triangle_count * (thread + 1) / team;
    std::uint32_t* mine = counts.data() + thread * n;
    // Ranks pay off only where the fill's stores miss the cache: elsewhere
    // (the 2M-triangle grid, 2 threads) counting without them and filling
    // by decrements as NvCloth does is faster, 4.0 -> 3.8 ms.
    const bool ranked = LooksScattered(triangles.data(), t_begin, t_end) ||
                        PageAliased(triangles.data(), indices);
    const detail::SliceCount counted = detail::CountSliceKernel(
        triangles.data(), t_begin, t_end, n, mine, ranked ? rank : nullptr);
    // On an error the counts stay as they are: only the window is cleared.
    first_bad[thread] = counted.first_bad;
    const std::uint32_t low = counted.low;
    const std::uint32_t high = counted.high;
    Window& window = windows[thread];
    if (low <= high) window = {low, std::size_t{high} + 1};
#pragma omp barrier
#pragma omp single
    {
      team_size = static_cast<int>(team);
      failed = std::any_of(first_bad.begin(), first_bad.end(),
                           [](std::size_t bad) { return bad != kNoError; });
      ordered = WindowsAreOrdered({windows.data(), team});
    }  // implicit barrier
    // The particles this thread turns into offsets and cursors, and must
    // clear afterwards in its own array.
    std::size_t clear_begin = window.low;
    std::size_t clear_end = window.high;
    if (failed) {
      // Only the counts need clearing: nothing else was written.
    } else if (ordered) {
      // This thread's range [begin, end) ends where the next window starts;
      // inside it only the previous thread (below its window's end) and this
      // one counted.
      const std::size_t begin = thread == 0 ? 0 : window.low;
      const std::size_t end = thread + 1 == team ? n : windows[thread + 1].low;
      const std::size_t shared_end =
          thread == 0 ? begin : std::min(windows[thread - 1].high, end);
      std::uint32_t* previous =
          thread == 0 ? mine : counts.data() + (thread - 1) * n;
      // Every entry of the slices before this one lies below `begin`, except
      // what the previous thread counted inside [begin, shared_end).
      std::uint32_t running = static_cast<std::uint32_t>(3 * t_begin);
      for (std::size_t p = begin; p < shared_end; ++p) running -= previous[p];
      std::uint32_t longest = 0;
      std::uint32_t longest_part = 0;
      std::size_t p = begin;
      for (; p < shared_end; ++p) {
        offsets[p] = running;
        const std::uint32_t theirs = previous[p];
        const std::uint32_t ours = mine[p];
        running += theirs + ours;
        longest = std::max(longest, theirs + ours);
        longest_part = std::max({longest_part, theirs, ours});
        previous[p] = running;  // the earlier slice fills the row's end
        mine[p] = running - theirs;
      }
      for (; p < end; ++p) {
        offsets[p] = running;
        const std::uint32_t ours = mine[p];
        running += ours;
        longest_part = std::max(longest_part, ours);
        mine[p] = running;
      }
      // Outside the shared part a row is this slice's alone.
      range_max[thread] = std::max(longest, longest_part);
      part_max[thread] = longest_part;
      clear_begin = std::min(clear_begin, begin);
      clear_end = std::max(clear_end, end);
    } else {
      // General merge: row totals and this particle range's sum and maximum.
      const std::size_t p_begin = n * thread / team;
      const std::size_t p_end = n * (thread + 1) / team;
      std::uint32_t sum = 0;
      std::uint32_t longest = 0;
      std::uint32_t longest_part = 0;
      for (std::size_t p = p_begin; p < p_end; ++p) {
        std::uint32_t total = 0;
        for (std::size_t u = 0; u < team; ++u) {
          total += counts[u * n + p];
          longest_part = std::max(longest_part, counts[u * n + p]);
        }
        offsets[p] = total;
        sum += total;
        longest = std::max(longest, total);
      }
      range_sums[thread] = sum;
      range_max[thread] = longest;
      part_max[thread] = longest_part;
#pragma omp barrier
      std::uint32_t running = 0;
      for (std::size_t u = 0; u < thread; ++u) running += range_sums[u];
      for (std::size_t p = p_begin; p < p_end; ++p) {
        const std::uint32_t total = offsets[p];
        offsets[p] = running;
        // Thread u fills, decrementing, the slots just below the end of the
        // slices of threads < u: its cursor starts there.
        std::uint32_t cursor = running + total;
        for (std::size_t u = 0; u < team; ++u) {
          const std::uint32_t count = counts[u * n + p];
          counts[u * n + p] = cursor;
          cursor -= count;
        }
        running += total;
      }
      // Cursors went into every array over the whole range.
      clear_begin = 0;
      clear_end = n;
    }
    if (!failed) {
#pragma omp barrier
      const bool ranks_overflow =
          std::any_of(part_max.begin(), part_max.begin() + team,
                      [](std::uint32_t longest) { return longest > 256; });
      if (ranked && !ranks_overflow) {
        // mine[p] is where this thread's part of row p ends; the entry of
        // rank r goes r slots before it. No store waits on a decrement, and
        // every slot is known ahead, so it is prefetched: the cursors
        // 2 x kFillPrefetch triangles ahead, the slots kFillPrefetch ahead.
        const auto slot = [&](std::size_t t, int corner) {
          return mine[triangles[t][corner]] - 1 -
                 (rank[t] >> (8 * corner) & 0xff);
        };
        const auto fill = [&](std::size_t t) {
          const auto id = static_cast<std::uint32_t>(t);
          indices[slot(t, 0)] = id;
          indices[slot(t, 1)] = id;
          indices[slot(t, 2)] = id;
        };
        std::size_t t = t_begin;
        for (; t + 2 * kFillPrefetch < t_end; ++t) {
          const Triangle& far = triangles[t + 2 * kFillPrefetch];
          hwy::Prefetch(mine + far[0]);
          hwy::Prefetch(mine + far[1]);
          hwy::Prefetch(mine + far[2]);
          const std::size_t near = t + kFillPrefetch;
          hwy::Prefetch(indices + slot(near, 0));
          hwy::Prefetch(indices + slot(near, 1));
          hwy::Prefetch(indices + slot(near, 2));
          fill(t);
        }
        for (; t < t_end; ++t) fill(t);
      } else {
        // NvCloth's decrementing fill, on this thread's cursors.
        for (std::size_t t = t_begin; t < t_end; ++t) {
          const auto id = static_cast<std::uint32_t>(t);
          indices[--mine[triangles[t][0]]] = id;
          indices[--mine[triangles[t][1]]] = id;
          indices[--mine[triangles[t][2]]] = id;
        }
      }
#pragma omp barrier
    }
    if (clear_begin < clear_end) {
      if (ordered || failed) {
        std::fill(mine + clear_begin, mine + clear_end, 0u);
      } else {
        // The general merge wrote cursors into every array over every
        // thread's particle range: each thread clears its range in all.
        const std::size_t p_begin = n * thread / team;
        const std::size_t p_end = n * (thread + 1) / team;
        for (std::size_t u = 0; u < team; ++u) {
          std::fill(counts.data() + u * n + p_begin,
                    counts.data() + u * n + p_end, 0u);
        }
      }
    }
  }
  ThrowFirstIndexError(first_bad, triangles, n);
  offsets[n] = static_cast<std::uint32_t>(3 * triangle_count);
  out.max_adjacent = *std::max_element(range_max.begin(), range_max.end());
  out.order = RowOrder::kDescending;
  out.threads = team_size;
}

void OpenMpBuild(std::span<const Triangle> triangles,
                 std::size_t particle_count, Adjacency& out) {
  OpenMpBuildTuned(triangles, particle_count, out, kMinTrianglesPerThread);
}

}  // namespace adj::triangle_adjacency
