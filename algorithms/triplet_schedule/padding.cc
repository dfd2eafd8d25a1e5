#include "algorithms/triplet_schedule/padding.h"

#include <cstdint>
#include <vector>

namespace adj::triplet_schedule {

std::vector<std::uint32_t> GroupByColour(
    const Colouring& colouring, std::vector<std::uint32_t>& set_sizes) {
  set_sizes.assign(colouring.colours, 0);
  for (const std::uint32_t c : colouring.colour) ++set_sizes[c];
  std::vector<std::uint32_t> cursor(colouring.colours, 0);
  for (std::uint32_t c = 1; c < colouring.colours; ++c) {
    cursor[c] = cursor[c - 1] + set_sizes[c - 1];
  }
  std::vector<std::uint32_t> members(colouring.colour.size());
  for (const std::uint32_t t : colouring.order) {
    members[cursor[colouring.colour[t]]++] = t;
  }
  return members;
}

void PadSets(std::span<const Triplet> ordered, std::size_t particle_count,
             Schedule& out) {
  const unsigned width = out.width;
  std::uint32_t padding = 0;
  for (const std::uint32_t size : out.set_sizes) {
    padding += (width - size % width) % width;
  }
  out.triplets.clear();
  out.triplets.reserve(ordered.size() + padding);
  const Triplet dummy = DummyTriplet(particle_count);
  std::size_t next = 0;
  for (const std::uint32_t size : out.set_sizes) {
    out.triplets.insert(out.triplets.end(), ordered.begin() + next,
                        ordered.begin() + next + size);
    next += size;
    out.triplets.insert(out.triplets.end(), (width - size % width) % width,
                        dummy);
  }
  out.padding = padding;
}

}  // namespace adj::triplet_schedule
