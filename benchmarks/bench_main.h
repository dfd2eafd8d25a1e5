#pragma once

// What every family's benchmark binary shares: the size sweep chosen on the
// command line, a registration hook that runs after our flags are parsed, and
// the labels and counters every row carries.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/variant.h"

namespace adj::bench {

// Our flags, removed from argv before Google Benchmark parses the rest:
//   --adj_sweep=quick|full   quick (default): every 4th power of two;
//                            full: every power of two (the paper sweep)
//   --adj_max_log2=K         largest CPU size 2^K (default per family)
//   --adj_gpu_max_log2=K     largest GPU size 2^K (default per family)
//   --adj_print_quick_sweep  prints the family's QuickSweep as JSON, exits
// Any other --adj_* flag, or one malformed, exits 2 naming it.
struct Sweep {
  bool full = false;
  int max_log2 = -1;      // -1: the family's default
  int gpu_max_log2 = -1;  // -1: the family's default
};
const Sweep& CurrentSweep();

// Powers of two from 2^min_log2 up to 2^max_log2 (the flag overrides the
// family default), stepping by 1 (full) or 2 (quick); always ends at the max.
std::vector<std::int64_t> PowersOfTwo(int min_log2, int default_max_log2);
std::vector<std::int64_t> GpuPowersOfTwo(int min_log2, int default_max_log2);

// How the quick sweep (reports/run_benchmarks.py without --full) measures a
// family: repetitions and each one's minimum time. A family whose figures
// show a spread, or whose goal verdicts test one, declares more than one
// repetition; the scripts ask the binary (--adj_print_quick_sweep prints this
// as JSON and exits) instead of keeping a table of families.
struct QuickSweep {
  int repetitions = 1;
  double min_time_s = 0.1;
};

// The setting of a family whose quick-sweep figures show a spread: five
// repetitions of a fifth of the default time each, so that a row's timed
// loops together last as long as one default repetition.
inline constexpr QuickSweep kQuickSweepWithSpread{.repetitions = 5,
                                                  .min_time_s = 0.02};

// A family's registration function, run from main() once the flags are known,
// and the family's quick-sweep settings.
struct Registrar {
  explicit Registrar(void (*register_benchmarks)(), QuickSweep quick = {});
};

// Counters and label for a CPU row: threads used, and where it ran.
void DescribeCpuRun(benchmark::State& state, int threads,
                    const std::string& label);

// For a row timed on the GPU alone: false, the row skipped with the reason,
// when no usable device is here.
bool GpuUsable(benchmark::State& state);

// Label for a GPU row: "gpu:<device name> (<detail>)", which the reports read
// as the device (the detail says what the time includes).
void DescribeGpuRun(benchmark::State& state,
                    const std::string& detail = "host memory in and out");

// A variant table's rows as the reports need them, so that reports select and
// compare variants by what the C++ table says, never by parsing names.
struct TableRow {
  std::string_view name;
  Backend backend;
  Origin origin;
  std::string_view twin;
  std::string library;  // a peer's, as VariantRow::library; else ""
};

// Writes one table into the JSON's context under "adj_table/<family>/<table>"
// as a JSON object: {"baseline": <its first row, the one reports compare the
// others with>, "variants": [{"name", "backend", "origin", "twin",
// "library"}, ...]} (library: a peer's name and version, else "").
void DescribeTableRows(std::string_view family, std::string_view table,
                       std::span<const TableRow> rows);

template <typename Fn, typename Traits>
void DescribeTable(std::string_view family, std::string_view table,
                   std::span<const Variant<Fn, Traits>> variants) {
  std::vector<TableRow> rows;
  for (const auto& variant : variants) {
    rows.push_back({variant.name, variant.backend, variant.origin, variant.twin,
                    LibraryOf(variant)});
  }
  DescribeTableRows(family, table, rows);
}

// A goal the reports judge rows against, written into the JSON's context
// under "adj_goal/<family>/<name>", so that it is typed once, here in C++.
void DescribeGoal(std::string_view family, std::string_view name, double value);

}  // namespace adj::bench
