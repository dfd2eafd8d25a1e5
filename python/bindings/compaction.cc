// adjacent.compaction: stream compaction of uint32 arrays, by any row of
// the family's table. Inputs are read in place where they are C-contiguous
// uint32 (uint8 or bool for flags); other integer arrays are checked and
// copied (ToIntegers).
#include "algorithms/compaction/compaction.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "python/bindings/bindings.h"

namespace adj::python {
namespace {

nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<1>> Compact(
    nb::handle values_object, nb::handle remove_object,
    const std::string& variant_name) {
  const compaction::Variant& variant =
      PickVariant(compaction::Variants(), "compaction", variant_name);
  const IntegerArray<std::uint32_t> values =
      ToIntegers<std::uint32_t>(values_object, "compaction.compact", "values");
  const FlagArray remove =
      ToFlags(remove_object, "compaction.compact", "remove");
  OutputArray<std::uint32_t> out(values.values.size());
  std::size_t kept = 0;
  {
    nb::gil_scoped_release release;
    kept = variant.run(values.values, remove.values, out.span());
  }
  return std::move(out).ToNumpy(kept);
}

// The C++ side of python/benchmarks/call_overhead.py: the inputs converted
// once, then each compaction into a fresh uninitialised output as
// compact's are.
std::vector<double> TimeCompact(nb::handle values_object,
                                nb::handle remove_object,
                                const std::string& variant_name,
                                int repetitions) {
  const compaction::Variant& variant =
      PickVariant(compaction::Variants(), "compaction", variant_name);
  const IntegerArray<std::uint32_t> values = ToIntegers<std::uint32_t>(
      values_object, "compaction.time_compact", "values");
  const FlagArray remove =
      ToFlags(remove_object, "compaction.time_compact", "remove");
  return SecondsPerCall(repetitions, [&] {
    OutputArray<std::uint32_t> out(values.values.size());
    variant.run(values.values, remove.values, out.span());
  });
}

}  // namespace

void BindCompaction(nb::module_& parent) {
  nb::module_ compact = parent.def_submodule(
      "compaction", "Stream compaction (docs/compaction.md).");
  compact.def("compact", &Compact, nb::arg("values"), nb::arg("remove"),
              nb::arg("variant") = "serial",
              "The values whose `remove` flag is 0, in their order (a "
              "nonzero flag removes its value: the fracture update's "
              "removal of particles that broke off). Flags are judged != 0 "
              "in their own dtype: 256 and 0.5 remove.");
  compact.def("time_compact", &TimeCompact, nb::arg("values"),
              nb::arg("remove"), nb::arg("variant"), nb::arg("repetitions"),
              "Seconds per compaction of the variant called from C++ "
              "(inputs converted once), for measuring what a Python call "
              "adds (python/benchmarks/call_overhead.py).");
}

}  // namespace adj::python
