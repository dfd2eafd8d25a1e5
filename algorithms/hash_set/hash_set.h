#pragma once

// hash_set: a fixed-capacity set of uint32 keys, what the fracture update
// uses to remember removed particles (GPU hash tables: notes
// components-hashset-scan.md).
//
// Every variant obeys the same contract:
//   - kEmptyKey (0xFFFFFFFF) marks free slots and cannot be a key: inserting
//     it (one at a time or in bulk) throws hash_set::Error; Contains(kEmptyKey)
//     is false;
//   - Insert returns whether the key was new; at most capacity() distinct
//     keys fit: inserting one more throws hash_set::Error (the set keeps
//     what it had), never an endless probe; a key already present is
//     accepted at any fill;
//   - InsertAll inserts every key, on the backend's threads, and returns how
//     many were new (duplicates inside the batch count once); on a full set
//     it throws, with the keys inserted before the error kept;
//   - ContainsAll writes 1 or 0 per key;
//   - Keys() lists the stored keys, each once, in no particular order;
//   - Clear() empties the set, keeping the capacity.
// Concurrency: lock_free's Insert/Contains/InsertAll may be called from many
// threads at once (each key ends up stored once); the others are for one
// thread at a time.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "algorithms/common/errors.h"
#include "algorithms/common/variant.h"

namespace adj::hash_set {

inline constexpr std::uint32_t kEmptyKey =
    std::numeric_limits<std::uint32_t>::max();

class Error : public adj::Error {
 public:
  using adj::Error::Error;
};

class Set {
 public:
  virtual ~Set() = default;
  virtual bool Insert(std::uint32_t key) = 0;
  virtual bool Contains(std::uint32_t key) const = 0;
  virtual std::size_t Size() const = 0;
  virtual std::size_t Capacity() const = 0;
  virtual void Clear() = 0;
  virtual std::size_t InsertAll(std::span<const std::uint32_t> keys) = 0;
  virtual void ContainsAll(std::span<const std::uint32_t> keys,
                           std::span<std::uint8_t> found) const = 0;
  virtual std::vector<std::uint32_t> Keys() const = 0;
};

// The bulk operations of a set used by one thread: one Insert or Contains
// per key.
class SerialBulkSet : public Set {
 public:
  std::size_t InsertAll(std::span<const std::uint32_t> keys) override;
  void ContainsAll(std::span<const std::uint32_t> keys,
                   std::span<std::uint8_t> found) const override;
};

// A set for at most `capacity` keys (capacity > 0, else Error).
using MakeFn = std::unique_ptr<Set>(std::size_t capacity);
// Whether a row's sets take InsertAll and ContainsAll from several threads
// at once (lock_free); the others' calls must take turns.
struct Traits {
  bool concurrent = false;
};
// "concurrent=yes" or "".
std::string TraitsText(const Traits& traits);
using Variant = adj::Variant<MakeFn, Traits>;

// std_unordered, open_addressing, lock_free, and cuda_lock_free when built
// with CUDA.
std::span<const Variant> Variants();

// Shared by the open-addressing variants: slots for `capacity` keys (a power
// of two with at least one slot more than a quarter over capacity, so a
// probe always meets a free slot), the hash (Fibonacci hashing of the key),
// and the checks every variant makes.
std::size_t SlotsFor(std::size_t capacity);
#if defined(__CUDACC__)
#define ADJ_HASH_SET_HD __host__ __device__
#else
#define ADJ_HASH_SET_HD
#endif
ADJ_HASH_SET_HD inline std::size_t HomeSlot(std::uint32_t key,
                                            std::size_t mask) {
  return static_cast<std::size_t>((key * 0x9E3779B1u) >> 7) & mask;
}
void CheckCapacity(std::size_t capacity);
void CheckKey(std::uint32_t key);
[[noreturn]] void ThrowFull(std::size_t capacity);
void CheckFoundSize(std::span<const std::uint32_t> keys,
                    std::span<const std::uint8_t> found);

}  // namespace adj::hash_set
