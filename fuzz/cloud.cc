// Fuzz target: hash_grid's input check and every CPU variant on any cloud
// and parameters, raw floats (NaN, infinities, denormals, signed zeros) or
// values at cell boundaries. Whatever the bytes: the variant throws
// hash_grid::Error exactly when Check does, and what is accepted agrees
// with the brute-force oracle.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "algorithms/hash_grid/hash_grid.h"
#include "checks/hash_grid.h"
#include "fuzz/fuzz_input.h"

namespace adj::fuzz {
namespace {

namespace hg = hash_grid;

// A parameter or coordinate: the raw float, or one built to sit on or next
// to a cell boundary (k x spacing, +- max_dist, one ulp either side), or a
// tiny or huge magnitude.
float Value(Input& in, float spacing, float max_dist) {
  const auto kind = in.Take<std::uint8_t>();
  if (kind < 64) return in.Take<float>();
  const auto k = static_cast<float>(in.Take<std::int8_t>());
  float value = k * spacing;
  switch (kind % 8) {
    case 0:
      break;
    case 1:
      value += max_dist;
      break;
    case 2:
      value -= max_dist;
      break;
    case 3:
      value = std::nextafter(value, std::numeric_limits<float>::infinity());
      break;
    case 4:
      value = std::nextafter(value, -std::numeric_limits<float>::infinity());
      break;
    case 5:
      value = k * std::numeric_limits<float>::denorm_min();
      break;
    case 6:
      value = k * 1e-30f;
      break;
    case 7:
      value = k == 0 ? -0.0f : k * 1e5f * spacing;
      break;
  }
  return value;
}

void FuzzCloud(Input& in) {
  const std::span<const hg::Variant> table = hg::Variants();
  const hg::Variant& variant =
      table[in.Below(static_cast<std::uint32_t>(table.size()))];
  if (!CanRun(variant).available) return;
  hg::Params params;
  params.spacing = Value(in, 1.0f, 1.0f);
  params.max_dist = Value(in, params.spacing, params.spacing);
  params.table_size = in.Below(80);
  Points points;
  const std::uint32_t n = in.Below(48);
  for (std::uint32_t i = 0; i < n && !in.empty(); ++i) {
    points.PushBack(Value(in, params.spacing, params.max_dist),
                    Value(in, params.spacing, params.max_dist),
                    Value(in, params.spacing, params.max_dist));
  }
  // Only a hashed row (muller) needs a table size; the others key cells
  // exactly and take any, 0 included.
  const bool hashed = variant.traits.hashed;
  std::string check_error;
  try {
    hg::Check(points, params, hashed);
  } catch (const hg::Error& error) {
    check_error = error.what();
  }
  // Windows up to 64 cells wide each way are valid, but Müller's query and
  // check walk every cell of them per particle: past 4 an input would take
  // up to seconds and starve the search (the properties cover them).
  if (check_error.empty() && params.max_dist > 4 * params.spacing) return;
  hg::Neighbors got;
  std::string run_error;
  try {
    variant.run(points, params, got);
  } catch (const hg::Error& error) {
    run_error = error.what();
  }
  if (run_error != check_error) {
    Broken(std::string(variant.name) + " threw \"" + run_error +
           "\" where Check threw \"" + check_error + "\"");
  }
  if (!check_error.empty() || !run_error.empty()) return;
  const std::string difference = checks::hash_grid::FirstDifference(
      points, params, checks::hash_grid::ExpectedOf(points, params.max_dist),
      got);
  if (!difference.empty()) {
    Broken(std::string(variant.name) + " (spacing " +
           std::to_string(params.spacing) + ", max_dist " +
           std::to_string(params.max_dist) + "): " + difference);
  }
}

}  // namespace
}  // namespace adj::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  adj::fuzz::Input in(data, size);
  adj::fuzz::FuzzCloud(in);
  return 0;
}
