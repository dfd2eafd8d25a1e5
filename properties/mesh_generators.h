#pragma once

// RapidCheck generators of triangle meshes, shared by the families that
// consume meshes. A mesh is generated as a short spec (kind, sizes, seed,
// shuffled) and built deterministically, so that a counterexample prints a
// few numbers rather than thousands of triangles, and shrinks by them.

#include <rapidcheck.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <ostream>

#include "algorithms/common/mesh.h"
#include "scenes/meshes.h"

namespace adj::testing {

enum class MeshKind { kGrid, kAlternatingGrid, kSoup, kDisc, kSubdividedGrid };

struct MeshSpec {
  MeshKind kind = MeshKind::kGrid;
  std::size_t a = 0;  // grid width, soup particles - 1, disc segments - 3
  std::size_t b = 0;  // grid height, soup triangles / 2a, disc rings
  std::uint64_t seed = 0;
  bool shuffled = false;
};

inline void showValue(const MeshSpec& spec, std::ostream& os) {
  static constexpr const char* kNames[] = {"grid", "alternating_grid", "soup",
                                           "disc", "subdivided_grid"};
  os << kNames[static_cast<int>(spec.kind)] << "(a=" << spec.a
     << ", b=" << spec.b << ", seed=" << spec.seed
     << (spec.shuffled ? ", shuffled)" : ")");
}

inline Mesh BuildMesh(const MeshSpec& spec) {
  Mesh mesh;
  switch (spec.kind) {
    case MeshKind::kGrid:
      mesh = scenes::ClothGrid(spec.a, spec.b, scenes::Diagonals::kUniform);
      break;
    case MeshKind::kAlternatingGrid:
      mesh = scenes::ClothGrid(spec.a, spec.b, scenes::Diagonals::kAlternating);
      break;
    case MeshKind::kSoup:
      mesh = scenes::TriangleSoup(2 * spec.a * spec.b, spec.a + 1, spec.seed);
      break;
    case MeshKind::kDisc:
      mesh = scenes::Disc(spec.a + 3, spec.b);
      break;
    case MeshKind::kSubdividedGrid:
      mesh = scenes::Subdivided(
          scenes::ClothGrid(spec.a, spec.b, scenes::Diagonals::kAlternating));
      break;
  }
  return spec.shuffled ? scenes::Shuffled(mesh, spec.seed) : mesh;
}

// Specs whose meshes have up to about 2 * max_side^2 triangles. Soups get
// max_side particles at most, so that degenerate triangles and long rows are
// common.
inline rc::Gen<MeshSpec> AnyMeshSpec(std::size_t max_side) {
  return rc::gen::build<MeshSpec>(
      rc::gen::set(&MeshSpec::kind,
                   rc::gen::element(MeshKind::kGrid, MeshKind::kAlternatingGrid,
                                    MeshKind::kSoup, MeshKind::kDisc,
                                    MeshKind::kSubdividedGrid)),
      rc::gen::set(&MeshSpec::a, rc::gen::inRange<std::size_t>(0, max_side)),
      rc::gen::set(&MeshSpec::b, rc::gen::inRange<std::size_t>(0, max_side)),
      rc::gen::set(&MeshSpec::seed, rc::gen::arbitrary<std::uint64_t>()),
      rc::gen::set(&MeshSpec::shuffled, rc::gen::arbitrary<bool>()));
}

// Any finite float, with the extremes of the range drawn often.
inline rc::Gen<float> AnyFiniteCoordinate() {
  using Limits = std::numeric_limits<float>;
  return rc::gen::oneOf(
      rc::gen::suchThat(rc::gen::arbitrary<float>(),
                        [](float v) { return std::isfinite(v); }),
      rc::gen::element(0.0f, -0.0f, Limits::max(), -Limits::max(),
                       Limits::min(), Limits::denorm_min(),
                       -Limits::denorm_min(), 0.1f, 1.0f / 3.0f));
}

// Up to 40 vertices anywhere in float's finite range and up to 60 triangles
// of random (possibly repeated) indices: what a loader must read back
// exactly, whatever the geometry.
inline rc::Gen<Mesh> ArbitraryMeshWithPositions() {
  return rc::gen::exec([] {
    const auto vertices = *rc::gen::inRange<std::uint32_t>(0, 40);
    Mesh mesh;
    for (std::uint32_t i = 0; i < vertices; ++i) {
      mesh.positions.PushBack(*AnyFiniteCoordinate(), *AnyFiniteCoordinate(),
                              *AnyFiniteCoordinate());
    }
    if (vertices > 0) {
      const auto faces = *rc::gen::inRange<std::size_t>(0, 60);
      const auto index = rc::gen::inRange<std::uint32_t>(0, vertices);
      for (std::size_t f = 0; f < faces; ++f) {
        mesh.triangles.push_back({*index, *index, *index});
      }
    }
    return mesh;
  });
}

}  // namespace adj::testing
