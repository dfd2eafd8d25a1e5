// adjacent._adjacent: the suite's variants callable from Python. C++ errors
// arrive as adjacent.Error (a ValueError) with the C++ message; a variant
// runs with the GIL released.
#include <nanobind/stl/string.h>

#include <string>

#include "algorithms/common/backend.h"
#include "algorithms/common/errors.h"
#include "algorithms/common/memory_budget.h"
#include "python/bindings/bindings.h"
#include "registry/families.h"

namespace adj::python {

Points ToPoints(const PointArray& array) {
  const auto view = array.view();
  Points points;
  const std::size_t n = array.shape(0);
  points.Resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    points.x[i] = view(i, 0);
    points.y[i] = view(i, 1);
    points.z[i] = view(i, 2);
  }
  return points;
}

namespace {

nb::list Variants() {
  nb::list rows;
  for (const registry::VariantRow& row : registry::AllVariants()) {
    nb::dict entry;
    entry["family"] = row.family;
    entry["name"] = row.name;
    entry["backend"] = std::string(BackendName(row.backend));
    entry["origin"] = std::string(OriginName(row.origin));
    entry["twin"] = row.twin;
    entry["untwinned"] = row.untwinned;
    entry["axes"] = row.traits;
    entry["library"] = row.library;
    entry["description"] = row.description;
    entry["runs_here"] = row.availability.available;
    entry["why_not"] = row.availability.reason;
    rows.append(entry);
  }
  return rows;
}

// adjacent.set_memory_budget: a positive int (bytes), a size such as
// "512M" or "4G" (memory::ParseSize), or None for the default. 0 and
// negative sizes are refused rather than read as "the default" or
// wrapped: a budget the caller did not mean would either refuse every
// piece of work or none.
void SetMemoryBudget(nb::handle size) {
  if (size.is_none()) {
    memory::SetBudget(0);
    return;
  }
  if (PyUnicode_Check(size.ptr())) {
    memory::SetBudget(memory::ParseSize(nb::cast<std::string>(size)));
    return;
  }
  if (PyBool_Check(size.ptr()) || !PyIndex_Check(size.ptr())) {
    throw nb::type_error(
        ("set_memory_budget: the budget is an int (bytes), a size such as "
         "'4G', or None, not " +
         nb::cast<std::string>(nb::str(size.type().attr("__name__"))))
            .c_str());
  }
  const nb::int_ bytes = nb::steal<nb::int_>(PyNumber_Index(size.ptr()));
  if (!bytes.is_valid()) throw nb::python_error();
  const std::string text = nb::cast<std::string>(nb::str(bytes));
  int overflow = 0;
  const long long small = PyLong_AsLongLongAndOverflow(bytes.ptr(), &overflow);
  if (overflow < 0 || (overflow == 0 && small <= 0)) {
    throw Error("set_memory_budget: " + text +
                " bytes: the budget must be positive (None restores the "
                "default)");
  }
  const unsigned long long value = PyLong_AsUnsignedLongLong(bytes.ptr());
  if (PyErr_Occurred() != nullptr) {
    PyErr_Clear();
    throw Error("set_memory_budget: " + text + " bytes is over 2^64 - 1");
  }
  memory::SetBudget(value);
}

}  // namespace
}  // namespace adj::python

NB_MODULE(_adjacent, m) {
  namespace nb = nanobind;
  m.doc() = "The adjacent suite's variants (C++), callable on NumPy arrays.";
  // Registered base first: a thrown exception meets the translators of the
  // most derived types first.
  const nb::exception<adj::Error> error(m, "Error", PyExc_ValueError);
  nb::exception<adj::Unavailable>(m, "Unavailable", error.ptr());
  // Refused for resources: an adjacent.Error and a MemoryError at once, so
  // that either handler catches it. nb::exception takes one base, so the
  // class is made here and its translator registered by hand.
  static PyObject* resource_error = PyErr_NewExceptionWithDoc(
      "adjacent._adjacent.ResourceError",
      "The work would need more memory than the budget "
      "(adjacent.set_memory_budget) or the machine allows; the message "
      "names the bytes and the budget.",
      nb::make_tuple(error, nb::handle(PyExc_MemoryError)).ptr(), nullptr);
  m.attr("ResourceError") = nb::handle(resource_error);
  nb::register_exception_translator(
      [](const std::exception_ptr& thrown, void*) {
        try {
          std::rethrow_exception(thrown);
        } catch (const adj::ResourceError& refused) {
          PyErr_SetString(resource_error, refused.what());
        } catch (const std::bad_alloc&) {
          PyErr_SetString(resource_error,
                          "the machine could not give the memory asked for "
                          "(std::bad_alloc)");
        }
      });
  m.def("variants", &adj::python::Variants,
        "Every family's variants: family, name, backend, origin (faithful, "
        "fixed, ours, baseline), twin (or why an openmp row has none: "
        "untwinned), its axes where it is a recipe of shared parts "
        "('update=collapsed ...'), description, and whether it runs here "
        "(why_not when it does not).");
  m.def(
      "families",
      [] {
        nb::list names;
        for (const std::string_view name : adj::registry::FamilyNames()) {
          names.append(std::string(name));
        }
        return names;
      },
      "The families' names, sorted: each is a submodule (adjacent.<name>).");
  m.def("set_memory_budget", &adj::python::SetMemoryBudget,
        nb::arg("size").none(),
        "Sets the memory budget, process-wide: the most bytes one call may "
        "allocate for output its input does not fix (neighbour lists, "
        "scenes); work over it raises ResourceError before allocating. "
        "`size`: an int (bytes, > 0), a size such as '512M' or '4G' "
        "(powers of 1024), or None for the default (half the machine's "
        "memory).");
  m.def("memory_budget", &adj::memory::Budget,
        "The memory budget in bytes (set_memory_budget), the default's "
        "when none was set.");
#define ADJ_FAMILY(name, CamelName) adj::python::Bind##CamelName(m);
#include "registry/families.inc"
#undef ADJ_FAMILY
  adj::python::BindVerify(m);
  adj::python::BindCheck(m);
}
