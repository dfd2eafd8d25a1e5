#include <cuda_runtime_api.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <memory>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/compaction/device.cuh"
#include "algorithms/connected_components/device.cuh"
#include "algorithms/fracture/flat_simulation.h"
#include "algorithms/fracture/variants.h"
#include "algorithms/hash_set/device.cuh"

namespace adj::fracture {
namespace {

template <typename Body>
__global__ void ForEachKernel(std::uint32_t n, Body body) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) body(i);
}

// The flat passes as kernels (one thread per item) on the default stream,
// with CUB's scan and radix sort and the suite's device compaction,
// lock-free hash set and ECL-CC between them. Counts come back to the host
// (one small copy each), which sizes the next pass.
class CudaBackend {
 public:
  template <typename T>
  class Array {
   public:
    T* data() { return buffer_.data(); }
    const T* data() const { return buffer_.data(); }
    std::size_t size() const { return size_; }
    // Grows by half again, so that a table growing by a few slots a frame
    // does not reallocate every frame.
    void Resize(std::size_t n) {
      if (n > buffer_.size()) buffer_ = cuda::DeviceBuffer<T>(n + n / 2);
      size_ = n;
    }

   private:
    cuda::DeviceBuffer<T> buffer_;
    std::size_t size_ = 0;
  };

  template <typename Body>
  void ForEach(std::uint32_t n, Body body) {
    if (n == 0) return;
    constexpr std::uint32_t kBlock = 256;
    ForEachKernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(n, body);
    cuda::Check(cudaGetLastError(), "fracture pass launch");
  }

  std::uint32_t Scan(const std::uint32_t* in, std::uint32_t n,
                     std::uint32_t* out) {
    cuda::Check(cudaMemsetAsync(out, 0, sizeof(std::uint32_t)),
                "cudaMemsetAsync");
    if (n > 0) {
      std::size_t bytes = 0;
      cuda::Check(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out + 1, n),
                  "cub::DeviceScan::InclusiveSum");
      temp_.Resize(bytes);
      cuda::Check(
          cub::DeviceScan::InclusiveSum(temp_.data(), bytes, in, out + 1, n),
          "cub::DeviceScan::InclusiveSum");
    }
    return Read(out + n);
  }

  std::uint32_t Compact(const std::uint32_t* values, const std::uint8_t* drop,
                        std::uint32_t n, std::uint32_t* out) {
    if (n == 0) return 0;
    temp_.Resize(compaction::device::CompactTempBytes(n));
    kept_.Resize(1);
    compaction::device::Compact(values, drop, n, out, kept_.data(),
                                temp_.data(), nullptr);
    return Read(kept_.data());
  }

  void SortPairs(std::uint64_t* keys, std::uint32_t* values, std::uint32_t n,
                 int end_bit) {
    if (n < 2) return;
    sorted_keys_.Resize(n);
    sorted_values_.Resize(n);
    std::size_t bytes = 0;
    cuda::Check(cub::DeviceRadixSort::SortPairs(
                    nullptr, bytes, keys, sorted_keys_.data(), values,
                    sorted_values_.data(), n, 0, end_bit),
                "cub::DeviceRadixSort::SortPairs");
    temp_.Resize(bytes);
    cuda::Check(cub::DeviceRadixSort::SortPairs(
                    temp_.data(), bytes, keys, sorted_keys_.data(), values,
                    sorted_values_.data(), n, 0, end_bit),
                "cub::DeviceRadixSort::SortPairs");
    Copy(keys, sorted_keys_.data(), n);
    Copy(values, sorted_values_.data(), n);
  }

  void Labels(const std::uint32_t* offsets, const std::uint32_t* indices,
              std::uint32_t n, std::uint32_t* labels) {
    connected_components::device::EclCcLabels(offsets, indices, n, labels,
                                              nullptr);
  }

  struct Lookup {
    const std::uint32_t* slots;
    std::size_t mask;
    ADJ_FRACTURE_HD bool operator()(std::uint32_t key) const {
#if defined(__CUDA_ARCH__)
      return hash_set::device::Holds(slots, mask, key);
#else
      (void)key;
      return false;
#endif
    }
  };
  struct RemovedSetOf {
    Lookup lookup;
    Lookup View() const { return lookup; }
  };
  // The removed particles (distinct) in the lock-free table, which never
  // refuses a batch of distinct new keys that fits.
  RemovedSetOf RemovedSet(const std::uint32_t* keys, std::uint32_t n) {
    const std::size_t slots = hash_set::SlotsFor(n);
    set_slots_.Resize(slots);
    set_counters_.Resize(1);
    set_refused_.Resize(n);
    const hash_set::device::Table table{set_slots_.data(), slots - 1, n,
                                        set_counters_.data()};
    hash_set::device::Clear(table, nullptr);
    hash_set::device::InsertPass(table, keys, n, set_refused_.data(), nullptr);
    hash_set::device::Counters counters{};
    Download(&counters, set_counters_.data(), 1);
    if (counters.refused != 0) {
      throw Error("fracture: the device hash set refused removed particles");
    }
    return {{set_slots_.data(), slots - 1}};
  }

  template <typename T>
  void Copy(T* to, const T* from, std::size_t n) {
    if (n == 0) return;
    cuda::Check(
        cudaMemcpyAsync(to, from, n * sizeof(T), cudaMemcpyDeviceToDevice),
        "cudaMemcpyAsync");
  }
  template <typename T>
  void Upload(T* to, const T* host, std::size_t n) {
    if (n == 0) return;
    cuda::Check(cudaMemcpy(to, host, n * sizeof(T), cudaMemcpyHostToDevice),
                "cudaMemcpy to device");
  }
  template <typename T>
  void Download(T* host, const T* from, std::size_t n) {
    if (n == 0) return;
    cuda::Check(cudaMemcpy(host, from, n * sizeof(T), cudaMemcpyDeviceToHost),
                "cudaMemcpy to host");
  }
  void Sync() { cuda::Check(cudaDeviceSynchronize(), "fracture pass"); }

 private:
  std::uint32_t Read(const std::uint32_t* at) {
    std::uint32_t value = 0;
    Download(&value, at, 1);
    return value;
  }

  Array<std::uint8_t> temp_;
  Array<std::uint32_t> kept_;
  Array<std::uint64_t> sorted_keys_;
  Array<std::uint32_t> sorted_values_;
  Array<std::uint32_t> set_slots_;
  Array<hash_set::device::Counters> set_counters_;
  Array<std::uint32_t> set_refused_;
};

std::unique_ptr<Simulation> Start(const State& initial, const Params& params,
                                  bool published_search) {
  Check(initial, params);
  cuda::RequireDevice();
  return std::make_unique<flat::FlatSimulation<CudaBackend>>(initial, params,
                                                             published_search);
}

}  // namespace

std::unique_ptr<Simulation> StartCuda(const State& initial,
                                      const Params& params) {
  return Start(initial, params, true);
}

std::unique_ptr<Simulation> StartCudaDataParallel(const State& initial,
                                                  const Params& params) {
  return Start(initial, params, false);
}

}  // namespace adj::fracture
