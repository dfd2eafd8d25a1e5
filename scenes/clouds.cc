#include "scenes/clouds.h"

#include <cmath>
#include <random>
#include <stdexcept>
#include <utility>

namespace adj::scenes {

Points UniformCloud(std::size_t n, float side, std::uint64_t seed) {
  if (!(side > 0) || !std::isfinite(side)) {
    throw std::invalid_argument("UniformCloud: side must be finite and > 0");
  }
  std::mt19937_64 engine(seed);
  const double unit = double{side} / double(1 << 24);
  const auto coordinate = [&] {
    return static_cast<float>(static_cast<double>(engine() >> 40) * unit);
  };
  Points points;
  points.Resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    points.x[i] = coordinate();
    points.y[i] = coordinate();
    points.z[i] = coordinate();
  }
  return points;
}

float UniformSideFor(std::size_t n, float radius, double neighbors) {
  const double pi = 3.14159265358979323846;
  const double sphere = 4.0 / 3.0 * pi * double{radius} * radius * radius;
  return static_cast<float>(
      std::cbrt(sphere * static_cast<double>(n) / neighbors));
}

Points MullerBallsDemo() {
  const double radius = kMullerBallRadius;
  const double spacing = 3.0 * radius;
  const double bounds[6] = {-1.0, 0.0, -1.0, 1.0, 2.0, 1.0};
  const auto count = [&](int axis) {
    return static_cast<int>(std::floor(
        (bounds[axis + 3] - bounds[axis] - 2.0 * spacing) / spacing));
  };
  const int nx = count(0);
  const int ny = count(1);
  const int nz = count(2);
  Points points;
  for (int xi = 0; xi < nx; ++xi) {
    for (int yi = 0; yi < ny; ++yi) {
      for (int zi = 0; zi < nz; ++zi) {
        points.PushBack(static_cast<float>(bounds[0] + spacing + xi * spacing),
                        static_cast<float>(bounds[1] + spacing + yi * spacing),
                        static_cast<float>(bounds[2] + spacing + zi * spacing));
      }
    }
  }
  return points;
}

Points CompactNSearchSphere(std::size_t points_across, std::uint64_t seed) {
  if (points_across < 2) {
    throw std::invalid_argument("CompactNSearchSphere: need >= 2 across");
  }
  const double r = 0.15;
  const double last = static_cast<double>(points_across - 1);
  Points points;
  for (std::size_t i = 0; i < points_across; ++i) {
    for (std::size_t j = 0; j < points_across; ++j) {
      for (std::size_t k = 0; k < points_across; ++k) {
        const double x = r * (2.0 * static_cast<double>(i) / last - 1.0);
        const double y = r * (2.0 * static_cast<double>(j) / last - 1.0);
        const double z = r * (2.0 * static_cast<double>(k) / last - 1.0);
        if (x * x + y * y + z * z < r * r) {
          points.PushBack(static_cast<float>(x), static_cast<float>(y),
                          static_cast<float>(z));
        }
      }
    }
  }
  return seed == 0 ? points : ShuffledPoints(points, seed);
}

float CompactNSearchRadius(std::size_t points_across) {
  return static_cast<float>(2.0 * (2.0 * 0.15) /
                            static_cast<double>(points_across - 1));
}

Points ShuffledPoints(const Points& points, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  Points out = points;
  for (std::size_t i = out.size(); i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(engine() % i);
    std::swap(out.x[i - 1], out.x[j]);
    std::swap(out.y[i - 1], out.y[j]);
    std::swap(out.z[i - 1], out.z[j]);
  }
  return out;
}

}  // namespace adj::scenes
