#pragma once

// compaction's public device API: stable compaction of arrays already in
// device memory, for families that compact on the GPU (the fracture update's
// cluster lists) and for timing the kernels alone. The arguments are
// trusted: the caller checked them (Check on the host spans, or sizes it
// knows). Unlike the host contract, `out` must not overlap `values`: tiles
// run in any order, so a later tile could overwrite items an earlier one has
// still to read. Everything is enqueued on `stream`; the functions return
// without waiting (launch errors throw adj::Error).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace adj::compaction::device {

// Scratch bytes Compact needs for n items.
std::size_t CompactTempBytes(std::size_t n);
// Ours (the `cuda` variant): out[0 .. k) = the values whose flag is 0, in
// order, and *kept = k (device memory), for n <= 2^32 - 1 items.
void Compact(const std::uint32_t* values, const std::uint8_t* flags,
             std::size_t n, std::uint32_t* out, std::uint32_t* kept, void* temp,
             cudaStream_t stream);

// Scratch bytes CubCompact needs for n items.
std::size_t CubCompactTempBytes(std::size_t n);
// CUB's DeviceSelect::Flagged (the `cuda_cub` variant), the same contract,
// for n <= 2^31 - 1 items.
void CubCompact(const std::uint32_t* values, const std::uint8_t* flags,
                std::size_t n, std::uint32_t* out, std::uint32_t* kept,
                void* temp, cudaStream_t stream);

}  // namespace adj::compaction::device
