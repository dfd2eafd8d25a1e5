// Fuzz target: scenes::ParseOff on any bytes.
#include <cstddef>
#include <cstdint>

#include "fuzz/loader_target.h"
#include "scenes/mesh_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  adj::fuzz::FuzzLoader(&adj::scenes::ParseOff, data, size);
  return 0;
}
