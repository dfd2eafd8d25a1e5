// oneTBB's tbb::concurrent_unordered_set<uint32_t> (split-ordered lists:
// concurrent insert and lookup, no concurrent erase), behind the family's
// capacity limit: a key not yet present reserves a place on an atomic
// counter before it is inserted and gives it back if another thread
// inserted it first, so no more than `capacity` keys are ever stored. Bulk
// operations by tbb::parallel_for on oneTBB's threads.
#include "algorithms/hash_set/hash_set.h"
#include "algorithms/hash_set/variants.h"

#if ADJ_HAVE_PEER_ONETBB
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/concurrent_unordered_set.h>
#include <oneapi/tbb/parallel_for.h>

#include <atomic>
#endif

namespace adj::hash_set {
namespace {

#if ADJ_HAVE_PEER_ONETBB
class TbbConcurrentSet final : public Set {
 public:
  explicit TbbConcurrentSet(std::size_t capacity) : capacity_(capacity) {
    CheckCapacity(capacity);
    keys_.rehash(capacity);
  }
  bool Insert(std::uint32_t key) override {
    CheckKey(key);
    if (keys_.contains(key)) return false;
    if (reserved_.fetch_add(1, std::memory_order_relaxed) >= capacity_) {
      reserved_.fetch_sub(1, std::memory_order_relaxed);
      if (keys_.contains(key)) return false;  // inserted meanwhile
      ThrowFull(capacity_);
    }
    if (keys_.insert(key).second) return true;
    reserved_.fetch_sub(1, std::memory_order_relaxed);
    return false;
  }
  bool Contains(std::uint32_t key) const override {
    return keys_.contains(key);
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
    return {keys_.begin(), keys_.end()};
  }

 private:
  std::size_t capacity_;
  std::atomic<std::size_t> reserved_{0};
  tbb::concurrent_unordered_set<std::uint32_t> keys_;
};
#endif

}  // namespace

std::unique_ptr<Set> MakeTbbConcurrentSet(std::size_t capacity) {
#if ADJ_HAVE_PEER_ONETBB
  return std::make_unique<TbbConcurrentSet>(capacity);
#else
  (void)capacity;
  throw Unavailable("tbb_concurrent_set: oneTBB was not found at build time");
#endif
}

}  // namespace adj::hash_set
