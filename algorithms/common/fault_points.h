#pragma once

// Planted failures, for the tests that prove no exception leaves a
// parallel region: each region calls Point("<family>.<region>") inside its
// ExceptionTrap, and a test plants that name, runs the variant, and expects
// the std::bad_alloc the point throws (as an allocation failing there
// would) to arrive on the calling thread, once, instead of
// std::terminate. One relaxed load when nothing is planted.

#include <atomic>
#include <string>
#include <string_view>

namespace adj::fault {

namespace detail {
extern std::atomic<bool> planted_any;
void Strike(const char* point);
}  // namespace detail

// The next thread to pass `point` throws std::bad_alloc; later ones pass.
void Plant(std::string_view point);
// Removes what is planted and resets the count.
void Clear();
// How many times a planted point threw since Plant.
int Strikes();

inline void Point(const char* point) {
  if (detail::planted_any.load(std::memory_order_relaxed)) {
    detail::Strike(point);
  }
}

// Plants `point` for its lifetime (tests).
class ScopedPlant {
 public:
  explicit ScopedPlant(std::string_view point) { Plant(point); }
  ~ScopedPlant() { Clear(); }
  ScopedPlant(const ScopedPlant&) = delete;
  ScopedPlant& operator=(const ScopedPlant&) = delete;
};

}  // namespace adj::fault
