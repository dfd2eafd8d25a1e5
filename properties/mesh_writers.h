#pragma once

// Writes meshes as text for the tests that feed the loaders or the
// `adjacent` command line: floats in their shortest exact form, so that a
// mesh reads back unchanged.

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>

#include "algorithms/common/mesh.h"

namespace adj::testing {

// Shortest form that reads back as the same float.
inline std::string Shortest(float value) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, end);
}

// One "x y z" line per point, each after `prefix` ("v " for OBJ).
inline std::string WriteVertices(const Points& points,
                                 std::string_view prefix) {
  std::string text;
  for (std::size_t i = 0; i < points.size(); ++i) {
    text += std::string(prefix) + Shortest(points.x[i]) + " " +
            Shortest(points.y[i]) + " " + Shortest(points.z[i]) + "\n";
  }
  return text;
}

// OFF: the header line, the counts on line 2, then one line per vertex and
// per face (so the first face is on line 3 + particles()).
inline std::string WriteOff(const Mesh& mesh) {
  std::string text = "OFF\n" + std::to_string(mesh.particles()) + " " +
                     std::to_string(mesh.triangles.size()) + " 0\n" +
                     WriteVertices(mesh.positions, "");
  for (const auto& [a, b, c] : mesh.triangles) {
    text += "3 " + std::to_string(a) + " " + std::to_string(b) + " " +
            std::to_string(c) + "\n";
  }
  return text;
}

}  // namespace adj::testing
