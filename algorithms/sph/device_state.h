#pragma once

// A fluid kept on the GPU between steps (CUDA builds only): uploaded once,
// stepped there by the kernels of the variant table's CUDA rows (the same
// code, so the same bits), downloaded only when asked. The variant table's
// rows take host memory in and give it back every step; a simulation that
// does not need the state on the host each step pays only the device's
// work here. Copies go through page-locked staging on the object's own
// stream. Plain C++, so that benchmarks, tests and bindings compile with
// the host compiler.

#include <cstddef>
#include <memory>
#include <vector>

#include "algorithms/sph/sph.h"

namespace adj::sph {

class DeviceState {
 public:
  // The variant table's CUDA rows: `cuda` (three passes), `cuda_neighbor`
  // (neighbour lists) and `cuda_collapse` (one collapsed pass).
  enum class Form { kThreePass, kNeighborList, kCollapsed };

  // Check(state, params, form == kCollapsed) first, as the row of `form`
  // does: bad input throws Error before anything is allocated. Throws
  // adj::Unavailable without a usable device, and Error where the device
  // has too little free memory for the fluid's buffers (checked before
  // allocating them). Uploads `state`.
  DeviceState(const State& state, const Params& params, Form form);

  // The form of a CUDA row of Variants(), from its Traits (collapsed, else
  // neighbour lists, else three passes); throws Error for a row that is
  // not a CUDA one.
  static Form FormOf(const Variant& row);
  ~DeviceState();
  DeviceState(const DeviceState&) = delete;
  DeviceState& operator=(const DeviceState&) = delete;
  DeviceState(DeviceState&&) noexcept;
  DeviceState& operator=(DeviceState&&) noexcept;

  // Replaces the device's fluid with `state` (of any size), checked as
  // the constructor does; on a throw the device's fluid is unchanged.
  void Upload(const State& state);

  // One step on the device. Its report's device_seconds is the sort and
  // kernels by CUDA events, as the rows report. A blown-up step throws
  // the Error the rows throw (detail::CheckFinished's, naming the first
  // particle); the device then holds that step's result, as a row's state
  // does.
  StepReport Step();
  // `steps` steps, a report each; stops at the first blown-up step,
  // throwing as Step does.
  std::vector<StepReport> Step(int steps);

  // The device's fluid into `state` (resized to it); with
  // `check_finished`, then detail::CheckFinished on it, throwing as a
  // row's step would for that state.
  void Download(State& state, bool check_finished = false) const;

  std::size_t size() const;
  const Params& params() const;
  Form form() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace adj::sph
