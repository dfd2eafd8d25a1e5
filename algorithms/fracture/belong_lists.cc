#include "algorithms/fracture/belong_lists.h"

#include <algorithm>

namespace adj::fracture::detail {

Csr BelongStore::ToCsr(std::size_t particles) const {
  Csr csr;
  csr.offsets.reserve(particles + 1);
  for (std::size_t p = 0; p < particles; ++p) {
    const auto row = Of(static_cast<std::uint32_t>(p));
    csr.indices.insert(csr.indices.end(), row.begin(), row.end());
    csr.offsets.push_back(static_cast<std::uint32_t>(csr.indices.size()));
  }
  return csr;
}

void RowsOfSlots(const ClusterTable& table,
                 std::span<const std::uint32_t> slots, std::size_t particles,
                 std::vector<std::uint32_t>& offsets,
                 std::vector<std::uint32_t>& indices,
                 std::vector<std::uint32_t>& cursor) {
  offsets.assign(particles + 1, 0);
  for (const std::uint32_t s : slots) {
    for (const std::uint32_t p : table.slots[s].particles) ++offsets[p + 1];
  }
  for (std::size_t p = 0; p < particles; ++p) offsets[p + 1] += offsets[p];
  indices.resize(offsets[particles]);
  cursor.assign(offsets.begin(), offsets.end() - 1);
  for (const std::uint32_t s : slots) {
    for (const std::uint32_t p : table.slots[s].particles) {
      indices[cursor[p]++] = s;
    }
  }
}

std::vector<std::uint32_t> ValidSlots(const ClusterTable& table) {
  std::vector<std::uint32_t> slots;
  for (std::size_t s = 0; s < table.valid.size(); ++s) {
    if (table.valid[s]) slots.push_back(static_cast<std::uint32_t>(s));
  }
  return slots;
}

std::unique_ptr<BelongStore> MakeBelongStore(BelongKind kind,
                                             std::size_t particles) {
  switch (kind) {
    case BelongKind::kBumpPool:
      return MakeBumpPool(particles);
    case BelongKind::kCsrRebuilt:
      return MakeCsrRebuilt(particles);
    case BelongKind::kSmallVectors:
      return MakeSmallVectors(particles);
    case BelongKind::kSizeClassPool:
      return MakeSizeClassPool(particles);
  }
  throw Error("unknown belong list kind");
}

std::vector<std::uint32_t> MembershipCounts(const ClusterTable& table,
                                            std::size_t particles) {
  std::vector<std::uint32_t> counts(particles, 0);
  for (std::size_t s = 0; s < table.slots.size(); ++s) {
    if (!table.valid[s]) continue;
    for (const std::uint32_t p : table.slots[s].particles) ++counts[p];
  }
  return counts;
}

void InsertSorted(std::uint32_t* data, std::uint32_t size, std::uint32_t slot) {
  std::uint32_t* end = data + size;
  std::uint32_t* at = std::upper_bound(data, end, slot);
  std::copy_backward(at, end, end + 1);
  *at = slot;
}

bool EraseSorted(std::uint32_t* data, std::uint32_t size, std::uint32_t slot) {
  std::uint32_t* end = data + size;
  std::uint32_t* at = std::lower_bound(data, end, slot);
  if (at == end || *at != slot) return false;
  std::copy(at + 1, end, at);
  return true;
}

}  // namespace adj::fracture::detail
