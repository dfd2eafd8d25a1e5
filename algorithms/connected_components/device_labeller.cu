#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/connected_components/device.cuh"
#include "algorithms/connected_components/device_labeller.h"
#include "algorithms/connected_components/variants.h"

namespace adj::connected_components {

struct DeviceLabeller::Buffers {
  std::uint32_t n;
  cuda::DeviceBuffer<std::uint32_t> offsets;
  cuda::DeviceBuffer<std::uint32_t> indices;
  cuda::DeviceBuffer<std::uint32_t> labels;
};

DeviceLabeller::DeviceLabeller(const Csr& graph) {
  cuda::RequireDevice();
  const std::size_t n = graph.rows();
  buffers_.reset(new Buffers{static_cast<std::uint32_t>(n),
                             cuda::DeviceBuffer<std::uint32_t>(n + 1),
                             cuda::DeviceBuffer<std::uint32_t>(graph.entries()),
                             cuda::DeviceBuffer<std::uint32_t>(n)});
  buffers_->offsets.CopyFromHost(graph.offsets.data(), n + 1);
  if (graph.entries() > 0) {
    buffers_->indices.CopyFromHost(graph.indices.data(), graph.entries());
  }
}

DeviceLabeller::~DeviceLabeller() = default;

double DeviceLabeller::TimeLabels() {
  Buffers& b = *buffers_;
  if (b.n == 0) return 0;
  return cuda::TimeOnDevice([&] {
    device::EclCcLabels(b.offsets.data(), b.indices.data(), b.n,
                        b.labels.data(), nullptr);
  });
}

Components DeviceLabeller::Labels() const {
  Components out;
  out.labels.resize(buffers_->n);
  if (buffers_->n > 0) {
    buffers_->labels.CopyToHost(out.labels.data(), out.labels.size());
  }
  out.count = CountRoots(out.labels);
  return out;
}

}  // namespace adj::connected_components
