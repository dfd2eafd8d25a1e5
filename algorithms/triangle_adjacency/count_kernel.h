#pragma once

// Internal to algorithms/triangle_adjacency: openmp.cc's count pass over one
// thread's slice of triangles, compiled by Highway for the CPU it runs on:
// SSE2 lacks the range check's unsigned 32-bit min / max
// (docs/triangle_adjacency.md#decisions-and-dead-ends).

#include <cstddef>
#include <cstdint>
#include <limits>

#include "algorithms/common/mesh.h"

namespace adj::triangle_adjacency::detail {

// Triangles whose ids are range-checked (and folded into the window) at
// once, before any of them is counted: no compare and branch per corner.
constexpr std::size_t kCheckBlock = 16;
constexpr std::size_t kNoError = std::numeric_limits<std::size_t>::max();
// A block whose corners span more particles than this looks scattered
// (openmp.cc judges a region from 32 sampled blocks; the count, each block
// from the spans of its vector lanes) and prefetches the counts of the
// block kCountPrefetch triangles ahead; the prefetch pays on scattered
// meshes only (docs/triangle_adjacency.md#decisions-and-dead-ends).
constexpr std::uint32_t kScatteredSpan = 4096;
constexpr std::size_t kCountPrefetch = 64;

struct SliceCount {
  // The first triangle of the slice with a corner >= particle_count, or
  // kNoError. Counting stops at the block that holds it.
  std::size_t first_bad = kNoError;
  // The smallest and largest particle counted; low > high when none was.
  std::uint32_t low = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t high = 0;
};

// For each triangle t in [begin, end): counts[p]++ for its three corners,
// and rank[t] = the three counts before the increments, one byte each
// (corner k in bits 8k..8k+7; a count past 255 spills into the next byte,
// which the caller detects from the counts); with rank == nullptr, counts
// only (plain increments, cheaper). No checks of the arguments.
SliceCount CountSliceKernel(const Triangle* triangles, std::size_t begin,
                            std::size_t end, std::size_t particle_count,
                            std::uint32_t* counts, std::uint32_t* rank);

// Whether triangles [begin, end) lack locality (openmp.cc's test, which picks
// its fill and whether a thread pair meets): more than a quarter of 32
// blocks sampled over them span more than kScatteredSpan particles. Reads
// corners only as numbers, so out-of-range ones are harmless. Exposed for
// the tests that must reach the scattered paths.
bool LooksScattered(const Triangle* triangles, std::size_t begin,
                    std::size_t end);

}  // namespace adj::triangle_adjacency::detail
