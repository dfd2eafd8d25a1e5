// Fuzz target: triangle_adjacency's input check and every CPU variant on
// any triangles. Whatever the bytes: Check throws exactly when the variant
// throws, with the same message; what is accepted is built as the oracle
// builds it, except that a manifold-only row may refuse (NotManifold) a
// mesh the independent predicate finds not oriented manifold.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "checks/triangle_adjacency.h"
#include "fuzz/fuzz_input.h"
#include "reference/triangle_adjacency.h"

namespace adj::fuzz {
namespace {

std::string ErrorOf(auto&& call) {
  try {
    call();
  } catch (const adj::Error& error) {
    return error.what();
  }
  return "";
}

void FuzzTriangles(Input& in) {
  namespace ta = triangle_adjacency;
  const std::size_t particles = in.Below(64);
  const std::span<const ta::Variant> table = ta::Variants();
  const ta::Variant& variant =
      table[in.Below(static_cast<std::uint32_t>(table.size()))];
  if (!CanRun(variant).available) return;
  std::vector<Triangle> triangles;
  while (in.remaining() >= 12 && triangles.size() < 512) {
    Triangle triangle;
    for (std::uint32_t& corner : triangle) {
      // Mostly in range (or one past it); a set top bit keeps the raw word.
      const auto raw = in.Take<std::uint32_t>();
      corner = (raw >> 31) != 0
                   ? raw
                   : raw % static_cast<std::uint32_t>(particles + 1);
    }
    triangles.push_back(triangle);
  }
  const std::string check_error =
      ErrorOf([&] { ta::Check(triangles, particles); });
  ta::Adjacency got;
  bool refused_as_not_manifold = false;
  const std::string run_error = ErrorOf([&] {
    try {
      variant.run(triangles, particles, got);
    } catch (const ta::NotManifold&) {
      refused_as_not_manifold = true;
      throw;
    }
  });
  if (refused_as_not_manifold && check_error.empty()) {
    if (!variant.traits.manifold_only)
      Broken(std::string(variant.name) +
             " refused a mesh as not manifold: " + run_error);
    if (reference::OrientedManifold(triangles, particles))
      Broken(std::string(variant.name) +
             " refused an oriented manifold mesh: " + run_error);
    return;
  }
  if (check_error != run_error) {
    Broken(std::string(variant.name) + " threw \"" + run_error +
           "\" where Check threw \"" + check_error + "\"");
  }
  if (!check_error.empty()) return;
  const std::string difference = checks::triangle_adjacency::FirstDifference(
      checks::triangle_adjacency::ExpectedOf(triangles, particles),
      triangles.size(), got);
  if (!difference.empty())
    Broken(std::string(variant.name) + ": " + difference);
}

}  // namespace
}  // namespace adj::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  adj::fuzz::Input in(data, size);
  adj::fuzz::FuzzTriangles(in);
  return 0;
}
