#pragma once

// Stopping a long call from outside (Ctrl-C in Python): the long loops of
// the suite call Poll(), one relaxed load, and throw Interrupted once a
// stop was requested, from any thread (inside a parallel region the
// ExceptionTrap carries it out). A caller that wants SIGINT to stop its
// call holds a ScopedSigint around it.

#include <atomic>
#include <memory>

#include "algorithms/common/errors.h"

namespace adj::interrupt {

class Interrupted : public Error {
 public:
  Interrupted() : Error("interrupted") {}
};

namespace detail {
extern std::atomic<bool> requested;
}  // namespace detail

inline void Poll() {
  if (detail::requested.load(std::memory_order_relaxed)) throw Interrupted();
}

// Asks the polling loops to stop (async-signal-safe).
void Request();
// Whether a stop was requested since the last Clear.
bool Requested();
void Clear();

// For its lifetime SIGINT requests a stop instead of reaching the handler
// that was installed before (Python's), which is restored afterwards;
// clears any earlier request on entry. Install it on the thread that
// receives the signals (Python's main thread) only.
class ScopedSigint {
 public:
  ScopedSigint();
  ~ScopedSigint();
  ScopedSigint(const ScopedSigint&) = delete;
  ScopedSigint& operator=(const ScopedSigint&) = delete;

 private:
  struct Saved;
  std::unique_ptr<Saved> saved_;  // the handler before; null if none taken
};

}  // namespace adj::interrupt
