#pragma once

// The grid manager's neighbour query: the intact particles next to a
// particle, in NeighborOffsets order. Internal to the family.

#include <array>
#include <cstdint>
#include <vector>

#include "algorithms/fracture/fracture.h"
#include "algorithms/fracture/split_mix.h"

namespace adj::fracture::detail {

class Topology {
 public:
  Topology(const State& state, Neighborhood neighborhood);

  std::uint32_t NodeOf(std::uint32_t particle) const {
    return node_of_[particle];
  }
  // Per particle its node; per node its particle (kNone where none); the
  // k-th neighbour offset and its node id difference.
  const std::vector<std::uint32_t>& NodesOfParticles() const {
    return node_of_;
  }
  const std::vector<std::uint32_t>& ParticlesAtNodes() const {
    return node_particle_;
  }
  std::size_t OffsetCount() const { return offset_count_; }
  const std::array<std::int8_t, 3>& Offset(std::size_t k) const {
    return offsets_[k];
  }
  std::int64_t NodeDelta(std::size_t k) const { return node_delta_[k]; }

  // Calls visit(q) for every particle q at a neighbouring node whose flag
  // in `node_is_particle` is set.
  template <typename Visit>
  void ForEachIntactNeighbor(std::uint32_t particle,
                             const std::vector<std::uint8_t>& node_is_particle,
                             Visit&& visit) const {
    const Coord c = coords_[particle];
    const std::uint32_t node = node_of_[particle];
    for (std::size_t k = 0; k < offset_count_; ++k) {
      const auto& o = offsets_[k];
      if ((o[0] < 0 && c.x == 0) || (o[0] > 0 && c.x + 1 >= grid_.nx) ||
          (o[1] < 0 && c.y == 0) || (o[1] > 0 && c.y + 1 >= grid_.ny) ||
          (o[2] < 0 && c.z == 0) || (o[2] > 0 && c.z + 1 >= grid_.nz)) {
        continue;
      }
      const auto neighbor =
          static_cast<std::uint32_t>(std::int64_t{node} + node_delta_[k]);
      if (node_is_particle[neighbor]) visit(node_particle_[neighbor]);
    }
  }

 private:
  GridShape grid_;
  std::vector<Coord> coords_;
  std::vector<std::uint32_t> node_of_;
  std::vector<std::uint32_t> node_particle_;
  std::array<std::array<std::int8_t, 3>, 26> offsets_{};
  std::array<std::int64_t, 26> node_delta_{};
  std::size_t offset_count_ = 0;
};

}  // namespace adj::fracture::detail
