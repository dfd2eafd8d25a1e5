#include "tools/fracture_command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>

#include "algorithms/common/errors.h"
#include "algorithms/common/memory_budget.h"
#include "algorithms/fracture/fracture.h"
#include "checks/fracture.h"
#include "scenes/mesh_io.h"
#include "scenes/solids.h"
#include "tools/arguments.h"
#include "tools/png.h"

namespace adj::cli {

const std::string_view kFractureHelp =
    R"(usage: adjacent fracture SCENE [--frames N] [--cut blade|impact|random]
                         [--variant V] [--particles P] [--png DIR]

Runs the fracture family's per-frame cluster-topology update on SCENE for N
frames (default 1000) with variant V (default serial) and checks every
frame: the initial state and each frame that removed particles against
the invariants (clusters connected among their own members, below
max_cluster_size, no removed particle in any, rest local positions, belong
lists the exact inverse of the clusters) and no surviving clustered
particle left without a cluster; each other frame must leave the state and
belong lists exactly as they were (so the invariants still hold). Prints a line per
frame that removed particles and a summary, and writes DIR/SCENE-before.png
and DIR/SCENE-after.png (default DIR: the current directory): the solid's
three middle slices (z, y, x), each node coloured by the lowest live
cluster holding its particle, grey for an unclustered particle, black for a
removed one, white for no particle.

SCENE is block:L (an L^3 block of particles) or a closed triangle MESH
(.off, .obj, .ply, .stl) voxelised to about P particles (default 90000,
the published liver's size). Clusters: cubes of side 8 every 5 nodes (the
published layout), max_cluster_size 2048, min_cluster_size 64,
damage_distance 1.5 nodes.

Cuts (from where the tool first meets the solid, 45 % of the solid's
height under it deep, one node a frame, then held):
  blade   a blade of width 1 in the plane across the middle of x, over the
          middle half of z, moving down (the default)
  impact  a sphere of radius height/6 over the middle of x and z, moving
          down; the particles inside it are pushed down by 2 nodes
  random  every frame, 1 particle in 10,000 (at least 1) moved 5 nodes

Exit status: 0 every frame kept the invariants, 1 one did not (the first
broken one is printed), 2 bad usage or unreadable input (file, line and
reason), 3 refused for resources (the scene would need more memory than
--max-memory or the machine gives: its size and the budget are printed).
)";

namespace {

constexpr int kOk = 0;
constexpr int kBroken = 1;
constexpr int kUsage = 2;

int Usage(const std::string& problem) {
  std::cerr << "adjacent fracture: " << problem << "\n\n" << kFractureHelp;
  return kUsage;
}

struct Scene {
  std::string name;
  scenes::Voxels voxels;
};

// block:L or a mesh file; throws std::invalid_argument or the loader's
// error with what is wrong.
Scene LoadScene(const std::string& argument, std::uint64_t particles) {
  Scene scene;
  if (std::uint32_t l = 0; ParseBlockSide(argument, l)) {
    // What the run holds at once for each of the L^3 particles before the
    // simulation's own copy: the voxels and the state's coordinates (12
    // bytes each), the clusters' node map (8), their `seen` and the state's
    // node flags (1 each). Asked for whole, so that a block too large is
    // refused before its first allocation rather than at its third.
    const std::uint64_t block = std::uint64_t{l} * l * l;
    memory::Require(memory::Bytes(block, 12 + 12 + 8 + 1 + 1),
                    "the block of " + std::to_string(block) + " particles");
    scene.name = "block" + std::to_string(l);
    scene.voxels = scenes::Block(l, l, l);
    return scene;
  }
  const std::filesystem::path path(argument);
  scene.name = path.stem().string();
  const Mesh mesh = scenes::LoadMesh(path);
  try {
    scene.voxels = scenes::VoxelizeToCount(mesh, particles);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(argument + ": " + error.what());
  }
  return scene;
}

std::uint32_t ClusterColor(std::uint32_t slot) {
  // Hues spread by the golden ratio, bright and saturated.
  const double hue = std::fmod(slot * 0.6180339887498949, 1.0) * 6;
  const int sector = static_cast<int>(hue);
  const double f = hue - sector;
  const auto level = [](double v) {
    return static_cast<std::uint32_t>(std::lround(60 + 180 * v));
  };
  const std::uint32_t up = level(f);
  const std::uint32_t down = level(1 - f);
  const std::uint32_t hi = level(1);
  const std::uint32_t lo = level(0);
  std::uint32_t r = hi, g = lo, b = lo;
  switch (sector % 6) {
    case 0:
      r = hi;
      g = up;
      b = lo;
      break;
    case 1:
      r = down;
      g = hi;
      b = lo;
      break;
    case 2:
      r = lo;
      g = hi;
      b = up;
      break;
    case 3:
      r = lo;
      g = down;
      b = hi;
      break;
    case 4:
      r = up;
      g = lo;
      b = hi;
      break;
    default:
      r = hi;
      g = lo;
      b = down;
      break;
  }
  return (r << 16) | (g << 8) | b;
}

// The three middle slices side by side, `scale` pixels a node, 4 pixels
// between them.
Image Render(const fracture::State& state, const Csr& belong) {
  const auto& grid = state.grid;
  const std::uint32_t largest = std::max({grid.nx, grid.ny, grid.nz});
  const std::uint32_t scale = std::max<std::uint32_t>(1, 320 / largest);
  std::vector<std::int64_t> particle_at(grid.Nodes(), -1);
  for (std::size_t p = 0; p < state.Particles(); ++p) {
    const auto& c = state.particle_coord[p];
    particle_at[c.x +
                std::uint64_t{grid.nx} * (c.y + std::uint64_t{grid.ny} * c.z)] =
        static_cast<std::int64_t>(p);
  }
  const auto color = [&](std::uint32_t x, std::uint32_t y, std::uint32_t z) {
    const std::uint64_t node =
        x + std::uint64_t{grid.nx} * (y + std::uint64_t{grid.ny} * z);
    const std::int64_t p = particle_at[node];
    if (p < 0) return 0xFFFFFFu;
    if (!state.node_is_particle[node]) return 0x000000u;
    const auto row = belong.Row(static_cast<std::size_t>(p));
    if (row.empty()) return 0x909090u;
    return ClusterColor(row.front());
  };
  // Panels: (x, y) at z = nz/2, (x, z) at y = ny/2, (z, y) at x = nx/2.
  const std::uint32_t gap = 4;
  const std::uint32_t width = (grid.nx + grid.nx + grid.nz) * scale + 2 * gap;
  const std::uint32_t height = std::max(grid.ny, grid.nz) * scale;
  Image image(width, height, 230);
  const auto paint = [&](std::uint32_t left, std::uint32_t u, std::uint32_t v,
                         std::uint32_t rgb) {
    for (std::uint32_t dy = 0; dy < scale; ++dy) {
      for (std::uint32_t dx = 0; dx < scale; ++dx) {
        image.Set(left + u * scale + dx, height - 1 - (v * scale + dy), rgb);
      }
    }
  };
  for (std::uint32_t y = 0; y < grid.ny; ++y) {
    for (std::uint32_t x = 0; x < grid.nx; ++x) {
      paint(0, x, y, color(x, y, grid.nz / 2));
    }
  }
  const std::uint32_t second = grid.nx * scale + gap;
  for (std::uint32_t z = 0; z < grid.nz; ++z) {
    for (std::uint32_t x = 0; x < grid.nx; ++x) {
      paint(second, x, z, color(x, grid.ny / 2, z));
    }
  }
  const std::uint32_t third = second + grid.nx * scale + gap;
  for (std::uint32_t y = 0; y < grid.ny; ++y) {
    for (std::uint32_t z = 0; z < grid.nz; ++z) {
      paint(third, z, y, color(grid.nx / 2, y, z));
    }
  }
  return image;
}

// The tool's positions frame by frame: a blade or a sphere pressed down
// from above, or random damage. The cut starts where the tool first meets
// the solid (the highest particle under it) and goes 45 % of the solid's
// height there deep.
class Cut {
 public:
  Cut(const scenes::Voxels& voxels, const std::string& kind)
      : voxels_(voxels),
        kind_(kind),
        blade_{static_cast<float>(voxels.grid[0] / 2) - 0.5f, 1.0f,
               voxels.grid[2] / 4,
               voxels.grid[2] / 4 + std::max(1u, voxels.grid[2] / 2), 1.0f},
        impact_{static_cast<float>(voxels.grid[0] / 2),
                static_cast<float>(voxels.grid[2] / 2),
                std::max(1.5f, static_cast<float>(voxels.grid[1]) / 6), 1.0f,
                2.0f},
        random_count_(static_cast<std::uint32_t>(
            std::max<std::size_t>(1, voxels.cells.size() / 10000))) {
    const std::uint32_t ny = voxels.grid[1];
    std::uint32_t top = 0;
    std::uint32_t bottom = ny;
    for (const auto& c : voxels.cells) {
      if (!Under(c)) continue;
      top = std::max(top, c[1]);
      bottom = std::min(bottom, c[1]);
    }
    if (bottom > top) bottom = top;
    approach_ = ny - 1 - top;
    cut_frames_ = static_cast<std::uint32_t>(
        std::max(1.0, std::round(0.45 * (top - bottom + 1))));
  }

  Points At(std::uint32_t frame) const {
    if (kind_ == "random") {
      return scenes::RandomDamage(voxels_, random_count_, 5.0f, 1 + frame);
    }
    const std::uint32_t held = std::min(frame, cut_frames_);
    if (kind_ == "impact") {
      // The sphere's lowest point is at ny - frame + radius - radius.
      return scenes::SpherePositions(voxels_, impact_, approach_ + held + 1);
    }
    return scenes::BladePositions(voxels_, blade_, approach_ + held + 1);
  }

 private:
  template <typename Cell>
  bool Under(const Cell& c) const {
    if (kind_ == "blade") {
      const float x = static_cast<float>(c[0]);
      return std::abs(x - blade_.plane_x) < 1 && c[2] >= blade_.z_begin &&
             c[2] < blade_.z_end;
    }
    if (kind_ == "impact") {
      const float dx = static_cast<float>(c[0]) - impact_.center_x;
      const float dz = static_cast<float>(c[2]) - impact_.center_z;
      return dx * dx + dz * dz <= impact_.radius * impact_.radius;
    }
    return false;
  }

  const scenes::Voxels& voxels_;
  std::string kind_;
  scenes::Blade blade_;
  scenes::Impact impact_;
  std::uint32_t random_count_;
  std::uint32_t approach_ = 0;
  std::uint32_t cut_frames_ = 1;
};

// The scene's solid with the published cluster layout (cubes of side 8
// every 5 nodes).
fracture::State InitialState(const scenes::Voxels& voxels) {
  std::vector<fracture::Coord> coords;
  coords.reserve(voxels.cells.size());
  for (const auto& c : voxels.cells) coords.push_back({c[0], c[1], c[2]});
  return fracture::MakeState({voxels.grid[0], voxels.grid[1], voxels.grid[2]},
                             std::move(coords),
                             scenes::CubeClusters(voxels, 8, 5));
}

// "" when a frame kept what it must: without removals the state is the
// last one with the frame counter advanced; with removals the invariants
// hold and every survivor of a dissolved cluster is in a cluster again.
std::string FrameProblem(const fracture::FrameReport& report,
                         const fracture::State& before,
                         const Csr& before_belong, const fracture::State& after,
                         const Csr& belong, const fracture::Params& params) {
  if (report.removed == 0) {
    fracture::State expected = before;
    ++expected.frame;
    if (!(after == expected) || !(belong == before_belong)) {
      return "a frame without removals changed the state";
    }
    return "";
  }
  std::string broken =
      checks::fracture::FirstBrokenInvariant(after, belong, params);
  if (broken.empty()) {
    broken = checks::fracture::FirstUnclusteredSurvivor(before, after);
  }
  return broken;
}

// LoadScene, a file or size it cannot read said on stderr (false); a
// refusal for resources goes on up (exit 3, by Main's handlers).
bool LoadSceneOrSay(const FractureOptions& options, Scene& scene) {
  try {
    scene = LoadScene(options.scene, options.particles);
    return true;
  } catch (const ResourceError&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& error) {
    std::cerr << "adjacent fracture: " << error.what() << "\n";
    return false;
  }
}

// The command's update parameters (its help states them).
fracture::Params CommandParams() {
  fracture::Params params;
  params.damage_distance = 1.5f;
  params.max_cluster_size = 2048;
  params.min_cluster_size = 64;
  return params;
}

// The run's first line: the scene, the variant, the cut.
void PrintRunHeader(const Scene& scene, const fracture::State& initial,
                    const FractureOptions& options) {
  const scenes::Voxels& voxels = scene.voxels;
  std::printf(
      "%s: grid %u x %u x %u, %zu particles, %zu clusters; variant "
      "%s, cut %s, %llu frames\n",
      scene.name.c_str(), voxels.grid[0], voxels.grid[1], voxels.grid[2],
      initial.Particles(), initial.clusters.Live(), options.variant.c_str(),
      options.cut.c_str(), static_cast<unsigned long long>(options.frames));
}

// The line of a frame that removed particles.
void PrintFrame(std::uint64_t frame, const fracture::FrameReport& report,
                const fracture::State& after, double seconds) {
  std::printf(
      "frame %5llu: removed %u, influenced %u, new %u (merged %u, "
      "inserted %u, expanded %u), live clusters %zu, %.3f ms\n",
      static_cast<unsigned long long>(frame), report.removed, report.influenced,
      report.new_clusters, report.merged, report.inserted, report.expanded,
      after.clusters.Live(), seconds * 1e3);
}

}  // namespace

int FractureCommand(const std::vector<std::string>& given) {
  std::vector<std::string> args = given;
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << kFractureHelp;
      return kOk;
    }
  }
  FractureOptions options;
  if (const std::string problem = ParseFractureOptions(args, options);
      !problem.empty()) {
    return Usage(problem);
  }
  const std::uint64_t frames = options.frames;
  const std::string& cut = options.cut;
  const std::string& variant_name = options.variant;
  const std::filesystem::path png_dir = options.png_dir;
  const fracture::Variant* variant =
      FindVariant(fracture::Variants(), variant_name);
  if (variant == nullptr) {
    return Usage("unknown fracture variant " + variant_name +
                 " (adjacent variants lists them)");
  }
  const Availability availability = CanRun(*variant);
  if (!availability.available) {
    std::cerr << "adjacent fracture: " << variant_name
              << " cannot run here: " << availability.reason << "\n";
    return kUsage;
  }
  Scene scene;
  if (!LoadSceneOrSay(options, scene)) return kUsage;
  const scenes::Voxels& voxels = scene.voxels;
  const fracture::State initial = InitialState(voxels);
  const fracture::Params params = CommandParams();

  const Cut tool(voxels, cut);

  PrintRunHeader(scene, initial, options);
  std::error_code ignored;
  std::filesystem::create_directories(png_dir, ignored);
  auto simulation = variant->run(initial, params);
  const std::filesystem::path before_png =
      png_dir / (scene.name + "-before.png");
  WritePng(Render(initial, simulation->BelongLists()), before_png);

  double step_seconds = 0;
  std::uint64_t removed = 0;
  std::uint64_t checked = 0;
  fracture::State before = initial;
  Csr before_belong = simulation->BelongLists();
  if (const std::string broken =
          checks::fracture::FirstBrokenInvariant(before, before_belong, params);
      !broken.empty()) {
    std::printf("the initial state breaks an invariant: %s\n", broken.c_str());
    return kBroken;
  }
  for (std::uint64_t f = 0; f < frames; ++f) {
    const Points positions = tool.At(static_cast<std::uint32_t>(f));
    fracture::FrameReport report;
    const auto start = std::chrono::steady_clock::now();
    simulation->Step(positions, report);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    step_seconds += seconds;
    removed += report.removed;
    fracture::State after = simulation->Snapshot();
    Csr belong = simulation->BelongLists();
    const std::string broken =
        FrameProblem(report, before, before_belong, after, belong, params);
    checked += report.removed > 0;
    if (report.removed > 0) PrintFrame(f, report, after, seconds);
    if (!broken.empty()) {
      std::printf("frame %llu broke an invariant: %s\n",
                  static_cast<unsigned long long>(f), broken.c_str());
      return kBroken;
    }
    before = std::move(after);
    before_belong = std::move(belong);
  }
  const std::filesystem::path after_png = png_dir / (scene.name + "-after.png");
  WritePng(Render(before, simulation->BelongLists()), after_png);
  std::printf(
      "%llu frames, every one checked (%llu with removals against the "
      "invariants, the others unchanged): invariants held. removed %llu "
      "particles (%.2f %%), live clusters %zu -> %zu, Step %.3f ms a frame "
      "on average\nwrote %s and %s\n",
      static_cast<unsigned long long>(frames),
      static_cast<unsigned long long>(checked),
      static_cast<unsigned long long>(removed),
      100.0 * static_cast<double>(removed) /
          static_cast<double>(initial.Particles()),
      initial.clusters.Live(), before.clusters.Live(),
      step_seconds * 1e3 / static_cast<double>(frames),
      before_png.string().c_str(), after_png.string().c_str());
  return kOk;
}

}  // namespace adj::cli
