#pragma once

#include <functional>
#include <span>

namespace adj {

// Whether `out` shares memory with `in` without being the same array (the
// case an in-place-or-disjoint contract rejects). std::less gives a total
// order on pointers into unrelated arrays.
template <typename T>
bool PartiallyOverlaps(std::span<const T> in, std::span<const T> out) {
  if (in.empty() || out.empty() || in.data() == out.data()) return false;
  const std::less<const T*> before;
  return before(out.data(), in.data() + in.size()) &&
         before(in.data(), out.data() + out.size());
}

}  // namespace adj
