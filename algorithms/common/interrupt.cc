#include "algorithms/common/interrupt.h"

#include <signal.h>

namespace adj::interrupt {

namespace detail {
std::atomic<bool> requested{false};
}  // namespace detail

namespace {

void OnSigint(int) { Request(); }

}  // namespace

void Request() { detail::requested.store(true, std::memory_order_relaxed); }

bool Requested() { return detail::requested.load(std::memory_order_relaxed); }

void Clear() { detail::requested.store(false, std::memory_order_relaxed); }

struct ScopedSigint::Saved {
  struct sigaction action;
};

ScopedSigint::ScopedSigint() : saved_(std::make_unique<Saved>()) {
  Clear();
  struct sigaction ours = {};
  ours.sa_handler = &OnSigint;
  sigemptyset(&ours.sa_mask);
  if (sigaction(SIGINT, &ours, &saved_->action) != 0) saved_.reset();
}

ScopedSigint::~ScopedSigint() {
  if (saved_) sigaction(SIGINT, &saved_->action, nullptr);
}

}  // namespace adj::interrupt
