#include <unordered_set>

#include "algorithms/hash_set/capped_set.h"
#include "algorithms/hash_set/hash_set.h"
#include "algorithms/hash_set/variants.h"

namespace adj::hash_set {

std::unique_ptr<Set> MakeStdUnordered(std::size_t capacity) {
  return std::make_unique<CappedSet<std::unordered_set<std::uint32_t>>>(
      capacity);
}

}  // namespace adj::hash_set
