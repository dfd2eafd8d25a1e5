// adjacent.hash_set: sets of uint32 keys kept in C++, by any row of the
// family's table. Keys are read in place where they are C-contiguous uint32;
// other integer arrays are checked and copied (ToIntegers).
#include "algorithms/hash_set/hash_set.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "python/bindings/bindings.h"

namespace adj::python {
namespace {

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
  return {variant.run(capacity), variant.traits.concurrent, {}};
}

// fn() on the set under its lock: shared where the variant lets `fn` run
// beside others (concurrent and not `alone`), else exclusive.
template <typename Fn>
decltype(auto) Locked(const HashSet& s, bool alone, Fn&& fn) {
  if (s.concurrent && !alone) return Shared(s.lock, std::forward<Fn>(fn));
  return Exclusive(s.lock, std::forward<Fn>(fn));
}

}  // namespace

void BindHashSet(nb::module_& parent) {
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
            OutputArray<std::uint8_t> found(keys.values.size());
            Locked(s, false,
                   [&] { s.set->ContainsAll(keys.values, found.span()); });
            return std::move(found).ToNumpy(keys.values.size());
          },
          nb::arg("keys"), "1 where the key is in the set, else 0.")
      .def(
          "time_contains_all",
          [](const HashSet& s, nb::handle keys_object, int repetitions) {
            // The C++ side of python/benchmarks/call_overhead.py: the keys
            // converted once, then each lookup into a fresh uninitialised
            // output as contains_all's are.
            const IntegerArray<std::uint32_t> keys = ToIntegers<std::uint32_t>(
                keys_object, "hash_set.Set.time_contains_all", "keys");
            return Locked(s, false, [&] {
              return SecondsPerCallWithoutGil(repetitions, [&] {
                OutputArray<std::uint8_t> found(keys.values.size());
                s.set->ContainsAll(keys.values, found.span());
              });
            });
          },
          nb::arg("keys"), nb::arg("repetitions"),
          "Seconds per contains_all of the keys called from C++ (the keys "
          "converted once), for measuring what a Python call adds.")
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
