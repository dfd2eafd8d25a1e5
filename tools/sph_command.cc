#include "tools/sph_command.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include "algorithms/common/memory_budget.h"
#include "algorithms/sph/sph.h"
#include "checks/sph.h"
#include "scenes/fluids.h"
#include "tools/arguments.h"
#include "tools/png.h"

namespace adj::cli {

const std::string_view kSphHelp =
    R"(usage: adjacent sph SCENE [--steps N] [--particles P] [--variant V]
                    [--every K] [--png DIR]

Runs the sph family's step on SCENE for N steps (default 1000) with
variant V (default sorted_pairs) and, from the same state, the three-pass
reference (naive); every K steps (default 100) prints the step, the
simulated time, the density error against the reference (RMS and largest,
percent of the rest density), the position divergence (RMS, in h), the
kinetic energy and the largest speed. With --png, writes
DIR/SCENE-<step>.png at step 0 and every K steps: the particles seen from
the front (x right, y up), coloured by speed (blue at rest, red at the
largest speed of the first snapshot after release or 1 m/s).

SCENE is glass (P particles at rest in a glass, the chapter's scene;
default P 8000) or dam_break (a column twice as high as wide, about P
particles, released in a box). Constants: sph::WeaklyCompressible
(docs/sph.md).

Exit status: 0 the run finished, 1 a step blew up (the step and particle
are printed), 2 bad usage, 3 refused for resources (the run would need more
memory than --max-memory or the machine gives: its size and the budget
are printed).
)";

namespace {

constexpr int kOk = 0;
constexpr int kBlewUp = 1;
constexpr int kUsage = 2;

int Usage(const std::string& problem) {
  std::cerr << "adjacent sph: " << problem << "\n\n" << kSphHelp;
  return kUsage;
}

// Front view of the particles (x right, y up) over the container's x-y
// extent, coloured blue to red by speed / top_speed.
Image Snapshot(const sph::State& state, const sph::Params& params,
               float top_speed) {
  const sph::Container& box = params.container;
  const double width = double{box.hi[0]} - box.lo[0];
  const double height = double{box.hi[1]} - box.lo[1];
  const std::uint32_t pixels_wide = 512;
  const auto pixels_high = static_cast<std::uint32_t>(
      std::clamp(std::lround(pixels_wide * height / width), 16L, 2048L));
  Image image(pixels_wide, pixels_high, 255);
  for (std::size_t i = 0; i < state.size(); ++i) {
    const double u = (state.x.x[i] - box.lo[0]) / width;
    const double v = (state.x.y[i] - box.lo[1]) / height;
    const auto px = static_cast<std::uint32_t>(
        std::clamp(u * (pixels_wide - 1), 0.0, pixels_wide - 1.0));
    const auto py = static_cast<std::uint32_t>(
        std::clamp((1 - v) * (pixels_high - 1), 0.0, pixels_high - 1.0));
    const double speed =
        std::hypot(state.v.x[i], state.v.y[i], state.v.z[i]) / top_speed;
    const double t = std::clamp(speed, 0.0, 1.0);
    const auto red = static_cast<std::uint32_t>(255 * t);
    const auto blue = static_cast<std::uint32_t>(255 * (1 - t));
    image.Set(px, py, (red << 16) | (40 << 8) | blue);
  }
  return image;
}

}  // namespace

int SphCommand(const std::vector<std::string>& args) {
  if (std::find(args.begin(), args.end(), "--help") != args.end()) {
    std::cout << kSphHelp;
    return kOk;
  }
  SphOptions options;
  if (const std::string problem = ParseSphOptions(args, options);
      !problem.empty()) {
    return Usage(problem);
  }
  const sph::Variant* variant = FindVariant(sph::Variants(), options.variant);
  if (variant == nullptr) {
    return Usage("unknown variant " + options.variant +
                 " (adjacent variants --family sph lists them)");
  }
  const sph::Variant& reference = *FindVariant(sph::Variants(), "naive");
  constexpr float kSpacing = 0.01f;
  const auto particles = static_cast<std::size_t>(options.particles);
  // What the run holds at once for each particle, before any workspace:
  // the scene's positions (12 bytes) and three states of 32 (the fluid, the
  // variant's and the reference's). Asked for whole, so that a run too
  // large is refused before its first allocation. The dam break holds 2
  // k^3 particles, k the nearest integer to cbrt(P / 2): under 2.4 P.
  const std::uint64_t most =
      options.scene == "glass" ? particles : 3 * std::uint64_t{particles};
  memory::Require(memory::Bytes(most, 12 + 3 * 32),
                  "the " + options.scene + " of " + std::to_string(particles) +
                      " particles");
  const scenes::FluidScene scene =
      options.scene == "glass" ? scenes::GlassAtRest(particles, kSpacing)
                               : scenes::DamBreak(particles, kSpacing);
  const sph::Fluid fluid =
      sph::LatticeFluid(scene.positions, scene.spacing, scene.height,
                        sph::ContainerOf(scene.glass, scene.lo, scene.hi));
  sph::State state = fluid.state;
  sph::State expected = fluid.state;
  sph::Workspace workspace, reference_workspace;
  sph::StepReport report;
  const std::filesystem::path png_dir = options.png_dir;
  float top_speed = 1;
  const auto snapshot = [&](std::uint64_t step) {
    if (options.png_dir.empty()) return;
    std::filesystem::create_directories(png_dir);
    const auto path =
        png_dir / (options.scene + "-" + std::to_string(step) + ".png");
    WritePng(Snapshot(state, fluid.params, top_speed), path);
    std::cout << "wrote " << path.string() << "\n";
  };
  std::printf(
      "%s, %zu particles, h %g, dt %g, k %g, mu %g, variant %s against "
      "naive\n",
      options.scene.c_str(), state.size(), double{fluid.params.h},
      double{fluid.params.dt}, double{fluid.params.stiffness},
      double{fluid.params.viscosity}, options.variant.c_str());
  std::printf("%8s %9s %12s %12s %12s %12s %10s\n", "step", "time s",
              "rho RMS %", "rho max %", "x RMS / h", "kinetic J", "max m/s");
  snapshot(0);
  for (std::uint64_t step = 1; step <= options.steps; ++step) {
    try {
      variant->run(state, fluid.params, workspace, report);
      reference.run(expected, fluid.params, reference_workspace, report);
    } catch (const sph::Error& error) {
      std::cerr << "adjacent sph: step " << step << ": " << error.what()
                << "\n";
      return kBlewUp;
    }
    if (step % options.every != 0 && step != options.steps) continue;
    const checks::sph::Accuracy accuracy =
        checks::sph::Compare(state, expected, fluid.params);
    std::printf("%8llu %9.4f %12.4g %12.4g %12.4g %12.4g %10.4g\n",
                static_cast<unsigned long long>(step),
                static_cast<double>(step) * fluid.params.dt,
                accuracy.density_rms_percent, accuracy.density_max_percent,
                accuracy.position_rms_h, accuracy.kinetic_energy,
                accuracy.max_speed);
    if (step == options.every) {
      top_speed = std::max(1.0f, static_cast<float>(accuracy.max_speed));
    }
    snapshot(step);
  }
  return kOk;
}

}  // namespace adj::cli
