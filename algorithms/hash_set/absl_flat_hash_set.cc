// Abseil's absl::flat_hash_set<uint32_t> (Swiss tables: SIMD-probed control
// bytes beside open-addressed slots), reserved for the capacity up front
// as its documentation advises when the size is known, behind the family's
// capacity limit. One thread, as the set is not concurrent.
#include "algorithms/hash_set/hash_set.h"
#include "algorithms/hash_set/variants.h"

#if ADJ_HAVE_PEER_ABSEIL
#include <absl/container/flat_hash_set.h>

#include "algorithms/hash_set/capped_set.h"
#endif

namespace adj::hash_set {

std::unique_ptr<Set> MakeAbslFlatHashSet(std::size_t capacity) {
#if ADJ_HAVE_PEER_ABSEIL
  return std::make_unique<CappedSet<absl::flat_hash_set<std::uint32_t>>>(
      capacity);
#else
  (void)capacity;
  throw Unavailable("absl_flat_hash_set: Abseil was not found at build time");
#endif
}

}  // namespace adj::hash_set
