#pragma once

// CUDA glue shared by every .cu file of the suite: errors become adj::Error
// (never an abort), device memory is owned by RAII buffers.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

#include "algorithms/common/cuda.h"
#include "algorithms/common/errors.h"

namespace adj::cuda {

inline void Check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw Error(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

// Throws adj::Unavailable with the reason when no device can run kernels.
inline void RequireDevice() {
  const Availability& availability = Available();
  if (!availability.available) throw Unavailable(availability.reason);
}

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count > 0) {
      Check(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)),
            "cudaMalloc");
    }
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  ~DeviceBuffer() {
    if (data_ != nullptr) cudaFree(data_);
  }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }

  void CopyFromHost(const T* host, std::size_t count) {
    Check(cudaMemcpy(data_, host, count * sizeof(T), cudaMemcpyHostToDevice),
          "cudaMemcpy to device");
  }
  void CopyToHost(T* host, std::size_t count) const {
    Check(cudaMemcpy(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost),
          "cudaMemcpy to host");
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// Times work enqueued on the default stream with CUDA events: the seconds
// between the two events, as the GPU saw them. The events are destroyed
// whatever `enqueue` throws.
template <typename Enqueue>
double TimeOnDevice(Enqueue&& enqueue) {
  struct Event {
    cudaEvent_t event = nullptr;
    Event() { Check(cudaEventCreate(&event), "cudaEventCreate"); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event() { cudaEventDestroy(event); }
  };
  const Event start;
  const Event stop;
  Check(cudaEventRecord(start.event), "cudaEventRecord");
  enqueue();
  Check(cudaEventRecord(stop.event), "cudaEventRecord");
  Check(cudaEventSynchronize(stop.event), "cudaEventSynchronize");
  float milliseconds = 0;
  Check(cudaEventElapsedTime(&milliseconds, start.event, stop.event),
        "cudaEventElapsedTime");
  return milliseconds * 1e-3;
}

}  // namespace adj::cuda
