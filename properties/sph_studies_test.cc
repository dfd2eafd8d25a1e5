// The SPH physics studies (experiments/sph_studies.h) and their runner:
// the bisection brackets the stability limit, the surge samples at the
// times it says, a blown-up step is named, a variant the oracle refuses is
// caught, and the runner's exit statuses and JSON.
#include "experiments/sph_studies.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "properties/run_command.h"

namespace adj::sph::studies {
namespace {

const Variant& Row(std::string_view name) {
  const Variant* variant = FindVariant(Variants(), name);
  if (variant == nullptr)
    throw std::logic_error("no sph row " + std::string(name));
  return *variant;
}

// A row whose third step throws as a blown-up state does.
void BlowsUpOnThirdStep(State& state, const Params& params,
                        Workspace& workspace, StepReport& report) {
  static int calls = 0;
  if (++calls % 3 == 0) throw Error("a particle left the container");
  Row("sorted_pairs").run(state, params, workspace, report);
}

// A row that leaves the state as it was: no step at all.
void DoesNothing(State&, const Params&, Workspace&, StepReport&) {}

constexpr Variant kBlowsUp{"blows_up",
                           Backend::kSerial,
                           Origin::kOurs,
                           "",
                           &BlowsUpOnThirdStep,
                           {},
                           nullptr,
                           {},
                           nullptr,
                           Traits{Update::kThreePass}};
constexpr Variant kNoStep{"no_step",     Backend::kSerial,
                          Origin::kOurs, "",
                          &DoesNothing,  {},
                          nullptr,       {},
                          nullptr,       Traits{Update::kThreePass}};

TEST(SphStudies, StabilityBisectionBracketsTheLimitWithinFivePercent) {
  const Variant& variant = Row("sorted_pairs");
  const Stability found = RunStability(variant, 500, 0.4, 40);
  ASSERT_GT(found.largest_stable_k, 0);
  ASSERT_GT(found.smallest_unstable_k, 0);
  EXPECT_LE(found.smallest_unstable_k / found.largest_stable_k, 1.05);
  const Fluid fluid = MakeFluid("glass", 500);
  EXPECT_TRUE(Stable(variant, fluid, found.largest_stable_k, found.dt, 40));
  EXPECT_FALSE(Stable(variant, fluid, found.smallest_unstable_k, found.dt, 40));
  EXPECT_DOUBLE_EQ(found.dt, 0.4 * fluid.params.h / std::sqrt(found.k0));
}

TEST(SphStudies, SurgeSamplesEveryFifthOfTUntilThree) {
  const Surge surge = RunSurge(Row("sorted_pairs_simd"), 1000, 0.25);
  ASSERT_EQ(surge.t.size(), static_cast<std::size_t>(kSurgeSamples));
  ASSERT_EQ(surge.z.size(), surge.t.size());
  for (int k = 0; k < kSurgeSamples; ++k) {
    EXPECT_NEAR(surge.t[static_cast<std::size_t>(k)], (k + 1) * kSurgeSampleT,
                1e-12);
  }
  // It stopped at the first step past T = 3, and the column spread out.
  const Params params = MakeFluid("dam_break", 1000).params;
  const double per_step =
      params.dt *
      std::sqrt(2 * std::abs(params.gravity[1]) / surge.column_width);
  EXPECT_GE(surge.steps * per_step, 3.0 - 1e-9);
  EXPECT_LT((surge.steps - 1) * per_step, 3.0);
  EXPECT_GT(surge.z.back(), surge.z.front());
  EXPECT_GE(surge.z.front(), 0.9);
}

TEST(SphStudies, SurgeStopsAtItsStepCap) {
  const Surge surge = RunSurge(Row("sorted_pairs"), 1000, 0.25, 7);
  EXPECT_EQ(surge.steps, 7);
  EXPECT_LT(surge.z.size(), static_cast<std::size_t>(kSurgeSamples));
}

TEST(SphStudies, HydrostaticProfileOfTheLatticeIsStill) {
  const Hydrostatic at_rest = RunHydrostatic(Row("sorted_pairs"), 1000, 0);
  EXPECT_EQ(at_rest.still.kinetic_energy, 0);
  ASSERT_FALSE(at_rest.profile.depth.empty());
  EXPECT_EQ(at_rest.profile.pressure.size(), at_rest.profile.depth.size());
  EXPECT_EQ(at_rest.profile.analytic.size(), at_rest.profile.depth.size());
}

TEST(SphStudies, ABlownUpStepIsNamed) {
  try {
    RunHydrostatic(kBlowsUp, 500, 10);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()).rfind("step 3: ", 0), 0u)
        << error.what();
  }
}

TEST(SphStudies, OracleVerdictCatchesARowThatDoesNotStep) {
  EXPECT_EQ(OracleVerdict(Row("sorted_pairs"), "glass"), "");
  EXPECT_NE(OracleVerdict(kNoStep, "glass"), "");
}

using Result = testing::CommandResult;

Result RunStudies(const std::string& arguments) {
  return testing::RunCommand(ADJ_SPH_STUDIES_BINARY, arguments);
}

TEST(SphStudiesRunner, BadOptionsExitTwoNamingTheOption) {
  const std::string out = "--out /dev/null";
  for (const auto& [arguments, named] :
       std::vector<std::pair<std::string, std::string>>{
           {"", "--out FILE is required"},
           {out + " --sweep medium", "--sweep medium"},
           {out + " --study viscosity", "--study viscosity"},
           {out + " --variant fastest", "no sph variant fastest"},
           {out + " --particles 99", "--particles 99"},
           {out + " --particles 4000001", "--particles 4000001"},
           {out + " --steps 0", "--steps 0"},
           {out + " --steps 1e3", "--steps 1e3"},
           {out + " --steps", "--steps needs a value"},
           {out + " --frames 3", "unknown option --frames"},
           {"--out /nonexistent-folder/studies.json", "cannot write"}}) {
    const Result result = RunStudies(arguments);
    EXPECT_EQ(result.status, 2) << arguments << "\n" << result.output;
    EXPECT_NE(result.output.find(named), std::string::npos) << arguments << "\n"
                                                            << result.output;
  }
}

TEST(SphStudiesRunner, WritesOneRecordPerStudyAsJson) {
  const std::filesystem::path out =
      std::filesystem::temp_directory_path() /
      ("sph_studies_test_" + std::to_string(getpid()) + ".json");
  const Result result = RunStudies(
      "--out " + out.string() +
      " --study stability --variant collapse --particles 300 --steps 5");
  ASSERT_EQ(result.status, 0) << result.output;
  std::stringstream text;
  text << std::ifstream(out).rdbuf();
  const std::string json = text.str();
  // Two records, the quick plan's two time steps, for the named variant.
  std::size_t records = 0;
  for (auto at = json.find("\"study\": \"stability\""); at != std::string::npos;
       at = json.find("\"study\": \"stability\"", at + 1)) {
    ++records;
  }
  EXPECT_EQ(records, 2u) << json;
  EXPECT_NE(json.find("\"variant\": \"collapse\", \"verified\": true"),
            std::string::npos);
  EXPECT_NE(json.find("\"cfl_percent\": 10,"), std::string::npos);
  EXPECT_NE(json.find("\"cfl_percent\": 40,"), std::string::npos);
  EXPECT_NE(json.find("\"largest_stable_k\": "), std::string::npos);
  EXPECT_NE(json.find("\"adj_git_revision\": "), std::string::npos);
  // Python reads it as JSON, where a python3 is here to ask.
  if (std::system("python3 -c '' 2>/dev/null") == 0) {
    EXPECT_EQ(std::system(("python3 -c 'import json, sys; "
                           "json.load(open(sys.argv[1]))' " +
                           out.string())
                              .c_str()),
              0);
  }
  std::filesystem::remove(out);
}

}  // namespace
}  // namespace adj::sph::studies
