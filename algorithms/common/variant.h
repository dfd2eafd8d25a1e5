#pragma once

#include <span>
#include <string_view>

#include "algorithms/common/backend.h"
#include "algorithms/common/cuda.h"

namespace adj {

// One row of a family's variant table: an implementation of the family's
// signature `Fn`, named and tagged with its backend. Properties, benchmarks
// and the command line iterate the table; adding an implementation is one
// file and one row.
template <typename Fn>
struct Variant {
  std::string_view name;
  Backend backend;
  // What a user should know when comparing it: whose algorithm it follows,
  // and any quirk it keeps on purpose.
  std::string_view description;
  Fn* run;
};

template <typename Fn>
Availability CanRun(const Variant<Fn>& variant) {
  if (variant.backend != Backend::kCuda) return {true, ""};
  return cuda::Available();
}

template <typename Fn>
const Variant<Fn>* FindVariant(std::span<const Variant<Fn>> table,
                               std::string_view name) {
  for (const auto& variant : table) {
    if (variant.name == name) return &variant;
  }
  return nullptr;
}

}  // namespace adj
