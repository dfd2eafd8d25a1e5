#pragma once

// The property every loader's fuzz target checks: any bytes either load or
// throw ParseError or ResourceError naming the input (never another
// exception, a crash or a sanitizer report), and what loads is a
// well-formed mesh: at least one vertex, finite coordinates, indices below
// the vertex count. Inputs are far below the memory budget, so a
// ResourceError here would mean an allocation out of proportion to them.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "algorithms/common/errors.h"
#include "algorithms/common/mesh.h"
#include "fuzz/fuzz_input.h"
#include "scenes/mesh_io.h"

namespace adj::fuzz {

inline void CheckPoints(const Points& points) {
  if (points.y.size() != points.size() || points.z.size() != points.size()) {
    Broken("coordinate arrays of different lengths");
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!std::isfinite(points.x[i]) || !std::isfinite(points.y[i]) ||
        !std::isfinite(points.z[i])) {
      Broken("a loaded coordinate is not finite");
    }
  }
}

inline void CheckMesh(const Mesh& mesh) {
  CheckPoints(mesh.positions);
  if (mesh.positions.empty()) Broken("an empty mesh loaded");
  for (const Triangle& triangle : mesh.triangles) {
    for (const std::uint32_t corner : triangle) {
      if (corner >= mesh.particles()) Broken("a loaded index is out of range");
    }
  }
}

template <typename Result>
void FuzzLoader(Result (*parse)(std::istream&, const std::string&),
                const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const Result result = parse(in, "fuzz");
    if constexpr (std::is_same_v<Result, Mesh>) {
      CheckMesh(result);
    } else {
      CheckPoints(result);
      if (result.empty()) Broken("an empty point set loaded");
    }
  } catch (const scenes::ParseError& error) {
    if (std::string(error.what()).rfind("fuzz:", 0) != 0) {
      Broken("a ParseError that does not name the input");
    }
  } catch (const ResourceError& error) {
    if (std::string(error.what()).rfind("fuzz:", 0) != 0) {
      Broken("a ResourceError that does not name the input");
    }
  }
}

}  // namespace adj::fuzz
