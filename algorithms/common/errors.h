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

}  // namespace adj
