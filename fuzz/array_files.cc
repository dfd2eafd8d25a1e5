// Fuzz target: the array files `adjacent check` reads (tools/array_files.h)
// and the outside checks that take them (registry/outside_check.h). The
// first byte picks the file's kind (.npy, .npz or text) and the check;
// whatever the bytes, parsing returns arrays whose sizes match their
// shapes or refuses with adj::Error, and a check given them agrees,
// differs, or refuses with adj::Error: never a crash, another exception or
// an unbounded allocation.
#include "tools/array_files.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/errors.h"
#include "fuzz/fuzz_input.h"
#include "registry/outside_check.h"

namespace adj::fuzz {
namespace {

void FuzzArrayFiles(Input& in) {
  const auto choice = in.Take<std::uint8_t>();
  const char* kinds[] = {"input.npy", "input.npz", "input.txt"};
  const std::string file_name = kinds[choice % 3];
  // Seeds name their check: their first byte is 3 x its index in
  // OutsideChecks() (name order) + the kind, so a new check shifts the
  // seeds after it (fuzz/corpus/array_files).
  const auto checks = registry::OutsideChecks();
  const registry::OutsideCheck& check = checks[(choice / 3) % checks.size()];
  registry::Arrays arrays;
  try {
    arrays = cli::ParseArrayBytes(in.Rest(), file_name, check.default_output);
  } catch (const Error&) {
    return;
  }
  for (const auto& [array_name, array] : arrays) {
    std::size_t count = 1;
    for (const std::size_t extent : array.shape) count *= extent;
    if (count != array.size()) Broken(array_name + ": shape and size differ");
  }
  // The arrays as the check's output, on a small input of its own kind
  // (each input it reads, the CSR alternatives left out) and parameters
  // in range.
  const auto sample = [](std::vector<std::size_t> shape,
                         std::vector<std::int64_t> values) {
    registry::Array array;
    array.shape = std::move(shape);
    array.integral = true;
    array.integers = std::move(values);
    return array;
  };
  const auto reals = [](std::vector<std::size_t> shape,
                        std::vector<double> values) {
    registry::Array array;
    array.shape = std::move(shape);
    array.reals = std::move(values);
    return array;
  };
  const std::map<std::string_view, registry::Array> samples = {
      {"points", sample({4, 3}, {0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 5, 5})},
      {"edges", sample({2, 2}, {0, 1, 2, 3})},
      {"values", sample({4}, {7, 0, 4294967295, 3})},
      {"flags", sample({4}, {0, 1, 0, 2})},
      {"triangles", sample({2, 3}, {0, 1, 2, 2, 1, 3})},
      {"triplets", sample({2, 4}, {0, 1, 2, 0, 2, 1, 3, 0})},
      {"inserted", sample({4}, {5, 5, 0, 4294967294})},
      {"queries", sample({3}, {5, 6, 0})},
      // sph: four particles in the unit box.
      {"x", reals({4, 3}, {.1, .1, .1, .2, .1, .1, .5, .5, .5, .9, .9, .9})},
      {"v", reals({4, 3}, std::vector<double>(12, 0))},
      {"density", reals({4}, {1000, 1000, 1000, 1000})},
      {"mass", reals({4}, {1, 1, 1, 1})},
      {"lo", reals({3}, {0, 0, 0})},
      {"hi", reals({3}, {1, 1, 1})},
      // triplet_collide: three particles and a static one, a sphere.
      {"particles",
       reals({4, 4}, {0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 5, 5, 5, 0})},
      {"spheres", reals({1, 4}, {.3, .3, 0, 1})},
      // fracture: a 2 x 2 square in two clusters, particle 3 torn away.
      {"grid", sample({3}, {2, 2, 1})},
      {"coords", sample({4, 3}, {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0})},
      {"cluster_offsets", sample({3}, {0, 2, 4})},
      {"cluster_members", sample({4}, {0, 1, 2, 3})},
      {"positions", reals({4, 3}, {0, 0, 0, 1, 0, 0, 0, 1, 0, 3, 3, 0})}};
  registry::Arrays inputs;
  for (const std::string_view name : check.input_names) {
    const auto found = samples.find(name);
    if (found != samples.end()) inputs[std::string(name)] = found->second;
  }
  // Switches (full, simd, inclusive) on, counts that cover the samples.
  const std::map<std::string_view, double> values = {{"radius", 4},
                                                     {"vertices", 4},
                                                     {"particles", 8},
                                                     {"width", 4},
                                                     {"h", 0.5},
                                                     {"rest_density", 1000},
                                                     {"dt", 0.001},
                                                     {"damage_distance", 1.5},
                                                     {"max_cluster_size", 8},
                                                     {"min_cluster_size", 2},
                                                     {"neighborhood", 6}};
  registry::Parameters parameters;
  for (const std::string_view name : check.parameters) {
    const auto found = values.find(name);
    parameters[std::string(name)] = found != values.end() ? found->second : 1;
  }
  try {
    check.check(inputs, arrays, parameters);
  } catch (const Error&) {
  }
}

}  // namespace
}  // namespace adj::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  adj::fuzz::Input in(data, size);
  adj::fuzz::FuzzArrayFiles(in);
  return 0;
}
