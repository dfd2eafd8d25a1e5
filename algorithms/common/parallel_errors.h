#pragma once

// An exception may not leave an OpenMP region: the runtime calls
// std::terminate. Every parallel region of the suite runs its work through
// an ExceptionTrap, which keeps the first exception any thread threw, lets
// the others skip what is left (Failed()), and rethrows it after the
// region, on the calling thread:
//
//   ExceptionTrap trap;
//   #pragma omp parallel for
//   for (...) trap.Run([&] { ... });
//   trap.Rethrow();
//
// A region with barriers inside runs each phase through Run, so that every
// thread still reaches every barrier.

#include <atomic>
#include <exception>
#include <mutex>
#include <utility>

namespace adj {

class ExceptionTrap {
 public:
  // Calls body() unless an exception was already trapped; traps what it
  // throws.
  template <typename Body>
  void Run(Body&& body) noexcept {
    if (Failed()) return;
    try {
      std::forward<Body>(body)();
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!first_) first_ = std::current_exception();
      failed_.store(true, std::memory_order_relaxed);
    }
  }

  bool Failed() const { return failed_.load(std::memory_order_relaxed); }

  // Outside the region: throws the first trapped exception, if any.
  void Rethrow() {
    if (first_) std::rethrow_exception(std::exchange(first_, nullptr));
  }

 private:
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  std::exception_ptr first_;
};

}  // namespace adj
