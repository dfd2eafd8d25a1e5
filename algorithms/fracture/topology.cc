#include "algorithms/fracture/topology.h"

namespace adj::fracture::detail {

Topology::Topology(const State& state, Neighborhood neighborhood)
    : grid_(state.grid), coords_(state.particle_coord) {
  node_of_.resize(coords_.size());
  node_particle_.assign(grid_.Nodes(), kNone);
  for (std::size_t p = 0; p < coords_.size(); ++p) {
    const Coord c = coords_[p];
    const std::uint64_t node = NodeIndex(grid_, c);
    node_of_[p] = static_cast<std::uint32_t>(node);
    node_particle_[node] = static_cast<std::uint32_t>(p);
  }
  const auto offsets = NeighborOffsets(neighborhood);
  offset_count_ = offsets.size();
  const std::int64_t stride_y = grid_.nx;
  const std::int64_t stride_z = std::int64_t{grid_.nx} * grid_.ny;
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    offsets_[k] = offsets[k];
    node_delta_[k] =
        offsets[k][0] + offsets[k][1] * stride_y + offsets[k][2] * stride_z;
  }
}

}  // namespace adj::fracture::detail
