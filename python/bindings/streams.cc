// adjacent.prefix_sum, adjacent.compaction and adjacent.hash_set: the three
// building blocks on uint32 arrays, by any row of each family's table.
// Inputs are read in place where they are C-contiguous uint32 (uint8 for
// flags); NumPy casts others first.
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "algorithms/compaction/compaction.h"
#include "algorithms/hash_set/hash_set.h"
#include "algorithms/prefix_sum/prefix_sum.h"
#include "python/bindings/bindings.h"

namespace adj::python {
namespace {

using Words = nb::ndarray<const std::uint32_t, nb::ndim<1>, nb::c_contig,
                          nb::device::cpu>;
using Bytes =
    nb::ndarray<const std::uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

std::span<const std::uint32_t> View(const Words& words) {
  return {words.data(), words.shape(0)};
}

nb::tuple Scan(const Words& values, bool inclusive,
               const std::string& variant_name) {
  const prefix_sum::Variant& variant =
      PickVariant(prefix_sum::Variants(), "prefix_sum", variant_name);
  std::vector<std::uint32_t> out(values.shape(0));
  std::uint32_t total = 0;
  {
    nb::gil_scoped_release release;
    total = variant.run(
        inclusive ? prefix_sum::Kind::kInclusive : prefix_sum::Kind::kExclusive,
        View(values), out);
  }
  return nb::make_tuple(ToNumpy(std::move(out)), total);
}

nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<1>> Compact(
    const Words& values, const Bytes& remove, const std::string& variant_name) {
  const compaction::Variant& variant =
      PickVariant(compaction::Variants(), "compaction", variant_name);
  std::vector<std::uint32_t> out(values.shape(0));
  std::size_t kept = 0;
  {
    nb::gil_scoped_release release;
    kept = variant.run(View(values), {remove.data(), remove.shape(0)}, out);
  }
  out.resize(kept);
  return ToNumpy(std::move(out));
}

// A set of the hash_set table, kept in C++; the bulk calls release the GIL
// (lock_free's may run from several Python threads at once).
struct HashSet {
  std::unique_ptr<hash_set::Set> set;
};

HashSet MakeSet(std::size_t capacity, const std::string& variant_name) {
  const hash_set::Variant& variant =
      PickVariant(hash_set::Variants(), "hash_set", variant_name);
  return {variant.run(capacity)};
}

}  // namespace

void BindStreams(nb::module_& parent) {
  nb::module_ scan = parent.def_submodule(
      "prefix_sum", "Prefix sums of uint32 (docs/prefix_sum.md).");
  scan.def("scan", &Scan, nb::arg("values"), nb::arg("inclusive") = false,
           nb::arg("variant") = "serial",
           "(sums, total): the exclusive (or inclusive) prefix sums of "
           "`values`, modulo 2^32, and the total.");

  nb::module_ compact = parent.def_submodule(
      "compaction", "Stream compaction (docs/compaction.md).");
  compact.def("compact", &Compact, nb::arg("values"), nb::arg("remove"),
              nb::arg("variant") = "serial",
              "The values whose `remove` flag is 0, in their order (a "
              "nonzero flag removes its value: the fracture update's "
              "removal of particles that broke off).");

  nb::module_ sets = parent.def_submodule(
      "hash_set", "Sets of uint32 keys (docs/hash_set.md).");
  nb::class_<HashSet>(sets, "Set", "A set of the family's table, in C++.")
      .def(
          "insert_all",
          [](HashSet& s, const Words& keys) {
            nb::gil_scoped_release release;
            return s.set->InsertAll(View(keys));
          },
          nb::arg("keys"), "Inserts the keys; returns how many were new.")
      .def(
          "contains_all",
          [](const HashSet& s, const Words& keys) {
            std::vector<std::uint8_t> found(keys.shape(0));
            {
              nb::gil_scoped_release release;
              s.set->ContainsAll(View(keys), found);
            }
            return ToNumpy(std::move(found));
          },
          nb::arg("keys"), "1 where the key is in the set, else 0.")
      .def(
          "keys", [](const HashSet& s) { return ToNumpy(s.set->Keys()); },
          "The stored keys, each once, in no particular order.")
      .def("__len__", [](const HashSet& s) { return s.set->Size(); })
      .def_prop_ro("capacity",
                   [](const HashSet& s) { return s.set->Capacity(); })
      .def("clear", [](HashSet& s) { s.set->Clear(); });
  sets.def("make", &MakeSet, nb::arg("capacity"),
           nb::arg("variant") = "open_addressing",
           "An empty set for at most `capacity` keys (the key 2^32 - 1 is "
           "reserved: an Error).");
}

}  // namespace adj::python
