// The integer and flag arguments' checked conversion (ToIntegers, ToFlags
// in bindings.h). NumPy makes an array of whatever the caller passed; its
// elements are then read in their own dtype, each checked against the C++
// type before it is stored, so that no value the caller wrote is changed
// on the way in.
#include <nanobind/stl/string.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "algorithms/common/errors.h"
#include "python/bindings/bindings.h"

namespace adj::python {
namespace {

template <typename T>
constexpr std::string_view TypeName() {
  if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
  if constexpr (std::is_same_v<T, std::uint8_t>) return "uint8";
  return "integer";
}

// "where: name" for the messages.
std::string Argument(std::string_view where, std::string_view name) {
  return std::string(where) + ": " + std::string(name);
}

// The caller's argument as a NumPy array of native byte order whose
// floats, if any, are float32 or float64: the dtypes ForEach reads; or of
// Python objects (NumPy's for a list holding an int over 64 bits), which
// FromObjects reads.
nb::object AsArray(nb::handle object, std::string_view where,
                   std::string_view name) {
  const nb::module_ numpy = nb::module_::import_("numpy");
  nb::object array = numpy.attr("asarray")(object);
  const nb::object dtype = array.attr("dtype");
  const std::string kinds = nb::cast<std::string>(dtype.attr("kind"));
  const char kind = kinds.empty() ? '?' : kinds[0];
  if (kind == 'O') return array;  // FromObjects reads it
  if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f') {
    throw nb::type_error((Argument(where, name) +
                          " must hold integers, not dtype " +
                          nb::cast<std::string>(nb::str(dtype)))
                             .c_str());
  }
  if (!nb::cast<bool>(dtype.attr("isnative"))) {
    array = array.attr("astype")(dtype.attr("newbyteorder")("="));
  }
  const auto itemsize = nb::cast<std::size_t>(dtype.attr("itemsize"));
  if (kind == 'f' && itemsize != 4 && itemsize != 8) {
    // float16 exactly; long double rounded to the nearest double, which
    // is then checked as any other.
    array = array.attr("astype")(numpy.attr("float64"));
  }
  return array;
}

using AnyArray = nb::ndarray<nb::ro, nb::device::cpu>;

// The rows of an array of `shape` that must be 1-D (columns 0) or
// (rows, columns), where an empty 1-D array is 0 rows; TypeError naming
// the argument otherwise.
std::size_t RowsOf(const std::vector<std::size_t>& shape,
                   std::string_view where, std::string_view name,
                   std::size_t columns) {
  const bool empty_list = shape.size() == 1 && shape[0] == 0;
  const bool fits =
      columns == 0 ? shape.size() == 1
                   : (shape.size() == 2 && shape[1] == columns) || empty_list;
  if (!fits) {
    std::string text = "(";
    for (std::size_t d = 0; d < shape.size(); ++d) {
      text += (d > 0 ? ", " : "") + std::to_string(shape[d]);
    }
    text += shape.size() == 1 ? ",)" : ")";
    throw nb::type_error(
        (Argument(where, name) + " must be " +
         (columns == 0 ? std::string("1-D")
                       : "(n, " + std::to_string(columns) + ")") +
         ", not of shape " + text)
            .c_str());
  }
  return empty_list ? 0 : shape[0];
}

using AnyArray = nb::ndarray<nb::ro, nb::device::cpu>;

// The array's view, its shape checked (RowsOf).
AnyArray ViewOf(const nb::object& array, std::string_view where,
                std::string_view name, std::size_t columns, std::size_t& rows) {
  AnyArray view;
  if (!nb::try_cast(array, view)) {
    throw nb::type_error(
        (Argument(where, name) + " could not be read as an array").c_str());
  }
  std::vector<std::size_t> shape(view.ndim());
  for (std::size_t d = 0; d < shape.size(); ++d) shape[d] = view.shape(d);
  rows = RowsOf(shape, where, name, columns);
  return view;
}

// Whether the array holds T's, row-major and contiguous: read in place.
template <typename T>
bool InPlace(const AnyArray& view, std::size_t columns) {
  if (view.dtype() != nb::dtype<T>()) return false;
  if (view.ndim() == 1) return view.shape(0) <= 1 || view.stride(0) == 1;
  return (view.shape(0) <= 1 ||
          view.stride(0) == static_cast<std::int64_t>(columns)) &&
         (columns <= 1 || view.stride(1) == 1);
}

// Calls read(Source{}) with the C++ type of the array's elements.
template <typename Read>
void WithElementType(const AnyArray& view, Read&& read) {
  const auto is = [&](auto value) {
    if (view.dtype() != nb::dtype<decltype(value)>()) return false;
    read(value);
    return true;
  };
  if (is(bool{}) || is(std::int8_t{}) || is(std::int16_t{}) ||
      is(std::int32_t{}) || is(std::int64_t{}) || is(std::uint8_t{}) ||
      is(std::uint16_t{}) || is(std::uint32_t{}) || is(std::uint64_t{}) ||
      is(float{}) || is(double{})) {
    return;
  }
  throw nb::type_error("an array of a dtype the conversion cannot read");
}

// Visits every element in row-major order as (flat index, value), reading
// each with memcpy (NumPy arrays may be strided or unaligned).
template <typename Source, typename Visit>
void ForEach(const AnyArray& view, std::size_t rows, std::size_t columns,
             Visit&& visit) {
  const auto* base =
      static_cast<const char*>(static_cast<const void*>(view.data()));
  const std::int64_t row_stride = view.ndim() >= 1 ? view.stride(0) : 0;
  const std::int64_t column_stride = view.ndim() >= 2 ? view.stride(1) : 0;
  const std::size_t width = columns == 0 ? 1 : columns;
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < width; ++c) {
      const std::int64_t offset = static_cast<std::int64_t>(r) * row_stride +
                                  static_cast<std::int64_t>(c) * column_stride;
      Source value;
      std::memcpy(&value,
                  base + offset * static_cast<std::int64_t>(sizeof(Source)),
                  sizeof(Source));
      visit(r * width + c, value);
    }
  }
}

// The value as the caller wrote it: 0.5, nan, -inf, 4294967301.
template <typename Source>
std::string Describe(Source value) {
  if constexpr (std::is_same_v<Source, bool>) {
    return value ? "True" : "False";
  } else if constexpr (std::is_floating_point_v<Source>) {
    char text[64];
    const auto end = std::to_chars(text, text + sizeof(text), value).ptr;
    return std::string(text, end);
  } else {
    return std::to_string(value);
  }
}

// Whether the value is an integer T holds.
template <typename T, typename Source>
bool Fits(Source value) {
  if constexpr (std::is_same_v<Source, bool>) {
    return true;
  } else if constexpr (std::is_integral_v<Source>) {
    return std::in_range<T>(value);
  } else {
    const double v = value;
    // max() + 1.0 is exactly 2^bits, a power of two, where max() itself
    // may round up to it (uint64): v < it is the test without rounding.
    return std::isfinite(v) && v == std::trunc(v) &&
           v >= static_cast<double>(std::numeric_limits<T>::min()) &&
           v < static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
  }
}

// Throws the error for element `flat` of the argument: "where:
// name[i, j] = value" and why (not an integer, or out of T's range).
template <typename T>
[[noreturn]] void RefuseElement(std::string_view where, std::string_view name,
                                std::size_t flat, std::size_t columns,
                                const std::string& value, bool integer) {
  const std::string index = columns == 0
                                ? std::to_string(flat)
                                : std::to_string(flat / columns) + ", " +
                                      std::to_string(flat % columns);
  const std::string problem =
      integer ? "does not fit " + std::string(TypeName<T>()) + " (" +
                    std::to_string(std::numeric_limits<T>::min()) + " to " +
                    std::to_string(std::numeric_limits<T>::max()) + ")"
              : std::string("is not an integer");
  throw Error(Argument(where, name) + "[" + index + "] = " + value + " " +
              problem);
}

// RefuseElement for a value that Fits<T> refused.
template <typename T, typename Source>
[[noreturn]] void Refuse(std::string_view where, std::string_view name,
                         std::size_t flat, std::size_t columns, Source value) {
  bool integer = true;
  if constexpr (std::is_floating_point_v<Source>) {
    integer = std::isfinite(value) && value == std::trunc(value);
  }
  RefuseElement<T>(where, name, flat, columns, Describe(value), integer);
}

// An object array, element by element: Python ints and floats checked as
// ForEach's values are (so that 2**64 is refused for its value, not for
// the dtype NumPy gave it), anything else a TypeError.
template <typename T>
void FromObjects(const nb::object& array, std::string_view where,
                 std::string_view name, std::size_t columns,
                 IntegerArray<T>& out) {
  std::vector<std::size_t> shape;
  for (const nb::handle extent : nb::borrow<nb::tuple>(array.attr("shape"))) {
    shape.push_back(nb::cast<std::size_t>(extent));
  }
  out.rows = RowsOf(shape, where, name, columns);
  const nb::list items =
      nb::borrow<nb::list>(array.attr("ravel")().attr("tolist")());
  out.copy.resize(items.size());
  for (std::size_t i = 0; i < out.copy.size(); ++i) {
    const nb::handle item = items[i];
    if (PyFloat_Check(item.ptr())) {
      const double value = PyFloat_AsDouble(item.ptr());
      if (!Fits<T>(value)) Refuse<T>(where, name, i, columns, value);
      out.copy[i] = static_cast<T>(value);
      continue;
    }
    if (!PyIndex_Check(item.ptr())) {
      throw nb::type_error((Argument(where, name) +
                            " must hold integers, not " +
                            nb::cast<std::string>(nb::repr(item)))
                               .c_str());
    }
    const nb::object index = nb::steal(PyNumber_Index(item.ptr()));
    if (!index.is_valid()) throw nb::python_error();
    int overflow = 0;
    const long long value =
        PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (overflow != 0 || !std::in_range<T>(value)) {
      RefuseElement<T>(where, name, i, columns,
                       nb::cast<std::string>(nb::str(index)), true);
    }
    out.copy[i] = static_cast<T>(value);
  }
  out.values = out.copy;
}

}  // namespace

template <typename T>
IntegerArray<T> ToIntegers(nb::handle object, std::string_view where,
                           std::string_view name, std::size_t columns) {
  nb::object array = AsArray(object, where, name);
  IntegerArray<T> out;
  if (nb::cast<std::string>(array.attr("dtype").attr("kind")) == "O") {
    FromObjects(array, where, name, columns, out);
    return out;
  }
  const AnyArray view = ViewOf(array, where, name, columns, out.rows);
  const std::size_t count = out.rows * (columns == 0 ? 1 : columns);
  if (InPlace<T>(view, columns)) {
    out.values = {static_cast<const T*>(static_cast<const void*>(view.data())),
                  count};
    out.owner = std::move(array);
    return out;
  }
  out.copy.resize(count);
  WithElementType(view, [&](auto type) {
    using Source = decltype(type);
    ForEach<Source>(view, out.rows, columns,
                    [&](std::size_t flat, Source value) {
                      if (!Fits<T>(value))
                        Refuse<T>(where, name, flat, columns, value);
                      out.copy[flat] = static_cast<T>(value);
                    });
  });
  out.values = out.copy;
  return out;
}

template IntegerArray<std::uint32_t> ToIntegers<std::uint32_t>(nb::handle,
                                                               std::string_view,
                                                               std::string_view,
                                                               std::size_t);

FlagArray ToFlags(nb::handle object, std::string_view where,
                  std::string_view name) {
  nb::object array = AsArray(object, where, name);
  FlagArray out;
  if (nb::cast<std::string>(array.attr("dtype").attr("kind")) == "O") {
    // Python numbers NumPy could not store (ints over 64 bits): each one's
    // truth, which for a number is != 0.
    std::vector<std::size_t> shape;
    for (const nb::handle extent : nb::borrow<nb::tuple>(array.attr("shape"))) {
      shape.push_back(nb::cast<std::size_t>(extent));
    }
    RowsOf(shape, where, name, 0);
    const nb::list items =
        nb::borrow<nb::list>(array.attr("ravel")().attr("tolist")());
    out.copy.resize(items.size());
    for (std::size_t i = 0; i < out.copy.size(); ++i) {
      const nb::handle item = items[i];
      if (!PyFloat_Check(item.ptr()) && !PyIndex_Check(item.ptr())) {
        throw nb::type_error((Argument(where, name) +
                              " must hold numbers, not " +
                              nb::cast<std::string>(nb::repr(item)))
                                 .c_str());
      }
      out.copy[i] = PyObject_IsTrue(item.ptr()) == 1 ? 1 : 0;
    }
    out.values = out.copy;
    return out;
  }
  std::size_t rows = 0;
  const AnyArray view = ViewOf(array, where, name, 0, rows);
  // bool's bytes are 0 or 1 and any nonzero uint8 removes: both as they
  // are.
  if (InPlace<std::uint8_t>(view, 0) || InPlace<bool>(view, 0)) {
    out.values = {
        static_cast<const std::uint8_t*>(static_cast<const void*>(view.data())),
        rows};
    out.owner = std::move(array);
    return out;
  }
  out.copy.resize(rows);
  WithElementType(view, [&](auto type) {
    using Source = decltype(type);
    ForEach<Source>(view, rows, 0, [&](std::size_t i, Source value) {
      out.copy[i] = value != Source{} ? 1 : 0;
    });
  });
  out.values = out.copy;
  return out;
}

}  // namespace adj::python
