#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace adj {

// Compressed sparse rows: row r holds indices[offsets[r] .. offsets[r + 1]).
// The suite's one adjacency type (particle -> triangles, particle ->
// neighbours, vertex -> edges). uint32 throughout: 4 G entries is the limit,
// and builders reject inputs whose totals would overflow it.
struct Csr {
  std::vector<std::uint32_t> offsets{0};  // rows() + 1 entries, offsets[0] == 0
  std::vector<std::uint32_t> indices;

  std::size_t rows() const { return offsets.size() - 1; }
  std::size_t entries() const { return indices.size(); }
  std::span<const std::uint32_t> Row(std::size_t row) const {
    return std::span<const std::uint32_t>(indices).subspan(
        offsets[row], offsets[row + 1] - offsets[row]);
  }
  std::size_t RowSize(std::size_t row) const {
    return offsets[row + 1] - offsets[row];
  }

  friend bool operator==(const Csr&, const Csr&) = default;
};

// Throws adj::Error unless `csr` is well formed: offsets non-empty, starting
// at 0, non-decreasing, ending at entries(); and, when index_bound > 0,
// every index < index_bound.
void ValidateCsr(const Csr& csr, std::size_t index_bound = 0);

}  // namespace adj
