#pragma once

// The registry of families: every family of algorithms/ (each folder whose
// CMakeLists.txt calls adj_add_family) and its variant tables, from the list
// the build generates (cmake/AdjacentTargets.cmake, adj_finish_families).
// The command line, the Python module, the tests and the docs read the
// families from here, so a new family is listed everywhere once its folder
// exists.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/backend.h"
#include "algorithms/common/variant.h"

namespace adj::registry {

// The families' names, sorted.
std::span<const std::string_view> FamilyNames();

// One row of a family's variant table, its function pointers left out.
struct VariantRow {
  std::string family;
  std::string name;
  Backend backend;
  Origin origin;
  std::string twin;
  std::string description;
  std::string untwinned;  // why an openmp row has no twin, else ""
  std::string traits;     // the row's axes, "axis=value ..." (TraitsText)
  // A peer's library as the build found it ("Boost.Graph 1.74.0"), or just
  // its name where it was not found; "" for the suite's own rows.
  std::string library;
  Availability availability;
};

// Every family's tables, family by family, each table's rows in order.
std::vector<VariantRow> AllVariants();

}  // namespace adj::registry
