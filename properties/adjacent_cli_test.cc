// The `adjacent` command line as a user runs it: exit status and output of
// the real binary (its path comes from CMake).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/connected_components/connected_components.h"
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_collide/triplet_collide.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "properties/cloud_generators.h"
#include "properties/mesh_writers.h"
#include "properties/run_command.h"
#include "registry/families.h"
#include "registry/outside_check.h"
#include "scenes/clouds.h"
#include "scenes/meshes.h"
#include "scenes/registry.h"
#include "tools/array_files.h"

namespace adj {
namespace {

using Result = testing::CommandResult;

Result RunAdjacent(const std::string& arguments) {
  return testing::RunCommand(ADJ_ADJACENT_BINARY, arguments);
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
  for (const auto& variant : connected_components::Variants()) {
    runnable += CanRun(variant).available;
  }
  return runnable;
}

// What `verify CLOUD --radius R` and `neighbors` run: hash_grid's variants.
std::size_t RunnableHashGridVariants() {
  std::size_t runnable = 0;
  for (const auto& variant : hash_grid::Variants()) {
    runnable += CanRun(variant).available;
  }
  return runnable;
}

// One "x y z" line per point, with enough digits to read back every float.
void WriteXyz(const Points& points, const std::filesystem::path& path) {
  std::ofstream out(path);
  char line[96];
  for (std::size_t i = 0; i < points.size(); ++i) {
    std::snprintf(
        line, sizeof line, "%.9g %.9g %.9g\n", static_cast<double>(points.x[i]),
        static_cast<double>(points.y[i]), static_cast<double>(points.z[i]));
    out << line;
  }
}

TEST(AdjacentCli, HelpOnEveryCommand) {
  for (const std::string command : {"", "variants ", "stats ", "verify ",
                                    "schedule ", "neighbors ", "fracture "}) {
    const Result result = RunAdjacent(command + "--help");
    EXPECT_EQ(result.status, 0) << command;
    EXPECT_NE(result.output.find("usage: adjacent"), std::string::npos)
        << result.output;
  }
  EXPECT_EQ(RunAdjacent("").status, 2);
  EXPECT_EQ(RunAdjacent("frobnicate").status, 2);
  EXPECT_EQ(RunAdjacent("verify").status, 2);
}

// The lines of `text` that a build without CUDA has too: a docs table is
// written from a CUDA build (as CI's), so elsewhere its cuda rows are extra.
std::vector<std::string> ComparableLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
#if !ADJ_HAVE_CUDA
    if (line.find(" | cuda | ") != std::string::npos) continue;
#endif
    lines.push_back(line);
  }
  return lines;
}

// docs/<family>.md embeds `adjacent variants --markdown --family <family>`
// between its generated markers: a table row added, renamed or retagged
// without the doc following fails here (tools/update-docs.py rewrites them).
TEST(AdjacentCli, DocsEmbedTheCurrentVariantTables) {
  for (const std::string_view name : registry::FamilyNames()) {
    const std::string family(name);
    SCOPED_TRACE(family);
    const Result result = RunAdjacent("variants --markdown --family " + family);
    ASSERT_EQ(result.status, 0) << result.output;
    const std::filesystem::path doc = std::filesystem::path(ADJ_SOURCE_DIR) /
                                      "docs" / (family + std::string(".md"));
    std::ifstream in(doc);
    ASSERT_TRUE(in) << "missing " << doc;
    const std::string text((std::istreambuf_iterator<char>(in)),
                           std::istreambuf_iterator<char>());
    const std::string begin =
        std::string(
            "<!-- BEGIN generated: adjacent variants --markdown "
            "--family ") +
        family + " -->\n";
    const std::string end = "<!-- END generated -->";
    const std::size_t from = text.find(begin);
    ASSERT_NE(from, std::string::npos) << doc << " has no " << begin;
    const std::size_t to = text.find(end, from);
    ASSERT_NE(to, std::string::npos) << doc << " has no " << end;
    const std::string embedded =
        text.substr(from + begin.size(), to - from - begin.size());
    EXPECT_EQ(ComparableLines(embedded), ComparableLines(result.output))
        << doc << " is stale: run tools/update-docs.py";
  }
}

// reports/figures.py finds a family's figures by its module's name.
TEST(AdjacentCli, EveryFamilyHasAReportModule) {
  for (const std::string_view family : registry::FamilyNames()) {
    const std::filesystem::path module = std::filesystem::path(ADJ_SOURCE_DIR) /
                                         "reports" / "families" /
                                         (std::string(family) + ".py");
    EXPECT_TRUE(std::filesystem::exists(module)) << "missing " << module;
  }
}

TEST(AdjacentCli, VariantsListsEveryFamilyAndSaysWhyCudaCannotRun) {
  const Result result = RunAdjacent("variants");
  EXPECT_EQ(result.status, 0);
  const std::vector<registry::VariantRow> rows = registry::AllVariants();
  ASSERT_FALSE(rows.empty());
  for (const registry::VariantRow& row : rows) {
    char start[64];
    std::snprintf(start, sizeof start, "%-20s %s ", row.family.c_str(),
                  row.name.c_str());
    EXPECT_NE(result.output.find(start), std::string::npos) << start << "\n"
                                                            << result.output;
    if (!row.availability.available) {
      EXPECT_NE(
          result.output.find("cannot run here: " + row.availability.reason),
          std::string::npos)
          << result.output;
    }
  }
  for (const std::string_view family : registry::FamilyNames()) {
    EXPECT_NE(result.output.find(std::string(family) + " "), std::string::npos)
        << family;
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
  // Particle 4 (bank 4) is in 6 of the 8 triplets; 7 sets make at most
  // (8 + 7 * 31) / 32 = 7 chunks, so the ratio floor is 1.
  EXPECT_NE(result.output.find("no warp schedule replays below 6 times"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("maxAdj + 1 = 7 sets, below 1.000 x ideal"),
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
  // bunny00's 37706 particles are past cuda_shared's documented limit (one
  // block's shared memory), which verify reports as skipped on a GPU.
  EXPECT_EQ(CountOf(agreed.output, " agrees ") +
                CountOf(agreed.output, "bytes of shared memory"),
            RunnableVerifiedVariants())
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

// Six particles, radius 1 (inclusive): 0-1 exactly 1 apart, 0-2 and 0-3
// 0.5, 2-3 coincident, 0-5 sqrt(0.75); 1-2, 1-3 (sqrt 1.25), 2-5, 3-5
// (sqrt 1.5) and 1-5 (sqrt 2.75) too far; 4 alone. 5 pairs; neighbours 4, 1,
// 2, 2, 0, 1.
Points SixParticles() {
  Points points;
  points.PushBack(0, 0, 0);
  points.PushBack(1, 0, 0);
  points.PushBack(0, 0.5f, 0);
  points.PushBack(0, 0.5f, 0);
  points.PushBack(5, 5, 5);
  points.PushBack(-0.5f, -0.5f, -0.5f);
  return points;
}

TEST(AdjacentCli, NeighborsOnAHandMadeCloudWithKnownPairs) {
  const auto path = TempFile("six.xyz");
  {
    std::ofstream out(path);
    out << "# six particles, one alone\n0 0 0\n1 0 0 0 0 1\n0 0.5 0\n"
           "0 0.5 0\n5 5 5\n-0.5 -0.5 -0.5\n";
  }
  const Result result =
      RunAdjacent("neighbors " + path.string() + " --radius 1");
  const Result one_bucket =
      RunAdjacent("neighbors " + path.string() + " --radius 1 --table-size 1");
  const Result fine =
      RunAdjacent("neighbors --spacing 0.25 " + path.string() + " --radius 1");
  std::filesystem::remove(path);
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("6 particles; radius 1, spacing 1, table 12 "
                               "buckets"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("pairs                    5\n"),
            std::string::npos)
      << result.output;
  EXPECT_NE(
      result.output.find("neighbours per particle  min 0, mean 1.667, max 4\n"),
      std::string::npos)
      << result.output;
  // 6 particles, 27 cells in 12 buckets: queries meet more than 6
  // candidates, and his rows end in 0s (hash_grid.h); said, not a
  // disagreement.
  EXPECT_NE(result.output.find("muller past slots"), std::string::npos)
      << result.output;
  for (const auto& variant : hash_grid::Variants()) {
    EXPECT_NE(result.output.find(std::string(variant.name) + " "),
              std::string::npos)
        << result.output;
  }
  EXPECT_EQ(CountOf(result.output, "DIFFERS"), 0u);
  // One bucket: every searched cell repeats it, every query goes past its
  // slots; the pairs stay.
  EXPECT_EQ(one_bucket.status, 0) << one_bucket.output;
  EXPECT_NE(one_bucket.output.find("muller past slots        6 of 6 queries"),
            std::string::npos)
      << one_bucket.output;
  EXPECT_NE(one_bucket.output.find("pairs                    5\n"),
            std::string::npos);
  EXPECT_EQ(fine.status, 0) << fine.output;
  EXPECT_NE(fine.output.find("spacing 0.25"), std::string::npos);
  EXPECT_NE(fine.output.find("pairs                    5\n"), std::string::npos)
      << fine.output;
}

TEST(AdjacentCli, VerifyWithARadiusChecksEveryHashGridVariantOnACloud) {
  const auto cloud = TempFile("uniform.xyz");
  const auto disc = TempFile("disc_cloud.off");
  WriteXyz(scenes::UniformCloud(3000, scenes::UniformSideFor(3000, 1, 20), 5),
           cloud);
  WriteOff(scenes::Disc(40, 6), disc);
  const Result agreed = RunAdjacent("verify " + cloud.string() + " --radius 1");
  // A mesh's vertices are a cloud too: its 241 particles, rings 1 apart.
  const Result vertices =
      RunAdjacent("verify " + disc.string() + " --radius 1.5 --table-size 7");
  std::filesystem::remove(cloud);
  std::filesystem::remove(disc);
  EXPECT_EQ(agreed.status, 0) << agreed.output;
  EXPECT_NE(agreed.output.find("oracle: brute force over all 3000 rows"),
            std::string::npos)
      << agreed.output;
  EXPECT_EQ(CountOf(agreed.output, " agrees "), RunnableHashGridVariants())
      << agreed.output;
  EXPECT_EQ(CountOf(agreed.output, "hash_grid "), hash_grid::Variants().size());
  EXPECT_EQ(CountOf(agreed.output, "DIFFERS"), 0u);
  EXPECT_EQ(vertices.status, 0) << vertices.output;
  EXPECT_NE(vertices.output.find("241 particles; radius 1.5"),
            std::string::npos)
      << vertices.output;
  EXPECT_EQ(CountOf(vertices.output, " agrees "), RunnableHashGridVariants())
      << vertices.output;
  EXPECT_EQ(CountOf(vertices.output, "triangle_adjacency"), 0u);
  // 7 buckets: Müller's window meets most of them twice; his repeated
  // entries were checked against the reference's multiplicity.
  EXPECT_NE(vertices.output.find("duplicates as the shared buckets predict"),
            std::string::npos)
      << vertices.output;
}

// The clouds built where rounding decides (cell boundaries and their ulp
// neighbours, denormals, signed zeros, non-dyadic spacings): every variant
// agrees with the oracle through the command line (hash_grid.h's window
// rule), and so does the first one found, 1 and -1e-30 at radius 1.
TEST(AdjacentCli, VerifyAgreesOnBoundaryClouds) {
  Points first;
  first.PushBack(1, 0, 0);
  first.PushBack(-1e-30f, 0, 0);
  const auto path = TempFile("boundary.xyz");
  WriteXyz(first, path);
  const Result found =
      RunAdjacent("verify " + path.string() + " --radius 1 --spacing 1");
  EXPECT_EQ(found.status, 0) << found.output;
  EXPECT_TRUE(rc::check("verify exits 0 on boundary clouds", [&] {
    const testing::CloudSpec spec =
        *testing::AnyCloud(60, testing::CloudKind::kBoundary);
    const Points cloud = testing::BuildCloud(spec);
    WriteXyz(cloud, path);
    char options[128];
    std::snprintf(options, sizeof options,
                  " --radius %.9g --spacing %.9g --table-size %u",
                  static_cast<double>(spec.max_dist),
                  static_cast<double>(spec.spacing),
                  std::max(spec.table_size, 1u));
    const Result result = RunAdjacent("verify " + path.string() + options);
    // A file without points is refused, as in every format (mesh_io.h).
    RC_ASSERT(result.status == (cloud.empty() ? 2 : 0));
    RC_ASSERT(CountOf(result.output, "DIFFERS") == 0u);
  }));
  std::filesystem::remove(path);
}

// Müller's window misses the pair (1, 0) (hash_grid_test:
// Muller.HisWindowMissesAPairJustPastACellBoundary): neighbors says so and
// does not call it a disagreement; verify agrees.
TEST(AdjacentCli, NeighborsExplainsMullersWindowMiss) {
  const Points points = testing::MullerWindowMissCloud();
  const auto path = TempFile("window_miss.xyz");
  WriteXyz(points, path);
  const std::string options = " --radius 1 --spacing 1 --table-size 1000";
  const Result neighbors = RunAdjacent("neighbors " + path.string() + options);
  const Result verify = RunAdjacent("verify " + path.string() + options);
  std::filesystem::remove(path);
  EXPECT_EQ(neighbors.status, 0) << neighbors.output;
  EXPECT_NE(neighbors.output.find("muller window misses     1 pairs"),
            std::string::npos)
      << neighbors.output;
  EXPECT_EQ(CountOf(neighbors.output, "DIFFERS"), 0u);
  EXPECT_EQ(verify.status, 0) << verify.output;
}

TEST(AdjacentCli, CloudCommandsNameTheLineOfACorruptionAndRefuseBadRadii) {
  const auto good = TempFile("cloud.xyz");
  const auto bad = TempFile("cloud_corrupt.xyz");
  WriteXyz(SixParticles(), good);
  CopyWithLineReplaced(good, bad, 4, "0.1 zero 0.3");
  for (const std::string command : {"neighbors ", "verify "}) {
    const Result rejected = RunAdjacent(command + bad.string() + " --radius 1");
    EXPECT_EQ(rejected.status, 2) << rejected.output;
    EXPECT_NE(rejected.output.find(bad.filename().string() + ":4:"),
              std::string::npos)
        << rejected.output;
    for (const std::string radius :
         {"0", "-1", "abc", "nan", "inf", "1e400", "1e-60", "1.5x", ""}) {
      const Result refused =
          RunAdjacent(command + good.string() + " --radius '" + radius + "'");
      EXPECT_EQ(refused.status, 2) << radius << ": " << refused.output;
      EXPECT_NE(refused.output.find("bad --radius"), std::string::npos)
          << radius << ": " << refused.output;
    }
    const Result missing = RunAdjacent(command + good.string() + " --radius");
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.output.find("--radius needs a value"), std::string::npos)
        << missing.output;
    const Result wide =
        RunAdjacent(command + good.string() + " --radius 100 --spacing 1");
    EXPECT_EQ(wide.status, 2);
    EXPECT_NE(wide.output.find("too many cells per query"), std::string::npos)
        << wide.output;
    const Result no_table =
        RunAdjacent(command + good.string() + " --radius 1 --table-size 0");
    EXPECT_EQ(no_table.status, 2);
    EXPECT_NE(no_table.output.find("bad --table-size 0"), std::string::npos)
        << no_table.output;
  }
  const Result no_radius = RunAdjacent("neighbors " + good.string());
  EXPECT_EQ(no_radius.status, 2);
  EXPECT_NE(no_radius.output.find("--radius R is required"), std::string::npos)
      << no_radius.output;
  std::filesystem::remove(good);
  std::filesystem::remove(bad);
}

// The exit-status table of `adjacent --help`: 3 for work refused for
// resources (the lists of 3,000 coincident points, 36 MB, against
// --max-memory 4M; a file larger than the budget), never 1 ("DISAGREE");
// 2 for a bad --max-memory, an unknown option (named) or a file that is no
// regular file.
TEST(AdjacentCli, ExitStatusesFollowTheDocumentedTable) {
  const Result help = RunAdjacent("--help");
  EXPECT_NE(help.output.find("3  refused for resources"), std::string::npos)
      << help.output;
  const auto dense = TempFile("dense.xyz");
  {
    std::ofstream out(dense);
    for (int i = 0; i < 3000; ++i) out << "0.5 0.5 0.5\n";
  }
  for (const std::string command : {"neighbors ", "verify "}) {
    const Result refused =
        RunAdjacent(command + dense.string() + " --radius 1 --max-memory 4M");
    EXPECT_EQ(refused.status, 3) << command << refused.output;
    EXPECT_NE(refused.output.find("over the memory budget of 4.0 MiB"),
              std::string::npos)
        << refused.output;
    EXPECT_NE(refused.output.find("REFUSED"), std::string::npos)
        << refused.output;
    EXPECT_EQ(refused.output.find("DISAGREE"), std::string::npos)
        << refused.output;
    const Result small_file =
        RunAdjacent(command + dense.string() + " --radius 1 --max-memory 1K");
    EXPECT_EQ(small_file.status, 3) << small_file.output;
    EXPECT_NE(small_file.output.find(dense.filename().string()),
              std::string::npos)
        << small_file.output;
    const Result bad_size =
        RunAdjacent(command + dense.string() + " --radius 1 --max-memory lots");
    EXPECT_EQ(bad_size.status, 2) << bad_size.output;
    EXPECT_NE(bad_size.output.find("--max-memory"), std::string::npos)
        << bad_size.output;
    const Result unknown =
        RunAdjacent(command + dense.string() + " --radius 1 --bogus");
    EXPECT_EQ(unknown.status, 2) << unknown.output;
    EXPECT_NE(unknown.output.find("unknown option --bogus"), std::string::npos)
        << unknown.output;
  }
  for (const std::string command : {"stats ", "schedule ", "verify "}) {
    const Result unknown = RunAdjacent(command + "--bogus mesh.off");
    EXPECT_EQ(unknown.status, 2) << unknown.output;
    EXPECT_NE(unknown.output.find("unknown option --bogus"), std::string::npos)
        << command << unknown.output;
    const Result device = RunAdjacent(command + "/dev/zero");
    EXPECT_EQ(device.status, 2) << device.output;
    EXPECT_NE(device.output.find("/dev/zero"), std::string::npos)
        << device.output;
  }
  std::filesystem::remove(dense);
}

// One OBJ polygon of 10,000 vertices is a fan whose centre has valence
// 9,998, past the schedulers' stated limit (triplet_schedule::kMaxValence):
// `schedule` names the limit on every row and `verify` skips those rows,
// both in seconds, where quadratic colourings took minutes; the other
// families still verify the fan.
TEST(AdjacentCli, AFanPastTheValenceLimitIsRefusedWithTheLimit) {
  const auto fan = TempFile("fan.obj");
  {
    std::ofstream out(fan);
    constexpr int kCorners = 10000;
    for (int i = 0; i < kCorners; ++i) {
      const double angle = 2 * 3.141592653589793 * i / kCorners;
      out << "v " << std::cos(angle) << " " << std::sin(angle) << " 0\n";
    }
    out << "f";
    for (int i = 1; i <= kCorners; ++i) out << " " << i;
    out << "\n";
  }
  const Result schedule = RunAdjacent("schedule " + fan.string());
  EXPECT_EQ(schedule.status, 0) << schedule.output;
  EXPECT_GE(CountOf(schedule.output, "valence limit"),
            triplet_schedule::SimdSchedulers().size() +
                triplet_schedule::WarpSchedulers().size())
      << schedule.output;
  const Result verify = RunAdjacent("verify " + fan.string());
  EXPECT_EQ(verify.status, 0) << verify.output;
  EXPECT_EQ(CountOf(verify.output, "DIFFERS"), 0u) << verify.output;
  EXPECT_GT(CountOf(verify.output, "valence limit"), 0u) << verify.output;
  std::filesystem::remove(fan);
}

std::string ReadBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
}

// Every cut on a block, and a closed box mesh voxelised: every frame keeps
// the invariants (exit 0) and both snapshots are PNG files.
TEST(AdjacentCli, FractureRunsEveryCutAndWritesSnapshots) {
  const std::filesystem::path dir = TempFile("fracture_png");
  for (const std::string cut : {"blade", "impact", "random"}) {
    SCOPED_TRACE(cut);
    const Result result = RunAdjacent("fracture block:14 --frames 12 --cut " +
                                      cut + " --png " + dir.string());
    EXPECT_EQ(result.status, 0) << result.output;
    EXPECT_NE(result.output.find("invariants held"), std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find("removed "), std::string::npos)
        << result.output;
    for (const char* name : {"block14-before.png", "block14-after.png"}) {
      const std::string bytes = ReadBytes(dir / name);
      ASSERT_GE(bytes.size(), 8u) << name;
      EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    }
  }
  // A closed 10 x 10 x 10 box of 12 triangles, voxelised to about 3000
  // particles, the blade variant data_parallel.
  Mesh box;
  for (int k = 0; k < 8; ++k) {
    box.positions.PushBack((k & 1) ? 10 : 0, (k & 2) ? 10 : 0,
                           (k & 4) ? 10 : 0);
  }
  box.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6},
                   {0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7},
                   {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  const std::filesystem::path mesh = TempFile("fracture_box.off");
  WriteOff(box, mesh);
  const Result voxelised =
      RunAdjacent("fracture " + mesh.string() +
                  " --particles 3000 --frames 10 --variant data_parallel "
                  "--png " +
                  dir.string());
  EXPECT_EQ(voxelised.status, 0) << voxelised.output;
  EXPECT_NE(voxelised.output.find("invariants held"), std::string::npos)
      << voxelised.output;
  EXPECT_TRUE(
      std::filesystem::exists(dir / (mesh.stem().string() + "-after.png")));
  std::filesystem::remove(mesh);
  std::filesystem::remove_all(dir);
}

// The dam break runs beside the reference and writes its snapshots; the
// three-pass sorted_pairs stays within float rounding of naive.
TEST(AdjacentCli, SphRunsTheDamBreakAndWritesSnapshots) {
  const std::filesystem::path dir = TempFile("sph_png");
  const Result result = RunAdjacent(
      "sph dam_break --particles 1000 --steps 40 --every 20 --png " +
      dir.string());
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_NE(result.output.find("against naive"), std::string::npos)
      << result.output;
  EXPECT_EQ(CountOf(result.output, "wrote "), 3u) << result.output;
  for (const char* name :
       {"dam_break-0.png", "dam_break-20.png", "dam_break-40.png"}) {
    const std::string bytes = ReadBytes(dir / name);
    ASSERT_GE(bytes.size(), 8u) << name;
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  }
  std::filesystem::remove_all(dir);
}

// Bad scenes, counts, variants and options are refused (exit 2).
TEST(AdjacentCli, SphRefusesBadParameters) {
  for (const std::string arguments :
       {"sph", "sph lake", "sph glass dam_break", "sph glass --steps 0",
        "sph glass --steps -3", "sph glass --particles 0",
        "sph glass --particles 1e9", "sph glass --every x",
        "sph glass --variant nope", "sph glass --steps",
        "sph glass --viscosity 1"}) {
    const Result refused = RunAdjacent(arguments);
    EXPECT_EQ(refused.status, 2) << arguments << ": " << refused.output;
    EXPECT_NE(refused.output.find("adjacent sph"), std::string::npos)
        << arguments << ": " << refused.output;
  }
  // One particle is one layer: no column height, so no time step; the
  // message names the height, not the time step it would have made.
  const Result one = RunAdjacent("sph glass --particles 1 --steps 1");
  EXPECT_EQ(one.status, 2) << one.output;
  EXPECT_NE(one.output.find("column height"), std::string::npos) << one.output;
  // A run over --max-memory is refused before its first allocation.
  const Result large =
      RunAdjacent("sph glass --particles 50000000 --max-memory 1G");
  EXPECT_EQ(large.status, 3) << large.output;
  EXPECT_NE(large.output.find("over the memory budget of 1.0 GiB"),
            std::string::npos)
      << large.output;
}

// A corrupted mesh names its file and line; a mesh with no inside, a bad
// block, an unknown variant, cut or option are refused (exit 2).
TEST(AdjacentCli, FractureRefusesABlockOverTheMemoryBudget) {
  const Result refused =
      RunAdjacent("fracture block:1625 --frames 1 --max-memory 8G");
  EXPECT_EQ(refused.status, 3) << refused.output;
  EXPECT_NE(refused.output.find("over the memory budget"), std::string::npos)
      << refused.output;
}

TEST(AdjacentCli, FractureRefusesCorruptedInput) {
  Mesh box;
  for (int k = 0; k < 8; ++k) {
    box.positions.PushBack((k & 1) ? 1.0f : 0.0f, (k & 2) ? 1.0f : 0.0f,
                           (k & 4) ? 1.0f : 0.0f);
  }
  box.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6},
                   {0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7},
                   {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  const std::filesystem::path good = TempFile("fracture_good.off");
  const std::filesystem::path bad = TempFile("fracture_bad.off");
  WriteOff(box, good);
  CopyWithLineReplaced(good, bad, 4, "0.5 nan");
  const Result corrupted = RunAdjacent("fracture " + bad.string());
  EXPECT_EQ(corrupted.status, 2) << corrupted.output;
  EXPECT_NE(corrupted.output.find(bad.string() + ":4"), std::string::npos)
      << corrupted.output;
  // Only the first two triangles: a sheet, nothing inside.
  Mesh sheet = box;
  sheet.triangles.resize(2);
  const std::filesystem::path open = TempFile("fracture_sheet.off");
  WriteOff(sheet, open);
  const Result no_inside = RunAdjacent("fracture " + open.string());
  EXPECT_EQ(no_inside.status, 2) << no_inside.output;
  EXPECT_NE(no_inside.output.find("closed"), std::string::npos)
      << no_inside.output;
  for (const std::string arguments :
       {"fracture", "fracture block:0", "fracture block:x",
        "fracture block:4 --frames 0", "fracture block:4 --cut saw",
        "fracture block:4 --variant nope", "fracture block:4 --frames",
        "fracture block:4 --colour red", "fracture block:4 block:5",
        "fracture /no/such/file.off"}) {
    const Result refused = RunAdjacent(arguments);
    EXPECT_EQ(refused.status, 2) << arguments << ": " << refused.output;
    EXPECT_NE(refused.output.find("adjacent"), std::string::npos)
        << arguments << ": " << refused.output;
  }
  std::filesystem::remove(good);
  std::filesystem::remove(bad);
  std::filesystem::remove(open);
}

// `adjacent check`: an outside output in text files, right, with a planted
// bug (the pair at exactly the radius dropped), and malformed.
TEST(AdjacentCli, CheckJudgesAnOutsideOutputFromFiles) {
  const auto points = TempFile("check_points.txt");
  const auto right = TempFile("check_right.txt");
  const auto strict = TempFile("check_strict.txt");
  const auto broken = TempFile("check_broken.txt");
  std::ofstream(points) << "# x y z\n0 0 0\n0.25 0 0\n-0.5 0 0\n";
  std::ofstream(right) << "1 0\n0 2\n";  // a half list, either way round
  std::ofstream(strict) << "1 0\n";      // |d| < r: the pair at r lost
  std::ofstream(broken) << "1 0\n0\n";
  const std::string radius = " --radius 0.5";
  const Result agrees = RunAdjacent("check hash_grid " + points.string() + " " +
                                    right.string() + radius);
  EXPECT_EQ(agrees.status, 0) << agrees.output;
  EXPECT_NE(agrees.output.find("agrees\noracle: brute force over all 3 rows"),
            std::string::npos)
      << agrees.output;
  const Result differs = RunAdjacent("check hash_grid " + points.string() +
                                     " " + strict.string() + radius);
  EXPECT_EQ(differs.status, 1) << differs.output;
  EXPECT_NE(differs.output.find("differs: particle 2: missing 0 (distance "
                                "0.5 <= 0.5)"),
            std::string::npos)
      << differs.output;
  for (const auto& [arguments, named] :
       std::vector<std::pair<std::string, std::string>>{
           {"check hash_grid " + points.string() + " " + broken.string() +
                radius,
            "line 2 has 1 numbers, the first row 2"},
           {"check hash_grid " + points.string() + " " + right.string(),
            "the parameter radius is required"},
           {"check hash_grid " + points.string() + " " + right.string() +
                " --radius nan",
            "bad --radius nan"},
           {"check nothing " + points.string() + " " + right.string(),
            "no outside check for nothing"},
           {"check hash_grid " + points.string() + " /nonexistent" + radius,
            "/nonexistent: cannot be read"},
           {"check hash_grid " + points.string(),
            "expected FAMILY INPUT OUTPUT"}}) {
    const Result result = RunAdjacent(arguments);
    EXPECT_EQ(result.status, 2) << arguments << "\n" << result.output;
    EXPECT_NE(result.output.find(named), std::string::npos) << arguments << "\n"
                                                            << result.output;
  }
  for (const auto& path : {points, right, strict, broken}) {
    std::filesystem::remove(path);
  }
}

// A user's grid search, with the three bugs docs/check-your-code.md plants:
// the query's home cell by truncation where the bins were made by floor,
// |d| < r, each row's last neighbour dropped. Full rows.
std::vector<std::vector<std::uint32_t>> UserGridSearch(const Points& points,
                                                       double r,
                                                       const std::string& bug) {
  const auto cell = [&](double x, bool home) {
    return static_cast<std::int64_t>(
        home && bug == "truncate" ? std::trunc(x / r) : std::floor(x / r));
  };
  std::map<std::array<std::int64_t, 3>, std::vector<std::uint32_t>> bins;
  for (std::uint32_t i = 0; i < points.size(); ++i) {
    bins[{cell(points.x[i], false), cell(points.y[i], false),
          cell(points.z[i], false)}]
        .push_back(i);
  }
  std::vector<std::vector<std::uint32_t>> rows(points.size());
  for (std::uint32_t i = 0; i < points.size(); ++i) {
    const std::array<std::int64_t, 3> home = {cell(points.x[i], true),
                                              cell(points.y[i], true),
                                              cell(points.z[i], true)};
    for (int d = 0; d < 27; ++d) {
      const auto found = bins.find(
          {home[0] + d % 3 - 1, home[1] + d / 3 % 3 - 1, home[2] + d / 9 - 1});
      if (found == bins.end()) continue;
      for (const std::uint32_t j : found->second) {
        const double dx = double{points.x[j]} - points.x[i];
        const double dy = double{points.y[j]} - points.y[i];
        const double dz = double{points.z[j]} - points.z[i];
        const double d2 = dx * dx + dy * dy + dz * dz;
        if (j != i && (bug == "strict" ? d2 < r * r : d2 <= r * r)) {
          rows[i].push_back(j);
        }
      }
    }
    std::sort(rows[i].begin(), rows[i].end());
    if (bug == "drop-last" && !rows[i].empty()) rows[i].pop_back();
  }
  return rows;
}

// The route of files: the exported cases, the oracle's own output agreeing
// on every one, and the user's search with each planted bug caught on the
// case made for it.
TEST(AdjacentCli, CorpusExportCatchesEachPlantedBugThroughCheck) {
  const auto folder = TempFile("corpus");
  const Result exported =
      RunAdjacent("corpus export " + folder.string() + " --family hash_grid");
  ASSERT_EQ(exported.status, 0) << exported.output;
  std::stringstream readme;
  readme << std::ifstream(folder / "README.md").rdbuf();
  EXPECT_NE(readme.str().find("- `negative_coordinates`: "), std::string::npos);
  for (const auto& entry :
       std::filesystem::directory_iterator(folder / "hash_grid")) {
    const Result expected =
        RunAdjacent("check hash_grid " + (entry.path() / "input.npz").string() +
                    " " + (entry.path() / "expected.npz").string());
    EXPECT_EQ(expected.status, 0) << entry.path() << "\n" << expected.output;
  }
  for (const auto& [bug, case_name] :
       std::vector<std::pair<std::string, std::string>>{
           {"truncate", "negative_coordinates"},
           {"strict", "exact_radius_lattice"},
           {"drop-last", "one_cell"}}) {
    const auto input = folder / "hash_grid" / case_name / "input.npz";
    const registry::Arrays arrays =
        cli::ReadArrayFile(input.string(), "points");
    const registry::Array& coordinates = arrays.at("points");
    Points points;
    for (std::size_t k = 0; k < coordinates.reals.size(); k += 3) {
      points.PushBack(static_cast<float>(coordinates.reals[k]),
                      static_cast<float>(coordinates.reals[k + 1]),
                      static_cast<float>(coordinates.reals[k + 2]));
    }
    const auto output = TempFile("corpus_" + bug + ".txt");
    {
      std::ofstream out(output);
      const auto rows =
          UserGridSearch(points, arrays.at("radius").reals[0], bug);
      for (std::size_t i = 0; i < rows.size(); ++i) {
        for (const std::uint32_t j : rows[i]) out << i << " " << j << "\n";
      }
    }
    const Result caught = RunAdjacent("check hash_grid " + input.string() +
                                      " " + output.string() + " --full 1");
    EXPECT_EQ(caught.status, 1) << bug << "\n" << caught.output;
    EXPECT_NE(caught.output.find(": missing "), std::string::npos)
        << bug << "\n"
        << caught.output;
    std::filesystem::remove(output);
  }
  std::filesystem::remove_all(folder);
}

// `adjacent corpus` refuses bad usage with exit 2, naming what is wrong,
// and writes nothing.
TEST(AdjacentCli, CorpusRefusesBadUsage) {
  const auto blocker = TempFile("corpus_blocker");
  std::ofstream(blocker) << "a file where a folder must go\n";
  const std::string unused = TempFile("corpus_unused").string();
  for (const auto& [arguments, named] :
       std::vector<std::pair<std::string, std::string>>{
           {"corpus", "expected `export DIR`"},
           {"corpus import " + unused, "expected `export DIR`"},
           {"corpus export", "expected `export DIR`"},
           {"corpus export " + unused + " --family", "--family needs a FAMILY"},
           {"corpus export " + unused + " --family nothing",
            "no exported cases for nothing"},
           {"corpus export " + unused + " /tmp/y",
            "unexpected argument /tmp/y"},
           {"corpus export " + blocker.string() + " --family hash_set",
            "cannot be created"}}) {
    const Result result = RunAdjacent(arguments);
    EXPECT_EQ(result.status, 2) << arguments << "\n" << result.output;
    EXPECT_NE(result.output.find(named), std::string::npos) << arguments << "\n"
                                                            << result.output;
  }
  EXPECT_FALSE(std::filesystem::exists(unused));
  std::filesystem::remove(blocker);
}

}  // namespace
}  // namespace adj
