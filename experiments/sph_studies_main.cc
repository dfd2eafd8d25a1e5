// sph_studies: runs the SPH physics studies (experiments/sph_studies.h) and
// writes their JSON (experiments/study_json.h), which `make figures` draws
// (reports/families/sph.py). docs/sph.md, Physics studies, says what each
// measures and why.
//
// Exit status, as every command of the suite (docs/verification.md): 0 every
// study ran (a fluid that blew up is a result, recorded as its error), 1 a
// variant disagreed with the oracle (its studies are not run), 2 bad option
// or an output that cannot be written, 3 refused for resources.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/errors.h"
#include "experiments/sph_studies.h"
#include "experiments/study_json.h"
#include "tools/arguments.h"

namespace adj::sph::studies {
namespace {

constexpr int kOk = 0;
constexpr int kDisagreement = 1;
constexpr int kUsage = 2;
constexpr int kRefused = 3;

constexpr std::string_view kUsageText =
    R"(usage: sph_studies --out FILE [--sweep quick|full] [--study NAME]
                   [--variant NAME] [--particles N] [--steps S]

Runs the SPH physics studies and writes their JSON to FILE:
  hydrostatic  the glass at rest after S steps against rho_0 g depth
  stability    the largest stable stiffness at dt = 0.1 and 0.4 h / c_0
  surge        the dam break's surge front until T = 3
quick (default): the plan `make figures` runs; full: every variant, larger
scenes. --study, --variant, --particles and --steps narrow or override the
plan (--steps caps the surge's steps).
)";

struct Options {
  std::string out;
  bool full = false;
  std::string study;            // "": every study
  std::string variant;          // "": the plan's
  std::uint64_t particles = 0;  // 0: the plan's
  std::uint64_t steps = 0;      // 0: the plan's
};

struct Planned {
  std::string study;
  const Variant* variant = nullptr;
  std::size_t particles = 0;
  int steps = 0;       // hydrostatic, stability; the surge's cap
  double setting = 0;  // stability: cfl; surge: alpha
};

std::string ParseOptions(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") return "help";
    if (i + 1 >= argc) return flag + " needs a value (or is unknown)";
    const std::string value = argv[++i];
    if (flag == "--out") {
      options.out = value;
    } else if (flag == "--sweep") {
      if (value != "quick" && value != "full") {
        return "bad --sweep " + value + ": quick or full";
      }
      options.full = value == "full";
    } else if (flag == "--study") {
      if (value != "hydrostatic" && value != "stability" && value != "surge") {
        return "bad --study " + value + ": hydrostatic, stability or surge";
      }
      options.study = value;
    } else if (flag == "--variant") {
      if (FindVariant(Variants(), value) == nullptr) {
        return "no sph variant " + value +
               " (sph_studies --help; "
               "adjacent variants lists them)";
      }
      options.variant = value;
    } else if (flag == "--particles") {
      if (!cli::ParseCount(value, 4000000, options.particles) ||
          options.particles < 100) {
        return "bad --particles " + value + ": a whole number in [100, 4e6]";
      }
    } else if (flag == "--steps") {
      if (!cli::ParseCount(value, 1000000, options.steps)) {
        return "bad --steps " + value + ": a whole number in [1, 1e6]";
      }
    } else {
      return "unknown option " + flag;
    }
  }
  return options.out.empty() ? "--out FILE is required" : "";
}

// The studies `make figures` draws: the hydrostatic glass for our fastest
// three-pass variant and the chapter's collapsed one (every variant in the
// full plan, and a glass 8 times the chapter's, 6000 steps), the stability
// sweep for the chapter's two algorithms and ours (every variant in the
// full plan), and the surge for our fastest three-pass variant at the
// scene's viscosity and two lower ones and the collapsed step at the
// scene's (it blows up below alpha 0.2: docs/sph.md).
std::vector<Planned> DefaultPlan(bool full) {
  std::vector<Planned> plan;
  const auto named = [](std::string_view name) {
    return FindVariant(Variants(), name);
  };
  for (const Variant& variant : Variants()) {
    if (full || variant.name == "sorted_pairs" || variant.name == "collapse") {
      plan.push_back({"hydrostatic", &variant, 8000, 4000, 0});
    }
  }
  if (full)
    plan.push_back({"hydrostatic", named("sorted_pairs_simd"), 64000, 6000, 0});
  for (const Variant& variant : Variants()) {
    if (!full && variant.name != "naive" && variant.name != "collapse" &&
        variant.name != "sorted_pairs") {
      continue;
    }
    for (const double cfl : {0.1, 0.4}) {
      plan.push_back({"stability", &variant, 4000, 300, cfl});
    }
  }
  for (const std::size_t n : full ? std::vector<std::size_t>{8000, 65536}
                                  : std::vector<std::size_t>{8000}) {
    for (const double alpha : {0.25, 0.05, 0.02}) {
      plan.push_back({"surge", named("sorted_pairs_simd"), n, 0, alpha});
    }
    plan.push_back({"surge", named("collapse"), n, 0, 0.25});
  }
  return plan;
}

// The plan narrowed and overridden by the options, each study once; the
// rows that cannot run here (a CUDA row without a GPU) left out, said on
// stderr.
std::vector<Planned> PlanOf(const Options& options) {
  std::vector<Planned> plan;
  for (Planned planned : DefaultPlan(options.full)) {
    if (!options.study.empty() && planned.study != options.study) continue;
    if (!options.variant.empty()) {
      planned.variant = FindVariant(Variants(), options.variant);
    }
    if (options.particles != 0) planned.particles = options.particles;
    if (options.steps != 0) planned.steps = static_cast<int>(options.steps);
    const bool seen =
        std::find_if(plan.begin(), plan.end(), [&](const Planned& other) {
          return other.study == planned.study &&
                 other.variant == planned.variant &&
                 other.particles == planned.particles &&
                 other.steps == planned.steps &&
                 other.setting == planned.setting;
        }) != plan.end();
    const Availability availability = CanRun(*planned.variant);
    if (!availability.available) {
      std::fprintf(stderr, "sph_studies: leaving out %s: %s\n",
                   std::string(planned.variant->name).c_str(),
                   availability.reason.c_str());
    } else if (!seen) {
      plan.push_back(planned);
    }
  }
  return plan;
}

void Measure(const Planned& planned, experiments::StudyRecord& record) {
  const auto particles = static_cast<double>(planned.particles);
  if (planned.study == "hydrostatic") {
    record.parameters = {{"particles", particles}, {"steps", planned.steps}};
    const Hydrostatic result =
        RunHydrostatic(*planned.variant, planned.particles, planned.steps);
    const checks::sph::Hydrostatic& profile = result.profile;
    record.results = {
        {"error_percent", profile.error_percent},
        {"half_error_percent", profile.half_error_percent},
        {"column_height", profile.column_height},
        {"slope_ratio", profile.slope_ratio},
        {"gradient_normalisation", profile.gradient_normalisation},
        {"boundary_fraction", profile.boundary_fraction},
        {"volume_height", profile.volume_height},
        {"kinetic_energy", result.still.kinetic_energy},
        {"max_speed", result.still.max_speed},
        {"seconds_per_step", result.seconds_per_step}};
    record.series = {{"depth", profile.depth},
                     {"pressure", profile.pressure},
                     {"analytic", profile.analytic}};
  } else if (planned.study == "stability") {
    record.parameters = {{"particles", particles},
                         {"cfl_percent", 100 * planned.setting},
                         {"steps", planned.steps}};
    const Stability result = RunStability(*planned.variant, planned.particles,
                                          planned.setting, planned.steps);
    record.results = {
        {"largest_stable_k", result.largest_stable_k},
        {"smallest_unstable_k", result.smallest_unstable_k},
        {"largest_stable_k_over_k0", result.largest_stable_k / result.k0},
        {"k0", result.k0},
        {"dt", result.dt},
        {"viscosity", result.viscosity},
        {"trials", result.trials}};
  } else {
    record.parameters = {{"particles", particles},
                         {"viscosity_alpha", planned.setting},
                         {"max_steps", planned.steps}};
    const Surge result = RunSurge(*planned.variant, planned.particles,
                                  planned.setting, planned.steps);
    record.results = {{"column_width", result.column_width},
                      {"column_height", result.column_height},
                      {"steps", result.steps},
                      {"seconds_per_step", result.seconds_per_step}};
    record.series = {{"t", result.t}, {"z", result.z}};
  }
}

int Run(const Options& options) {
  const std::vector<Planned> plan = PlanOf(options);
  // The goal the report judges the hydrostatic profile by (docs/sph.md).
  const auto context = experiments::MachineContext(
      {{"adj_sweep", options.full ? "full" : "quick"},
       {"adj_goal/sph/hydrostatic_error_percent", "2"}});
  std::map<std::pair<const Variant*, std::string>, std::string> verdicts;
  std::vector<experiments::StudyRecord> records;
  // Written once before the first study, so that an output that cannot be
  // written is said at once, not after the studies' minutes.
  if (!experiments::WriteStudiesFile(options.out, context, records)) {
    std::fprintf(stderr, "sph_studies: cannot write %s\n", options.out.c_str());
    return kUsage;
  }
  int status = kOk;
  for (std::size_t k = 0; k < plan.size(); ++k) {
    const Planned& planned = plan[k];
    experiments::StudyRecord record;
    record.family = "sph";
    record.study = planned.study;
    record.variant = planned.variant->name;
    char setting[48] = "";
    if (planned.study != "hydrostatic") {
      std::snprintf(
          setting, sizeof setting,
          planned.study == "stability" ? ", dt %g h / c_0" : ", alpha %g",
          planned.setting);
    }
    std::fprintf(stderr, "[%zu/%zu] %s %s, %zu particles%s\n", k + 1,
                 plan.size(), record.study.c_str(), record.variant.c_str(),
                 planned.particles, setting);
    const std::string scene = planned.study == "surge" ? "dam_break" : "glass";
    const auto key = std::pair{planned.variant, scene};
    if (!verdicts.contains(key)) {
      verdicts[key] = OracleVerdict(*planned.variant, scene);
    }
    record.verified = verdicts[key].empty();
    const auto start = std::chrono::steady_clock::now();
    if (!record.verified) {
      record.error = "differs from the oracle: " + verdicts[key];
      status = kDisagreement;
    } else {
      try {
        Measure(planned, record);
      } catch (const ResourceError&) {
        throw;
      } catch (const std::exception& error) {
        record.error = error.what();
      }
    }
    std::fprintf(
        stderr, "    %s in %.1f s\n",
        record.error.empty() ? "done" : record.error.c_str(),
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
    records.push_back(std::move(record));
    if (!experiments::WriteStudiesFile(options.out, context, records)) {
      std::fprintf(stderr, "sph_studies: cannot write %s\n",
                   options.out.c_str());
      return kUsage;
    }
  }
  return status;
}

}  // namespace
}  // namespace adj::sph::studies

int main(int argc, char** argv) {
  namespace studies = adj::sph::studies;
  studies::Options options;
  const std::string problem = studies::ParseOptions(argc, argv, options);
  if (problem == "help") {
    std::fputs(studies::kUsageText.data(), stdout);
    return studies::kOk;
  }
  if (!problem.empty()) {
    std::fprintf(stderr, "sph_studies: %s\n\n%s", problem.c_str(),
                 studies::kUsageText.data());
    return studies::kUsage;
  }
  try {
    return studies::Run(options);
  } catch (const adj::ResourceError& error) {
    std::fprintf(stderr, "sph_studies: refused: %s\n", error.what());
    return studies::kRefused;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "sph_studies: %s\n", error.what());
    return studies::kUsage;
  }
}
