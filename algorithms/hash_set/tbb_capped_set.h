#pragma once

// Internal to the family: a oneTBB concurrent container behind the
// family's contract. A key not yet present reserves a place on an atomic
// counter before it is inserted and gives it back if another thread
// inserted it first, so no more than `capacity` keys are ever stored, and
// the set is full only when `capacity` keys are stored. Bulk
// operations by tbb::parallel_for on oneTBB's threads.

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <thread>
#include <vector>

#include "algorithms/hash_set/hash_set.h"

namespace adj::hash_set {

// `Access` names the container (Access::Container, which has rehash, size
// and clear) and how a key is looked up (Has, thread-safe), added (Add,
// thread-safe: true when it was new) and read back from an element
// (KeyOf), the parts in which oneTBB's containers differ.
template <typename Access>
class TbbCappedSet final : public Set {
 public:
  explicit TbbCappedSet(std::size_t capacity) : capacity_(capacity) {
    CheckCapacity(capacity);
    keys_.rehash(capacity);
  }
  bool Insert(std::uint32_t key) override {
    CheckKey(key);
    if (!Reserve(key)) return false;
    bool added = false;
    try {
      added = Access::Add(keys_, key);
    } catch (...) {
      // A place held forever would make Reserve wait forever.
      reserved_.fetch_sub(1, std::memory_order_relaxed);
      throw;
    }
    if (!added) reserved_.fetch_sub(1, std::memory_order_relaxed);
    return added;
  }
  bool Contains(std::uint32_t key) const override {
    return Access::Has(keys_, key);
  }
  std::size_t Size() const override { return keys_.size(); }
  std::size_t Capacity() const override { return capacity_; }
  void Clear() override {
    keys_.clear();
    reserved_.store(0, std::memory_order_relaxed);
  }
  std::size_t InsertAll(std::span<const std::uint32_t> keys) override {
    for (const std::uint32_t key : keys) CheckKey(key);
    std::atomic<std::size_t> added{0};
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, keys.size()),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        std::size_t mine = 0;
                        for (std::size_t i = range.begin(); i < range.end();
                             ++i) {
                          mine += Insert(keys[i]);
                        }
                        added.fetch_add(mine, std::memory_order_relaxed);
                      });
    return added.load();
  }
  void ContainsAll(std::span<const std::uint32_t> keys,
                   std::span<std::uint8_t> found) const override {
    CheckFoundSize(keys, found);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, keys.size()),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t i = range.begin(); i < range.end();
                             ++i) {
                          found[i] = Contains(keys[i]) ? 1 : 0;
                        }
                      });
  }
  std::vector<std::uint32_t> Keys() const override {
    std::vector<std::uint32_t> keys;
    keys.reserve(keys_.size());
    for (const auto& element : keys_) keys.push_back(Access::KeyOf(element));
    return keys;
  }

 private:
  // True when `key` holds a place; false when it is already stored. All
  // places taken does not yet mean full: another thread may hold one for
  // this very key (a duplicate in the same InsertAll) or for a key it will
  // find present and give back. Only stored keys filling the capacity make
  // the set full, so until then the place is waited for.
  bool Reserve(std::uint32_t key) {
    std::size_t taken = reserved_.load(std::memory_order_relaxed);
    while (true) {
      if (Access::Has(keys_, key)) return false;
      if (taken < capacity_) {
        if (reserved_.compare_exchange_weak(taken, taken + 1,
                                            std::memory_order_relaxed)) {
          return true;
        }
        continue;
      }
      if (keys_.size() >= capacity_) {
        if (Access::Has(keys_, key)) return false;
        ThrowFull(capacity_);
      }
      std::this_thread::yield();
      taken = reserved_.load(std::memory_order_relaxed);
    }
  }

  std::size_t capacity_;
  std::atomic<std::size_t> reserved_{0};
  typename Access::Container keys_;
};

}  // namespace adj::hash_set
