// Ours: NvCloth's count / scan / decrementing fill, split over threads by
// contiguous triangle slices. Each thread counts its slice into a private
// array (no atomics, no false sharing), the counts become per-thread fill
// cursors, and each thread fills its own slots. Because thread t's slice
// holds smaller triangle ids than thread t + 1's, placing the later slices
// first in each row reproduces NvCloth's descending rows exactly, for any
// thread count.
//
// The phases, each ended by a barrier:
//   - count: each thread counts its own slice, except on a scattered region
//     (and without ranks): there threads pair up, and the two of a pair
//     count chunks of their region from either end until they meet, so that
//     a region whose second half costs more (CGAL's armadillo subdivided:
//     new vertices numbered far from the old ones they join) still splits
//     evenly. The count pass
//     (count_kernel.cc, compiled by Highway for the CPU at hand: baseline
//     x86-64 has no unsigned 32-bit vector min / max)
//     range-checks 16 triangles at a time and records the window of
//     particles each slice touched;
//   - merge: each thread turns an equal share of the particles into offsets
//     and cursors, reading only the arrays of the threads whose windows
//     cover each row. The first thread goes forward from 0, the last
//     backward from 3 x triangles, so that two threads need no pass to learn
//     where their shares start;
//   - fill: NvCloth's decrementing fill, each thread on its own cursors,
//     taking a quad's two halves at once where consecutive triangles are
//     one (FillQuadPair: a cloth grid's four corners for six entries);
//   - clear: each thread zeroes its window, so that the private counts stay
//     zero between calls and a thread never clears all n particles.
// Where corners are scattered (a shuffled mesh, a subdivided one), judged
// per region from 32 sampled blocks, every count and fill store would miss
// the cache: the count prefetches its counters 64 triangles ahead, and the
// fill the cursors 96 ahead and, 48 ahead, the slot below each cursor's
// present value. On a mesh with locality whose output aliases its triangles
// in the page (PageAliased), the count instead keeps each entry's rank
// within its thread's part of the row (a byte, three packed in a word per
// triangle), so that the fill places it at cursor[p] - 1 - rank without
// the decrement whose store the next loads wait on. A particle in more than
// 256 triangles of one slice overflows its byte, and the fill then
// decrements instead.
#include <hwy/cache_control.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <vector>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/triangle_adjacency/count_kernel.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triangle_adjacency/variants.h"

namespace adj::triangle_adjacency {
namespace {

using detail::kNoError;
// How far ahead the ranked fill prefetches its slots (and twice as far, the
// cursors that locate them). Tuned: see
// docs/triangle_adjacency.md#decisions-and-dead-ends (kFillPrefetch).
constexpr std::size_t kFillPrefetch = 64;
// The same for the scattered fill. Tuned: see
// docs/triangle_adjacency.md#decisions-and-dead-ends (kScatteredFillPrefetch).
constexpr std::size_t kScatteredFillPrefetch = 48;
// A slice counts as scattered when more than 1 / kScatteredShare of
// kSampledBlocks blocks spread over it span more than kScatteredSpan
// particles (count_kernel.h).
constexpr std::size_t kSampledBlocks = 32;
constexpr std::size_t kScatteredShare = 4;
// Triangles and output closer than this to the same offset in a 4 KiB page
// count as aliased (see PageAliased; the window:
// docs/triangle_adjacency.md#decisions-and-dead-ends).
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
// fill needs no decrement. Kept only where the output aliases the
// triangles in the page on a slice with locality (see the top).
std::vector<std::uint32_t>& Ranks() {
  thread_local std::vector<std::uint32_t> ranks;
  return ranks;
}

// The particles a thread's slice touched: [low, high), empty when low >= high.
struct Window {
  std::size_t low = std::numeric_limits<std::size_t>::max();
  std::size_t high = 0;
};

// A thread's running state while it turns counts into offsets and cursors.
struct MergeState {
  // Forward: where the next row starts. Backward: where the last row done
  // (the next one up) starts, i.e. where the next row down ends.
  std::uint32_t running = 0;
  std::uint32_t longest = 0;       // the longest row
  std::uint32_t longest_part = 0;  // the most entries one thread has in a row
};

// Rows [begin, end), whose counts lie in the `active` threads' arrays
// (ascending thread order) and nowhere else: writes each row's offset, and
// into each active array the cursor where that thread's part of the row
// ends. Later slices hold larger triangle ids, so their parts come first
// (NvCloth's descending rows): thread u's part ends where the parts of the
// threads before it begin. kActive is active.size() when it is small, 0
// otherwise.
template <std::size_t kActive, bool kBackward>
void MergeRows(std::span<std::uint32_t* const> active, std::size_t begin,
               std::size_t end, std::uint32_t* offsets, MergeState& state) {
  const std::size_t k = kActive != 0 ? kActive : active.size();
  std::uint32_t running = state.running;
  std::uint32_t longest = state.longest;
  std::uint32_t longest_part = state.longest_part;
  for (std::size_t i = begin; i < end; ++i) {
    const std::size_t p = kBackward ? begin + end - 1 - i : i;
    std::uint32_t total = 0;
    for (std::size_t u = 0; u < k; ++u) {
      const std::uint32_t part = active[u][p];
      total += part;
      longest_part = std::max(longest_part, part);
    }
    if constexpr (kBackward) running -= total;
    offsets[p] = running;
    std::uint32_t cursor = running + total;
    if constexpr (!kBackward) running += total;
    for (std::size_t u = 0; u < k; ++u) {
      const std::uint32_t part = active[u][p];
      active[u][p] = cursor;
      cursor -= part;
    }
    longest = std::max(longest, total);
  }
  state = {running, longest, longest_part};
}

// Calls visit(begin, end, active) for each stretch of particles [begin, end)
// over which the same threads' windows hold, with those threads' arrays in
// ascending thread order; stretches in ascending order, or descending.
template <typename Visit>
void ForEachStretch(std::span<const Window> windows, std::uint32_t* counts,
                    std::size_t n, std::size_t begin, std::size_t end,
                    bool backward, Visit&& visit) {
  std::vector<std::size_t> cuts = {begin, end};
  for (const Window& window : windows) {
    for (const std::size_t cut : {window.low, window.high}) {
      if (cut > begin && cut < end) cuts.push_back(cut);
    }
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<std::uint32_t*> active;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    const std::size_t piece = backward ? cuts.size() - 2 - i : i;
    const std::size_t low = cuts[piece];
    const std::size_t high = cuts[piece + 1];
    active.clear();
    for (std::size_t u = 0; u < windows.size(); ++u) {
      if (windows[u].low <= low && high <= windows[u].high) {
        active.push_back(counts + u * n);
      }
    }
    visit(low, high, std::span<std::uint32_t* const>(active));
  }
}

// Turns the counts of particles [begin, end) into offsets and cursors,
// forward from state.running as the first row's offset, or backward from it
// as the last row's end. Each thread does this for an equal share of the
// particles: the first forward from 0, the last backward from the total,
// so that with two threads no pass over the counts precedes it.
void MergeRange(std::span<const Window> windows, std::uint32_t* counts,
                std::size_t n, std::size_t begin, std::size_t end,
                bool backward, std::uint32_t* offsets, MergeState& state) {
  ForEachStretch(
      windows, counts, n, begin, end, backward,
      [&](std::size_t low, std::size_t high,
          std::span<std::uint32_t* const> active) {
        switch (active.size()) {
          case 0:
            std::fill(offsets + low, offsets + high, state.running);
            break;
          case 1:
            backward ? MergeRows<1, true>(active, low, high, offsets, state)
                     : MergeRows<1, false>(active, low, high, offsets, state);
            break;
          case 2:
            backward ? MergeRows<2, true>(active, low, high, offsets, state)
                     : MergeRows<2, false>(active, low, high, offsets, state);
            break;
          default:
            backward ? MergeRows<0, true>(active, low, high, offsets, state)
                     : MergeRows<0, false>(active, low, high, offsets, state);
        }
      });
}

// The number of entries counted for particles [begin, end), by all threads.
std::uint32_t CountedIn(std::span<const Window> windows, std::uint32_t* counts,
                        std::size_t n, std::size_t begin, std::size_t end) {
  std::uint32_t sum = 0;
  ForEachStretch(windows, counts, n, begin, end, false,
                 [&](std::size_t low, std::size_t high,
                     std::span<std::uint32_t* const> active) {
                   for (const std::uint32_t* array : active) {
                     for (std::size_t p = low; p < high; ++p) sum += array[p];
                   }
                 });
  return sum;
}

// A build reads triangle t at 12 t bytes and, on a mesh with locality,
// writes its entries near 12 t bytes of the output. When both arrays start
// at nearly the same offset in a 4 KiB page, the decrementing fill's loads
// wait on stores they only seem to depend on (4K aliasing), as NvCloth's
// do; the ranked fill gives each store its address early and avoids that
// (docs/triangle_adjacency.md#decisions-and-dead-ends).
bool PageAliased(const Triangle* triangles, const std::uint32_t* indices) {
  constexpr std::uintptr_t kPage = 4096;
  const std::uintptr_t gap = (reinterpret_cast<std::uintptr_t>(indices) -
                              reinterpret_cast<std::uintptr_t>(triangles)) %
                             kPage;
  return gap < kAliasWindow || gap > kPage - kAliasWindow;
}

// Prefetches the cursors of a triangle's three corners, which a fill will
// read some triangles later.
inline void PrefetchCursors(const std::uint32_t* cursors,
                            const Triangle& triangle) {
  hwy::Prefetch(cursors + triangle[0]);
  hwy::Prefetch(cursors + triangle[1]);
  hwy::Prefetch(cursors + triangle[2]);
}

// NvCloth's fill of triangle t's three entries, decrementing the cursors.
inline void FillDecrementing(const Triangle* triangles, std::size_t t,
                             std::uint32_t* cursors, std::uint32_t* indices) {
  const auto id = static_cast<std::uint32_t>(t);
  indices[--cursors[triangles[t][0]]] = id;
  indices[--cursors[triangles[t][1]]] = id;
  indices[--cursors[triangles[t][2]]] = id;
}

// Where triangles t and t + 1 are the two halves of a quad split along its
// diagonal, as a cloth grid's are (b = (a0, a2, y) or, with the other
// diagonal, (a1, y, a2)), and their four corners are distinct: one
// cursor update places both entries of each diagonal corner, so the pair
// costs four read-modify-writes of cursors instead of six. Returns false,
// touching nothing, where the pair is not such a quad. With the corners
// distinct each particle is updated once, so each row still receives its
// entries in NvCloth's order: t + 1 below t.
inline bool FillQuadPair(const Triangle* triangles, std::size_t t,
                         std::uint32_t* cursors, std::uint32_t* indices) {
  const Triangle& a = triangles[t];
  const Triangle& b = triangles[t + 1];
  std::uint32_t shared0;
  std::uint32_t shared1;
  std::uint32_t only_a;
  std::uint32_t only_b;
  if (b[0] == a[0] && b[1] == a[2]) {
    shared0 = a[0], shared1 = a[2], only_a = a[1], only_b = b[2];
  } else if (b[0] == a[1] && b[2] == a[2]) {
    shared0 = a[1], shared1 = a[2], only_a = a[0], only_b = b[1];
  } else {
    return false;
  }
  if (shared0 == shared1 || only_a == only_b || only_a == shared0 ||
      only_a == shared1 || only_b == shared0 || only_b == shared1) {
    return false;
  }
  const auto id = static_cast<std::uint32_t>(t);
  for (const std::uint32_t p : {shared0, shared1}) {
    const std::uint32_t slot = cursors[p] - 2;
    indices[slot] = id + 1;
    indices[slot + 1] = id;
    cursors[p] = slot;
  }
  indices[--cursors[only_a]] = id;
  indices[--cursors[only_b]] = id + 1;
  return true;
}

// NvCloth's decrementing fill of triangles [begin, end), two at a time
// wherever they form a quad (FillQuadPair). A pair that does not is
// filled one triangle at a time and the next pair starts one later, so
// the pairing finds the quads whatever the slice's first triangle.
void FillQuadPairs(const Triangle* triangles, std::size_t begin,
                   std::size_t end, std::uint32_t* cursors,
                   std::uint32_t* indices) {
  std::size_t t = begin;
  while (t + 1 < end) {
    if (FillQuadPair(triangles, t, cursors, indices)) {
      t += 2;
    } else {
      FillDecrementing(triangles, t, cursors, indices);
      ++t;
    }
  }
  if (t < end) FillDecrementing(triangles, t, cursors, indices);
}

}  // namespace

namespace detail {

// Judged from kSampledBlocks blocks of kCheckBlock triangles spread over
// [begin, end) (count_kernel.h).
bool LooksScattered(const Triangle* triangles, std::size_t begin,
                    std::size_t end) {
  const std::size_t count = end - begin;
  if (count < kSampledBlocks * kCheckBlock) return false;
  std::size_t scattered = 0;
  for (std::size_t sample = 0; sample < kSampledBlocks; ++sample) {
    const std::size_t first = begin + count * sample / kSampledBlocks;
    std::uint32_t low = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t high = 0;
    for (std::size_t t = first; t < first + kCheckBlock; ++t) {
      for (const std::uint32_t p : triangles[t]) {
        low = std::min(low, p);
        high = std::max(high, p);
      }
    }
    if (high - low > kScatteredSpan) ++scattered;
  }
  return scattered * kScatteredShare > kSampledBlocks;
}

}  // namespace detail

// Long: one OpenMP region runs the count, the scan and the fill with
// barriers between them, and the pair state and cursors each thread keeps
// across those passes live in it; split, each piece would fork again or
// take that state as arguments.
void OpenMpBuildTuned(std::span<const Triangle> triangles,
                      std::size_t particle_count, Adjacency& out,
                      const OpenMpTuning& tuning) {
  CheckEntryCount(triangles.size());
  const std::size_t min_triangles_per_thread = tuning.min_triangles_per_thread;
  const std::size_t chunk_triangles =
      std::max<std::size_t>(tuning.chunk_triangles, 1);
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
  // Per thread, the largest count of one particle in one slice seen by its
  // scan: past 256 some rank did not fit its byte, and the fill then
  // decrements cursors as NvCloth does.
  std::vector<std::uint32_t> part_max(static_cast<std::size_t>(threads), 0);
  int team_size = threads;
  // Per pair of threads, the chunks claimed so far and where the first
  // thread's slice ends.
  std::vector<std::atomic<std::size_t>> claimed(
      static_cast<std::size_t>(threads));
  std::vector<std::size_t> split(static_cast<std::size_t>(threads));

  // Each phase between barriers runs in the trap, so that a thread that
  // fails still reaches every barrier.
  ExceptionTrap trap;
#pragma omp parallel num_threads(threads)
  {
    const std::size_t thread = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
    std::uint32_t* mine = counts.data() + thread * n;
    // Threads pair up, (0, 1), (2, 3), ..., and each pair shares a region
    // of triangles in proportion to its threads (one left over has its own).
    const std::size_t region = thread / 2;
    const std::size_t region_first = 2 * region;
    const std::size_t region_last = std::min(region_first + 2, team);
    const std::size_t r_begin = triangle_count * region_first / team;
    const std::size_t r_end = triangle_count * region_last / team;
    const bool paired = region_last - region_first == 2;
    const bool scattered =
        detail::LooksScattered(triangles.data(), r_begin, r_end);
    // Ranks pay off only where the stores of a mesh with locality would
    // alias its triangles in the page (PageAliased): on scattered meshes
    // writing and reading them cost more than the fill saves
    // (docs/triangle_adjacency.md#decisions-and-dead-ends).
    using RankedFill = OpenMpTuning::RankedFill;
    const bool ranked =
        tuning.ranked_fill == RankedFill::kAuto
            ? !scattered && PageAliased(triangles.data(), indices)
            : tuning.ranked_fill == RankedFill::kAlways;
    detail::SliceCount counted;
    std::size_t t_begin = triangle_count * thread / team;
    std::size_t t_end = triangle_count * (thread + 1) / team;
    // Meshes with locality cost the same everywhere: an even split beats
    // a meeting point, which lands on a chunk boundary and leaves the
    // second thread walking backward.
    const bool meet =
        paired && !ranked && (scattered || tuning.meet_on_every_mesh);
    trap.Run([&] {
      fault::Point("triangle_adjacency.openmp.count");
      if (!meet) {
        counted = detail::CountSliceKernel(triangles.data(), t_begin, t_end, n,
                                           mine, ranked ? rank : nullptr);
      } else {
        // Without ranks the order of counting does not matter, so on a
        // scattered mesh the pair meets where its work does: the first thread
        // takes chunks from the front, the second from the back: equal halves
        // of a subdivided mesh cost differently
        // (docs/triangle_adjacency.md#decisions-and-dead-ends).
        const bool second = thread == region_first + 1;
        const std::size_t chunks =
            (r_end - r_begin + chunk_triangles - 1) / chunk_triangles;
        std::size_t taken = 0;
        while (claimed[region].fetch_add(1, std::memory_order_relaxed) <
               chunks) {
          const std::size_t chunk = second ? chunks - 1 - taken : taken;
          ++taken;
          const std::size_t begin = r_begin + chunk * chunk_triangles;
          const detail::SliceCount part = detail::CountSliceKernel(
              triangles.data(), begin, std::min(begin + chunk_triangles, r_end),
              n, mine, nullptr);
          counted.low = std::min(counted.low, part.low);
          counted.high = std::max(counted.high, part.high);
          // Whatever is left goes to the partner, which finds any earlier
          // error: the smallest error of all threads is still the first.
          if (part.first_bad != kNoError) {
            counted.first_bad = part.first_bad;
            break;
          }
        }
        if (!second)
          split[region] = std::min(r_begin + taken * chunk_triangles, r_end);
      }
      // On an error the counts stay as they are: only the window is cleared.
      first_bad[thread] = counted.first_bad;
      if (counted.low <= counted.high) {
        windows[thread] = {counted.low, std::size_t{counted.high} + 1};
      }
    });
    Window& window = windows[thread];
#pragma omp barrier
#pragma omp single
    {
      team_size = static_cast<int>(team);
      failed = trap.Failed() ||
               std::any_of(first_bad.begin(), first_bad.end(),
                           [](std::size_t bad) { return bad != kNoError; });
    }  // implicit barrier
    if (meet) {
      (thread == region_first ? t_end : t_begin) = split[region];
    }
    if (!failed) {
      // Each thread merges an equal share of the particles, reading only
      // the arrays of the threads whose windows cover a row. The first goes
      // forward from offset 0 and the last backward from the total, so two
      // threads need no pass to learn where their share starts; threads in
      // between sum their share first and go forward once the sums of the
      // shares before them are known.
      const std::span<const Window> team_windows(windows.data(), team);
      const std::size_t p_begin = n * thread / team;
      const std::size_t p_end = n * (thread + 1) / team;
      const bool first = thread == 0;
      const bool last = thread + 1 == team;
      MergeState state;
      trap.Run([&] {
        fault::Point("triangle_adjacency.openmp.merge");
        if (first || last) {
          state.running =
              first ? 0 : static_cast<std::uint32_t>(3 * triangle_count);
          MergeRange(team_windows, counts.data(), n, p_begin, p_end,
                     /*backward=*/!first, offsets, state);
          if (first) range_sums[thread] = state.running;
        } else {
          range_sums[thread] =
              CountedIn(team_windows, counts.data(), n, p_begin, p_end);
        }
      });
      if (team > 2) {
#pragma omp barrier
        if (!first && !last) {
          trap.Run([&] {
            for (std::size_t u = 0; u < thread; ++u) {
              state.running += range_sums[u];
            }
            MergeRange(team_windows, counts.data(), n, p_begin, p_end,
                       /*backward=*/false, offsets, state);
          });
        }
      }
      range_max[thread] = state.longest;
      part_max[thread] = state.longest_part;
#pragma omp barrier
      const bool ranks_overflow =
          std::any_of(part_max.begin(), part_max.begin() + team,
                      [](std::uint32_t longest) { return longest > 256; });
      trap.Run([&] {
        fault::Point("triangle_adjacency.openmp.fill");
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
            PrefetchCursors(mine, triangles[t + 2 * kFillPrefetch]);
            const std::size_t near = t + kFillPrefetch;
            hwy::Prefetch(indices + slot(near, 0));
            hwy::Prefetch(indices + slot(near, 1));
            hwy::Prefetch(indices + slot(near, 2));
            fill(t);
          }
          for (; t < t_end; ++t) fill(t);
        } else if (scattered) {
          // NvCloth's decrementing fill, prefetching the cursors
          // 2 x kScatteredFillPrefetch triangles ahead and, half as far, the
          // slot below each cursor's present value: the slot it will fill
          // lies at most a few entries lower, nearly always in that line.
          constexpr std::size_t kAhead = kScatteredFillPrefetch;
          std::size_t t = t_begin;
          for (; t + 2 * kAhead < t_end; ++t) {
            PrefetchCursors(mine, triangles[t + 2 * kAhead]);
            const Triangle& near = triangles[t + kAhead];
            hwy::Prefetch(indices + mine[near[0]] - 1);
            hwy::Prefetch(indices + mine[near[1]] - 1);
            hwy::Prefetch(indices + mine[near[2]] - 1);
            FillDecrementing(triangles.data(), t, mine, indices);
          }
          for (; t < t_end; ++t) {
            FillDecrementing(triangles.data(), t, mine, indices);
          }
        } else if (tuning.paired_fill) {
          FillQuadPairs(triangles.data(), t_begin, t_end, mine, indices);
        } else {
          // NvCloth's decrementing fill, on this thread's cursors.
          for (std::size_t t = t_begin; t < t_end; ++t) {
            FillDecrementing(triangles.data(), t, mine, indices);
          }
        }
      });
#pragma omp barrier
    }
    // Cursors went only into windows, each thread's into its own array's.
    if (window.low < window.high) {
      std::fill(mine + window.low, mine + window.high, 0u);
    }
  }
  trap.Rethrow();
  ThrowFirstIndexError(first_bad, triangles, n);
  offsets[n] = static_cast<std::uint32_t>(3 * triangle_count);
  out.max_adjacent = *std::max_element(range_max.begin(), range_max.end());
  out.order = RowOrder::kDescending;
  out.threads = team_size;
}

void OpenMpBuild(std::span<const Triangle> triangles,
                 std::size_t particle_count, Adjacency& out) {
  OpenMpBuildTuned(triangles, particle_count, out, OpenMpTuning{});
}

}  // namespace adj::triangle_adjacency
