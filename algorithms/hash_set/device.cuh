#pragma once

// hash_set's public device API: cuda_lock_free's table in device memory, for
// families that remember keys on the GPU (the fracture update's removed
// particles) and for timing the kernels alone. Keys are trusted: none is
// kEmptyKey. The enqueuing functions run on `stream` and return without
// waiting (launch errors throw adj::Error); Holds is for other kernels.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "algorithms/hash_set/hash_set.h"

namespace adj::hash_set::device {

// At rest (between passes) `reserved` is the number of stored keys; during
// a pass it also counts reservations not yet given back. `refused` counts
// the keys of the last pass appended to its refused list.
struct Counters {
  unsigned long long reserved;
  unsigned long long refused;
};

// A table of SlotsFor(capacity) slots (a power of two; kEmptyKey = free)
// holding at most `capacity` keys.
struct Table {
  std::uint32_t* slots;
  std::size_t mask;  // slots - 1
  std::size_t capacity;
  Counters* counters;
};

// Empties the table: every slot free, both counters 0.
void Clear(const Table& table, cudaStream_t stream);

// One insert pass of n keys, one thread per key: each key is stored or found
// present, unless its reservation found the table at capacity; then it is
// appended to `refused` (room for n keys) and counted in
// counters->refused (zeroed by the pass). Such a refusal can be transient
// (cuda_lock_free.cu says when): a caller that needs every key inserts the
// refused ones again after the pass, as the cuda_lock_free variant does.
// A batch of distinct keys not yet stored, no more than the room left, is
// never refused.
void InsertPass(const Table& table, const std::uint32_t* keys, std::size_t n,
                std::uint32_t* refused, cudaStream_t stream);

// found[i] = 1 when keys[i] is stored, else 0.
void ContainsAll(const Table& table, const std::uint32_t* keys, std::size_t n,
                 std::uint8_t* found, cudaStream_t stream);

// Whether `key` is stored, for a kernel that reads a table no pass is
// writing.
__device__ inline bool Holds(const std::uint32_t* slots, std::size_t mask,
                             std::uint32_t key) {
  if (key == kEmptyKey) return false;
  for (std::size_t slot = HomeSlot(key, mask);; slot = (slot + 1) & mask) {
    const std::uint32_t seen = slots[slot];
    if (seen == key) return true;
    if (seen == kEmptyKey) return false;
  }
}

}  // namespace adj::hash_set::device
