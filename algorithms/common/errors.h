#pragma once

#include <stdexcept>
#include <string>

namespace adj {

// Base of every error the suite throws on bad input. Each family derives its
// own type (e.g. prefix_sum::Error) so that a caller can tell which stage of a
// pipeline rejected the data.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A variant that cannot run here (a CUDA variant without device or driver).
class Unavailable : public Error {
 public:
  using Error::Error;
};

// Refused for resources: the work would need more memory than the budget
// (algorithms/common/memory_budget.h) or than the machine could give. The
// message names what, the bytes it would need and the budget. The command
// line exits 3 on it; Python raises adjacent.ResourceError, a MemoryError.
class ResourceError : public Error {
 public:
  using Error::Error;
};

}  // namespace adj
