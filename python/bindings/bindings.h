#pragma once

// The Python module `adjacent._adjacent` (nanobind): one Bind function per
// family, each adding its submodule; the helpers they share.

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "algorithms/common/interrupt.h"
#include "algorithms/common/mesh.h"
#include "algorithms/common/points.h"
#include "algorithms/common/variant.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::python {

namespace nb = nanobind;

// A read-only 1-D NumPy array over `values`, which it takes over (no copy):
// the array owns the vector until Python frees it.
template <typename T>
nb::ndarray<nb::numpy, const T, nb::ndim<1>> ToNumpy(std::vector<T>&& values) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule owner(
      owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, const T, nb::ndim<1>>(owned->data(),
                                                      {owned->size()}, owner);
}

// An output of `size` T's that a kernel writes whole (a scan, a
// compaction's kept prefix), left uninitialised: a zero-filled vector would
// cost a pass over memory the kernel then overwrites (and would place its
// pages from one thread). Handed to NumPy without a copy; `used` entries
// of it are the array (the rest stays allocated until NumPy frees it).
template <typename T>
class OutputArray {
 public:
  explicit OutputArray(std::size_t size)
      : data_(std::make_unique_for_overwrite<T[]>(size)), size_(size) {}
  std::span<T> span() { return {data_.get(), size_}; }
  nb::ndarray<nb::numpy, const T, nb::ndim<1>> ToNumpy(std::size_t used) && {
    T* owned = data_.release();
    nb::capsule owner(owned,
                      [](void* p) noexcept { delete[] static_cast<T*>(p); });
    return nb::ndarray<nb::numpy, const T, nb::ndim<1>>(owned, {used}, owner);
  }

 private:
  std::unique_ptr<T[]> data_;
  std::size_t size_;
};

// An (n, N) NumPy array over `rows`, which it takes over (no copy);
// read-only unless kWritable.
template <bool kWritable = false, typename T, std::size_t N>
auto ToNumpyRows(std::vector<std::array<T, N>>&& rows) {
  static_assert(sizeof(std::array<T, N>) == N * sizeof(T));
  using Value = std::conditional_t<kWritable, T, const T>;
  auto* owned = new std::vector<std::array<T, N>>(std::move(rows));
  nb::capsule owner(owned, [](void* p) noexcept {
    delete static_cast<std::vector<std::array<T, N>>*>(p);
  });
  return nb::ndarray<nb::numpy, Value, nb::shape<-1, N>>(
      reinterpret_cast<Value*>(owned->data()), {owned->size(), N}, owner);
}

// A 1-D array of any float dtype NumPy can cast to T, copied into a vector
// (for the suite's vector-based float inputs: State). Integer inputs go
// through ToIntegers instead: NumPy's cast would wrap them.
template <typename T>
using Vector1d = nb::ndarray<const T, nb::ndim<1>, nb::device::cpu>;
template <typename T>
std::vector<T> ToVector(const Vector1d<T>& array) {
  const auto view = array.view();
  std::vector<T> values(array.shape(0));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = view(i);
  return values;
}

// Points (n, 3), any float dtype NumPy can cast to float32 and any strides,
// as the suite's structure of arrays (the one copy the layout forces).
using PointArray = nb::ndarray<const float, nb::shape<-1, 3>, nb::device::cpu>;
Points ToPoints(const PointArray& array);

// An integer argument's values as T, checked instead of cast: a cast would
// turn -1 into 4294967295, 2^32 + 5 into 5 and 0.5 into 0, and the variant
// would run on numbers the caller never wrote. Row-major, `rows` x the
// columns asked for. Read in place when the caller's array is already
// C-contiguous T; else checked and copied.
template <typename T>
struct IntegerArray {
  std::span<const T> values;
  std::size_t rows = 0;
  nb::object owner;     // the caller's array, when values points into it
  std::vector<T> copy;  // else the checked copy values points into

  IntegerArray() = default;
  IntegerArray(IntegerArray&&) noexcept = default;  // copy's buffer moves too
  IntegerArray& operator=(IntegerArray&&) noexcept = default;
  IntegerArray(const IntegerArray&) = delete;
  IntegerArray& operator=(const IntegerArray&) = delete;

  // The values as rows of N (the suite's Triangle, Triplet).
  template <std::size_t N>
  std::span<const std::array<T, N>> Rows() const {
    static_assert(sizeof(std::array<T, N>) == N * sizeof(T));
    return {reinterpret_cast<const std::array<T, N>*>(values.data()), rows};
  }
  // The values as a vector (the suite's Csr), without a second copy.
  std::vector<T> TakeVector() && {
    if (!copy.empty() && values.data() == copy.data()) return std::move(copy);
    return {values.begin(), values.end()};
  }
};

// `object` (a NumPy array of any integer or bool dtype, a float array whose
// values are all integers, a list: anything np.asarray takes) as T's: 1-D
// when columns is 0, else (rows, columns) (an empty 1-D array is 0 rows).
// Throws adj::Error (adjacent.Error, a ValueError) naming `where`, `name`
// and the first element that is not an integer or does not fit T (index
// and value); TypeError for another dtype (strings, objects, complex) or
// shape. Called with the GIL held. Instantiated for uint32 (integers.cc).
template <typename T>
IntegerArray<T> ToIntegers(nb::handle object, std::string_view where,
                           std::string_view name, std::size_t columns = 0);

// 1-D flags judged != 0 in the caller's dtype (0.5 and 256 are set, as
// NumPy's `flags != 0` has them) as 0/1 bytes; read in place when they are
// contiguous uint8 or bool already. TypeError as ToIntegers.
struct FlagArray {
  std::span<const std::uint8_t> values;
  nb::object owner;
  std::vector<std::uint8_t> copy;
};
FlagArray ToFlags(nb::handle object, std::string_view where,
                  std::string_view name);

// Lets Ctrl-C stop a long call: work running with the GIL released calls
// Poll() between its pieces (steps, frames, repetitions, passes). At most
// every kInterval, Poll takes the GIL for a moment to run Python's signal
// handlers and throws nb::python_error (KeyboardInterrupt) when one
// raised; the caller leaves its object whole (the pieces done are kept).
// The interval spares short pieces the GIL, whose taking can wait out
// another thread's switch interval.
class Interrupts {
 public:
  void Poll() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < kInterval) return;
    last_ = now;
    const nb::gil_scoped_acquire acquire;
    if (PyErr_CheckSignals() != 0) throw nb::python_error();
  }

 private:
  static constexpr std::chrono::milliseconds kInterval{50};
  std::chrono::steady_clock::time_point last_ =
      std::chrono::steady_clock::now();
};

// The C++ side of python/benchmarks/call_overhead.py: `repetitions` calls
// of `run` (which makes its own fresh output, as the Python call does),
// each timed in C++ alone; seconds per call. Called with the GIL released
// (SecondsPerCall releases it; an entry that holds an object's lock has
// released it already). Ctrl-C is polled between calls, outside the timed
// span. Fewer than one repetition is refused (adjacent.Error), not
// answered with no times.
template <typename Run>
std::vector<double> SecondsPerCallWithoutGil(int repetitions, Run&& run) {
  if (repetitions < 1) {
    throw adj::Error("repetitions must be at least 1, not " +
                     std::to_string(repetitions));
  }
  std::vector<double> seconds;
  Interrupts interrupts;
  for (int r = 0; r < repetitions; ++r) {
    if (r > 0) interrupts.Poll();
    const auto start = std::chrono::steady_clock::now();
    run();
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  return seconds;
}
template <typename Run>
std::vector<double> SecondsPerCall(int repetitions, Run&& run) {
  const nb::gil_scoped_release release;
  return SecondsPerCallWithoutGil(repetitions, std::forward<Run>(run));
}

// Runs `work` with the GIL released. Called on Python's main thread, it
// takes SIGINT for the call (interrupt::ScopedSigint): the C++ loops that
// poll interrupt::Poll stop within a fraction of a second, and Ctrl-C
// arrives as KeyboardInterrupt, also when the work ended before it polled.
// Elsewhere the work runs to its end, as Python's own signal handling only
// reaches the main thread.
template <typename Work>
void RunInterruptible(Work&& work) {
  const nb::module_ threading = nb::module_::import_("threading");
  const bool main_thread =
      threading.attr("current_thread")().is(threading.attr("main_thread")());
  bool interrupted = false;
  {
    nb::gil_scoped_release release;
    std::optional<interrupt::ScopedSigint> sigint;
    if (main_thread) sigint.emplace();
    try {
      work();
    } catch (const interrupt::Interrupted&) {
      interrupted = true;
    }
    interrupted = interrupted || (main_thread && interrupt::Requested());
  }
  if (interrupted) {
    interrupt::Clear();
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw nb::python_error();
  }
}

// A bound object's lock, for objects whose C++ is not safe for threads:
// calls run with the GIL released, so Python threads sharing an object
// would otherwise run on it at once (lost updates, torn state, endless
// probes). Taken only with the GIL released (Exclusive, Shared): a thread
// waiting for it must not hold the GIL, which the holder needs to finish
// (signal checks, errors). A copy or move (an object returned by value
// into Python) gets a lock of its own.
class ObjectLock {
 public:
  ObjectLock() = default;
  ObjectLock(const ObjectLock&) noexcept {}
  ObjectLock& operator=(const ObjectLock&) noexcept { return *this; }
  std::shared_timed_mutex& mutex() const { return mutex_; }

 private:
  mutable std::shared_timed_mutex mutex_;
};

// Takes `hold` (a deferred std::unique_lock or std::shared_lock) in slices,
// checking for signals between them: Ctrl-C stops a thread waiting for an
// object that another thread holds for a long call.
template <typename Lock>
void Wait(Lock& hold) {
  Interrupts interrupts;
  while (!hold.try_lock_for(std::chrono::milliseconds(50))) interrupts.Poll();
}

// fn() with the GIL released and `lock` held alone (Exclusive) or beside
// other readers (Shared); fn must not touch Python objects.
template <typename Fn>
decltype(auto) Exclusive(const ObjectLock& lock, Fn&& fn) {
  const nb::gil_scoped_release release;
  std::unique_lock hold(lock.mutex(), std::defer_lock);
  Wait(hold);
  return std::forward<Fn>(fn)();
}
template <typename Fn>
decltype(auto) Shared(const ObjectLock& lock, Fn&& fn) {
  const nb::gil_scoped_release release;
  std::shared_lock hold(lock.mutex(), std::defer_lock);
  Wait(hold);
  return std::forward<Fn>(fn)();
}

// adjacent.triplet_schedule.Schedule: a scheduler's output kept whole, so
// that triplet_collide consumes it without a copy and its arrays are views
// into it, with the reference validator's verdict and metrics.
struct ScheduleObject {
  triplet_schedule::Schedule schedule;
  std::string problem;
  nb::dict metrics;
};

// The row of `table` named `name`, or std::invalid_argument listing the
// names (Python's ValueError); adj::Unavailable where it cannot run here.
template <typename Fn, typename Traits>
const adj::Variant<Fn, Traits>& PickVariant(
    std::span<const adj::Variant<Fn, Traits>> table, std::string_view family,
    std::string_view name) {
  const adj::Variant<Fn, Traits>* variant = adj::FindVariant(table, name);
  if (variant == nullptr) {
    std::string names;
    for (const auto& row : table) {
      names += names.empty() ? "" : ", ";
      names += row.name;
    }
    throw std::invalid_argument(std::string(family) + ": no variant '" +
                                std::string(name) + "' (variants: " + names +
                                ")");
  }
  const Availability availability = adj::CanRun(*variant);
  if (!availability.available) {
    throw adj::Unavailable(std::string(family) + "/" + std::string(name) +
                           " cannot run here: " + availability.reason);
  }
  return *variant;
}

// One Bind<Family>(parent) per family, in python/bindings/<family>.cc: it
// adds the submodule adjacent.<family> to `parent`.
#define ADJ_FAMILY(name, CamelName) void Bind##CamelName(nb::module_& parent);
#include "registry/families.inc"
#undef ADJ_FAMILY
void BindVerify(nb::module_& m);
void BindCheck(nb::module_& m);

}  // namespace adj::python
