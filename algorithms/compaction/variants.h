#pragma once

// Internal to the family: the implementations behind the table and their
// tuning hooks. The table's own file and the family's tests include it;
// the build refuses it anywhere else (everyone else goes through
// Variants()).

#include "algorithms/compaction/compaction.h"

namespace adj::compaction {

// The implementations, one file each; call them through Variants().
CompactFn SerialCompact;
CompactFn BranchyCompact;
CompactFn SimdCompact;
CompactFn OpenMpCompact;
// OpenMpCompact with its fork threshold and chunk size exposed, so that
// tests drive the threaded paths (chained chunks out of place, slices moved
// down in place) with small arrays.
std::size_t OpenMpCompactTuned(std::span<const std::uint32_t> values,
                               std::span<const std::uint8_t> flags,
                               std::span<std::uint32_t> out,
                               std::size_t min_items_per_thread,
                               std::size_t chunk_items);
// The threads OpenMpCompact runs n items on: one per 2^16 items (at least
// one, at most omp_get_max_threads()), and out of place no more than its
// chunks of 2^17, so that no thread is forked without a chunk. The
// benchmark reports it.
int OpenMpCompactThreads(std::size_t n, bool in_place);
// Peers (origin kPeer): the library called as its documentation shows;
// without it at build time they throw Unavailable.
CompactFn StdParCompact;
CompactFn TbbParallelScanCompact;
#if ADJ_HAVE_CUDA
CompactFn CudaCubCompact;
CompactFn CudaCompact;
// Their device entries (device_compactor.cu).
DeviceCompactFn CudaCubCompactOnDevice;
DeviceCompactFn CudaCompactOnDevice;
// A peer: Thrust's copy_if (thrust_copy_if.cu), and its device entry.
CompactFn ThrustCompact;
DeviceCompactFn ThrustCompactOnDevice;
#endif

}  // namespace adj::compaction
