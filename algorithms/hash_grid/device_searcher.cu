#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/hash_grid/device.cuh"
#include "algorithms/hash_grid/device_searcher.h"

namespace adj::hash_grid {

struct DeviceSearcher::Buffers {
  std::size_t n;
  Params params;
  cuda::DeviceBuffer<float> x;
  cuda::DeviceBuffer<float> y;
  cuda::DeviceBuffer<float> z;
  device::Lists lists;
};

DeviceSearcher::DeviceSearcher(const Points& points, const Params& params) {
  cuda::RequireDevice();
  const std::size_t n = points.size();
  buffers_.reset(new Buffers{n, params, cuda::DeviceBuffer<float>(n),
                             cuda::DeviceBuffer<float>(n),
                             cuda::DeviceBuffer<float>(n), device::Lists{}});
  if (n > 0) {
    buffers_->x.CopyFromHost(points.x.data(), n);
    buffers_->y.CopyFromHost(points.y.data(), n);
    buffers_->z.CopyFromHost(points.z.data(), n);
  }
}

DeviceSearcher::~DeviceSearcher() = default;

double DeviceSearcher::TimeLists() {
  Buffers& b = *buffers_;
  return cuda::TimeOnDevice([&] {
    device::CellOrderLists(b.x.data(), b.y.data(), b.z.data(), b.n, b.params,
                           b.lists);
  });
}

Neighbors DeviceSearcher::Lists() const {
  const Buffers& b = *buffers_;
  Neighbors out;
  out.list = ListKind::kFull;
  out.order = RowOrder::kCell;
  out.candidates = b.lists.candidates;
  out.csr.offsets.resize(b.n + 1);
  b.lists.offsets.CopyToHost(out.csr.offsets.data(), b.n + 1);
  out.csr.indices.resize(b.lists.entries);
  if (b.lists.entries > 0) {
    b.lists.indices.CopyToHost(out.csr.indices.data(), b.lists.entries);
  }
  return out;
}

}  // namespace adj::hash_grid
