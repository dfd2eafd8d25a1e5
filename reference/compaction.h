#pragma once

// The oracle for compaction: std::copy_if of the values whose flag is 0.

#include <cstdint>
#include <span>
#include <vector>

namespace adj::reference {

std::vector<std::uint32_t> Compacted(std::span<const std::uint32_t> values,
                                     std::span<const std::uint8_t> flags);

}  // namespace adj::reference
