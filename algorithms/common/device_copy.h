#pragma once

// The GPU's own limit beside device-resident kernels (CUDA builds only):
// copies of bytes already on the device, timed alone with CUDA events. Plain
// C++, so that benchmarks compile with the host compiler.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace adj::cuda {

class DeviceCopy {
 public:
  // Copies `source` to the device once and zeroes the destination
  // (untimed). Throws adj::Unavailable without a usable device, adj::Error
  // on any CUDA error.
  explicit DeviceCopy(std::span<const unsigned char> source);
  ~DeviceCopy();
  DeviceCopy(const DeviceCopy&) = delete;
  DeviceCopy& operator=(const DeviceCopy&) = delete;

  // Seconds one cudaMemcpyAsync device to device of the bytes took: what the
  // whole GPU can copy.
  double TimeWholeDevice();
  // Seconds one copy kernel of a single block of `threads` threads (32 to
  // 1024) took, each thread copying 16-byte words t, t + threads, ...: the
  // limit of a kernel that runs one block per problem, as triplet_collide's
  // cloth kernels do, since one block runs on one multiprocessor.
  double TimeOneBlock(int threads);
  // The destination's bytes after the last copy.
  std::vector<unsigned char> Destination() const;

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

}  // namespace adj::cuda
