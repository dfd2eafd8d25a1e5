// adjacent.verify_cloud / verify_mesh: every variant of the families that
// take the input, each against its family's oracle (checks/), as the
// command line's `adjacent verify` does.
#include "registry/verify.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <optional>
#include <string>

#include "algorithms/common/mesh.h"
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "python/bindings/bindings.h"

namespace adj::python {
namespace {

nb::list Rows(const std::vector<registry::VerifyRow>& rows) {
  nb::list out;
  for (const registry::VerifyRow& row : rows) {
    nb::dict entry;
    entry["family"] = row.family;
    entry["variant"] = row.variant;
    entry["backend"] = std::string(BackendName(row.backend));
    entry["outcome"] =
        row.outcome == registry::VerifyRow::Outcome::kAgrees    ? "agrees"
        : row.outcome == registry::VerifyRow::Outcome::kDiffers ? "differs"
        : row.outcome == registry::VerifyRow::Outcome::kRefused ? "refused"
                                                                : "skipped";
    entry["detail"] = row.detail;
    entry["seconds"] = row.seconds;
    out.append(entry);
  }
  return out;
}

nb::dict VerifyCloud(const PointArray& array, float radius,
                     std::optional<float> spacing) {
  const Points points = ToPoints(array);
  hash_grid::Params params;
  params.max_dist = radius;
  params.spacing = spacing.value_or(radius);
  params.table_size = hash_grid::DefaultTableSize(points.size());
  hash_grid::Check(points, params, true);
  double oracle_seconds = 0;
  std::string scope;
  std::vector<registry::VerifyRow> rows;
  RunInterruptible([&] {
    rows = registry::VerifyOnCloud(points, params, oracle_seconds, scope);
  });
  nb::dict out;
  out["rows"] = Rows(rows);
  out["oracle_seconds"] = oracle_seconds;
  out["oracle_scope"] = scope;
  return out;
}

nb::dict VerifyMesh(const PointArray& positions, nb::handle triangles) {
  Mesh mesh;
  mesh.positions = ToPoints(positions);
  const IntegerArray<std::uint32_t> array =
      ToIntegers<std::uint32_t>(triangles, "verify", "triangles", 3);
  mesh.triangles.assign(array.Rows<3>().begin(), array.Rows<3>().end());
  // Refused here, as triangle_adjacency.build refuses it: each family
  // would otherwise report its own error as a row that differs.
  triangle_adjacency::Check(mesh.triangles, mesh.positions.size());
  double oracle_seconds = 0;
  std::vector<registry::VerifyRow> rows;
  RunInterruptible(
      [&] { rows = registry::VerifyOnMesh(mesh, oracle_seconds); });
  nb::dict out;
  out["rows"] = Rows(rows);
  out["oracle_seconds"] = oracle_seconds;
  return out;
}

}  // namespace

void BindVerify(nb::module_& m) {
  m.def("verify_cloud", &VerifyCloud, nb::arg("points"), nb::arg("radius"),
        nb::arg("spacing") = nb::none(),
        "Every hash_grid variant on `points` (n x 3) against the brute-force "
        "oracle: {'rows': [{family, variant, backend, outcome ('agrees', "
        "'differs', 'skipped'), detail, seconds}], 'oracle_seconds', "
        "'oracle_scope'}.");
  m.def("verify_mesh", &VerifyMesh, nb::arg("positions"), nb::arg("triangles"),
        "Every variant of the mesh families (triangle adjacency, triplet "
        "schedules, ...) on the mesh against their oracles: {'rows': [...], "
        "'oracle_seconds'}.");
}

}  // namespace adj::python
