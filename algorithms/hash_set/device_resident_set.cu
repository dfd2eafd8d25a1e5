#include <algorithm>
#include <string>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/hash_set/device.cuh"
#include "algorithms/hash_set/device_resident_set.h"
#include "algorithms/hash_set/hash_set.h"

namespace adj::hash_set {

struct DeviceResidentSet::Buffers {
  std::size_t capacity;
  cuda::DeviceBuffer<std::uint32_t> slots;
  cuda::DeviceBuffer<device::Counters> counters;
  cuda::DeviceBuffer<std::uint32_t> keys;
  cuda::DeviceBuffer<std::uint32_t> refused;
  cuda::DeviceBuffer<std::uint32_t> queries;
  cuda::DeviceBuffer<std::uint8_t> found;

  device::Table View() const {
    return {slots.data(), slots.size() - 1, capacity, counters.data()};
  }
};

DeviceResidentSet::DeviceResidentSet(std::size_t capacity,
                                     std::span<const std::uint32_t> keys,
                                     std::span<const std::uint32_t> queries) {
  CheckCapacity(capacity);
  cuda::RequireDevice();
  buffers_.reset(new Buffers{
      capacity, cuda::DeviceBuffer<std::uint32_t>(SlotsFor(capacity)),
      cuda::DeviceBuffer<device::Counters>(1),
      cuda::DeviceBuffer<std::uint32_t>(keys.size()),
      cuda::DeviceBuffer<std::uint32_t>(keys.size()),
      cuda::DeviceBuffer<std::uint32_t>(queries.size()),
      cuda::DeviceBuffer<std::uint8_t>(queries.size())});
  if (!keys.empty()) buffers_->keys.CopyFromHost(keys.data(), keys.size());
  if (!queries.empty()) {
    buffers_->queries.CopyFromHost(queries.data(), queries.size());
  }
  device::Clear(buffers_->View(), nullptr);
  cuda::Check(cudaDeviceSynchronize(), "hash_set: clear");
}

DeviceResidentSet::~DeviceResidentSet() = default;

double DeviceResidentSet::TimeInsert() {
  Buffers& b = *buffers_;
  device::Clear(b.View(), nullptr);
  const double seconds = cuda::TimeOnDevice([&] {
    device::InsertPass(b.View(), b.keys.data(), b.keys.size(), b.refused.data(),
                       nullptr);
  });
  device::Counters counters{};
  b.counters.CopyToHost(&counters, 1);
  if (counters.refused != 0) {
    throw Error("hash_set: the resident insert pass refused " +
                std::to_string(counters.refused) + " keys");
  }
  return seconds;
}

double DeviceResidentSet::TimeLookup() {
  Buffers& b = *buffers_;
  return cuda::TimeOnDevice([&] {
    device::ContainsAll(b.View(), b.queries.data(), b.queries.size(),
                        b.found.data(), nullptr);
  });
}

std::size_t DeviceResidentSet::Size() const {
  device::Counters counters{};
  buffers_->counters.CopyToHost(&counters, 1);
  return static_cast<std::size_t>(counters.reserved);
}

std::vector<std::uint32_t> DeviceResidentSet::Keys() const {
  std::vector<std::uint32_t> slots(buffers_->slots.size());
  buffers_->slots.CopyToHost(slots.data(), slots.size());
  slots.erase(std::remove(slots.begin(), slots.end(), kEmptyKey), slots.end());
  return slots;
}

std::vector<std::uint8_t> DeviceResidentSet::Found() const {
  std::vector<std::uint8_t> found(buffers_->found.size());
  if (!found.empty()) buffers_->found.CopyToHost(found.data(), found.size());
  return found;
}

}  // namespace adj::hash_set
