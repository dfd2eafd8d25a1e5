// adjacent.prefix_sum: prefix sums of uint32 arrays, by any row of the
// family's table. Values are read in place where they are C-contiguous
// uint32; other integer arrays are checked and copied (ToIntegers).
#include "algorithms/prefix_sum/prefix_sum.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "python/bindings/bindings.h"

namespace adj::python {
namespace {

nb::tuple Scan(nb::handle values_object, bool inclusive,
               const std::string& variant_name) {
  const prefix_sum::Variant& variant =
      PickVariant(prefix_sum::Variants(), "prefix_sum", variant_name);
  const IntegerArray<std::uint32_t> values =
      ToIntegers<std::uint32_t>(values_object, "prefix_sum.scan", "values");
  OutputArray<std::uint32_t> out(values.values.size());
  std::uint32_t total = 0;
  {
    nb::gil_scoped_release release;
    total = variant.run(
        inclusive ? prefix_sum::Kind::kInclusive : prefix_sum::Kind::kExclusive,
        values.values, out.span());
  }
  return nb::make_tuple(std::move(out).ToNumpy(values.values.size()), total);
}

// The C++ side of python/benchmarks/call_overhead.py: the values converted
// once, then each scan into a fresh uninitialised output as scan's are.
std::vector<double> TimeScan(nb::handle values_object, bool inclusive,
                             const std::string& variant_name, int repetitions) {
  const prefix_sum::Variant& variant =
      PickVariant(prefix_sum::Variants(), "prefix_sum", variant_name);
  const IntegerArray<std::uint32_t> values = ToIntegers<std::uint32_t>(
      values_object, "prefix_sum.time_scan", "values");
  const prefix_sum::Kind kind =
      inclusive ? prefix_sum::Kind::kInclusive : prefix_sum::Kind::kExclusive;
  return SecondsPerCall(repetitions, [&] {
    OutputArray<std::uint32_t> out(values.values.size());
    variant.run(kind, values.values, out.span());
  });
}

}  // namespace

void BindPrefixSum(nb::module_& parent) {
  nb::module_ scan = parent.def_submodule(
      "prefix_sum", "Prefix sums of uint32 (docs/prefix_sum.md).");
  scan.def("scan", &Scan, nb::arg("values"), nb::arg("inclusive") = false,
           nb::arg("variant") = "serial",
           "(sums, total): the exclusive (or inclusive) prefix sums of "
           "`values`, modulo 2^32, and the total.");
  scan.def("time_scan", &TimeScan, nb::arg("values"), nb::arg("inclusive"),
           nb::arg("variant"), nb::arg("repetitions"),
           "Seconds per scan of the variant called from C++ (values "
           "converted once), for measuring what a Python call adds "
           "(python/benchmarks/call_overhead.py).");
}

}  // namespace adj::python
