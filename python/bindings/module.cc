// adjacent._adjacent: the suite's variants callable from Python. C++ errors
// arrive as adjacent.Error (a ValueError) with the C++ message; a variant
// runs with the GIL released.
#include <nanobind/stl/string.h>

#include <string>

#include "algorithms/common/backend.h"
#include "algorithms/common/errors.h"
#include "python/bindings/bindings.h"
#include "tools/families.h"

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
  for (const cli::VariantRow& row : cli::AllVariants()) {
    nb::dict entry;
    entry["family"] = row.family;
    entry["name"] = row.name;
    entry["backend"] = std::string(BackendName(row.backend));
    entry["origin"] = std::string(OriginName(row.origin));
    entry["twin"] = row.twin;
    entry["description"] = row.description;
    entry["runs_here"] = row.availability.available;
    entry["why_not"] = row.availability.reason;
    rows.append(entry);
  }
  return rows;
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
        "fixed, ours, baseline), twin, description, and whether it runs "
        "here (why_not when it does not).");
  adj::python::BindHashGrid(m);
  adj::python::BindTriangleAdjacency(m);
  adj::python::BindConnectedComponents(m);
  adj::python::BindTripletSchedule(m);
  adj::python::BindTripletCollide(m);
  adj::python::BindSph(m);
  adj::python::BindStreams(m);
  adj::python::BindFracture(m);
  adj::python::BindVerify(m);
}
