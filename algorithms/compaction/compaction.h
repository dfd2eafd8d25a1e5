#pragma once

// compaction: stable removal of flagged items, what the fracture update does
// to cluster lists after particles break off (uint32 payloads, one byte of
// flag per item).
//
// Every variant obeys the same contract:
//   - out[0 .. k) receives, in their order, the values whose flag is 0; any
//     nonzero flag removes its value; k is returned;
//   - flags.size() == values.size() == out.size() (out has room for every
//     value), else compaction::Error;
//   - out may be values itself (compaction in place) but must not otherwise
//     overlap it, else compaction::Error;
//   - out[k ..) is unspecified afterwards;
//   - empty input is valid: 0 is returned.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "algorithms/common/errors.h"
#include "algorithms/common/variant.h"

namespace adj::compaction {

class Error : public adj::Error {
 public:
  using adj::Error::Error;
};

using CompactFn = std::size_t(std::span<const std::uint32_t> values,
                              std::span<const std::uint8_t> flags,
                              std::span<std::uint32_t> out);
// A CUDA row's device entry: its compaction of n values and flags in device
// memory into `out`, the kept count written to the device word `kept`,
// with device scratch at `temp` (DeviceCompactor gives enough for every
// row), launched on the default stream. Host-callable; the resident
// runner (DeviceCompactor) times it.
using DeviceCompactFn = void(const std::uint32_t* values,
                             const std::uint8_t* flags, std::size_t n,
                             std::uint32_t* out, std::uint32_t* kept,
                             void* temp);
struct Traits {
  DeviceCompactFn* device = nullptr;  // a cuda row's; null on the others
};
inline std::string TraitsText(const Traits&) { return ""; }
using Variant = adj::Variant<CompactFn, Traits>;

// serial, simd, openmp, and cuda_cub, cuda when built with CUDA.
std::span<const Variant> Variants();

// The family's input check: throws compaction::Error unless the arguments
// satisfy the contract above. It reads sizes and addresses only (O(1)), so
// every variant runs it and the table has no run_trusted.
void Check(std::span<const std::uint32_t> values,
           std::span<const std::uint8_t> flags,
           std::span<const std::uint32_t> out);

}  // namespace adj::compaction
