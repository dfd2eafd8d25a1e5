#include "algorithms/common/cuda.h"

#include <string>

#if ADJ_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace adj::cuda {
namespace {

Availability Probe() {
#if ADJ_HAVE_CUDA
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    // Clear the sticky error so that later calls start clean.
    cudaGetLastError();
    return {false, std::string("no usable CUDA device: ") +
                       cudaGetErrorString(status)};
  }
  if (count == 0) return {false, "no CUDA device found"};
  return {true, ""};
#else
  return {false, "built without CUDA (no CUDA compiler at configure time)"};
#endif
}

}  // namespace

const Availability& Available() {
  static const Availability availability = Probe();
  return availability;
}

std::string DeviceName() {
#if ADJ_HAVE_CUDA
  if (!Available().available) return "";
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) return "";
  return properties.name;
#else
  return "";
#endif
}

}  // namespace adj::cuda
