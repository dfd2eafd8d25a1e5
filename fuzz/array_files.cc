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
#include <string>
#include <string_view>

#include "algorithms/common/errors.h"
#include "fuzz/fuzz_input.h"
#include "registry/outside_check.h"

namespace adj::fuzz {
namespace {

void FuzzArrayFiles(Input& in) {
  const auto choice = in.Take<std::uint8_t>();
  const char* kinds[] = {"input.npy", "input.npz", "input.txt"};
  const std::string name = kinds[choice % 3];
  const auto checks = registry::OutsideChecks();
  const registry::OutsideCheck& check = checks[(choice / 3) % checks.size()];
  registry::Arrays arrays;
  try {
    arrays = cli::ParseArrayBytes(in.Rest(), name, check.default_output);
  } catch (const Error&) {
    return;
  }
  for (const auto& [array_name, array] : arrays) {
    std::size_t count = 1;
    for (const std::size_t extent : array.shape) count *= extent;
    if (count != array.size()) Broken(array_name + ": shape and size differ");
  }
  // The arrays as the check's output, on a small input of its own kind:
  // four points, or four vertices.
  registry::Arrays inputs;
  registry::Array& input = inputs[std::string(check.default_input)];
  input.integral = true;
  if (check.default_input == "points") {
    input.shape = {4, 3};
    input.integers = {0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 5, 5};
  } else {
    input.shape = {2, 2};
    input.integers = {0, 1, 2, 3};
  }
  const registry::Parameters parameters = {
      {std::string(check.parameters.front()), 4}};
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
