// Ours: NvCloth's count / scan / decrementing fill, split over threads by
// contiguous triangle slices. Each thread counts its slice into a private
// array (no atomics, no false sharing), one pass over the particles turns
// the per-thread counts into per-thread fill cursors, and each thread fills
// its own slots. Because thread t's slice holds smaller triangle ids than
// thread t + 1's, placing the later slices first in each row reproduces
// NvCloth's descending rows exactly, for any thread count.
#include <omp.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"

namespace adj::triangle_adjacency {
namespace {

// Below this many triangles per thread the fork, the extra passes over the
// particles, and the cache lines both threads write (each row holds one
// segment per thread) cost more than they save: with 2^14, CGAL's bunny00
// (75k triangles, rows of scattered particles) built at 0.49x nvcloth's
// speed on 2 vCPUs.
constexpr std::size_t kMinTrianglesPerThread = std::size_t{1} << 16;
constexpr std::size_t kNoError = std::numeric_limits<std::size_t>::max();

// Per-thread counts, kept between calls so that a frame-by-frame rebuild
// does not fault in fresh pages each time.
std::vector<std::uint32_t>& Workspace() {
  thread_local std::vector<std::uint32_t> workspace;
  return workspace;
}

}  // namespace

void OpenMpBuild(std::span<const Triangle> triangles,
                 std::size_t particle_count, Adjacency& out) {
  CheckEntryCount(triangles.size());
  const std::size_t triangle_count = triangles.size();
  const int threads = static_cast<int>(
      std::clamp<std::size_t>(triangle_count / kMinTrianglesPerThread, 1,
                              static_cast<std::size_t>(omp_get_max_threads())));
  if (threads == 1) {
    NvClothBuild(triangles, particle_count, out);
    return;
  }
  const std::size_t n = particle_count;
  std::vector<std::uint32_t>& counts = Workspace();
  if (counts.size() < n * static_cast<std::size_t>(threads)) {
    counts.resize(n * static_cast<std::size_t>(threads));
  }
  out.csr.offsets.resize(n + 1);
  out.csr.indices.resize(3 * triangle_count);
  std::uint32_t* offsets = out.csr.offsets.data();
  std::uint32_t* indices = out.csr.indices.data();
  std::vector<std::size_t> first_bad(static_cast<std::size_t>(threads),
                                     kNoError);
  std::vector<std::uint32_t> range_sums(static_cast<std::size_t>(threads));
  std::vector<std::uint32_t> range_max(static_cast<std::size_t>(threads));
  int team_size = threads;

#pragma omp parallel num_threads(threads)
  {
    const std::size_t thread = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
#pragma omp single nowait
    team_size = static_cast<int>(team);
    const std::size_t t_begin = triangle_count * thread / team;
    const std::size_t t_end = triangle_count * (thread + 1) / team;
    std::uint32_t* mine = counts.data() + thread * n;
    std::fill(mine, mine + n, 0u);
    for (std::size_t t = t_begin; t < t_end && first_bad[thread] == kNoError;
         ++t) {
      for (const std::uint32_t p : triangles[t]) {
        if (p >= n) {
          first_bad[thread] = t;
          break;
        }
        ++mine[p];
      }
    }
#pragma omp barrier
    const bool failed =
        std::any_of(first_bad.begin(), first_bad.end(),
                    [](std::size_t bad) { return bad != kNoError; });
    if (!failed) {
      // Row totals and this particle range's sum and maximum.
      const std::size_t p_begin = n * thread / team;
      const std::size_t p_end = n * (thread + 1) / team;
      std::uint32_t sum = 0;
      std::uint32_t longest = 0;
      for (std::size_t p = p_begin; p < p_end; ++p) {
        std::uint32_t total = 0;
        for (std::size_t u = 0; u < team; ++u) total += counts[u * n + p];
        offsets[p] = total;
        sum += total;
        longest = std::max(longest, total);
      }
      range_sums[thread] = sum;
      range_max[thread] = longest;
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
#pragma omp barrier
      for (std::size_t t = t_begin; t < t_end; ++t) {
        for (const std::uint32_t p : triangles[t]) {
          indices[--mine[p]] = static_cast<std::uint32_t>(t);
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

}  // namespace adj::triangle_adjacency
