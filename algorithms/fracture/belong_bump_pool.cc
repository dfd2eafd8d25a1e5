#include <algorithm>
#include <vector>

#include "algorithms/fracture/belong_lists.h"

namespace adj::fracture::detail {
namespace {

// The published ParticleBelongList: one pool that only grows. A list that
// outgrows its block is copied to a block of twice the capacity at the pool's
// end; the old block is never reused and lists never shrink.
class BumpPool final : public BelongStore {
 public:
  explicit BumpPool(std::size_t particles) : heads_(particles) {}

  void Build(const ClusterTable& table) override {
    const std::vector<std::uint32_t> counts =
        MembershipCounts(table, heads_.size());
    pool_.clear();
    for (std::size_t p = 0; p < heads_.size(); ++p) {
      heads_[p] = {Bump(std::max<std::uint32_t>(counts[p], kFirstCapacity)), 0,
                   std::max<std::uint32_t>(counts[p], kFirstCapacity)};
    }
    for (std::size_t s = 0; s < table.slots.size(); ++s) {
      if (!table.valid[s]) continue;
      for (const std::uint32_t p : table.slots[s].particles) {
        Head& head = heads_[p];
        pool_[head.offset + head.size++] = static_cast<std::uint32_t>(s);
      }
    }
  }

  std::span<const std::uint32_t> Of(std::uint32_t particle) const override {
    const Head& head = heads_[particle];
    return {pool_.data() + head.offset, head.size};
  }

  void Add(std::uint32_t particle, std::uint32_t slot) override {
    Head& head = heads_[particle];
    if (head.size == head.capacity) {
      const std::uint32_t capacity =
          std::max(kFirstCapacity, 2 * head.capacity);
      const std::uint32_t offset = Bump(capacity);
      std::copy_n(pool_.begin() + head.offset, head.size,
                  pool_.begin() + offset);
      head.offset = offset;
      head.capacity = capacity;
    }
    InsertSorted(pool_.data() + head.offset, head.size++, slot);
  }

  void Remove(std::uint32_t particle, std::uint32_t slot) override {
    Head& head = heads_[particle];
    if (EraseSorted(pool_.data() + head.offset, head.size, slot)) --head.size;
  }

  void Clear(std::uint32_t particle) override { heads_[particle].size = 0; }

  void EndFrame(const ClusterTable&) override {}

  std::size_t Bytes() const override {
    return pool_.size() * sizeof(std::uint32_t) + heads_.size() * sizeof(Head);
  }

 private:
  static constexpr std::uint32_t kFirstCapacity = 4;
  struct Head {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
    std::uint32_t capacity = 0;
  };

  std::uint32_t Bump(std::uint32_t capacity) {
    const std::size_t offset = pool_.size();
    if (offset + capacity > 0xFFFFFFFFull) {
      throw Error("the bump pool of belong lists is full (2^32 entries)");
    }
    pool_.resize(offset + capacity);
    return static_cast<std::uint32_t>(offset);
  }

  std::vector<Head> heads_;
  std::vector<std::uint32_t> pool_;
};

}  // namespace

std::unique_ptr<BelongStore> MakeBumpPool(std::size_t particles) {
  return std::make_unique<BumpPool>(particles);
}

}  // namespace adj::fracture::detail
