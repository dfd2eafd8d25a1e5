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
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/simd.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
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
  schedule MESH   every triplet scheduler on MESH's virtual particles: sets,
                  padding, bank replays, time

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
family that consumes meshes (triangle_adjacency; triplet_schedule on one
virtual particle per triangle, checked by the reference validator), runs
every variant that can run here on it, and prints one row per variant: agrees, or the first
difference; and the time of one run after a warm-up (wall clock, for
orientation only: `make figures` measures). Exit status 1 when any variant
disagrees, 2 when MESH cannot be read (the message names file, line and
reason).
)";

constexpr std::string_view kScheduleHelp =
    R"(usage: adjacent schedule MESH [--simd-width W] [--warp-width 16|32]

Reads MESH (.off, .obj, ASCII .ply), makes one virtual particle per triangle
(NvCloth's VirtualParticleScene: the three corners, weight index 0) and runs
every triplet scheduler on them: simd schedulers at --simd-width (default 4,
NvCloth's) and warp schedulers at --warp-width (default 32). Each schedule is
checked by the reference validator; one row per scheduler:
  sets        sets (simd: runs of batches; warp: independent sets)
  max_adj     NvCloth's maxAdjacentCount, the lower bound on warp sets
  set min/mean/max, padding (dummy triplets) and padding / triplets
  replays     NvCloth's calculateNumReplays on the final order (32 banks,
              chunks of 32 from each set start), ideal = 3 per chunk
  idle        idle lanes: the partial last warp of each set
  time        one run after a warm-up (wall clock, for orientation)
Schedulers with 16-bit output (NvCloth's) say so on meshes past 65533
particles. Exit status 1 when a schedule is invalid, 2 on a bad argument or
an unreadable MESH.
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
  std::printf("%-20s %-22s %-7s %-5s %s\n", "family", "variant", "backend",
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
    std::printf("%-20s %-22s %-7s %-5s %s\n", row.family.c_str(),
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
  std::printf("%-20s %-22s %-7s %-9s %-11s %s\n", "family", "variant",
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
    std::printf("%-20s %-22s %-7s %-9s %-11s %s\n", row.family.c_str(),
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

int Schedule(std::vector<std::string> args) {
  if (WantsHelp(args)) {
    std::cout << kScheduleHelp;
    return kOk;
  }
  ScheduleWidths widths;
  for (std::size_t i = 0; i < args.size();) {
    const bool simd = args[i] == "--simd-width";
    if (!simd && args[i] != "--warp-width") {
      ++i;
      continue;
    }
    if (i + 1 == args.size()) {
      return Usage(kScheduleHelp, args[i] + " needs a value");
    }
    unsigned width = 0;
    try {
      std::size_t used = 0;
      const unsigned long value = std::stoul(args[i + 1], &used);
      if (used != args[i + 1].size() || value > 1024)
        throw std::out_of_range("");
      width = static_cast<unsigned>(value);
    } catch (const std::exception&) {
      return Usage(kScheduleHelp, "bad width " + args[i + 1]);
    }
    if (simd ? !triplet_schedule::IsValidSimdWidth(width)
             : !triplet_schedule::IsValidWarpWidth(width)) {
      return Usage(kScheduleHelp,
                   args[i] + " " + args[i + 1] +
                       (simd ? " is outside [1, 64]" : " is not 16 or 32"));
    }
    (simd ? widths.simd : widths.warp) = width;
    args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
               args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
  }
  Mesh mesh;
  int status = kOk;
  if (!LoadArgument(args, kScheduleHelp, mesh, status)) return status;
  std::printf("%s: %zu particles, %zu triplets (one per triangle)\n",
              args[0].c_str(), mesh.particles(), mesh.triangles.size());
  std::printf("%-22s %-6s %5s %5s %7s %8s %7s %8s %8s %9s %9s %6s %6s %10s\n",
              "scheduler", "kind", "width", "sets", "max_adj", "set_min",
              "set_mean", "set_max", "padding", "pad_ratio", "replays", "ideal",
              "idle", "time");
  int exit_status = kOk;
  for (const ScheduleRow& row : ScheduleOnMesh(mesh, widths)) {
    if (!row.problem.empty()) {
      std::printf("%-22s %-6s %5u  %s\n", row.scheduler.c_str(),
                  row.simd ? "simd" : "warp", row.width, row.problem.c_str());
      if (row.problem.rfind("INVALID", 0) == 0) exit_status = kDisagreement;
      continue;
    }
    const auto& m = row.metrics;
    std::printf(
        "%-22s %-6s %5u %5llu %7llu %8llu %7.1f %8llu %8llu %9.4f %9llu "
        "%6llu %6llu %7.3f ms\n",
        row.scheduler.c_str(), row.simd ? "simd" : "warp", row.width,
        static_cast<unsigned long long>(m.sets),
        static_cast<unsigned long long>(m.max_adj),
        static_cast<unsigned long long>(m.set_min), m.set_mean,
        static_cast<unsigned long long>(m.set_max),
        static_cast<unsigned long long>(m.padding), m.padding_ratio,
        static_cast<unsigned long long>(m.replays),
        static_cast<unsigned long long>(m.ideal_replays),
        static_cast<unsigned long long>(m.idle_lanes), row.seconds * 1e3);
  }
  return exit_status;
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
    if (command == "schedule") return Schedule(args);
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
