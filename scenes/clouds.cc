#include "scenes/clouds.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace adj::scenes {
namespace {

constexpr double kPi = 3.14159265358979323846;

void CheckCloth(const char* who, std::size_t num_x, std::size_t num_y,
                double spacing) {
  if (!(spacing > 0) || !std::isfinite(spacing)) {
    throw std::invalid_argument(std::string(who) +
                                ": spacing must be finite and > 0");
  }
  if (num_x != 0 && num_y > (std::size_t{1} << 32) / num_x) {
    throw std::invalid_argument(std::string(who) +
                                ": more than 2^32 particles");
  }
}

}  // namespace

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

Points MullerCloth(std::size_t num_x, std::size_t num_y, double spacing) {
  CheckCloth("MullerCloth", num_x, num_y, spacing);
  Points points;
  points.Resize(num_x * num_y);
  for (std::size_t i = 0; i < num_x; ++i) {
    for (std::size_t j = 0; j < num_y; ++j) {
      const std::size_t id = i * num_y + j;
      points.x[id] =
          static_cast<float>(-static_cast<double>(num_x) * spacing * 0.5 +
                             static_cast<double>(i) * spacing);
      points.y[id] = static_cast<float>(0.2 + static_cast<double>(j) * spacing);
      points.z[id] = 0.0f;
    }
  }
  return points;
}

Points MullerClothDemo() {
  return MullerCloth(kMullerClothX, kMullerClothY, kMullerClothParticleSpacing);
}

Points FoldedCloth(std::size_t num_x, std::size_t num_y, double spacing,
                   std::size_t layers, double gap) {
  CheckCloth("FoldedCloth", num_x, num_y, spacing);
  if (layers == 0 || !(gap > 0) || !std::isfinite(gap)) {
    throw std::invalid_argument(
        "FoldedCloth: need >= 1 layer and a finite gap > 0");
  }
  // Arc lengths along the strip: `layers` straight parts of length
  // straight, joined by half circles of radius gap / 2.
  const double length =
      static_cast<double>(num_y > 0 ? num_y - 1 : 0) * spacing;
  const double radius = gap / 2;
  const double bend = kPi * radius;
  const auto count = static_cast<double>(layers);
  const double straight = (length - (count - 1) * bend) / count;
  if (layers > 1 && !(straight > 0)) {
    throw std::invalid_argument("FoldedCloth: the cloth is too short for " +
                                std::to_string(layers) + " layers " +
                                std::to_string(gap) + " apart");
  }
  const double period = straight + bend;
  Points points;
  points.Resize(num_x * num_y);
  for (std::size_t j = 0; j < num_y; ++j) {
    const double s = static_cast<double>(j) * spacing;
    std::size_t k = layers == 1 ? 0 : static_cast<std::size_t>(s / period);
    k = std::min(k, layers - 1);
    const double u = s - static_cast<double>(k) * period;
    const bool forward = k % 2 == 0;
    double along = 0;  // y - 0.2
    double z = static_cast<double>(k) * gap;
    if (k == layers - 1 || u <= straight) {
      along = forward ? u : straight - u;
    } else {
      // The bend after layer k: a half circle around (end, z + radius).
      const double angle = kPi * (u - straight) / bend;
      const double out = radius * std::sin(angle);
      along = forward ? straight + out : -out;
      z += radius - radius * std::cos(angle);
    }
    for (std::size_t i = 0; i < num_x; ++i) {
      const std::size_t id = i * num_y + j;
      points.x[id] =
          static_cast<float>(-static_cast<double>(num_x) * spacing * 0.5 +
                             static_cast<double>(i) * spacing);
      points.y[id] = static_cast<float>(0.2 + along);
      points.z[id] = static_cast<float>(z);
    }
  }
  return points;
}

float RadiusForNeighbors(const Points& points, std::size_t neighbors,
                         std::size_t samples) {
  const std::size_t n = points.size();
  if (neighbors == 0 || samples == 0) {
    throw std::invalid_argument(
        "RadiusForNeighbors: neighbors and samples must be > 0");
  }
  if (n <= neighbors) {
    throw std::invalid_argument("RadiusForNeighbors: " + std::to_string(n) +
                                " points cannot have " +
                                std::to_string(neighbors) + " neighbours");
  }
  samples = std::min(samples, n);
  std::vector<double> distances(n - 1);
  std::vector<double> kth(samples);
  for (std::size_t s = 0; s < samples; ++s) {
    const std::size_t i = s * n / samples;
    std::size_t m = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const double dx = double{points.x[i]} - double{points.x[j]};
      const double dy = double{points.y[i]} - double{points.y[j]};
      const double dz = double{points.z[i]} - double{points.z[j]};
      distances[m++] = dx * dx + dy * dy + dz * dz;
    }
    const auto nth =
        distances.begin() + static_cast<std::ptrdiff_t>(neighbors - 1);
    std::nth_element(distances.begin(), nth, distances.end());
    kth[s] = *nth;
  }
  const auto median = kth.begin() + static_cast<std::ptrdiff_t>(samples / 2);
  std::nth_element(kth.begin(), median, kth.end());
  if (!(*median > 0)) {
    throw std::invalid_argument(
        "RadiusForNeighbors: most sampled points have " +
        std::to_string(neighbors) + " coincident copies");
  }
  return static_cast<float>(std::sqrt(*median));
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
