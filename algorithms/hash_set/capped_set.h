#pragma once

// Internal to the family: a set container for one thread (std's, Abseil's)
// behind the family's contract: the capacity limit and the reserved key.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/hash_set/hash_set.h"

namespace adj::hash_set {

// `Container` has reserve, size, contains, insert, clear and iterators, as
// std::unordered_set<uint32_t> and absl::flat_hash_set<uint32_t> do.
template <typename Container>
class CappedSet final : public SerialBulkSet {
 public:
  explicit CappedSet(std::size_t capacity) : capacity_(capacity) {
    CheckCapacity(capacity);
    keys_.reserve(capacity);
  }
  bool Insert(std::uint32_t key) override {
    CheckKey(key);
    if (keys_.size() == capacity_ && !keys_.contains(key)) ThrowFull(capacity_);
    return keys_.insert(key).second;
  }
  bool Contains(std::uint32_t key) const override {
    return keys_.contains(key);
  }
  std::size_t Size() const override { return keys_.size(); }
  std::size_t Capacity() const override { return capacity_; }
  void Clear() override { keys_.clear(); }
  std::vector<std::uint32_t> Keys() const override {
    return {keys_.begin(), keys_.end()};
  }

 private:
  std::size_t capacity_;
  Container keys_;
};

}  // namespace adj::hash_set
