// lock_free on the GPU (as the GPU hash tables of the notes): the slots live
// in device memory, one thread per key claims the first free slot of its
// linear probe with atomicCAS, and a device counter reserves capacity so
// that a full table ends the probe with an error flag, never a spin. Single
// operations run as one-key batches. UNVERIFIED until it runs on a GPU.
#include <algorithm>
#include <vector>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/hash_set/hash_set.h"

namespace adj::hash_set {
namespace {

constexpr unsigned kBlock = 256;

struct Counters {
  unsigned long long reserved;
  unsigned long long size;
  unsigned long long added;
  int full;
};

__device__ int InsertKey(std::uint32_t* slots, std::size_t mask,
                         std::uint32_t key, std::size_t capacity,
                         Counters* counters) {
  bool reserved = false;
  for (std::size_t slot = HomeSlot(key, mask);; slot = (slot + 1) & mask) {
    const std::uint32_t seen =
        reinterpret_cast<volatile std::uint32_t*>(slots)[slot];
    if (seen == key) {
      if (reserved) atomicAdd(&counters->reserved, ~0ull);  // -1
      return 0;
    }
    if (seen != kEmptyKey) continue;
    if (!reserved) {
      if (atomicAdd(&counters->reserved, 1ull) >= capacity) {
        atomicAdd(&counters->reserved, ~0ull);
        if (reinterpret_cast<volatile std::uint32_t*>(slots)[slot] == key) {
          return 0;
        }
        atomicExch(&counters->full, 1);
        return -1;
      }
      reserved = true;
    }
    const std::uint32_t previous = atomicCAS(slots + slot, kEmptyKey, key);
    if (previous == kEmptyKey) {
      atomicAdd(&counters->size, 1ull);
      return 1;
    }
    if (previous == key) {
      atomicAdd(&counters->reserved, ~0ull);
      return 0;
    }
  }
}

__global__ void InsertKernel(std::uint32_t* slots, std::size_t mask,
                             const std::uint32_t* keys, std::size_t n,
                             std::size_t capacity, Counters* counters) {
  const std::size_t i =
      static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (InsertKey(slots, mask, keys[i], capacity, counters) == 1) {
    atomicAdd(&counters->added, 1ull);
  }
}

__global__ void ContainsKernel(const std::uint32_t* slots, std::size_t mask,
                               const std::uint32_t* keys, std::size_t n,
                               std::uint8_t* found) {
  const std::size_t i =
      static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t key = keys[i];
  std::uint8_t hit = 0;
  if (key != kEmptyKey) {
    for (std::size_t slot = HomeSlot(key, mask);; slot = (slot + 1) & mask) {
      const std::uint32_t seen = slots[slot];
      if (seen == key) {
        hit = 1;
        break;
      }
      if (seen == kEmptyKey) break;
    }
  }
  found[i] = hit;
}

unsigned Blocks(std::size_t n) {
  return static_cast<unsigned>((n + kBlock - 1) / kBlock);
}

class CudaLockFree final : public Set {
 public:
  explicit CudaLockFree(std::size_t capacity)
      : capacity_(capacity),
        slots_((CheckCapacity(capacity), cuda::RequireDevice(),
                SlotsFor(capacity))),
        counters_(1) {
    mask_ = slots_.size() - 1;
    Clear();
  }

  bool Insert(std::uint32_t key) override {
    const std::uint32_t one[1] = {key};
    return InsertAll(one) == 1;
  }
  bool Contains(std::uint32_t key) const override {
    const std::uint32_t one[1] = {key};
    std::uint8_t found[1] = {0};
    ContainsAll(one, found);
    return found[0] == 1;
  }
  std::size_t Size() const override { return Read().size; }
  std::size_t Capacity() const override { return capacity_; }
  void Clear() override {
    cuda::Check(
        cudaMemset(slots_.data(), 0xFF, slots_.size() * sizeof(std::uint32_t)),
        "cudaMemset");
    cuda::Check(cudaMemset(counters_.data(), 0, sizeof(Counters)),
                "cudaMemset");
  }
  std::size_t InsertAll(std::span<const std::uint32_t> keys) override {
    for (const std::uint32_t key : keys) CheckKey(key);
    if (keys.empty()) return 0;
    cuda::DeviceBuffer<std::uint32_t> d_keys(keys.size());
    d_keys.CopyFromHost(keys.data(), keys.size());
    Counters counters = Read();
    counters.added = 0;
    counters.full = 0;
    counters_.CopyFromHost(&counters, 1);
    InsertKernel<<<Blocks(keys.size()), kBlock>>>(slots_.data(), mask_,
                                                  d_keys.data(), keys.size(),
                                                  capacity_, counters_.data());
    cuda::Check(cudaGetLastError(), "hash_set: insert kernel");
    cuda::Check(cudaDeviceSynchronize(), "hash_set: insert kernel");
    counters = Read();
    if (counters.full != 0) ThrowFull(capacity_);
    return static_cast<std::size_t>(counters.added);
  }
  void ContainsAll(std::span<const std::uint32_t> keys,
                   std::span<std::uint8_t> found) const override {
    CheckFoundSize(keys, found);
    if (keys.empty()) return;
    cuda::DeviceBuffer<std::uint32_t> d_keys(keys.size());
    cuda::DeviceBuffer<std::uint8_t> d_found(keys.size());
    d_keys.CopyFromHost(keys.data(), keys.size());
    ContainsKernel<<<Blocks(keys.size()), kBlock>>>(
        slots_.data(), mask_, d_keys.data(), keys.size(), d_found.data());
    cuda::Check(cudaGetLastError(), "hash_set: lookup kernel");
    d_found.CopyToHost(found.data(), keys.size());
  }
  std::vector<std::uint32_t> Keys() const override {
    std::vector<std::uint32_t> slots(slots_.size());
    slots_.CopyToHost(slots.data(), slots.size());
    slots.erase(std::remove(slots.begin(), slots.end(), kEmptyKey),
                slots.end());
    return slots;
  }

 private:
  Counters Read() const {
    Counters counters{};
    counters_.CopyToHost(&counters, 1);
    return counters;
  }

  std::size_t capacity_;
  cuda::DeviceBuffer<std::uint32_t> slots_;
  cuda::DeviceBuffer<Counters> counters_;
  std::size_t mask_ = 0;
};

}  // namespace

std::unique_ptr<Set> MakeCudaLockFree(std::size_t capacity) {
  return std::make_unique<CudaLockFree>(capacity);
}

}  // namespace adj::hash_set
