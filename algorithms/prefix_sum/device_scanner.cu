#include <algorithm>
#include <string>

#include "algorithms/prefix_sum/cuda_launch.cuh"
#include "algorithms/prefix_sum/device_scanner.h"
#include "algorithms/prefix_sum/variants.h"

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

void CudaLookbackScanOnDevice(Kind kind, const std::uint32_t* in,
                              std::uint32_t* out, std::size_t n, void* scratch,
                              std::size_t /*scratch_bytes*/) {
  device::LookbackScan(kind, in, out, n, scratch, nullptr);
}

void CudaCubScanOnDevice(Kind kind, const std::uint32_t* in, std::uint32_t* out,
                         std::size_t n, void* scratch,
                         std::size_t scratch_bytes) {
  device::CubScan(kind, in, out, n, scratch, scratch_bytes, nullptr);
}

double DeviceScanner::TimeScan(const Variant& variant, Kind kind) {
  if (variant.traits.device == nullptr) {
    throw Error("prefix_sum: " + std::string(variant.name) +
                " has no device entry");
  }
  Buffers& b = *buffers_;
  return cuda::TimeOnDevice([&] {
    variant.traits.device(kind, b.in.data(), b.out.data(), b.n,
                          b.scratch.data(), b.scratch.size());
  });
}

double DeviceScanner::TimeScanWith(ScanTile tile, Kind kind) {
  Buffers& b = *buffers_;
  return cuda::TimeOnDevice([&] {
    device::LookbackScanWith(tile, kind, b.in.data(), b.out.data(), b.n,
                             b.scratch.data(), nullptr);
  });
}

std::vector<std::uint32_t> LookbackScanOnDevice(
    ScanTile tile, Kind kind, std::span<const std::uint32_t> in,
    std::size_t misalignment, bool in_place) {
  cuda::RequireDevice();
  const std::size_t n = in.size();
  cuda::DeviceBuffer<std::uint32_t> input(n + misalignment);
  cuda::DeviceBuffer<std::uint32_t> output(in_place ? 0 : n + misalignment);
  std::uint32_t* const from = input.data() + misalignment;
  std::uint32_t* const to = in_place ? from : output.data() + misalignment;
  if (n > 0) {
    cuda::Check(cudaMemcpy(from, in.data(), n * sizeof(std::uint32_t),
                           cudaMemcpyHostToDevice),
                "cudaMemcpy to device");
  }
  cuda::DeviceBuffer<unsigned char> scratch(device::LookbackTempBytes(n));
  device::LookbackScanWith(tile, kind, from, to, n, scratch.data(), nullptr);
  cuda::Check(cudaDeviceSynchronize(), "prefix_sum kernel");
  std::vector<std::uint32_t> result(n);
  if (n > 0) {
    cuda::Check(cudaMemcpy(result.data(), to, n * sizeof(std::uint32_t),
                           cudaMemcpyDeviceToHost),
                "cudaMemcpy to host");
  }
  return result;
}

std::vector<std::uint32_t> DeviceScanner::Output() const {
  std::vector<std::uint32_t> result(buffers_->n);
  buffers_->out.CopyToHost(result.data(), result.size());
  return result;
}

}  // namespace adj::prefix_sum
