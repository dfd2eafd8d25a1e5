#include <vector>

#include "algorithms/fracture/belong_lists.h"

namespace adj::fracture::detail {
namespace {

// One Csr rebuilt from the table at the end of every frame by a counting
// sort over the valid slots in ascending order (so rows come out
// ascending). Inside a frame it still lists the frame's first state.
class CsrRebuilt final : public BelongStore {
 public:
  explicit CsrRebuilt(std::size_t particles) : particles_(particles) {}

  void Build(const ClusterTable& table) override {
    RowsOfSlots(table, ValidSlots(table), particles_, offsets_, indices_,
                cursor_);
  }

  std::span<const std::uint32_t> Of(std::uint32_t particle) const override {
    return {indices_.data() + offsets_[particle],
            offsets_[particle + 1] - offsets_[particle]};
  }

  void Add(std::uint32_t, std::uint32_t) override {}
  void Remove(std::uint32_t, std::uint32_t) override {}
  void Clear(std::uint32_t) override {}
  void EndFrame(const ClusterTable& table) override { Build(table); }

  std::size_t Bytes() const override {
    return (offsets_.capacity() + indices_.capacity() + cursor_.capacity()) *
           sizeof(std::uint32_t);
  }

 private:
  std::size_t particles_;
  std::vector<std::uint32_t> offsets_;
  std::vector<std::uint32_t> indices_;
  std::vector<std::uint32_t> cursor_;
};

}  // namespace

std::unique_ptr<BelongStore> MakeCsrRebuilt(std::size_t particles) {
  return std::make_unique<CsrRebuilt>(particles);
}

}  // namespace adj::fracture::detail
