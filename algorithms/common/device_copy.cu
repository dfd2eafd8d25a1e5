#include <cstdint>
#include <string>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/common/device_copy.h"

namespace adj::cuda {
namespace {

// cudaMalloc's blocks are 256-byte aligned, so the words are too; the last
// bytes % 16 bytes go one per thread.
__global__ void CopyOneBlock(const uint4* from, uint4* to, std::size_t words,
                             const unsigned char* from_tail,
                             unsigned char* to_tail, unsigned tail) {
  for (std::size_t i = threadIdx.x; i < words; i += blockDim.x) {
    to[i] = from[i];
  }
  if (threadIdx.x < tail) to_tail[threadIdx.x] = from_tail[threadIdx.x];
}

}  // namespace

struct DeviceCopy::Buffers {
  DeviceBuffer<unsigned char> from;
  DeviceBuffer<unsigned char> to;
};

DeviceCopy::DeviceCopy(std::span<const unsigned char> source) {
  RequireDevice();
  buffers_.reset(new Buffers{DeviceBuffer<unsigned char>(source.size()),
                             DeviceBuffer<unsigned char>(source.size())});
  buffers_->from.CopyFromHost(source.data(), source.size());
  // A copy that skipped bytes must not pass on what the memory held before.
  Check(cudaMemset(buffers_->to.data(), 0, source.size()), "cudaMemset");
}

DeviceCopy::~DeviceCopy() = default;

double DeviceCopy::TimeWholeDevice() {
  Buffers& b = *buffers_;
  return TimeOnDevice([&] {
    Check(cudaMemcpyAsync(b.to.data(), b.from.data(), b.from.size(),
                          cudaMemcpyDeviceToDevice),
          "cudaMemcpyAsync");
  });
}

double DeviceCopy::TimeOneBlock(int threads) {
  if (threads < 32 || threads > 1024) {
    throw Error("DeviceCopy::TimeOneBlock: " + std::to_string(threads) +
                " threads; a block has 32 to 1024");
  }
  Buffers& b = *buffers_;
  const std::size_t bytes = b.from.size();
  if (bytes == 0) return 0;
  const std::size_t words = bytes / sizeof(uint4);
  const std::size_t head = words * sizeof(uint4);
  const double seconds = TimeOnDevice([&] {
    CopyOneBlock<<<1, threads>>>(reinterpret_cast<const uint4*>(b.from.data()),
                                 reinterpret_cast<uint4*>(b.to.data()), words,
                                 b.from.data() + head, b.to.data() + head,
                                 static_cast<unsigned>(bytes - head));
  });
  Check(cudaGetLastError(), "DeviceCopy one-block kernel");
  return seconds;
}

std::vector<unsigned char> DeviceCopy::Destination() const {
  std::vector<unsigned char> result(buffers_->to.size());
  buffers_->to.CopyToHost(result.data(), result.size());
  return result;
}

}  // namespace adj::cuda
