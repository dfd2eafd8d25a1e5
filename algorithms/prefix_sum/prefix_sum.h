#pragma once

// prefix_sum: inclusive and exclusive scans over uint32, the building block of
// every CSR build in the suite (counts -> offsets).
//
// Arithmetic wraps modulo 2^32, exactly as std::inclusive_scan does on
// uint32_t: a CSR builder that must not wrap checks its total itself (it is
// returned). Every variant obeys the same contract:
//   - `out.size() == in.size()`, else prefix_sum::Error;
//   - `out` may be `in` itself (an in-place scan) but must not otherwise
//     overlap it, else prefix_sum::Error;
//   - the return value is the sum of all of `in` (mod 2^32), for both kinds;
//   - empty input is valid: nothing is written and 0 is returned.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "algorithms/common/errors.h"
#include "algorithms/common/variant.h"

namespace adj::prefix_sum {

enum class Kind {
  kInclusive,  // out[i] = in[0] + ... + in[i]
  kExclusive,  // out[i] = in[0] + ... + in[i - 1], out[0] = 0
};

class Error : public adj::Error {
 public:
  using adj::Error::Error;
};

using ScanFn = std::uint32_t(Kind kind, std::span<const std::uint32_t> in,
                             std::span<std::uint32_t> out);
// A CUDA row's device entry: its scan of n words in device memory (`out`
// may equal `in`), with `scratch_bytes` of device scratch at `scratch`
// (DeviceScanner gives enough for every row), launched on the default
// stream. Host-callable; the resident runner (DeviceScanner) times it.
using DeviceScanFn = void(Kind kind, const std::uint32_t* in,
                          std::uint32_t* out, std::size_t n, void* scratch,
                          std::size_t scratch_bytes);
struct Traits {
  DeviceScanFn* device = nullptr;  // a cuda row's; null on the others
};
inline std::string TraitsText(const Traits&) { return ""; }
using Variant = adj::Variant<ScanFn, Traits>;

// serial, simd, openmp, and cuda, cuda_cub when built with CUDA.
std::span<const Variant> Variants();

// The family's input check: throws prefix_sum::Error unless (in, out)
// satisfy the contract above. It reads sizes and addresses only (O(1)), so
// every variant runs it and the table has no run_trusted.
void Check(std::span<const std::uint32_t> in,
           std::span<const std::uint32_t> out);

// The serial row's scan (Check included), for other families' own passes;
// returns the total.
std::uint32_t Scan(Kind kind, std::span<const std::uint32_t> in,
                   std::span<std::uint32_t> out);

}  // namespace adj::prefix_sum
