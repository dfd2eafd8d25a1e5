#pragma once

#include <string>

#include "algorithms/common/backend.h"

namespace adj::cuda {

// Whether CUDA variants can run here: false, with the reason, in a build
// without CUDA, without a driver, or without a device. Asks the runtime once
// and caches the answer; never aborts.
const Availability& Available();

// The name of device 0 ("" when !Available()), for benchmark context.
std::string DeviceName();

}  // namespace adj::cuda
