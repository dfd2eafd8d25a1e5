// Ours: NvCloth's count / scan / decrementing fill, done one block of
// particles at a time so that the scattered increments and stores stay in
// the core's own cache. A first pass splits the (particle, triangle) entries
// into blocks of consecutive particles (a radix partition by
// the particle's high bits, written as a few hundred sequential streams);
// then each block's counts, row offsets and rows are built from its own
// entries, which fit L2, instead of by random accesses over the whole
// arrays. Blocks are independent, so threads take whole blocks.
//
// Entries of a block arrive in ascending triangle order (threads partition
// contiguous, ordered triangle slices, and the block holds thread 0's run
// first), so NvCloth's decrementing fill gives its descending rows exactly.
#include <omp.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/common/thread_counts.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triangle_adjacency/variants.h"

namespace adj::triangle_adjacency {
namespace {

constexpr std::size_t kNoError = std::numeric_limits<std::size_t>::max();

struct Workspace {
  std::vector<std::uint64_t> entries;  // (local particle << 32) | triangle
  std::vector<std::uint32_t> cursors;  // [thread][block]
};

Workspace& ThreadWorkspace() {
  thread_local Workspace workspace;
  return workspace;
}

}  // namespace

void PartitionedBuild(std::span<const Triangle> triangles,
                      std::size_t particle_count, Adjacency& out) {
  // Blocks of 2^13 particles: their counts (32 KiB) stay in L1, their
  // entries (about 6 per particle on a closed mesh, 8 bytes each: ~400 KiB)
  // and rows in L2 (docs/triangle_adjacency.md#decisions-and-dead-ends).
  // Below 2^16 triangles per thread the fork costs more than it saves (as in
  // openmp.cc).
  PartitionedBuildTuned(
      triangles, particle_count, out,
      PartitionedTuning{.block_shift = 13,
                        .min_triangles_per_thread = std::size_t{1} << 16});
}

// Long: one OpenMP region runs the blocks' counts, their scan and the
// fill with barriers between them, over per-thread state kept across the
// passes.
void PartitionedBuildTuned(std::span<const Triangle> triangles,
                           std::size_t particle_count, Adjacency& out,
                           const PartitionedTuning& tuning) {
  CheckEntryCount(triangles.size());
  const int shift = tuning.block_shift;
  if (shift < 0 || shift > 31) {
    throw Error("triangle_adjacency: block_shift " + std::to_string(shift) +
                " is outside [0, 31]");
  }
  const std::size_t block_particles = std::size_t{1} << shift;
  const std::size_t n = particle_count;
  const std::size_t blocks = (n + block_particles - 1) >> shift;
  if (blocks <= 1) {
    // Everything is one block already: NvCloth's own passes stay in cache.
    NvClothBuild(triangles, particle_count, out);
    return;
  }
  const std::size_t triangle_count = triangles.size();
  const int threads = static_cast<int>(std::clamp<std::size_t>(
      triangle_count /
          std::max<std::size_t>(tuning.min_triangles_per_thread, 1),
      1, static_cast<std::size_t>(omp_get_max_threads())));
  Workspace& work = ThreadWorkspace();
  if (work.entries.size() < 3 * triangle_count) {
    work.entries.resize(3 * triangle_count);
  }
  work.cursors.assign(static_cast<std::size_t>(threads) * blocks, 0);
  out.csr.offsets.resize(n + 1);
  out.csr.indices.resize(3 * triangle_count);
  std::uint64_t* entries = work.entries.data();
  std::uint32_t* cursors = work.cursors.data();
  std::uint32_t* offsets = out.csr.offsets.data();
  std::uint32_t* indices = out.csr.indices.data();
  std::vector<std::uint32_t> block_begin(blocks + 1);
  std::vector<std::size_t> first_bad(static_cast<std::size_t>(threads),
                                     kNoError);
  std::vector<std::uint32_t> longest(static_cast<std::size_t>(threads), 0);
  int team_size = threads;

  // Each phase between barriers runs in the trap, so that a thread that
  // fails still reaches every barrier and the worksharing loop.
  ExceptionTrap trap;
#pragma omp parallel num_threads(threads)
  {
    const std::size_t thread = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
#pragma omp single nowait
    team_size = static_cast<int>(team);
    const std::size_t t_begin = triangle_count * thread / team;
    const std::size_t t_end = triangle_count * (thread + 1) / team;
    std::uint32_t* mine = cursors + thread * blocks;
    trap.Run([&] {
      fault::Point("triangle_adjacency.partitioned.count");
      for (std::size_t t = t_begin; t < t_end; ++t) {
        const Triangle& tri = triangles[t];
        if (tri[0] >= n || tri[1] >= n || tri[2] >= n) {
          first_bad[thread] = t;
          break;
        }
        for (const std::uint32_t p : tri) ++mine[p >> shift];
      }
    });
#pragma omp barrier
#pragma omp single
    // Block-major, thread-minor: each block's entries are contiguous and
    // hold thread 0's (smaller) triangles first.
    KeyMajorOffsets(cursors, team, blocks, block_begin.data());
    // The same on every thread: nothing runs in the trap between the
    // single's barrier and here.
    const bool failed =
        trap.Failed() ||
        std::any_of(first_bad.begin(), first_bad.end(),
                    [](std::size_t bad) { return bad != kNoError; });
    if (!failed) {
      const std::uint32_t mask =
          static_cast<std::uint32_t>(block_particles) - 1;
      const auto pack = [mask](std::uint32_t p, std::size_t t) {
        return (std::uint64_t{p & mask} << 32) | static_cast<std::uint32_t>(t);
      };
      trap.Run([&] {
        for (std::size_t t = t_begin; t < t_end; ++t) {
          for (const std::uint32_t p : triangles[t]) {
            entries[mine[p >> shift]++] = pack(p, t);
          }
        }
      });
#pragma omp barrier
      std::vector<std::uint32_t> local;
      trap.Run([&] {
        fault::Point("triangle_adjacency.partitioned.rows");
        local.resize(block_particles);
      });
      std::uint32_t my_longest = 0;
#pragma omp for schedule(dynamic, 1)
      for (std::size_t b = 0; b < blocks; ++b) {
        trap.Run([&] {
          const std::uint32_t begin = block_begin[b];
          const std::uint32_t end = block_begin[b + 1];
          const std::size_t p_begin = b << shift;
          const std::size_t rows = std::min(block_particles, n - p_begin);
          std::fill(local.begin(), local.begin() + rows, 0u);
          for (std::uint32_t e = begin; e < end; ++e) {
            ++local[entries[e] >> 32];
          }
          std::uint32_t sum = begin;
          for (std::size_t p = 0; p < rows; ++p) {
            my_longest = std::max(my_longest, local[p]);
            sum += local[p];
            local[p] = sum;
          }
          for (std::uint32_t e = begin; e < end; ++e) {
            const std::uint64_t entry = entries[e];
            indices[--local[entry >> 32]] = static_cast<std::uint32_t>(entry);
          }
          std::copy(local.begin(), local.begin() + rows, offsets + p_begin);
        });
      }
      longest[thread] = my_longest;
    }
  }
  trap.Rethrow();
  ThrowFirstIndexError(first_bad, triangles, n);
  offsets[n] = static_cast<std::uint32_t>(3 * triangle_count);
  out.max_adjacent = *std::max_element(longest.begin(), longest.end());
  out.order = RowOrder::kDescending;
  out.threads = team_size;
}

}  // namespace adj::triangle_adjacency
