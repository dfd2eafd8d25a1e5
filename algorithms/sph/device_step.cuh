#pragma once

// Internal to algorithms/sph: the device's copy of a fluid and one step of
// it on a stream (cuda.cu), shared by the variant table's CUDA rows (host
// memory in and out every step) and DeviceState (the fluid kept on the
// device), so that both run one implementation of the sort, gather and
// passes.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/sph/device_state.h"
#include "algorithms/sph/physics.h"
#include "algorithms/sph/sph.h"

namespace adj::sph::device {

// The three forms of a step: the three passes with the rows searched in
// each (sorted_gather's), with the neighbours listed by the density pass
// (Algorithm 1 with neighbour lists), or one collapsed pass (Algorithm 3:
// pressures from the densities of t-1).
using Form = DeviceState::Form;

// Page-locked host memory: the device copies it at the bus's speed and
// asynchronously, which pageable memory allows neither of.
template <typename T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    if (count > 0) {
      cuda::Check(cudaHostAlloc(reinterpret_cast<void**>(&data_),
                                count * sizeof(T), cudaHostAllocDefault),
                  "cudaHostAlloc");
    }
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        count_(std::exchange(other.count_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  ~PinnedBuffer() {
    if (data_ != nullptr) cudaFreeHost(data_);
  }
  T* data() const { return data_; }
  std::size_t size() const { return count_; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// A stream of its own, so that one fluid's copies and kernels queue behind
// each other and nothing else (non-blocking: not behind the legacy default
// stream either).
class Stream {
 public:
  Stream() {
    cuda::Check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking),
                "cudaStreamCreateWithFlags");
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { cudaStreamDestroy(stream_); }
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

class Event {
 public:
  explicit Event(bool timing) {
    cuda::Check(
        cudaEventCreateWithFlags(
            &event_, timing ? cudaEventDefault : cudaEventDisableTiming),
        "cudaEventCreateWithFlags");
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { cudaEventDestroy(event_); }
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

// Everything one fluid keeps on the device and for its copies, grown as
// needed and kept from step to step. A step reads the arrays of
// `current` and writes the other set (a force pass never overwrites its
// own input, so a step can run again from it), then `current` flips.
struct Stepper {
  Stream stream;
  Event start{true};
  Event stop{true};
  // One per chunk of a download, signalling the host that its bytes are in
  // the staging buffer.
  std::vector<std::unique_ptr<Event>> chunk_done;
  std::size_t n = 0;  // the particles held
  int current = 0;
  // x, y, z, vx, vy, vz, density: n floats each.
  cuda::DeviceBuffer<float> arrays[2];
  cuda::DeviceBuffer<float> mass;
  cuda::DeviceBuffer<float4> position_mass, velocity_pressure;
  cuda::DeviceBuffer<float> inverse, density;
  cuda::DeviceBuffer<unsigned long long> keys, sorted_keys;
  // interactions, candidates, the longest overflowing list, the first
  // particle the finished-step test flagged (all ones: none)
  cuda::DeviceBuffer<unsigned long long> counter;
  cuda::DeviceBuffer<std::uint32_t> ids, sorted_ids, cell_start;
  cuda::DeviceBuffer<std::uint32_t> neighbors, neighbor_count;
  std::uint32_t list_capacity = 0;
  cuda::DeviceBuffer<unsigned char> temp;
  // 8 arrays of n floats (the 7 above and mass), the host side of every
  // copy.
  PinnedBuffer<float> staging;
  PinnedBuffer<unsigned long long> counts{5};
};

// Room for a step of `n` particles under `params` in `form` (device
// buffers and staging). The device's free memory is checked against what
// must be allocated before anything is: a shortfall throws Error naming
// both. The fluid held is lost where buffers grow (the caller uploads).
void Reserve(Stepper& stepper, std::size_t n, const Params& params, Form form);

// `state` (stepper.n particles) into the current arrays, through the
// staging buffer in chunks, each chunk's copy to the device overlapping
// the host's copy (detail::StagingCopy) of the next into staging;
// densities only when `with_density` (a step that does not read them
// overwrites them). The copies are queued on the stream, not awaited.
void Upload(Stepper& stepper, const State& state, bool with_density);

// The current arrays (and the masses, when `with_mass`) into `state`,
// which must hold stepper.n particles; returns when they are there.
void Download(Stepper& stepper, State& state, bool with_mass);

struct Stepped {
  StepReport report;
  // A particle's result is not finite: the host's detail::CheckFinished on
  // the state decides and names it.
  bool suspect = false;
  // The first particle, in the state's order, whose step before the wall's
  // response was longer than the bound, with that step: what the host's
  // variants note as they integrate.
  detail::Overstep overstep;
  bool Checked() const {
    return suspect || overstep.particle != detail::Overstep::kNone;
  }
};

// One step of the held fluid on the stream, awaited: the sort, gather and
// passes of `form`, reading the current arrays and making the written
// ones current. Reserve(stepper, stepper.n, params, form) first.
Stepped Step(Stepper& stepper, const Params& params, Form form);

}  // namespace adj::sph::device
