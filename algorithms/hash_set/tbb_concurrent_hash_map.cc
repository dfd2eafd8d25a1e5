// oneTBB's tbb::concurrent_hash_map<uint32_t, Nothing> used as a set (its
// documented concurrent hash table: element locks through accessors;
// insert of a value and count are safe beside each other), sized for the
// capacity by rehash, behind the family's capacity limit
// (tbb_capped_set.h).
#include "algorithms/hash_set/hash_set.h"
#include "algorithms/hash_set/variants.h"

#if ADJ_HAVE_PEER_ONETBB
#include <oneapi/tbb/concurrent_hash_map.h>

#include "algorithms/hash_set/tbb_capped_set.h"
#endif

namespace adj::hash_set {
namespace {

#if ADJ_HAVE_PEER_ONETBB
// The map's value: a set stores none.
struct Nothing {};

struct HashMapAccess {
  using Container = tbb::concurrent_hash_map<std::uint32_t, Nothing>;
  static bool Has(const Container& keys, std::uint32_t key) {
    return keys.count(key) != 0;
  }
  static bool Add(Container& keys, std::uint32_t key) {
    return keys.insert({key, Nothing{}});
  }
  static std::uint32_t KeyOf(const Container::value_type& element) {
    return element.first;
  }
};
#endif

}  // namespace

std::unique_ptr<Set> MakeTbbConcurrentHashMap(std::size_t capacity) {
#if ADJ_HAVE_PEER_ONETBB
  return std::make_unique<TbbCappedSet<HashMapAccess>>(capacity);
#else
  (void)capacity;
  throw Unavailable(
      "tbb_concurrent_hash_map: oneTBB was not found at build time");
#endif
}

}  // namespace adj::hash_set
