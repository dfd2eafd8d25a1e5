// Abseil's absl::flat_hash_set<uint32_t> (Swiss tables: SIMD-probed control
// bytes beside open-addressed slots), reserved for the capacity up front
// as its documentation advises when the size is known, behind the family's
// capacity limit. One thread, as the set is not concurrent.
#include "algorithms/hash_set/hash_set.h"
#include "algorithms/hash_set/variants.h"

#if ADJ_HAVE_PEER_ABSEIL
#include <absl/container/flat_hash_set.h>
#endif

namespace adj::hash_set {
namespace {

#if ADJ_HAVE_PEER_ABSEIL
class AbslFlatHashSet final : public SerialBulkSet {
 public:
  explicit AbslFlatHashSet(std::size_t capacity) : capacity_(capacity) {
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
  absl::flat_hash_set<std::uint32_t> keys_;
};
#endif

}  // namespace

std::unique_ptr<Set> MakeAbslFlatHashSet(std::size_t capacity) {
#if ADJ_HAVE_PEER_ABSEIL
  return std::make_unique<AbslFlatHashSet>(capacity);
#else
  (void)capacity;
  throw Unavailable("absl_flat_hash_set: Abseil was not found at build time");
#endif
}

}  // namespace adj::hash_set
