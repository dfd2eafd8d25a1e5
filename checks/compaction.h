#pragma once

// compaction's verifier: a variant's output against reference::Compacted.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace adj::checks::compaction {

// What compacting `values` by `flags` must keep, in order (the oracle).
std::vector<std::uint32_t> Expected(std::span<const std::uint32_t> values,
                                    std::span<const std::uint8_t> flags);

// "" when a variant that returned `kept` and wrote `out` kept exactly
// `expected`, else the first difference in words. Only out[0 .. kept) is
// read: the rest is unspecified by the contract.
std::string FirstDifference(std::span<const std::uint32_t> expected,
                            std::size_t kept,
                            std::span<const std::uint32_t> out);

}  // namespace adj::checks::compaction
