// lock_free on the GPU (as the usual open-addressing GPU hash tables): the
// slots live in device memory, one thread per key claims the first free slot of
// its linear probe with atomicCAS, and a device counter reserves capacity so
// that the set never holds more than its capacity and a probe always meets a
// free slot. Single operations run as one-key batches.
//
// A reservation is taken before the key is known to be new, and given back
// when the probe meets the key (another thread of the batch stored it). So a
// refusal can be transient: at capacity - 1, two threads holding the same
// key and a third with another key may see the counter full for a moment
// although one of the two will give its reservation back. Refused keys are
// therefore collected and inserted again once the kernel has ended and every
// reservation has settled; only a key refused when the settled count has
// reached the capacity, and not stored by then, makes the set full. Each
// pass stores a key or finds one present, so the passes end.
//
// device.cuh is the entry on device memory (a pass, a lookup); the class
// below wraps it with the copies and the retries.
#include <algorithm>
#include <utility>
#include <vector>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/hash_set/device.cuh"
#include "algorithms/hash_set/hash_set.h"
#include "algorithms/hash_set/variants.h"

namespace adj::hash_set {
namespace {

constexpr unsigned kBlock = 256;

using device::Counters;

enum InsertResult : int { kPresent = 0, kStored = 1, kRefused = -1 };

// `reserved` is the only counter every insert touches, so that one contended
// atomic per key, not three, is the cost of keeping the capacity.
__device__ InsertResult InsertKey(std::uint32_t* slots, std::size_t mask,
                                  std::uint32_t key, std::size_t capacity,
                                  Counters* counters) {
  bool reserved = false;
  for (std::size_t slot = HomeSlot(key, mask);; slot = (slot + 1) & mask) {
    const std::uint32_t seen =
        reinterpret_cast<volatile std::uint32_t*>(slots)[slot];
    if (seen == key) {
      if (reserved) atomicAdd(&counters->reserved, ~0ull);  // -1
      return kPresent;
    }
    if (seen != kEmptyKey) continue;
    if (!reserved) {
      if (atomicAdd(&counters->reserved, 1ull) >= capacity) {
        atomicAdd(&counters->reserved, ~0ull);
        return kRefused;
      }
      reserved = true;
    }
    const std::uint32_t previous = atomicCAS(slots + slot, kEmptyKey, key);
    if (previous == kEmptyKey) return kStored;
    if (previous == key) {
      atomicAdd(&counters->reserved, ~0ull);
      return kPresent;
    }
  }
}

// Refused keys are appended to `refused` for the next pass.
__global__ void InsertKernel(device::Table table, const std::uint32_t* keys,
                             std::size_t n, std::uint32_t* refused) {
  const std::size_t i =
      static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t key = keys[i];
  if (InsertKey(table.slots, table.mask, key, table.capacity, table.counters) ==
      kRefused) {
    refused[atomicAdd(&table.counters->refused, 1ull)] = key;
  }
}

__global__ void ContainsKernel(const std::uint32_t* slots, std::size_t mask,
                               const std::uint32_t* keys, std::size_t n,
                               std::uint8_t* found) {
  const std::size_t i =
      static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  found[i] = device::Holds(slots, mask, keys[i]) ? 1 : 0;
}

unsigned Blocks(std::size_t n) {
  return static_cast<unsigned>((n + kBlock - 1) / kBlock);
}

}  // namespace

namespace device {

void Clear(const Table& table, cudaStream_t stream) {
  cuda::Check(cudaMemsetAsync(table.slots, 0xFF,
                              (table.mask + 1) * sizeof(std::uint32_t), stream),
              "cudaMemsetAsync");
  cuda::Check(cudaMemsetAsync(table.counters, 0, sizeof(Counters), stream),
              "cudaMemsetAsync");
}

void InsertPass(const Table& table, const std::uint32_t* keys, std::size_t n,
                std::uint32_t* refused, cudaStream_t stream) {
  cuda::Check(cudaMemsetAsync(&table.counters->refused, 0,
                              sizeof(unsigned long long), stream),
              "cudaMemsetAsync");
  if (n == 0) return;
  InsertKernel<<<Blocks(n), kBlock, 0, stream>>>(table, keys, n, refused);
  cuda::Check(cudaGetLastError(), "hash_set: insert kernel");
}

void ContainsAll(const Table& table, const std::uint32_t* keys, std::size_t n,
                 std::uint8_t* found, cudaStream_t stream) {
  if (n == 0) return;
  ContainsKernel<<<Blocks(n), kBlock, 0, stream>>>(table.slots, table.mask,
                                                   keys, n, found);
  cuda::Check(cudaGetLastError(), "hash_set: lookup kernel");
}

}  // namespace device

namespace {

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
  std::size_t Size() const override {
    return static_cast<std::size_t>(Read().reserved);
  }
  std::size_t Capacity() const override { return capacity_; }
  void Clear() override {
    device::Clear(View(), nullptr);
    cuda::Check(cudaDeviceSynchronize(), "hash_set: clear");
  }
  std::size_t InsertAll(std::span<const std::uint32_t> keys) override {
    for (const std::uint32_t key : keys) CheckKey(key);
    if (keys.empty()) return 0;
    const std::size_t before = Size();
    cuda::DeviceBuffer<std::uint32_t>& pending = Grown(keys_, keys.size());
    cuda::DeviceBuffer<std::uint32_t>& refused = Grown(refused_, keys.size());
    pending.CopyFromHost(keys.data(), keys.size());
    for (std::size_t n = keys.size(); n > 0;) {
      device::InsertPass(View(), pending.data(), n, refused.data(), nullptr);
      cuda::Check(cudaDeviceSynchronize(), "hash_set: insert kernel");
      const Counters counters = Read();
      n = static_cast<std::size_t>(counters.refused);
      if (n > 0 && counters.reserved >= capacity_) {
        // Settled at capacity: a refused key not stored since is one too many.
        std::vector<std::uint8_t> found(n);
        std::vector<std::uint32_t> waiting(n);
        refused.CopyToHost(waiting.data(), n);
        ContainsAll(waiting, found);
        if (std::find(found.begin(), found.end(), 0) != found.end()) {
          ThrowFull(capacity_);
        }
        n = 0;
      }
      std::swap(pending, refused);  // the buffers, not the references
    }
    return Size() - before;
  }
  void ContainsAll(std::span<const std::uint32_t> keys,
                   std::span<std::uint8_t> found) const override {
    CheckFoundSize(keys, found);
    if (keys.empty()) return;
    cuda::DeviceBuffer<std::uint32_t>& d_keys = Grown(keys_, keys.size());
    cuda::DeviceBuffer<std::uint8_t>& d_found = Grown(found_, keys.size());
    d_keys.CopyFromHost(keys.data(), keys.size());
    device::ContainsAll(View(), d_keys.data(), keys.size(), d_found.data(),
                        nullptr);
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
  device::Table View() const {
    return {slots_.data(), mask_, capacity_, counters_.data()};
  }

  // Scratch for the keys in flight, kept between calls and grown on demand,
  // so that repeated bulk calls pay no cudaMalloc and cudaFree.
  template <typename T>
  static cuda::DeviceBuffer<T>& Grown(cuda::DeviceBuffer<T>& buffer,
                                      std::size_t count) {
    if (buffer.size() < count) {
      buffer = cuda::DeviceBuffer<T>();
      buffer = cuda::DeviceBuffer<T>(count);
    }
    return buffer;
  }

  Counters Read() const {
    Counters counters{};
    counters_.CopyToHost(&counters, 1);
    return counters;
  }

  std::size_t capacity_;
  cuda::DeviceBuffer<std::uint32_t> slots_;
  cuda::DeviceBuffer<Counters> counters_;
  std::size_t mask_ = 0;
  mutable cuda::DeviceBuffer<std::uint32_t> keys_;
  mutable cuda::DeviceBuffer<std::uint32_t> refused_;
  mutable cuda::DeviceBuffer<std::uint8_t> found_;
};

}  // namespace

std::unique_ptr<Set> MakeCudaLockFree(std::size_t capacity) {
  return std::make_unique<CudaLockFree>(capacity);
}

}  // namespace adj::hash_set
