#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/common/points.h"

namespace adj {

// Three particle indices. Families take triangles as a span plus the particle
// count, so that they accept any index buffer a user already has.
using Triangle = std::array<std::uint32_t, 3>;

// NvCloth's virtual particle (its Vec4u): particle indices p0, p1, p2 and an
// index into a table of barycentric weights. Schedulers read only p0..p2.
using Triplet = std::array<std::uint32_t, 4>;

// "(p0, p1, p2; weight w)", as error messages and validators name a triplet.
inline std::string DescribeTriplet(const Triplet& t) {
  // Appended piece by piece: "(" + std::to_string(...) trips GCC 12's
  // -Wrestrict false positive.
  std::string text = "(";
  text += std::to_string(t[0]);
  text += ", ";
  text += std::to_string(t[1]);
  text += ", ";
  text += std::to_string(t[2]);
  text += "; weight ";
  text += std::to_string(t[3]);
  text += ")";
  return text;
}

// A triangle mesh as the suite's scenes and loaders produce it. Indices are
// not checked here: families validate them against particles().
struct Mesh {
  Points positions;
  std::vector<Triangle> triangles;

  std::size_t particles() const { return positions.size(); }

  friend bool operator==(const Mesh&, const Mesh&) = default;
};

}  // namespace adj
