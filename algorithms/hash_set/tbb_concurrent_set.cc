// oneTBB's tbb::concurrent_unordered_set<uint32_t> (split-ordered lists:
// concurrent insert and lookup, no concurrent erase), behind the family's
// capacity limit (tbb_capped_set.h).
#include "algorithms/hash_set/hash_set.h"
#include "algorithms/hash_set/variants.h"

#if ADJ_HAVE_PEER_ONETBB
#include <oneapi/tbb/concurrent_unordered_set.h>

#include "algorithms/hash_set/tbb_capped_set.h"
#endif

namespace adj::hash_set {
namespace {

#if ADJ_HAVE_PEER_ONETBB
struct UnorderedSetAccess {
  using Container = tbb::concurrent_unordered_set<std::uint32_t>;
  static bool Has(const Container& keys, std::uint32_t key) {
    return keys.contains(key);
  }
  static bool Add(Container& keys, std::uint32_t key) {
    return keys.insert(key).second;
  }
  static std::uint32_t KeyOf(std::uint32_t key) { return key; }
};
#endif

}  // namespace

std::unique_ptr<Set> MakeTbbConcurrentSet(std::size_t capacity) {
#if ADJ_HAVE_PEER_ONETBB
  return std::make_unique<TbbCappedSet<UnorderedSetAccess>>(capacity);
#else
  (void)capacity;
  throw Unavailable("tbb_concurrent_set: oneTBB was not found at build time");
#endif
}

}  // namespace adj::hash_set
