#include <algorithm>
#include <vector>

#include "algorithms/fracture/belong_lists.h"

namespace adj::fracture::detail {
namespace {

// A pool of blocks of 4 << k entries with one free list per k: a list that
// outgrows its block moves to a block of the next size and leaves the old
// one for reuse; a removed particle's block is freed.
class SizeClassPool final : public BelongStore {
 public:
  explicit SizeClassPool(std::size_t particles) : heads_(particles) {}

  void Build(const ClusterTable& table) override {
    pool_.clear();
    for (auto& list : free_) list.clear();
    const std::vector<std::uint32_t> counts =
        MembershipCounts(table, heads_.size());
    for (std::size_t p = 0; p < heads_.size(); ++p) {
      heads_[p] = {};
      if (counts[p] == 0) continue;
      std::uint8_t size_class = 0;
      while (CapacityOf(size_class) < counts[p]) ++size_class;
      heads_[p] = {Allocate(size_class), 0, size_class};
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
    if (head.size_class == kNoBlock) return {};
    return {pool_.data() + head.offset, head.size};
  }

  void Add(std::uint32_t particle, std::uint32_t slot) override {
    Head& head = heads_[particle];
    if (head.size_class == kNoBlock) {
      head = {Allocate(0), 0, 0};
    } else if (head.size == CapacityOf(head.size_class)) {
      const std::uint32_t offset = Allocate(head.size_class + 1);
      std::copy_n(pool_.begin() + head.offset, head.size,
                  pool_.begin() + offset);
      free_[head.size_class].push_back(head.offset);
      head.offset = offset;
      ++head.size_class;
    }
    InsertSorted(pool_.data() + head.offset, head.size++, slot);
  }

  void Remove(std::uint32_t particle, std::uint32_t slot) override {
    Head& head = heads_[particle];
    if (head.size_class == kNoBlock) return;
    if (EraseSorted(pool_.data() + head.offset, head.size, slot)) --head.size;
  }

  void Clear(std::uint32_t particle) override {
    Head& head = heads_[particle];
    if (head.size_class == kNoBlock) return;
    free_[head.size_class].push_back(head.offset);
    head = {};
  }

  void EndFrame(const ClusterTable&) override {}

  std::size_t Bytes() const override {
    std::size_t bytes =
        pool_.size() * sizeof(std::uint32_t) + heads_.size() * sizeof(Head);
    for (const auto& list : free_) {
      bytes += list.capacity() * sizeof(std::uint32_t);
    }
    return bytes;
  }

 private:
  static constexpr std::uint8_t kNoBlock = 0xFF;
  static constexpr int kClasses = 30;
  struct Head {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
    std::uint8_t size_class = kNoBlock;
  };

  static std::uint32_t CapacityOf(std::uint8_t size_class) {
    return 4u << size_class;
  }

  std::uint32_t Allocate(std::uint8_t size_class) {
    if (size_class >= kClasses) throw Error("a belong list is too long");
    auto& free = free_[size_class];
    if (!free.empty()) {
      const std::uint32_t offset = free.back();
      free.pop_back();
      return offset;
    }
    const std::size_t offset = pool_.size();
    if (offset + CapacityOf(size_class) > 0xFFFFFFFFull) {
      throw Error("the size-class pool of belong lists is full");
    }
    pool_.resize(offset + CapacityOf(size_class));
    return static_cast<std::uint32_t>(offset);
  }

  std::vector<Head> heads_;
  std::vector<std::uint32_t> pool_;
  std::vector<std::vector<std::uint32_t>> free_ =
      std::vector<std::vector<std::uint32_t>>(kClasses);
};

}  // namespace

std::unique_ptr<BelongStore> MakeSizeClassPool(std::size_t particles) {
  return std::make_unique<SizeClassPool>(particles);
}

}  // namespace adj::fracture::detail
