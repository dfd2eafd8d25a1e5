#pragma once

// The ParticleBelongList (particle -> clusters) in its four kinds; internal
// to the family. Every kind keeps each list ascending.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "algorithms/common/csr.h"
#include "algorithms/fracture/fracture.h"

namespace adj::fracture::detail {

class BelongStore {
 public:
  virtual ~BelongStore() = default;
  // The lists of `table`'s valid clusters, from scratch.
  virtual void Build(const ClusterTable& table) = 0;
  // Particle p's slots, ascending. Between frames exactly the slots of the
  // valid clusters holding p; inside a frame a kind that rebuilds at
  // EndFrame may still list slots deleted in the frame (callers test
  // validity) and not yet list those added.
  virtual std::span<const std::uint32_t> Of(std::uint32_t particle) const = 0;
  virtual void Add(std::uint32_t particle, std::uint32_t slot) = 0;
  virtual void Remove(std::uint32_t particle, std::uint32_t slot) = 0;
  // Empties p's list (p was removed).
  virtual void Clear(std::uint32_t particle) = 0;
  virtual void EndFrame(const ClusterTable& table) = 0;
  virtual std::size_t Bytes() const = 0;

  Csr ToCsr(std::size_t particles) const;
};

std::unique_ptr<BelongStore> MakeBumpPool(std::size_t particles);
std::unique_ptr<BelongStore> MakeCsrRebuilt(std::size_t particles);
std::unique_ptr<BelongStore> MakeSmallVectors(std::size_t particles);
std::unique_ptr<BelongStore> MakeSizeClassPool(std::size_t particles);
// The data-parallel variant's lists: a Csr patched in parallel at the end
// of each frame (not a Params::belong kind).
std::unique_ptr<BelongStore> MakeCsrPatched(std::size_t particles);
std::unique_ptr<BelongStore> MakeBelongStore(BelongKind kind,
                                             std::size_t particles);

// Rows per particle of the clusters in `slots` (ascending slot ids, each
// valid in `table`) by a counting sort, so that each row is ascending:
// offsets (particles + 1) and indices; `cursor` is scratch.
void RowsOfSlots(const ClusterTable& table,
                 std::span<const std::uint32_t> slots, std::size_t particles,
                 std::vector<std::uint32_t>& offsets,
                 std::vector<std::uint32_t>& indices,
                 std::vector<std::uint32_t>& cursor);

// The valid slots of `table`, ascending.
std::vector<std::uint32_t> ValidSlots(const ClusterTable& table);

// How many valid clusters of `table` hold each particle.
std::vector<std::uint32_t> MembershipCounts(const ClusterTable& table,
                                            std::size_t particles);

// Inserts `slot` into the ascending list data[0 .. size) (room for one
// more), or removes it; shared by the kinds that keep lists in blocks.
void InsertSorted(std::uint32_t* data, std::uint32_t size, std::uint32_t slot);
// Returns false when `slot` was not in the list.
bool EraseSorted(std::uint32_t* data, std::uint32_t size, std::uint32_t slot);

}  // namespace adj::fracture::detail
