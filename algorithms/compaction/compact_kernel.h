#pragma once

// Internal to algorithms/compaction: the Highway kernel simd.cc and
// openmp.cc share. Compacts values[0 .. n) into out (out == values allowed)
// by flags, returns how many were kept. No checks. A vector store may write
// a whole vector past the kept lanes; it never writes at or past
// out + room (room >= the number kept), so a thread that owns only
// out[0 .. room) can use it.

#include <cstddef>
#include <cstdint>

namespace adj::compaction::detail {

// Compactions of at least this many items write through streaming stores:
// their output cannot stay cached anyway, and a normal store first reads the
// line it overwrites.
constexpr std::size_t kStreamingMinItems = std::size_t{1} << 22;

std::size_t CompactKernel(const std::uint32_t* values,
                          const std::uint8_t* flags, std::size_t n,
                          std::uint32_t* out, std::size_t room);

// CompactKernel for outputs too large to stay cached (out != values): only
// kept values are written, whole aligned vectors by streaming stores, which
// skip reading the lines they overwrite; ends with a store fence.
std::size_t CompactStreamingKernel(const std::uint32_t* values,
                                   const std::uint8_t* flags, std::size_t n,
                                   std::uint32_t* out);

// How many of flags[0 .. n) are 0 (kept), on Highway lanes: the count pass
// of the threaded variant, which scalar took a third of its time at 2^26.
std::size_t CountKeptKernel(const std::uint8_t* flags, std::size_t n);

}  // namespace adj::compaction::detail
