#pragma once

// A family's verifier (checks/) applied to an output computed outside the
// suite: by a user's CUDA kernel, a Rust crate, a Python prototype. The
// caller hands over named arrays in the layouts people produce (CSR,
// pair lists, labels in any numbering); each family's outside check turns
// them into the family's output type, asks checks/ for the first
// difference, and says it in the caller's terms. `adjacent check` (files)
// and `adjacent.check` (NumPy) both call it; docs/check-your-code.md shows
// the routes.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "algorithms/common/errors.h"

namespace adj::registry {

// One array as the caller gave it: its shape (row-major) and its values,
// integers kept exact.
struct Array {
  std::vector<std::size_t> shape;
  bool integral = false;
  std::vector<std::int64_t> integers;  // when integral
  std::vector<double> reals;           // otherwise
  std::size_t size() const { return integral ? integers.size() : reals.size(); }
};
using Arrays = std::map<std::string, Array, std::less<>>;
using Parameters = std::map<std::string, double, std::less<>>;

// What is wrong with the arrays or parameters handed over (a missing
// array, a wrong shape, an index out of range), in words naming it: bad
// input, not a difference (the command line exits 2 on it).
class CheckInputError : public Error {
 public:
  using Error::Error;
};

struct OutsideVerdict {
  std::string difference;  // "": the output agrees with the oracle
  // The output's statistics where the family has them (a neighbour list's
  // pairs and duplicates, a labelling's components), in the caller's
  // output as given.
  std::vector<std::pair<std::string, double>> statistics;
  // What the oracle covered, in words (every row, or a sample of them).
  std::string scope;
};

struct OutsideCheck {
  std::string_view family;
  // The arrays and parameters it reads, in words (`adjacent check --help`,
  // the Python docstrings).
  std::string_view inputs;
  std::string_view outputs;
  // The names it reads; any other is refused (RequireKnownNames).
  std::vector<std::string_view> input_names;
  std::vector<std::string_view> output_names;
  std::vector<std::string_view> parameters;
  // The name a lone array file (.npy or text) takes as input or output.
  std::string_view default_input;
  std::string_view default_output;
  OutsideVerdict (*check)(const Arrays& inputs, const Arrays& outputs,
                          const Parameters& parameters);
};

// The families that have an outside check, in name order.
std::span<const OutsideCheck> OutsideChecks();
// Null when `family` has none.
const OutsideCheck* FindOutsideCheck(std::string_view family);

// Throws CheckInputError unless every array and parameter name is one the
// check reads, so that a misspelt name is said rather than ignored.
void RequireKnownNames(const OutsideCheck& check, const Arrays& inputs,
                       const Arrays& outputs, const Parameters& parameters);

}  // namespace adj::registry
