// adjacent._adjacent.check_output: an output computed outside the suite
// against the family's oracle (registry/outside_check.h); the Python side
// (adjacent/check.py) gives each family its own signature and hands the
// arrays over as C-contiguous int64 or float64.
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <map>
#include <string>
#include <tuple>

#include "python/bindings/bindings.h"
#include "registry/outside_check.h"

namespace adj::python {
namespace {

using IntegerNd =
    nb::ndarray<const std::int64_t, nb::c_contig, nb::device::cpu>;
using RealNd = nb::ndarray<const double, nb::c_contig, nb::device::cpu>;

template <typename Nd>
std::vector<std::size_t> ShapeOf(const Nd& array) {
  std::vector<std::size_t> shape(array.ndim());
  for (std::size_t k = 0; k < shape.size(); ++k) shape[k] = array.shape(k);
  return shape;
}

registry::Arrays ToArrays(const nb::dict& given) {
  registry::Arrays arrays;
  for (const auto& [key, value] : given) {
    const std::string name = nb::cast<std::string>(key);
    registry::Array& array = arrays[name];
    IntegerNd integers;
    RealNd reals;
    if (nb::try_cast(value, integers, false)) {
      array.shape = ShapeOf(integers);
      array.integral = true;
      array.integers.assign(integers.data(), integers.data() + integers.size());
    } else if (nb::try_cast(value, reals, false)) {
      array.shape = ShapeOf(reals);
      array.reals.assign(reals.data(), reals.data() + reals.size());
    } else {
      throw nb::type_error(
          (name + ": expected a C-contiguous int64 or float64 array").c_str());
    }
  }
  return arrays;
}

std::tuple<std::string, std::map<std::string, double>, std::string> CheckOutput(
    const std::string& family, const nb::dict& inputs, const nb::dict& outputs,
    const std::map<std::string, double>& given_parameters) {
  const registry::OutsideCheck* check = registry::FindOutsideCheck(family);
  if (check == nullptr) throw Error("no outside check for " + family);
  const registry::Arrays input_arrays = ToArrays(inputs);
  const registry::Arrays output_arrays = ToArrays(outputs);
  const registry::Parameters parameters(given_parameters.begin(),
                                        given_parameters.end());
  registry::RequireKnownNames(*check, input_arrays, output_arrays, parameters);
  registry::OutsideVerdict verdict;
  RunInterruptible(
      [&] { verdict = check->check(input_arrays, output_arrays, parameters); });
  std::map<std::string, double> statistics(verdict.statistics.begin(),
                                           verdict.statistics.end());
  return {verdict.difference, statistics, verdict.scope};
}

nb::list OutsideChecks() {
  nb::list checks;
  for (const registry::OutsideCheck& check : registry::OutsideChecks()) {
    nb::dict entry;
    entry["family"] = std::string(check.family);
    entry["inputs"] = std::string(check.inputs);
    entry["outputs"] = std::string(check.outputs);
    checks.append(entry);
  }
  return checks;
}

}  // namespace

void BindCheck(nb::module_& m) {
  m.def("check_output", &CheckOutput, nb::arg("family"), nb::arg("inputs"),
        nb::arg("outputs"), nb::arg("parameters"),
        "(difference, statistics, scope) of an output computed outside the "
        "suite against the family's oracle; adjacent.check wraps it.");
  m.def("outside_checks", &OutsideChecks,
        "The families an output can be checked for, with what each reads.");
}

}  // namespace adj::python
