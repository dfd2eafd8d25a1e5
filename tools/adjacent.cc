// adjacent: the suite's command line. Lists the variants and whether they
// can run here, describes a user's mesh, and checks every variant against
// the oracles on it.
//
// Exit status: 0 success, 1 a variant disagreed with its oracle, 2 bad usage
// or unreadable input.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/simd.h"
#include "scenes/mesh_io.h"
#include "tools/families.h"

namespace adj::cli {
namespace {

constexpr int kOk = 0;
constexpr int kDisagreement = 1;
constexpr int kUsage = 2;

constexpr std::string_view kMainHelp =
    R"(usage: adjacent <command> [arguments]

Research suite for the adjacency structures particle simulations rebuild
every frame. Commands:
  variants        every family's variants, backend, and whether it runs here
  stats MESH      particles, triangles, valence histogram, max adjacency
  verify MESH     every variant against the oracle on MESH; exit 1 on any
                  disagreement

MESH is a triangle mesh: .off, .obj or ASCII .ply (polygons are split into
fans). `adjacent <command> --help` describes one command.
)";

constexpr std::string_view kVariantsHelp =
    R"(usage: adjacent variants

Lists every family's variant table: name, backend, whether it can run on this
machine (a CUDA variant without a usable GPU says why), and what it is.
)";

constexpr std::string_view kStatsHelp =
    R"(usage: adjacent stats MESH

Reads MESH (.off, .obj, ASCII .ply) and prints its particle and triangle
counts, degenerate triangles (a repeated corner), unused particles, and the
valence histogram: how many particles belong to k triangles, for every k that
occurs. The largest k is NvCloth's maxAdjacentCount.
)";

constexpr std::string_view kVerifyHelp =
    R"(usage: adjacent verify MESH

Reads MESH (.off, .obj, ASCII .ply), builds the oracle's answer for every
family that consumes meshes (today: triangle_adjacency), runs every variant
that can run here on it, and prints one row per variant: agrees, or the first
difference; and the time of one run after a warm-up (wall clock, for
orientation only: `make figures` measures). Exit status 1 when any variant
disagrees, 2 when MESH cannot be read (the message names file, line and
reason).
)";

bool WantsHelp(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) {
    return a == "--help" || a == "-h";
  });
}

int Usage(std::string_view help, const std::string& problem) {
  std::cerr << "adjacent: " << problem << "\n\n" << help;
  return kUsage;
}

int Variants(const std::vector<std::string>& args) {
  if (WantsHelp(args)) {
    std::cout << kVariantsHelp;
    return kOk;
  }
  if (!args.empty()) return Usage(kVariantsHelp, "unexpected " + args[0]);
  std::printf("%-20s %-10s %-7s %-5s %s\n", "family", "variant", "backend",
              "runs", "description");
  for (const VariantRow& row : AllVariants()) {
    std::string runs = row.availability.available ? "yes" : "no";
    std::string description = row.description;
    if (row.backend == Backend::kSimd) {
      description +=
          " [Highway targets here: best " + simd::BestTargetName() + "]";
    }
    if (!row.availability.available) {
      description += " [cannot run here: " + row.availability.reason + "]";
    }
    std::printf("%-20s %-10s %-7s %-5s %s\n", row.family.c_str(),
                row.name.c_str(), std::string(BackendName(row.backend)).c_str(),
                runs.c_str(), description.c_str());
  }
  return kOk;
}

// Loads the one MESH argument; on failure prints why and returns false.
bool LoadArgument(const std::vector<std::string>& args, std::string_view help,
                  Mesh& mesh, int& status) {
  if (args.size() != 1) {
    status = Usage(help, args.empty() ? "missing MESH" : "expected one MESH");
    return false;
  }
  try {
    mesh = scenes::LoadMesh(args[0]);
  } catch (const std::exception& error) {
    std::cerr << "adjacent: " << error.what() << "\n";
    status = kUsage;
    return false;
  }
  return true;
}

int Stats(const std::vector<std::string>& args) {
  if (WantsHelp(args)) {
    std::cout << kStatsHelp;
    return kOk;
  }
  Mesh mesh;
  int status = kOk;
  if (!LoadArgument(args, kStatsHelp, mesh, status)) return status;
  std::vector<std::size_t> valence(mesh.particles(), 0);
  std::size_t degenerate = 0;
  for (const Triangle& triangle : mesh.triangles) {
    for (const std::uint32_t corner : triangle) ++valence[corner];
    degenerate += triangle[0] == triangle[1] || triangle[1] == triangle[2] ||
                  triangle[0] == triangle[2];
  }
  std::map<std::size_t, std::size_t> histogram;
  for (const std::size_t v : valence) ++histogram[v];
  const std::size_t max_adjacent =
      histogram.empty() ? 0 : histogram.rbegin()->first;
  std::printf("mesh          %s\n", args[0].c_str());
  std::printf("particles     %zu\n", mesh.particles());
  std::printf("triangles     %zu\n", mesh.triangles.size());
  std::printf("degenerate    %zu (a corner repeated; listed once per corner)\n",
              degenerate);
  std::printf("unused        %zu particles in no triangle\n",
              histogram.count(0) ? histogram[0] : 0);
  std::printf("max adjacency %zu (NvCloth's maxAdjacentCount)\n", max_adjacent);
  if (!mesh.triangles.empty()) {
    std::printf("mean valence  %.3f\n",
                3.0 * static_cast<double>(mesh.triangles.size()) /
                    static_cast<double>(mesh.particles()));
  }
  std::printf("valence histogram (triangles per particle: particles)\n");
  for (const auto& [k, particles] : histogram) {
    std::printf("  %6zu: %zu\n", k, particles);
  }
  return kOk;
}

int Verify(const std::vector<std::string>& args) {
  if (WantsHelp(args)) {
    std::cout << kVerifyHelp;
    return kOk;
  }
  Mesh mesh;
  int status = kOk;
  if (!LoadArgument(args, kVerifyHelp, mesh, status)) return status;
  double oracle_seconds = 0;
  const std::vector<VerifyRow> rows = VerifyOnMesh(mesh, oracle_seconds);
  std::printf("%s: %zu particles, %zu triangles; oracles took %.3f s\n",
              args[0].c_str(), mesh.particles(), mesh.triangles.size(),
              oracle_seconds);
  std::printf("%-20s %-10s %-7s %-9s %-11s %s\n", "family", "variant",
              "backend", "result", "time", "detail");
  std::size_t agreed = 0;
  std::size_t differed = 0;
  for (const VerifyRow& row : rows) {
    const char* result = row.outcome == VerifyRow::Outcome::kAgrees ? "agrees"
                         : row.outcome == VerifyRow::Outcome::kDiffers
                             ? "DIFFERS"
                             : "skipped";
    char elapsed[32] = "-";
    if (row.outcome != VerifyRow::Outcome::kSkipped) {
      std::snprintf(elapsed, sizeof elapsed, "%.3f ms", row.seconds * 1e3);
    }
    std::printf("%-20s %-10s %-7s %-9s %-11s %s\n", row.family.c_str(),
                row.variant.c_str(),
                std::string(BackendName(row.backend)).c_str(), result, elapsed,
                row.detail.c_str());
    agreed += row.outcome == VerifyRow::Outcome::kAgrees;
    differed += row.outcome == VerifyRow::Outcome::kDiffers;
  }
  if (differed > 0) {
    std::printf("%zu of %zu variants that ran DISAGREE with the oracle\n",
                differed, agreed + differed);
    return kDisagreement;
  }
  std::printf("all %zu variants that ran agree with the oracle\n", agreed);
  return kOk;
}

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return Usage(kMainHelp, "missing command");
  const std::string command = args.front();
  args.erase(args.begin());
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kMainHelp;
    return kOk;
  }
  try {
    if (command == "variants") return Variants(args);
    if (command == "stats") return Stats(args);
    if (command == "verify") return Verify(args);
  } catch (const std::exception& error) {
    // Out of memory on a huge mesh, say: a message, never std::terminate.
    std::cerr << "adjacent " << command << ": " << error.what() << "\n";
    return kUsage;
  }
  return Usage(kMainHelp, "unknown command " + command);
}

}  // namespace
}  // namespace adj::cli

int main(int argc, char** argv) { return adj::cli::Main(argc, argv); }
