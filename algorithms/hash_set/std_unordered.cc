#include <unordered_set>

#include "algorithms/hash_set/hash_set.h"
#include "algorithms/hash_set/variants.h"

namespace adj::hash_set {
namespace {

class StdUnordered final : public SerialBulkSet {
 public:
  explicit StdUnordered(std::size_t capacity) : capacity_(capacity) {
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
  std::unordered_set<std::uint32_t> keys_;
};

}  // namespace

std::unique_ptr<Set> MakeStdUnordered(std::size_t capacity) {
  return std::make_unique<StdUnordered>(capacity);
}

}  // namespace adj::hash_set
