// DeviceState: a fluid kept on the device between steps, stepped by the
// variant table's CUDA kernels (device::Step, cuda.cu).
#include <string>
#include <utility>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/sph/device_state.h"
#include "algorithms/sph/device_step.cuh"
#include "algorithms/sph/physics.h"

namespace adj::sph {

struct DeviceState::Impl {
  Params params;
  Form form;
  device::Stepper stepper;
  // The last step's first overstep, which the downloaded state no longer
  // shows (the wall may have stopped the particle).
  detail::Overstep overstep;
};

DeviceState::Form DeviceState::FormOf(const Variant& row) {
  if (row.backend != Backend::kCuda) {
    throw Error("sph: " + std::string(row.name) +
                " is no CUDA row, so it has no device form");
  }
  if (row.traits.update == Update::kUnset) {
    throw Error("sph: " + std::string(row.name) +
                " names no update in its Traits");
  }
  if (row.traits.update == Update::kInPlace) {
    throw Error("sph: " + std::string(row.name) +
                " updates in place, which no device form does");
  }
  if (row.traits.update == Update::kCollapsed) return Form::kCollapsed;
  return row.traits.neighbor_lists ? Form::kNeighborList : Form::kThreePass;
}

DeviceState::DeviceState(const State& state, const Params& params, Form form) {
  Check(state, params, form == Form::kCollapsed);
  cuda::RequireDevice();
  impl_.reset(new Impl{params, form, {}, {}});
  Upload(state);
}

DeviceState::~DeviceState() = default;
DeviceState::DeviceState(DeviceState&&) noexcept = default;
DeviceState& DeviceState::operator=(DeviceState&&) noexcept = default;

void DeviceState::Upload(const State& state) {
  Impl& impl = *impl_;
  Check(state, impl.params, impl.form == Form::kCollapsed);
  device::Stepper& stepper = impl.stepper;
  try {
    device::Reserve(stepper, state.size(), impl.params, impl.form);
    // Every array, the densities too: a download before any step gives
    // back what was uploaded.
    device::Upload(stepper, state, true);
    impl.overstep = {};
    // The staging buffer is the next copy's: wait until the bus has read
    // it.
    cuda::Check(cudaStreamSynchronize(stepper.stream.get()),
                "cudaStreamSynchronize");
  } catch (...) {
    // Buffers may have been replaced: no fluid rather than part of one.
    stepper.n = 0;
    throw;
  }
}

StepReport DeviceState::Step() {
  Impl& impl = *impl_;
  const device::Stepped stepped =
      device::Step(impl.stepper, impl.params, impl.form);
  impl.overstep = stepped.overstep;
  if (stepped.Checked()) {
    // Rare (a blown-up fluid): the whole state to the host, so that the
    // error is the rows' own, naming the same particle.
    State finished;
    Download(finished, true);
  }
  return stepped.report;
}

std::vector<StepReport> DeviceState::Step(int steps) {
  if (steps < 0) {
    throw Error("sph DeviceState: " + std::to_string(steps) + " steps");
  }
  std::vector<StepReport> reports;
  reports.reserve(static_cast<std::size_t>(steps));
  for (int s = 0; s < steps; ++s) reports.push_back(Step());
  return reports;
}

void DeviceState::Download(State& state, bool check_finished) const {
  device::Stepper& stepper = impl_->stepper;
  state.Resize(stepper.n);
  device::Download(stepper, state, true);
  if (check_finished) {
    detail::CheckFinished(state, impl_->params, impl_->overstep);
  }
}

std::size_t DeviceState::size() const { return impl_->stepper.n; }

const Params& DeviceState::params() const { return impl_->params; }

DeviceState::Form DeviceState::form() const { return impl_->form; }

}  // namespace adj::sph
