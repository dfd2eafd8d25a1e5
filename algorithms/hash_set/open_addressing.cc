#include <algorithm>

#include "algorithms/hash_set/hash_set.h"
#include "algorithms/hash_set/look_ahead.h"
#include "algorithms/hash_set/variants.h"

namespace adj::hash_set {
namespace {

class OpenAddressing final : public Set {
 public:
  explicit OpenAddressing(std::size_t capacity) : capacity_(capacity) {
    CheckCapacity(capacity);
    slots_.assign(SlotsFor(capacity), kEmptyKey);
    mask_ = slots_.size() - 1;
  }
  bool Insert(std::uint32_t key) override { return InsertKey(key); }
  bool Contains(std::uint32_t key) const override { return ContainsKey(key); }
  std::size_t InsertAll(std::span<const std::uint32_t> keys) override {
    std::size_t added = 0;
    VisitLookingAhead<true>(
        keys, 0, keys.size(), slots_.data(), mask_,
        [&](std::size_t i) { added += InsertKey(keys[i]); });
    return added;
  }
  void ContainsAll(std::span<const std::uint32_t> keys,
                   std::span<std::uint8_t> found) const override {
    CheckFoundSize(keys, found);
    VisitLookingAhead<false>(
        keys, 0, keys.size(), slots_.data(), mask_,
        [&](std::size_t i) { found[i] = ContainsKey(keys[i]) ? 1 : 0; });
  }
  std::size_t Size() const override { return size_; }
  std::size_t Capacity() const override { return capacity_; }
  void Clear() override {
    std::fill(slots_.begin(), slots_.end(), kEmptyKey);
    size_ = 0;
  }
  std::vector<std::uint32_t> Keys() const override {
    std::vector<std::uint32_t> keys;
    keys.reserve(size_);
    for (const std::uint32_t slot : slots_) {
      if (slot != kEmptyKey) keys.push_back(slot);
    }
    return keys;
  }

 private:
  // Not virtual, so that the bulk loops inline them.
  bool InsertKey(std::uint32_t key) {
    CheckKey(key);
    for (std::size_t slot = HomeSlot(key, mask_);; slot = (slot + 1) & mask_) {
      if (slots_[slot] == key) return false;
      if (slots_[slot] == kEmptyKey) {
        if (size_ == capacity_) ThrowFull(capacity_);
        slots_[slot] = key;
        ++size_;
        return true;
      }
    }
  }
  bool ContainsKey(std::uint32_t key) const {
    if (key == kEmptyKey) return false;
    for (std::size_t slot = HomeSlot(key, mask_);; slot = (slot + 1) & mask_) {
      if (slots_[slot] == key) return true;
      if (slots_[slot] == kEmptyKey) return false;
    }
  }

  std::size_t capacity_;
  std::size_t size_ = 0;
  std::size_t mask_ = 0;
  std::vector<std::uint32_t> slots_;
};

}  // namespace

std::unique_ptr<Set> MakeOpenAddressing(std::size_t capacity) {
  return std::make_unique<OpenAddressing>(capacity);
}

}  // namespace adj::hash_set
