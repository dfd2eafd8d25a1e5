// adjacent: the suite's command line. Lists the variants and whether they
// can run here, describes a user's mesh, and checks every variant against
// the oracles on it.
//
// Exit status (kMainHelp prints the table): 0 success, 1 a variant
// disagreed with its oracle, 2 bad input or option, 3 refused for
// resources.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iostream>
#include <iterator>
#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/errors.h"
#include "algorithms/common/memory_budget.h"
#include "algorithms/common/points.h"
#include "algorithms/common/simd.h"
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "checks/triplet_schedule.h"
#include "registry/families.h"
#include "registry/verify.h"
#include "scenes/mesh_io.h"
#include "scenes/meshes.h"
#include "tools/arguments.h"
#include "tools/check_command.h"
#include "tools/corpus_command.h"
#include "tools/families.h"
#include "tools/fracture_command.h"
#include "tools/sph_command.h"

namespace adj::cli {
namespace {

using registry::AllVariants;
using registry::VariantRow;
using registry::VerifyOnCloud;
using registry::VerifyOnMesh;
using registry::VerifyRow;

constexpr int kOk = 0;
constexpr int kDisagreement = 1;
constexpr int kUsage = 2;
constexpr int kRefused = 3;

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
  neighbors CLOUD --radius R [--spacing S] [--table-size T]
                  fixed-radius neighbours (hash_grid) on CLOUD: pairs,
                  neighbours per particle, Müller's duplicates and
                  candidates, time per variant
  verify CLOUD --radius R [--spacing S] [--table-size T]
                  every hash_grid variant against the brute-force oracle on
                  CLOUD; exit 1 on any disagreement
  fracture SCENE [--frames N] [--cut blade|impact|random]
                  the fracture update on a block or a voxelised MESH,
                  invariants checked every frame, PNG snapshots before and
                  after; exit 1 on a broken invariant
  check FAMILY INPUT OUTPUT [--PARAMETER VALUE]
                  an output your own code computed (.npz, .npy or text)
                  against the family's oracle; exit 1 when it differs
  corpus export DIR [--family F]
                  the suite's hard cases as .npz files, each input beside
                  the oracle's output, with a README
  sph glass|dam_break [--steps N] [--variant V] [--png DIR]
                  an SPH scene run by one variant beside the three-pass
                  reference, accuracy every K steps, PNG snapshots; exit 1
                  when the state blows up

MESH is a triangle mesh: .off, .obj, .ply or .stl (polygons are split into
fans). CLOUD is a point set: .xyz or .pwn (x y z, then any fields), or the
vertices of a .off, .obj, .ply or .stl (a PLY without faces is a cloud).
`adjacent <command> --help` describes one command.

Every command takes --max-memory SIZE (e.g. 512M, 4G): the most memory one
piece of work may allocate for output its input does not fix (neighbour
lists, scenes); more is refused before it is allocated. Default: half of
this machine's memory.

Exit status, every command:
  0  success (every variant that ran agrees with the oracle)
  1  a variant disagrees with the oracle, or a scene broke an invariant
  2  bad input or option (the message names the file, option or value)
  3  refused for resources: the work would need more memory than the
     budget or the machine (the message names the size and the budget)
)";

constexpr std::string_view kVariantsHelp =
    R"(usage: adjacent variants [--markdown] [--family FAMILY]

Lists every family's variant table: name, backend, origin (faithful, fixed,
ours, baseline), whether it can run on this machine (a CUDA variant without a
usable GPU says why), and what it is.

  --markdown       the table as docs/<family>.md embeds it: variant, backend,
                   origin, twin (the row an OpenMP variant must equal), what
                   it is; nothing that depends on this machine
  --family FAMILY  only that family's rows
)";

constexpr std::string_view kStatsHelp =
    R"(usage: adjacent stats MESH

Reads MESH (.off, .obj, .ply, .stl) and prints its particle and triangle
counts, degenerate triangles (a repeated corner), unused particles, and the
valence histogram: how many particles belong to k triangles, for every k that
occurs. The largest k is NvCloth's maxAdjacentCount.
)";

constexpr std::string_view kVerifyHelp =
    R"(usage: adjacent verify MESH
       adjacent verify CLOUD --radius R [--spacing S] [--table-size T]

Reads MESH (.off, .obj, .ply, .stl), builds the oracle's answer for every
family that consumes meshes (triangle_adjacency; triplet_schedule on one
virtual particle per triangle, checked by the reference validator), runs
every variant that can run here on it, and prints one row per variant: agrees, or the first
difference; and the time of one run after a warm-up (wall clock, for
orientation only: `make figures` measures). Exit status 1 when any variant
disagrees, 2 when MESH cannot be read (the message names file, line and
reason).

With --radius, verify checks the fixed-radius neighbour search (hash_grid)
instead: CLOUD is read as points (.xyz, .pwn, or the vertices of .off, .obj,
.ply), every hash_grid variant builds the lists of the pairs within R
(inclusive, in double: hash_grid.h's predicate) with cells of edge S
(default R) and Müller's table of T buckets (default 2N), and each is
compared with the brute-force oracle: on every row up to 50,000 particles
(Müller's duplicates too, against the multiplicity of the buckets his
window visits twice), on 2,000 rows spread over the ids above. Exit status
1 when any variant disagrees, 2 on a bad option (R, S not finite and > 0;
R more than 64 x S; T not in [1, 2^32 - 1]; coordinates beyond the hash's
exact range) or an unreadable CLOUD (file, line and reason).
)";

constexpr std::string_view kNeighborsHelp =
    R"(usage: adjacent neighbors CLOUD --radius R [--spacing S] [--table-size T]

Reads CLOUD (.xyz or .pwn: x y z then any fields; or the vertices of a .off,
.obj, .ply or .stl) and runs every hash_grid variant on it: the pairs within
R (inclusive, in double), cells of edge S (default R), Müller's hash table
of T buckets (default 2N, his balls demo; his cloth demo uses 5N). Prints
  pairs                    distinct unordered pairs within R
  neighbours per particle  min, mean, max
  muller duplicates        entries his queryAll repeats (two searched cells
                           sharing a bucket), and their share
  muller candidates        entries his queries hand to the distance test,
                           per particle (self and repeats included)
  muller past slots        (only when some) queries that met more
                           candidates than his N queryIds slots: his rows
                           store a 0 for each one dropped, as his page does
and one row per variant: list kind (half: each pair once, at its larger id;
full: both ways), entries, pairs, candidates per particle, duplicates,
threads, and the time of one run after a warm-up (wall clock, for
orientation only: `make figures` measures). The pair counts come from the
first exact variant. Exit status 1 when variants disagree on some
particle's neighbour count (muller's rows past their slots excepted) (`adjacent verify CLOUD --radius
R` then shows where), 2 on a bad option or an unreadable CLOUD.
)";

constexpr std::string_view kScheduleHelp =
    R"(usage: adjacent schedule MESH [--simd-width W] [--warp-width 16|32]

Reads MESH (.off, .obj, .ply, .stl), makes one virtual particle per triangle
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
Above the rows, the replay floor no warp schedule of the mesh can go below
(the most loads on one bank), and as a ratio to ideal for maxAdj + 1 sets.
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

// The exit status for what a load or a run threw: a refusal for resources
// (the memory budget, or memory the machine could not give) or bad input.
int StatusOf(const std::exception& error) {
  return dynamic_cast<const ResourceError*>(&error) != nullptr ||
                 dynamic_cast<const std::bad_alloc*>(&error) != nullptr
             ? kRefused
             : kUsage;
}

// "" when `args` is the one positional argument `what` names; else what is
// wrong, naming an unknown option first.
std::string PositionalProblem(const std::vector<std::string>& args,
                              std::string_view what) {
  for (const std::string& arg : args) {
    if (arg.size() > 1 && arg[0] == '-') return "unknown option " + arg;
  }
  if (args.empty()) return "missing " + std::string(what);
  if (args.size() > 1) {
    return "expected one " + std::string(what) + ", got " +
           std::to_string(args.size()) + " arguments";
  }
  return "";
}

// `variants --markdown`: one table per family, the block between the
// "BEGIN generated" and "END generated" lines of docs/<family>.md (a test
// compares them; tools/update-docs.py rewrites them).
// A family whose rows are recipes of shared parts gets an "axes" column:
// each row's Traits (TraitsText).
void PrintVariantsMarkdown(const std::vector<VariantRow>& rows) {
  const bool axes = std::any_of(rows.begin(), rows.end(), [](const auto& row) {
    return !row.traits.empty();
  });
  std::printf("| variant | backend | origin | twin |%s what it is |\n",
              axes ? " axes |" : "");
  std::printf("| --- | --- | --- | --- |%s --- |\n", axes ? " --- |" : "");
  for (const VariantRow& row : rows) {
    std::string description;
    for (const char c : row.description) {
      if (c == '|') description += '\\';
      description += c;
    }
    const std::string traits = axes ? " " + row.traits + " |" : "";
    std::printf("| `%s` | %s | %s | %s |%s %s |\n", row.name.c_str(),
                std::string(BackendName(row.backend)).c_str(),
                std::string(OriginName(row.origin)).c_str(),
                row.twin.empty() ? "" : ("`" + row.twin + "`").c_str(),
                traits.c_str(), description.c_str());
  }
}

int Variants(const std::vector<std::string>& args) {
  if (WantsHelp(args)) {
    std::cout << kVariantsHelp;
    return kOk;
  }
  bool markdown = false;
  std::string family;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--markdown") {
      markdown = true;
    } else if (args[i] == "--family" && i + 1 < args.size()) {
      family = args[++i];
    } else {
      return Usage(kVariantsHelp, "unexpected " + args[i]);
    }
  }
  std::vector<VariantRow> rows = AllVariants();
  if (!family.empty()) {
    std::erase_if(rows,
                  [&](const VariantRow& row) { return row.family != family; });
    if (rows.empty()) return Usage(kVariantsHelp, "no family " + family);
  }
  if (markdown) {
    PrintVariantsMarkdown(rows);
    return kOk;
  }
  std::printf("%-20s %-22s %-7s %-8s %-5s %s\n", "family", "variant", "backend",
              "origin", "runs", "description");
  for (const VariantRow& row : rows) {
    std::string runs = row.availability.available ? "yes" : "no";
    std::string description = row.description;
    if (!row.traits.empty()) description += " [axes: " + row.traits + "]";
    if (!row.library.empty()) description += " [peer: " + row.library + "]";
    if (row.backend == Backend::kSimd) {
      description +=
          " [Highway targets here: best " + simd::BestTargetName() + "]";
    }
    if (!row.availability.available) {
      description += " [cannot run here: " + row.availability.reason + "]";
    }
    std::printf("%-20s %-22s %-7s %-8s %-5s %s\n", row.family.c_str(),
                row.name.c_str(), std::string(BackendName(row.backend)).c_str(),
                std::string(OriginName(row.origin)).c_str(), runs.c_str(),
                description.c_str());
  }
  return kOk;
}

// Loads the one MESH argument; on failure prints why and returns false.
bool LoadArgument(const std::vector<std::string>& args, std::string_view help,
                  Mesh& mesh, int& status) {
  if (const std::string problem = PositionalProblem(args, "MESH");
      !problem.empty()) {
    status = Usage(help, problem);
    return false;
  }
  try {
    mesh = scenes::LoadMesh(args[0]);
  } catch (const std::exception& error) {
    std::cerr << "adjacent: " << error.what() << "\n";
    status = StatusOf(error);
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

// Loads the one CLOUD argument and makes hash_grid's parameters for it
// (spacing R, table 2N unless given), checked; on failure prints why and
// returns false with `status` set.
bool LoadCloud(const std::vector<std::string>& args, std::string_view help,
               const CloudOptions& options, Points& points,
               hash_grid::Params& params, int& status) {
  if (const std::string problem = PositionalProblem(args, "CLOUD");
      !problem.empty()) {
    status = Usage(help, problem);
    return false;
  }
  if (options.radius == 0) {
    status = Usage(help, "--radius R is required");
    return false;
  }
  try {
    points = scenes::LoadPoints(args[0]);
  } catch (const std::exception& error) {
    std::cerr << "adjacent: " << error.what() << "\n";
    status = StatusOf(error);
    return false;
  }
  params.max_dist = options.radius;
  params.spacing = options.spacing != 0 ? options.spacing : options.radius;
  params.table_size = options.table_size != 0
                          ? options.table_size
                          : hash_grid::DefaultTableSize(points.size());
  try {
    hash_grid::Check(points, params, true);
  } catch (const std::exception& error) {
    std::cerr << "adjacent: " << args[0] << ": " << error.what() << "\n";
    status = kUsage;
    return false;
  }
  return true;
}

void PrintCloudHeader(const std::string& name, const Points& points,
                      const hash_grid::Params& params) {
  std::printf(
      "%s: %zu particles; radius %.9g, spacing %.9g, table %u buckets\n",
      name.c_str(), points.size(), static_cast<double>(params.max_dist),
      static_cast<double>(params.spacing), params.table_size);
}

// What the hashed row (Müller's) found beside the exact ones: its
// duplicates and candidates, and the faithful quirks where they showed.
void PrintHashedRow(const NeighborsRow& muller, std::size_t particles) {
  const std::uint64_t distinct = muller.entries - muller.duplicates;
  std::printf(
      "muller duplicates        %llu (%.3f %% of his %llu distinct "
      "entries)\n",
      static_cast<unsigned long long>(muller.duplicates),
      distinct == 0 ? 0.0
                    : 100.0 * static_cast<double>(muller.duplicates) /
                          static_cast<double>(distinct),
      static_cast<unsigned long long>(distinct));
  std::printf(
      "muller candidates        %.3f per particle (self and repeats "
      "included)\n",
      muller.candidates);
  if (muller.window_misses > 0) {
    std::printf(
        "muller window misses     %llu pairs just past a cell boundary "
        "that his window does not reach (faithful)\n",
        static_cast<unsigned long long>(muller.window_misses));
  }
  if (muller.queries_past_slots > 0) {
    std::printf(
        "muller past slots        %llu of %zu queries met more candidates "
        "than his %zu queryIds slots; his rows store a 0 for each one "
        "dropped (faithful)\n",
        static_cast<unsigned long long>(muller.queries_past_slots), particles,
        particles);
  }
}

int Neighbors(std::vector<std::string> args) {
  if (WantsHelp(args)) {
    std::cout << kNeighborsHelp;
    return kOk;
  }
  CloudOptions options;
  if (const std::string problem = TakeCloudOptions(args, options);
      !problem.empty()) {
    return Usage(kNeighborsHelp, problem);
  }
  Points points;
  hash_grid::Params params;
  int status = kOk;
  if (!LoadCloud(args, kNeighborsHelp, options, points, params, status)) {
    return status;
  }
  const std::vector<NeighborsRow> rows = NeighborsOnCloud(points, params);
  PrintCloudHeader(args[0], points, params);
  const NeighborsRow* first = nullptr;
  const NeighborsRow* muller = nullptr;
  for (const NeighborsRow& row : rows) {
    if (!row.problem.empty()) continue;
    if (row.hashed) {
      muller = &row;
    } else if (first == nullptr) {
      first = &row;
    }
  }
  if (first == nullptr) first = muller;
  if (first != nullptr) {
    std::printf("pairs                    %llu\n",
                static_cast<unsigned long long>(first->pairs));
    if (points.empty()) {
      std::printf("neighbours per particle  - (no particles)\n");
    } else {
      std::printf("neighbours per particle  min %llu, mean %.3f, max %llu\n",
                  static_cast<unsigned long long>(first->min_neighbors),
                  first->mean_neighbors,
                  static_cast<unsigned long long>(first->max_neighbors));
    }
  }
  if (muller != nullptr) PrintHashedRow(*muller, points.size());
  std::printf("%-24s %-7s %-4s %12s %12s %10s %10s %7s %11s\n", "variant",
              "backend", "list", "entries", "pairs", "cand/part", "duplicates",
              "threads", "time");
  bool differ = false;
  bool refused = false;
  for (const NeighborsRow& row : rows) {
    const std::string backend(BackendName(row.backend));
    if (!row.problem.empty()) {
      std::printf("%-24s %-7s %s\n", row.variant.c_str(), backend.c_str(),
                  row.problem.c_str());
      differ = differ || !row.same_as_first;
      refused = refused || row.refused;
      continue;
    }
    std::printf("%-24s %-7s %-4s %12llu %12llu %10.3f %10llu %7d %8.3f ms%s\n",
                row.variant.c_str(), backend.c_str(), row.list.c_str(),
                static_cast<unsigned long long>(row.entries),
                static_cast<unsigned long long>(row.pairs), row.candidates,
                static_cast<unsigned long long>(row.duplicates), row.threads,
                row.seconds * 1e3,
                row.same_as_first ? "" : "  DIFFERS from the first row");
    differ = differ || !row.same_as_first;
  }
  if (differ) {
    std::printf(
        "variants DISAGREE on some particle's neighbours: `adjacent verify "
        "%s --radius %.9g` shows where\n",
        args[0].c_str(), static_cast<double>(params.max_dist));
    return kDisagreement;
  }
  if (refused) {
    std::printf(
        "some variants were REFUSED for resources (see --max-memory); the "
        "others agree\n");
    return kRefused;
  }
  return kOk;
}

// One row per variant, then the verdict: kOk or kDisagreement.
int ReportVerifyRows(const std::vector<VerifyRow>& rows) {
  std::printf("%-20s %-22s %-7s %-9s %-11s %s\n", "family", "variant",
              "backend", "result", "time", "detail");
  std::size_t agreed = 0;
  std::size_t differed = 0;
  std::size_t refused = 0;
  for (const VerifyRow& row : rows) {
    const char* result =
        row.outcome == VerifyRow::Outcome::kAgrees    ? "agrees"
        : row.outcome == VerifyRow::Outcome::kDiffers ? "DIFFERS"
        : row.outcome == VerifyRow::Outcome::kRefused ? "REFUSED"
                                                      : "skipped";
    char elapsed[32] = "-";
    if (row.outcome == VerifyRow::Outcome::kAgrees ||
        row.outcome == VerifyRow::Outcome::kDiffers) {
      std::snprintf(elapsed, sizeof elapsed, "%.3f ms", row.seconds * 1e3);
    }
    std::printf("%-20s %-22s %-7s %-9s %-11s %s\n", row.family.c_str(),
                row.variant.c_str(),
                std::string(BackendName(row.backend)).c_str(), result, elapsed,
                row.detail.c_str());
    agreed += row.outcome == VerifyRow::Outcome::kAgrees;
    differed += row.outcome == VerifyRow::Outcome::kDiffers;
    refused += row.outcome == VerifyRow::Outcome::kRefused;
  }
  if (differed > 0) {
    std::printf("%zu of %zu variants that ran DISAGREE with the oracle\n",
                differed, agreed + differed);
    return kDisagreement;
  }
  if (refused > 0) {
    std::printf(
        "%zu variants were REFUSED for resources (see --max-memory); the %zu "
        "that ran agree with the oracle\n",
        refused, agreed);
    return kRefused;
  }
  std::printf("all %zu variants that ran agree with the oracle\n", agreed);
  return kOk;
}

int VerifyCloud(std::vector<std::string> args) {
  CloudOptions options;
  if (const std::string problem = TakeCloudOptions(args, options);
      !problem.empty()) {
    return Usage(kVerifyHelp, problem);
  }
  Points points;
  hash_grid::Params params;
  int status = kOk;
  if (!LoadCloud(args, kVerifyHelp, options, points, params, status)) {
    return status;
  }
  double oracle_seconds = 0;
  std::string oracle_scope;
  const std::vector<VerifyRow> rows =
      VerifyOnCloud(points, params, oracle_seconds, oracle_scope);
  PrintCloudHeader(args[0], points, params);
  std::printf("oracle: %s, took %.3f s\n", oracle_scope.c_str(),
              oracle_seconds);
  return ReportVerifyRows(rows);
}

int Verify(const std::vector<std::string>& args) {
  if (WantsHelp(args)) {
    std::cout << kVerifyHelp;
    return kOk;
  }
  if (std::any_of(args.begin(), args.end(), IsCloudOption)) {
    return VerifyCloud(args);
  }
  Mesh mesh;
  int status = kOk;
  if (!LoadArgument(args, kVerifyHelp, mesh, status)) return status;
  double oracle_seconds = 0;
  const std::vector<VerifyRow> rows = VerifyOnMesh(mesh, oracle_seconds);
  std::printf("%s: %zu particles, %zu triangles; oracles took %.3f s\n",
              args[0].c_str(), mesh.particles(), mesh.triangles.size(),
              oracle_seconds);
  return ReportVerifyRows(rows);
}

int Schedule(std::vector<std::string> args) {
  if (WantsHelp(args)) {
    std::cout << kScheduleHelp;
    return kOk;
  }
  ScheduleWidths widths;
  if (const std::string problem = TakeScheduleWidths(args, widths);
      !problem.empty()) {
    return Usage(kScheduleHelp, problem);
  }
  Mesh mesh;
  int status = kOk;
  if (!LoadArgument(args, kScheduleHelp, mesh, status)) return status;
  std::printf("%s: %zu particles, %zu triplets (one per triangle)\n",
              args[0].c_str(), mesh.particles(), mesh.triangles.size());
  const std::vector<Triplet> triplets = scenes::VirtualParticles(mesh);
  {
    const checks::triplet_schedule::Bounds bounds =
        checks::triplet_schedule::BoundsOf(triplets, mesh.particles());
    std::printf(
        "replay floor: no warp schedule replays below %llu times (the most "
        "loads on one bank); in at most maxAdj + 1 = %llu sets, below %.3f "
        "x ideal\n",
        static_cast<unsigned long long>(bounds.replays),
        static_cast<unsigned long long>(bounds.max_adjacent + 1),
        bounds.replay_ratio);
  }
  std::printf("%-22s %-6s %5s %5s %7s %8s %7s %8s %8s %9s %9s %6s %6s %10s\n",
              "scheduler", "kind", "width", "sets", "max_adj", "set_min",
              "set_mean", "set_max", "padding", "pad_ratio", "replays", "ideal",
              "idle", "time");
  int exit_status = kOk;
  for (const ScheduleRow& row :
       ScheduleTriplets(triplets, mesh.particles(), widths)) {
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
  for (auto it = args.begin(); it != args.end(); ++it) {
    if (*it != "--max-memory") continue;
    if (std::next(it) == args.end()) {
      return Usage(kMainHelp, "--max-memory needs a SIZE, e.g. 4G");
    }
    try {
      memory::SetBudget(memory::ParseSize(*std::next(it)));
    } catch (const std::exception& error) {
      return Usage(kMainHelp, std::string("--max-memory: ") + error.what());
    }
    args.erase(it, it + 2);
    break;
  }
  try {
    if (command == "variants") return Variants(args);
    if (command == "stats") return Stats(args);
    if (command == "verify") return Verify(args);
    if (command == "schedule") return Schedule(args);
    if (command == "neighbors") return Neighbors(args);
    if (command == "fracture") return FractureCommand(args);
    if (command == "sph") return SphCommand(args);
    if (command == "check") return CheckCommand(args);
    if (command == "corpus") return CorpusCommand(args);
  } catch (const ResourceError& refused) {
    std::cerr << "adjacent " << command << ": " << refused.what() << "\n";
    return kRefused;
  } catch (const std::bad_alloc&) {
    std::cerr << "adjacent " << command
              << ": the machine could not give the memory asked for; "
                 "--max-memory below what it has refuses such work before "
                 "allocating\n";
    return kRefused;
  } catch (const std::exception& error) {
    std::cerr << "adjacent " << command << ": " << error.what() << "\n";
    return kUsage;
  }
  return Usage(kMainHelp, "unknown command " + command);
}

}  // namespace
}  // namespace adj::cli

int main(int argc, char** argv) { return adj::cli::Main(argc, argv); }
