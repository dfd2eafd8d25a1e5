#include "registry/outside_check.h"

#include <algorithm>
#include <string>

#include "registry/outside_families.h"

namespace adj::registry {
namespace {

const std::vector<OutsideCheck>& Table() {
  // One entry per family, each beside its check (outside_<family>.cc).
  static const std::vector<OutsideCheck> table = {
      CompactionOutsideCheck(),
      ConnectedComponentsOutsideCheck(),
      FractureOutsideCheck(),
      HashGridOutsideCheck(),
      HashSetOutsideCheck(),
      PrefixSumOutsideCheck(),
      SphOutsideCheck(),
      TriangleAdjacencyOutsideCheck(),
      TripletCollideOutsideCheck(),
      TripletScheduleOutsideCheck(),
  };
  return table;
}

bool Listed(std::string_view name, const std::vector<std::string_view>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string Joined(const std::vector<std::string_view>& names) {
  std::string text;
  for (const std::string_view name : names) {
    text += (text.empty() ? "" : ", ") + std::string(name);
  }
  return text.empty() ? "none" : text;
}

}  // namespace

std::span<const OutsideCheck> OutsideChecks() { return Table(); }

const OutsideCheck* FindOutsideCheck(std::string_view family) {
  for (const OutsideCheck& check : Table()) {
    if (check.family == family) return &check;
  }
  return nullptr;
}

void RequireKnownNames(const OutsideCheck& check, const Arrays& inputs,
                       const Arrays& outputs, const Parameters& parameters) {
  const std::string family(check.family);
  for (const auto& entry : inputs) {
    if (!Listed(entry.first, check.input_names)) {
      throw CheckInputError(family + " reads no input " + entry.first +
                            " (its inputs: " + Joined(check.input_names) + ")");
    }
  }
  for (const auto& entry : outputs) {
    if (!Listed(entry.first, check.output_names)) {
      throw CheckInputError(family + " reads no output " + entry.first +
                            " (its outputs: " + Joined(check.output_names) +
                            ")");
    }
  }
  for (const auto& entry : parameters) {
    if (!Listed(entry.first, check.parameters)) {
      throw CheckInputError(family + " takes no parameter " + entry.first +
                            " (its parameters: " + Joined(check.parameters) +
                            ")");
    }
  }
}

}  // namespace adj::registry
