#include <vector>

#include "algorithms/fracture/belong_lists.h"

namespace adj::fracture::detail {
namespace {

// One std::vector per particle; a removed particle's memory is released.
class SmallVectors final : public BelongStore {
 public:
  explicit SmallVectors(std::size_t particles) : lists_(particles) {}

  void Build(const ClusterTable& table) override {
    for (auto& list : lists_) list.clear();
    for (std::size_t s = 0; s < table.slots.size(); ++s) {
      if (!table.valid[s]) continue;
      for (const std::uint32_t p : table.slots[s].particles) {
        lists_[p].push_back(static_cast<std::uint32_t>(s));
      }
    }
  }

  std::span<const std::uint32_t> Of(std::uint32_t particle) const override {
    return lists_[particle];
  }

  void Add(std::uint32_t particle, std::uint32_t slot) override {
    auto& list = lists_[particle];
    list.push_back(slot);
    InsertSorted(list.data(), static_cast<std::uint32_t>(list.size() - 1),
                 slot);
  }

  void Remove(std::uint32_t particle, std::uint32_t slot) override {
    auto& list = lists_[particle];
    if (EraseSorted(list.data(), static_cast<std::uint32_t>(list.size()),
                    slot)) {
      list.pop_back();
    }
  }

  void Clear(std::uint32_t particle) override {
    std::vector<std::uint32_t>().swap(lists_[particle]);
  }

  void EndFrame(const ClusterTable&) override {}

  std::size_t Bytes() const override {
    std::size_t bytes = lists_.capacity() * sizeof(lists_[0]);
    for (const auto& list : lists_) {
      bytes += list.capacity() * sizeof(std::uint32_t);
    }
    return bytes;
  }

 private:
  std::vector<std::vector<std::uint32_t>> lists_;
};

}  // namespace

std::unique_ptr<BelongStore> MakeSmallVectors(std::size_t particles) {
  return std::make_unique<SmallVectors>(particles);
}

}  // namespace adj::fracture::detail
