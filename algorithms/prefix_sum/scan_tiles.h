#pragma once

// The tile shapes our CUDA look-back scan is compiled for, and the table that
// picks one per GPU architecture. Plain C++, so that the tuning benchmark can
// sweep them from a host-compiled file.

#include <array>

namespace adj::prefix_sum {

struct ScanTile {
  int threads;           // per block; a multiple of 32, at most 1024
  int items_per_thread;  // a multiple of 4: each thread moves 16-byte vectors
  constexpr int items() const { return threads * items_per_thread; }
};

// Every shape the kernel is instantiated for (the tuning sweep's rows).
inline constexpr std::array<ScanTile, 8> kScanTiles = {{{128, 8},
                                                        {128, 16},
                                                        {128, 32},
                                                        {256, 8},
                                                        {256, 16},
                                                        {256, 32},
                                                        {512, 8},
                                                        {512, 16}}};

// The shape the `cuda` row uses on a device of compute capability
// major.minor: the sweep's fastest at 2^24..2^28 elements where that
// architecture was measured (docs/prefix_sum.md), else the default.
ScanTile TunedScanTile(int major, int minor);

}  // namespace adj::prefix_sum
