#include "benchmarks/bench_main.h"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <string_view>

#include "algorithms/common/cuda.h"
#include "algorithms/common/simd.h"
#include "benchmarks/machine.h"

namespace adj::bench {
namespace {

Sweep& MutableSweep() {
  static Sweep sweep;
  return sweep;
}

std::vector<void (*)()>& Registrars() {
  static std::vector<void (*)()> registrars;
  return registrars;
}

QuickSweep& DeclaredQuickSweep() {
  static QuickSweep quick;
  return quick;
}

bool& PrintQuickSweepRequested() {
  static bool requested = false;
  return requested;
}

void PrintQuickSweep() {
  const QuickSweep& quick = DeclaredQuickSweep();
  std::printf("{\"repetitions\": %d, \"min_time_s\": %g}\n", quick.repetitions,
              quick.min_time_s);
}

std::vector<std::int64_t> Powers(int min_log2, int max_log2) {
  const int step = CurrentSweep().full ? 1 : 2;
  std::vector<std::int64_t> sizes;
  // Count down from the max so that the largest size is always measured.
  for (int k = max_log2; k >= min_log2; k -= step) {
    sizes.push_back(std::int64_t{1} << k);
  }
  std::reverse(sizes.begin(), sizes.end());
  return sizes;
}

// Removes our --adj_* flags from argv; exits on a malformed one.
void ParseOwnFlags(int* argc, char** argv) {
  Sweep& sweep = MutableSweep();
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string_view arg = argv[i];
    const auto value_of = [&](std::string_view flag) -> const char* {
      return arg.rfind(flag, 0) == 0 ? argv[i] + flag.size() : nullptr;
    };
    if (const char* value = value_of("--adj_sweep=")) {
      if (std::strcmp(value, "full") != 0 && std::strcmp(value, "quick") != 0) {
        std::fprintf(stderr, "--adj_sweep must be quick or full\n");
        std::exit(2);
      }
      sweep.full = std::strcmp(value, "full") == 0;
    } else if (const char* max = value_of("--adj_max_log2=")) {
      sweep.max_log2 = std::atoi(max);
    } else if (const char* gpu_max = value_of("--adj_gpu_max_log2=")) {
      sweep.gpu_max_log2 = std::atoi(gpu_max);
    } else if (arg == "--adj_print_quick_sweep") {
      PrintQuickSweepRequested() = true;
    } else if (arg.rfind("--adj_", 0) == 0) {
      // Ours, misspelt or given a value it does not take: exit 2 like any
      // bad option (docs/verification.md), not Google Benchmark's 1.
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      std::exit(2);
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
}

}  // namespace

const Sweep& CurrentSweep() { return MutableSweep(); }

std::vector<std::int64_t> PowersOfTwo(int min_log2, int default_max_log2) {
  const int max =
      CurrentSweep().max_log2 >= 0 ? CurrentSweep().max_log2 : default_max_log2;
  return Powers(min_log2, max);
}

std::vector<std::int64_t> GpuPowersOfTwo(int min_log2, int default_max_log2) {
  const int max = CurrentSweep().gpu_max_log2 >= 0 ? CurrentSweep().gpu_max_log2
                                                   : default_max_log2;
  return Powers(min_log2, max);
}

Registrar::Registrar(void (*register_benchmarks)(), QuickSweep quick) {
  Registrars().push_back(register_benchmarks);
  // One registrar per binary today; were there several, the binary's sweep
  // would repeat as often and as briefly as the most demanding one asks.
  QuickSweep& declared = DeclaredQuickSweep();
  if (Registrars().size() == 1) {
    declared = quick;
    return;
  }
  declared.repetitions = std::max(declared.repetitions, quick.repetitions);
  declared.min_time_s = std::min(declared.min_time_s, quick.min_time_s);
}

void DescribeCpuRun(benchmark::State& state, int threads,
                    const std::string& label) {
  state.counters["threads"] = threads;
  state.SetLabel(label);
}

bool GpuUsable(benchmark::State& state) {
  const Availability& gpu = cuda::Available();
  if (!gpu.available) state.SkipWithError(gpu.reason.c_str());
  return gpu.available;
}

void DescribeGpuRun(benchmark::State& state, const std::string& detail) {
  state.SetLabel("gpu:" + cuda::DeviceName() + " (" + detail + ")");
}

void DescribeTableRows(std::string_view family, std::string_view table,
                       std::span<const TableRow> rows) {
  if (rows.empty()) return;
  // Names are identifiers (letters, digits, '_') and libraries a name and a
  // version (letters, digits, '.', '-', ' '), so no escaping is needed.
  const auto quoted = [](std::string_view text) {
    return "\"" + std::string(text) + "\"";
  };
  std::string json =
      "{\"baseline\": " + quoted(rows.front().name) + ", \"variants\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const TableRow& row = rows[i];
    json += (i == 0 ? "{" : ", {");
    json += "\"name\": " + quoted(row.name) +
            ", \"backend\": " + quoted(BackendName(row.backend)) +
            ", \"origin\": " + quoted(OriginName(row.origin)) +
            ", \"twin\": " + quoted(row.twin) +
            ", \"library\": " + quoted(row.library) + "}";
  }
  json += "]}";
  benchmark::AddCustomContext(
      "adj_table/" + std::string(family) + "/" + std::string(table), json);
}

void DescribeGoal(std::string_view family, std::string_view name,
                  double value) {
  std::ostringstream text;
  text << value;
  benchmark::AddCustomContext(
      "adj_goal/" + std::string(family) + "/" + std::string(name), text.str());
}

}  // namespace adj::bench

int main(int argc, char** argv) {
  using adj::bench::CurrentSweep;
  // The command line as given, for the report's provenance (the figures'
  // manifest names the command that wrote each JSON file).
  std::string command = argv[0];
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
  benchmark::AddCustomContext("adj_command", command);
  adj::bench::ParseOwnFlags(&argc, argv);
  if (adj::bench::PrintQuickSweepRequested()) {
    adj::bench::PrintQuickSweep();
    return 0;
  }
  benchmark::AddCustomContext("hwy_target", adj::simd::BestTargetName());
  benchmark::AddCustomContext("adj_build_type", adj::machine::BuildType());
  benchmark::AddCustomContext("adj_compiler", adj::machine::Compiler());
  benchmark::AddCustomContext("adj_git_revision", adj::machine::GitRevision());
  benchmark::AddCustomContext("adj_sweep",
                              CurrentSweep().full ? "full" : "quick");
  benchmark::AddCustomContext("cpu_model", adj::machine::CpuModel());
  benchmark::AddCustomContext("omp_max_threads",
                              std::to_string(omp_get_max_threads()));
  benchmark::AddCustomContext("omp_proc_bind",
                              adj::machine::EnvOr("OMP_PROC_BIND", "unset"));
  benchmark::AddCustomContext("omp_places",
                              adj::machine::EnvOr("OMP_PLACES", "unset"));
  const adj::Availability& gpu = adj::cuda::Available();
  benchmark::AddCustomContext(
      "gpu", gpu.available ? adj::cuda::DeviceName() : "none: " + gpu.reason);
  for (auto* register_benchmarks : adj::bench::Registrars()) {
    register_benchmarks();
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
