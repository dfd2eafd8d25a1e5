#include "scenes/fluids.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/common/memory_budget.h"

namespace adj::scenes {
namespace {

// a + b, saturating, for sizes passed to memory::Require.
std::uint64_t Sum(std::uint64_t a, std::uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void CheckSpacing(float spacing, const char* scene) {
  if (!(std::isfinite(spacing) && spacing > 0)) {
    throw std::invalid_argument(std::string(scene) +
                                ": the spacing must be finite and > 0, got " +
                                std::to_string(spacing));
  }
}

}  // namespace

FluidScene GlassAtRest(std::size_t n, float spacing) {
  CheckSpacing(spacing, "glass");
  FluidScene scene;
  scene.spacing = spacing;
  scene.glass = true;
  // A cylinder of diameter D and height D holds pi D^3 / 4 of fluid; the
  // lattice's points within radius D / 2 - spacing / 2 of the axis.
  const double volume = static_cast<double>(n) * spacing * spacing * spacing;
  const double diameter = std::cbrt(4 * volume / std::numbers::pi) + spacing;
  const double radius = diameter / 2;
  // The layer's candidates (per_axis^2 lattice points of 16 bytes, twice:
  // the stable sort's buffer) and the n positions (12 bytes each), asked
  // for before either is allocated.
  const double per_axis_real = std::floor(diameter / spacing);
  const std::uint64_t layer_points =
      per_axis_real * per_axis_real >= 0x1p64
          ? UINT64_MAX
          : static_cast<std::uint64_t>(per_axis_real * per_axis_real);
  memory::Require(
      Sum(memory::Bytes(n, 3 * sizeof(float)),
          memory::Bytes(layer_points, 2 * sizeof(std::array<double, 2>))),
      "the glass of " + std::to_string(n) + " particles (" +
          std::to_string(layer_points) + " lattice points a layer)");
  const auto per_axis = static_cast<std::int64_t>(per_axis_real);
  std::vector<std::array<double, 2>> layer;
  for (std::int64_t i = 0; i < per_axis; ++i) {
    for (std::int64_t k = 0; k < per_axis; ++k) {
      const double x = (static_cast<double>(i) + 0.5) * spacing;
      const double z = (static_cast<double>(k) + 0.5) * spacing;
      const double dx = x - radius;
      const double dz = z - radius;
      if (std::sqrt(dx * dx + dz * dz) <= radius - 0.5 * spacing) {
        layer.push_back({x, z});
      }
    }
  }
  std::stable_sort(layer.begin(), layer.end(),
                   [&](const auto& a, const auto& b) {
                     return std::hypot(a[0] - radius, a[1] - radius) <
                            std::hypot(b[0] - radius, b[1] - radius);
                   });
  scene.positions.x.reserve(n);
  scene.positions.y.reserve(n);
  scene.positions.z.reserve(n);
  std::size_t placed = 0;
  std::int64_t level = 0;
  while (placed < n && !layer.empty()) {
    const double y = (static_cast<double>(level) + 0.5) * spacing;
    for (const auto& point : layer) {
      if (placed == n) break;
      scene.positions.PushBack(static_cast<float>(point[0]),
                               static_cast<float>(y),
                               static_cast<float>(point[1]));
      ++placed;
    }
    ++level;
  }
  scene.height = static_cast<float>(static_cast<double>(level) * spacing);
  scene.width = static_cast<float>(diameter);
  scene.lo = {0, 0, 0};
  scene.hi = {static_cast<float>(diameter),
              std::max(2 * scene.height, static_cast<float>(diameter)),
              static_cast<float>(diameter)};
  return scene;
}

FluidScene DamBreak(std::size_t n, float spacing) {
  CheckSpacing(spacing, "dam_break");
  FluidScene scene;
  scene.spacing = spacing;
  const auto k = std::max<std::int64_t>(
      1, std::llround(std::cbrt(static_cast<double>(n) / 2)));
  // 2 k^3 positions of 12 bytes, asked for before they are allocated.
  const auto side = static_cast<std::uint64_t>(k);
  const std::uint64_t count =
      memory::Bytes(memory::Bytes(memory::Bytes(side, side), side), 2);
  memory::Require(memory::Bytes(count, 3 * sizeof(float)),
                  "the dam break of " + std::to_string(count) + " particles");
  scene.positions.x.reserve(count);
  scene.positions.y.reserve(count);
  scene.positions.z.reserve(count);
  const float a = static_cast<float>(k) * spacing;
  for (std::int64_t z = 0; z < k; ++z) {
    for (std::int64_t y = 0; y < 2 * k; ++y) {
      for (std::int64_t x = 0; x < k; ++x) {
        scene.positions.PushBack((static_cast<float>(x) + 0.5f) * spacing,
                                 (static_cast<float>(y) + 0.5f) * spacing,
                                 (static_cast<float>(z) + 0.5f) * spacing);
      }
    }
  }
  scene.width = a;
  scene.height = 2 * a;
  scene.lo = {0, 0, 0};
  scene.hi = {5 * a, 2.5f * a, a};
  return scene;
}

}  // namespace adj::scenes
