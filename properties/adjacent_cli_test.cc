// The `adjacent` command line as a user runs it: exit status and output of
// the real binary (its path comes from CMake).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_collide/triplet_collide.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "properties/mesh_writers.h"
#include "scenes/meshes.h"
#include "scenes/registry.h"

namespace adj {
namespace {

struct Result {
  int status = -1;
  std::string output;  // stdout and stderr together
};

Result RunAdjacent(const std::string& arguments) {
  const std::string command =
      std::string(ADJ_ADJACENT_BINARY) + " " + arguments + " 2>&1";
  Result result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  std::size_t got = 0;
  while ((got = fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    result.output.append(buffer, got);
  }
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::filesystem::path TempFile(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("adjacent_cli_test_" + std::to_string(getpid()) + "_" + name);
}

void WriteOff(const Mesh& mesh, const std::filesystem::path& path) {
  std::ofstream(path) << testing::WriteOff(mesh);
}

// Lines of `path`, with line `number` (1-based) replaced.
void CopyWithLineReplaced(const std::filesystem::path& from,
                          const std::filesystem::path& to, std::size_t number,
                          const std::string& replacement) {
  std::ifstream in(from);
  std::ofstream out(to);
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    out << (n == number ? replacement : line) << "\n";
  }
}

std::size_t CountOf(const std::string& text, const std::string& word) {
  std::size_t count = 0;
  for (auto at = text.find(word); at != std::string::npos;
       at = text.find(word, at + 1)) {
    ++count;
  }
  return count;
}

// What `verify` runs on a mesh: triangle_adjacency's variants, every
// triplet scheduler and every collision kernel.
std::size_t RunnableVerifiedVariants() {
  std::size_t runnable = 0;
  for (const auto& variant : triangle_adjacency::Variants()) {
    runnable += CanRun(variant).available;
  }
  for (const auto& table : {triplet_schedule::SimdSchedulers(),
                            triplet_schedule::WarpSchedulers()}) {
    for (const auto& variant : table) runnable += CanRun(variant).available;
  }
  for (const auto& variant : triplet_collide::Variants()) {
    runnable += CanRun(variant).available;
  }
  return runnable;
}

TEST(AdjacentCli, HelpOnEveryCommand) {
  for (const std::string command :
       {"", "variants ", "stats ", "verify ", "schedule "}) {
    const Result result = RunAdjacent(command + "--help");
    EXPECT_EQ(result.status, 0) << command;
    EXPECT_NE(result.output.find("usage: adjacent"), std::string::npos)
        << result.output;
  }
  EXPECT_EQ(RunAdjacent("").status, 2);
  EXPECT_EQ(RunAdjacent("frobnicate").status, 2);
  EXPECT_EQ(RunAdjacent("verify").status, 2);
}

TEST(AdjacentCli, VariantsListsEveryFamilyAndSaysWhyCudaCannotRun) {
  const Result result = RunAdjacent("variants");
  EXPECT_EQ(result.status, 0);
  for (const auto& variant : triangle_adjacency::Variants()) {
    EXPECT_NE(result.output.find(std::string(variant.name)), std::string::npos);
    const Availability availability = CanRun(variant);
    if (!availability.available) {
      EXPECT_NE(result.output.find("cannot run here: " + availability.reason),
                std::string::npos)
          << result.output;
    }
  }
  EXPECT_NE(result.output.find("prefix_sum"), std::string::npos);
  for (const auto& variant : triplet_collide::Variants()) {
    EXPECT_NE(result.output.find(std::string(variant.name)), std::string::npos);
  }
}

TEST(AdjacentCli, StatsOfNvClothsDocumentedGrid) {
  const auto path = TempFile("grid.off");
  WriteOff(scenes::ClothGrid(2, 2, scenes::Diagonals::kUniform), path);
  const Result result = RunAdjacent("stats " + path.string());
  std::filesystem::remove(path);
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("particles     9"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("triangles     8"), std::string::npos);
  EXPECT_NE(result.output.find("max adjacency 6"), std::string::npos);
  // Valences 1,1,2,2,3,3,3,3,6.
  EXPECT_NE(result.output.find("     1: 2\n"), std::string::npos);
  EXPECT_NE(result.output.find("     2: 2\n"), std::string::npos);
  EXPECT_NE(result.output.find("     3: 4\n"), std::string::npos);
  EXPECT_NE(result.output.find("     6: 1\n"), std::string::npos);
}

// The documented grid's schedules were worked by hand in
// triplet_schedule_test: nvcloth_simd makes 6 sets with 16 dummies, and
// nvcloth_warp 6 sets (= maxAdj).
TEST(AdjacentCli, ScheduleListsEverySchedulerWithItsMetrics) {
  const auto path = TempFile("schedule_grid.off");
  WriteOff(scenes::ClothGrid(2, 2, scenes::Diagonals::kUniform), path);
  const Result result = RunAdjacent("schedule " + path.string());
  const Result bad_width =
      RunAdjacent("schedule --warp-width 8 " + path.string());
  const Result narrow = RunAdjacent("schedule --simd-width 1 " + path.string());
  std::filesystem::remove(path);
  EXPECT_EQ(result.status, 0) << result.output;
  for (const auto& table : {triplet_schedule::SimdSchedulers(),
                            triplet_schedule::WarpSchedulers()}) {
    for (const auto& variant : table) {
      EXPECT_NE(result.output.find(std::string(variant.name)),
                std::string::npos)
          << result.output;
    }
  }
  // scheduler, kind, width, sets, max_adj, set_min, set_mean, set_max, padding
  EXPECT_NE(
      result.output.find("nvcloth_simd           simd       4     6       6"
                         "        1     1.3        2       16"),
      std::string::npos)
      << result.output;
  EXPECT_NE(
      result.output.find("nvcloth_warp           warp      32     6       6"),
      std::string::npos)
      << result.output;
  EXPECT_EQ(bad_width.status, 2) << bad_width.output;
  EXPECT_NE(bad_width.output.find("is not 16 or 32"), std::string::npos);
  // Width 1: every triplet is a batch of its own, one set, no padding.
  EXPECT_EQ(narrow.status, 0) << narrow.output;
  EXPECT_NE(narrow.output.find("nvcloth_simd           simd       1     1"),
            std::string::npos)
      << narrow.output;
}

TEST(AdjacentCli, VerifyAgreesOnAGeneratedMeshAndNamesTheLineOfACorruption) {
  const auto good = TempFile("disc.off");
  const auto bad = TempFile("disc_corrupt.off");
  WriteOff(scenes::Disc(40, 6), good);
  const Result agreed = RunAdjacent("verify " + good.string());
  EXPECT_EQ(agreed.status, 0) << agreed.output;
  EXPECT_EQ(CountOf(agreed.output, " agrees "), RunnableVerifiedVariants())
      << agreed.output;
  // Line 3 + 241 particles = the first face line: an index past the end.
  CopyWithLineReplaced(good, bad, 3 + 241, "3 0 1 241");
  const Result rejected = RunAdjacent("verify " + bad.string());
  std::filesystem::remove(good);
  std::filesystem::remove(bad);
  EXPECT_EQ(rejected.status, 2) << rejected.output;
  EXPECT_NE(rejected.output.find(bad.filename().string() + ":244:"),
            std::string::npos)
      << rejected.output;
}

TEST(AdjacentCli, VerifyOnCgalBunnyAndACorruptedCopy) {
  const auto bunny = scenes::DataDir() / "meshes" / "bunny00.off";
  if (!std::filesystem::exists(bunny)) {
    GTEST_SKIP() << scenes::MissingDataHint();
  }
  const Result agreed = RunAdjacent("verify " + bunny.string());
  EXPECT_EQ(agreed.status, 0) << agreed.output;
  EXPECT_NE(agreed.output.find("37706 particles, 75408 triangles"),
            std::string::npos)
      << agreed.output;
  EXPECT_EQ(CountOf(agreed.output, " agrees "), RunnableVerifiedVariants())
      << agreed.output;
  EXPECT_EQ(CountOf(agreed.output, "DIFFERS"), 0u);

  // bunny00.off: "OFF", the counts, a blank line, then 37706 vertices: line
  // 1000 is a vertex; a coordinate that is not a number.
  const auto corrupt = TempFile("bunny00_corrupt.off");
  CopyWithLineReplaced(bunny, corrupt, 1000, "0.1 zero 0.3");
  const Result rejected = RunAdjacent("verify " + corrupt.string());
  std::filesystem::remove(corrupt);
  EXPECT_EQ(rejected.status, 2) << rejected.output;
  EXPECT_NE(rejected.output.find(corrupt.filename().string() + ":1000:"),
            std::string::npos)
      << rejected.output;
}

}  // namespace
}  // namespace adj
