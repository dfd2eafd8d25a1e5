#pragma once

// Internal to the family: the implementations behind the table and their
// tuning hooks. The table's own file and the family's tests include it;
// the build refuses it anywhere else (everyone else goes through
// Variants()).

#include "algorithms/prefix_sum/prefix_sum.h"

namespace adj::prefix_sum {

// The implementations, one file each; call them through Variants().
ScanFn SerialScan;
ScanFn SimdScan;
ScanFn OpenMpScan;
// Peers (origin kPeer): the library called as its documentation shows;
// without it at build time they throw Unavailable.
ScanFn StdParScan;
ScanFn TbbParallelScan;
#if ADJ_HAVE_CUDA
ScanFn CudaLookbackScan;
ScanFn CudaCubScan;
// Their device entries (device_scanner.cu).
DeviceScanFn CudaLookbackScanOnDevice;
DeviceScanFn CudaCubScanOnDevice;
// A peer: Thrust's scans (thrust_scan.cu), and its device entry.
ScanFn ThrustScan;
DeviceScanFn ThrustScanOnDevice;
#endif

}  // namespace adj::prefix_sum
