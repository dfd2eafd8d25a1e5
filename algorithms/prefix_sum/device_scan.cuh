#pragma once

// prefix_sum's public device API: the scans on device memory, for the
// families whose CUDA variants scan on the GPU (compaction's tile offsets,
// triangle_adjacency's CSR offsets). The scan writes only `out`; `temp` is
// device scratch of the size the matching *TempBytes gives.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "algorithms/prefix_sum/prefix_sum.h"
#include "algorithms/prefix_sum/scan_tiles.h"

namespace adj::prefix_sum::device {

// Scratch bytes LookbackScan needs for n elements (tile states + a counter).
std::size_t LookbackTempBytes(std::size_t n);
// Our single-pass decoupled look-back scan, in the tile shape the tuning
// table gives for the current device. `out` may equal `in`; any alignment.
void LookbackScan(Kind kind, const std::uint32_t* in, std::uint32_t* out,
                  std::size_t n, void* temp, cudaStream_t stream);
// The same in a given shape, one of kScanTiles (else prefix_sum::Error).
void LookbackScanWith(ScanTile tile, Kind kind, const std::uint32_t* in,
                      std::uint32_t* out, std::size_t n, void* temp,
                      cudaStream_t stream);

std::size_t CubTempBytes(Kind kind, std::size_t n);
void CubScan(Kind kind, const std::uint32_t* in, std::uint32_t* out,
             std::size_t n, void* temp, std::size_t temp_bytes,
             cudaStream_t stream);

}  // namespace adj::prefix_sum::device
