#include "algorithms/common/fault_points.h"

#include <mutex>
#include <new>

namespace adj::fault {
namespace {

std::mutex mutex;
std::string planted;  // guarded by mutex
bool armed = false;   // guarded by mutex: the next pass throws
int strikes = 0;      // guarded by mutex

}  // namespace

namespace detail {

std::atomic<bool> planted_any{false};

void Strike(const char* point) {
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (!armed || planted != point) return;
    armed = false;
    ++strikes;
  }
  throw std::bad_alloc();
}

}  // namespace detail

void Plant(std::string_view point) {
  const std::lock_guard<std::mutex> lock(mutex);
  planted = std::string(point);
  armed = true;
  strikes = 0;
  detail::planted_any.store(true, std::memory_order_relaxed);
}

void Clear() {
  const std::lock_guard<std::mutex> lock(mutex);
  planted.clear();
  armed = false;
  strikes = 0;
  detail::planted_any.store(false, std::memory_order_relaxed);
}

int Strikes() {
  const std::lock_guard<std::mutex> lock(mutex);
  return strikes;
}

}  // namespace adj::fault
