// hash_grid's exported cases: the clouds of scenes/hard_clouds.h (the
// property tests' kinds) at fixed seeds, and the oracle's pairs.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "checks/hash_grid.h"
#include "registry/array_views.h"
#include "registry/corpus.h"
#include "registry/corpus_families.h"
#include "scenes/hard_clouds.h"

namespace adj::registry {
namespace {

using scenes::CloudKind;
using scenes::CloudSpec;

CloudSpec Spec(CloudKind kind, std::size_t points, float spacing, float radius,
               float offset, std::uint64_t seed) {
  CloudSpec spec{};
  spec.kind = kind;
  spec.clusters = 3;
  spec.spacing = spacing;
  spec.max_dist = radius;
  spec.offset = offset;
  std::mt19937_64 random(seed);
  const std::int32_t range = kind == CloudKind::kExactLattice ? 12 : 160;
  for (std::vector<std::int32_t>* axis : {&spec.a, &spec.b, &spec.c}) {
    for (std::size_t i = 0; i < points; ++i) {
      axis->push_back(static_cast<std::int32_t>(random() % (2 * range)) -
                      range);
    }
  }
  return spec;
}

CorpusCase CaseOf(std::string name, std::string purpose, const Points& points,
                  float radius) {
  CorpusCase made;
  made.name = std::move(name);
  made.purpose = std::move(purpose);
  Array& coordinates = made.inputs["points"];
  coordinates.shape = {points.size(), 3};
  for (std::size_t i = 0; i < points.size(); ++i) {
    coordinates.reals.insert(coordinates.reals.end(),
                             {points.x[i], points.y[i], points.z[i]});
  }
  Array& r = made.inputs["radius"];
  r.reals = {radius};
  // The oracle's pairs, each once as (i, j) with i < j, ascending (every
  // row is checked, so row k is particle k).
  made.expected["pairs"] = PairsArray(
      checks::hash_grid::ExpectedOf(points, radius).full_rows, false);
  return made;
}

}  // namespace

std::vector<CorpusCase> HashGridCorpus() {
  std::vector<CorpusCase> cases;
  const auto add = [&](std::string name, std::string purpose,
                       const CloudSpec& spec) {
    cases.push_back(CaseOf(std::move(name), std::move(purpose),
                           scenes::BuildCloud(spec), spec.max_dist));
  };
  add("negative_coordinates",
      "uniform points around -1000.5: a cell index by truncation instead "
      "of floor, or an unsigned cast, loses pairs below 0",
      Spec(CloudKind::kUniform, 400, 2.5f, 2.5f, -1000.5f, 1));
  add("exact_radius_lattice",
      "a lattice of step radius / 5: 3-4-5 pairs at exactly the radius, "
      "which a strict test |d| < r drops",
      Spec(CloudKind::kExactLattice, 200, 1.25f, 1.25f, 0, 2));
  add("cell_boundaries",
      "points on cell boundaries, one ulp beside them, radius either side, "
      "denormals, -0 and 1e-30, with a spacing that is not dyadic: where "
      "rounding decides the cell",
      Spec(CloudKind::kBoundary, 200, 0.1f, 0.1f, 0, 3));
  add("coincident_points",
      "few distinct positions, many copies: zero distances, every copy a "
      "neighbour of every other",
      Spec(CloudKind::kCoincident, 120, 0.5f, 0.5f, 0, 4));
  add("huge_magnitudes",
      "clusters thousands of cells apart around 2^20: sparse cells, hash "
      "collisions, large cell indices",
      Spec(CloudKind::kFarClusters, 200, 0.25f, 0.25f, 1048576.0f, 5));
  add("one_cell", "every point inside one cell: long rows",
      Spec(CloudKind::kOneCell, 150, 1.0f, 1.0f, 0, 6));
  add("tiny_spacing",
      "a spacing of 1e-20 with points near 0: cells of denormal size",
      Spec(CloudKind::kBoundary, 100, 1e-20f, 1e-20f, 0, 7));
  cases.push_back(
      CaseOf("window_miss",
             "Müller's window misses the pair (1, 0), 1 apart at radius 1, "
             "through a cell boundary at -1e-30",
             scenes::MullerWindowMissCloud(), 1.0f));
  cases.push_back(CaseOf("empty", "no points", Points{}, 1.0f));
  return cases;
}

}  // namespace adj::registry
