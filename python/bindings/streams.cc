// adjacent.prefix_sum, adjacent.compaction and adjacent.hash_set: the three
// building blocks on uint32 arrays, by any row of each family's table.
// Inputs are read in place where they are C-contiguous uint32 (uint8 or
// bool for flags); other integer arrays are checked and copied
// (ToIntegers).
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

nb::tuple Scan(nb::handle values_object, bool inclusive,
               const std::string& variant_name) {
  const prefix_sum::Variant& variant =
      PickVariant(prefix_sum::Variants(), "prefix_sum", variant_name);
  const IntegerArray<std::uint32_t> values =
      ToIntegers<std::uint32_t>(values_object, "prefix_sum.scan", "values");
  std::vector<std::uint32_t> out(values.values.size());
  std::uint32_t total = 0;
  {
    nb::gil_scoped_release release;
    total = variant.run(
        inclusive ? prefix_sum::Kind::kInclusive : prefix_sum::Kind::kExclusive,
        values.values, out);
  }
  return nb::make_tuple(ToNumpy(std::move(out)), total);
}

nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<1>> Compact(
    nb::handle values_object, nb::handle remove_object,
    const std::string& variant_name) {
  const compaction::Variant& variant =
      PickVariant(compaction::Variants(), "compaction", variant_name);
  const IntegerArray<std::uint32_t> values =
      ToIntegers<std::uint32_t>(values_object, "compaction.compact", "values");
  const FlagArray remove =
      ToFlags(remove_object, "compaction.compact", "remove");
  std::vector<std::uint32_t> out(values.values.size());
  std::size_t kept = 0;
  {
    nb::gil_scoped_release release;
    kept = variant.run(values.values, remove.values, out);
  }
  out.resize(kept);
  return ToNumpy(std::move(out));
}

// A set of the hash_set table, kept in C++. The bulk calls release the GIL,
// so Python threads sharing a set reach it at once: lock_free's inserts
// and lookups may (hash_set.h) and share the lock; every other call, and
// every call of the other variants, holds it alone.
struct HashSet {
  std::unique_ptr<hash_set::Set> set;
  bool concurrent = false;
  ObjectLock lock;
};

HashSet MakeSet(std::size_t capacity, const std::string& variant_name) {
  const hash_set::Variant& variant =
      PickVariant(hash_set::Variants(), "hash_set", variant_name);
  return {variant.run(capacity), variant.name == "lock_free", {}};
}

// fn() on the set under its lock: shared where the variant lets `fn` run
// beside others (concurrent and not `alone`), else exclusive.
template <typename Fn>
decltype(auto) Locked(const HashSet& s, bool alone, Fn&& fn) {
  if (s.concurrent && !alone) return Shared(s.lock, std::forward<Fn>(fn));
  return Exclusive(s.lock, std::forward<Fn>(fn));
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
              "removal of particles that broke off). Flags are judged != 0 "
              "in their own dtype: 256 and 0.5 remove.");

  nb::module_ sets = parent.def_submodule(
      "hash_set", "Sets of uint32 keys (docs/hash_set.md).");
  nb::class_<HashSet>(sets, "Set",
                      "A set of the family's table, in C++. Safe to share "
                      "between threads: calls on one set take turns, except "
                      "lock_free's inserts and lookups, which run at once.")
      .def(
          "insert_all",
          [](HashSet& s, nb::handle keys_object) {
            const IntegerArray<std::uint32_t> keys = ToIntegers<std::uint32_t>(
                keys_object, "hash_set.Set.insert_all", "keys");
            return Locked(s, false,
                          [&] { return s.set->InsertAll(keys.values); });
          },
          nb::arg("keys"), "Inserts the keys; returns how many were new.")
      .def(
          "contains_all",
          [](const HashSet& s, nb::handle keys_object) {
            const IntegerArray<std::uint32_t> keys = ToIntegers<std::uint32_t>(
                keys_object, "hash_set.Set.contains_all", "keys");
            std::vector<std::uint8_t> found(keys.values.size());
            Locked(s, false, [&] { s.set->ContainsAll(keys.values, found); });
            return ToNumpy(std::move(found));
          },
          nb::arg("keys"), "1 where the key is in the set, else 0.")
      .def(
          "keys",
          [](const HashSet& s) {
            return ToNumpy(Locked(s, false, [&] { return s.set->Keys(); }));
          },
          "The stored keys, each once, in no particular order.")
      .def("__len__",
           [](const HashSet& s) {
             return Locked(s, false, [&] { return s.set->Size(); });
           })
      .def_prop_ro("capacity",
                   [](const HashSet& s) { return s.set->Capacity(); })
      .def("clear",
           [](HashSet& s) { Locked(s, true, [&] { s.set->Clear(); }); });
  sets.def("make", &MakeSet, nb::arg("capacity"),
           nb::arg("variant") = "open_addressing",
           "An empty set for at most `capacity` keys (the key 2^32 - 1 is "
           "reserved: an Error).");
}

}  // namespace adj::python
