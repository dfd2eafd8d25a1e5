#include <algorithm>
#include <string>

#include "algorithms/prefix_sum/cuda_launch.cuh"
#include "algorithms/prefix_sum/device_scanner.h"

namespace adj::prefix_sum {

struct DeviceScanner::Buffers {
  std::size_t n;
  cuda::DeviceBuffer<std::uint32_t> in;
  cuda::DeviceBuffer<std::uint32_t> out;
  cuda::DeviceBuffer<unsigned char> scratch;
};

DeviceScanner::DeviceScanner(std::span<const std::uint32_t> input) {
  cuda::RequireDevice();
  const std::size_t n = input.size();
  // Scratch for the larger of the two scans, allocated once, outside timing.
  const std::size_t scratch_bytes = std::max(
      {device::LookbackTempBytes(n), device::CubTempBytes(Kind::kInclusive, n),
       device::CubTempBytes(Kind::kExclusive, n)});
  buffers_.reset(new Buffers{n, cuda::DeviceBuffer<std::uint32_t>(n),
                             cuda::DeviceBuffer<std::uint32_t>(n),
                             cuda::DeviceBuffer<unsigned char>(scratch_bytes)});
  buffers_->in.CopyFromHost(input.data(), n);
}

DeviceScanner::~DeviceScanner() = default;

double DeviceScanner::TimeScan(std::string_view variant, Kind kind) {
  Buffers& b = *buffers_;
  if (variant == "cuda") {
    return cuda::TimeOnDevice([&] {
      device::LookbackScan(kind, b.in.data(), b.out.data(), b.n,
                           b.scratch.data(), nullptr);
    });
  }
  if (variant == "cuda_cub") {
    return cuda::TimeOnDevice([&] {
      device::CubScan(kind, b.in.data(), b.out.data(), b.n, b.scratch.data(),
                      b.scratch.size(), nullptr);
    });
  }
  throw Error("prefix_sum: no device-resident variant named " +
              std::string(variant));
}

std::vector<std::uint32_t> DeviceScanner::Output() const {
  std::vector<std::uint32_t> result(buffers_->n);
  buffers_->out.CopyToHost(result.data(), result.size());
  return result;
}

}  // namespace adj::prefix_sum
