#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "scenes/solids.h"

namespace adj::scenes {
namespace {

constexpr std::uint32_t kMaxSide = 4096;
constexpr std::uint64_t kMaxNodes = std::uint64_t{1} << 26;

struct Box {
  std::array<double, 3> lo{};
  std::array<double, 3> hi{};
};

Box BoundsOfUsedVertices(const Mesh& mesh) {
  Box box;
  box.lo.fill(std::numeric_limits<double>::infinity());
  box.hi.fill(-std::numeric_limits<double>::infinity());
  for (const Triangle& t : mesh.triangles) {
    for (const std::uint32_t v : t) {
      if (v >= mesh.particles()) {
        throw std::invalid_argument(
            "voxelize: triangle corner " + std::to_string(v) + " past the " +
            std::to_string(mesh.particles()) + " vertices");
      }
      const std::array<double, 3> p = {mesh.positions.x[v], mesh.positions.y[v],
                                       mesh.positions.z[v]};
      for (int a = 0; a < 3; ++a) {
        if (!std::isfinite(p[a])) {
          throw std::invalid_argument("voxelize: vertex " + std::to_string(v) +
                                      " is not finite");
        }
        box.lo[a] = std::min(box.lo[a], p[a]);
        box.hi[a] = std::max(box.hi[a], p[a]);
      }
    }
  }
  return box;
}

// Keeps the largest face-connected piece of the nodes flagged in `inside`
// (ties: the one reached first in node order).
Voxels LargestPiece(std::array<std::uint32_t, 3> grid,
                    const std::vector<std::uint8_t>& inside) {
  const std::uint64_t nx = grid[0];
  const std::uint64_t ny = grid[1];
  std::vector<std::uint32_t> piece(inside.size(), 0);
  std::uint32_t best = 0;
  std::uint64_t best_size = 0;
  std::uint32_t label = 0;
  std::vector<std::uint64_t> stack;
  for (std::uint64_t start = 0; start < inside.size(); ++start) {
    if (!inside[start] || piece[start] != 0) continue;
    ++label;
    std::uint64_t size = 0;
    stack.assign(1, start);
    piece[start] = label;
    while (!stack.empty()) {
      const std::uint64_t node = stack.back();
      stack.pop_back();
      ++size;
      const std::uint64_t x = node % nx;
      const std::uint64_t y = (node / nx) % ny;
      const std::uint64_t z = node / (nx * ny);
      const std::uint64_t step[3] = {1, nx, nx * ny};
      const bool low[3] = {x == 0, y == 0, z == 0};
      const bool high[3] = {x + 1 == grid[0], y + 1 == grid[1],
                            z + 1 == grid[2]};
      for (int a = 0; a < 3; ++a) {
        if (!low[a] && inside[node - step[a]] && piece[node - step[a]] == 0) {
          piece[node - step[a]] = label;
          stack.push_back(node - step[a]);
        }
        if (!high[a] && inside[node + step[a]] && piece[node + step[a]] == 0) {
          piece[node + step[a]] = label;
          stack.push_back(node + step[a]);
        }
      }
    }
    if (size > best_size) {
      best_size = size;
      best = label;
    }
  }
  Voxels voxels;
  voxels.grid = grid;
  for (std::uint64_t node = 0; node < inside.size(); ++node) {
    if (best == 0 || piece[node] != best) continue;
    voxels.cells.push_back({static_cast<std::uint32_t>(node % nx),
                            static_cast<std::uint32_t>((node / nx) % ny),
                            static_cast<std::uint32_t>(node / (nx * ny))});
  }
  return voxels;
}

}  // namespace

Voxels Voxelize(const Mesh& mesh, double spacing) {
  if (!(spacing > 0) || !std::isfinite(spacing)) {
    throw std::invalid_argument("voxelize: spacing must be finite and > 0");
  }
  if (mesh.triangles.empty()) {
    throw std::invalid_argument("voxelize: the mesh has no triangles");
  }
  const Box box = BoundsOfUsedVertices(mesh);
  std::array<std::uint32_t, 3> grid{};
  for (int a = 0; a < 3; ++a) {
    const double cells = std::ceil((box.hi[a] - box.lo[a]) / spacing);
    if (!(cells <= kMaxSide)) {
      throw std::invalid_argument(
          "voxelize: more than " + std::to_string(kMaxSide) +
          " nodes along an axis at spacing " + std::to_string(spacing));
    }
    grid[a] = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(cells));
  }
  const std::uint64_t nx = grid[0];
  const std::uint64_t ny = grid[1];
  const std::uint64_t nz = grid[2];
  if (nx * ny * nz > kMaxNodes) {
    throw std::invalid_argument(
        "voxelize: more than 2^26 grid nodes at spacing " +
        std::to_string(spacing));
  }
  // Each (y, z) row of node centres casts a ray along +x; the ray is moved
  // off the centre by irrational fractions of a cell so that it does not
  // run exactly through the mesh's edges and vertices on axis-aligned
  // models.
  const double dy = spacing * (0.5 + 1e-4 * std::sqrt(2.0));
  const double dz = spacing * (0.5 + 1e-4 * std::sqrt(3.0));
  std::vector<std::vector<double>> hits(ny * nz);
  for (const Triangle& t : mesh.triangles) {
    double py[3], pz[3], px[3];
    for (int k = 0; k < 3; ++k) {
      px[k] = mesh.positions.x[t[k]];
      py[k] = mesh.positions.y[t[k]];
      pz[k] = mesh.positions.z[t[k]];
    }
    const double area =
        (py[1] - py[0]) * (pz[2] - pz[0]) - (py[2] - py[0]) * (pz[1] - pz[0]);
    if (area == 0) continue;
    const auto first = [&](double lo, double origin, double offset) {
      return std::max(0.0, std::ceil((lo - origin - offset) / spacing));
    };
    const double y_lo = std::min({py[0], py[1], py[2]});
    const double y_hi = std::max({py[0], py[1], py[2]});
    const double z_lo = std::min({pz[0], pz[1], pz[2]});
    const double z_hi = std::max({pz[0], pz[1], pz[2]});
    for (auto z = static_cast<std::uint64_t>(first(z_lo, box.lo[2], dz));
         z < nz && box.lo[2] + dz + spacing * static_cast<double>(z) <= z_hi;
         ++z) {
      const double rz = box.lo[2] + dz + spacing * static_cast<double>(z);
      for (auto y = static_cast<std::uint64_t>(first(y_lo, box.lo[1], dy));
           y < ny && box.lo[1] + dy + spacing * static_cast<double>(y) <= y_hi;
           ++y) {
        const double ry = box.lo[1] + dy + spacing * static_cast<double>(y);
        const double w0 =
            (py[1] - ry) * (pz[2] - rz) - (py[2] - ry) * (pz[1] - rz);
        const double w1 =
            (py[2] - ry) * (pz[0] - rz) - (py[0] - ry) * (pz[2] - rz);
        const double w2 =
            (py[0] - ry) * (pz[1] - rz) - (py[1] - ry) * (pz[0] - rz);
        const bool positive = w0 >= 0 && w1 >= 0 && w2 >= 0;
        const bool negative = w0 <= 0 && w1 <= 0 && w2 <= 0;
        if (!positive && !negative) continue;
        hits[y + ny * z].push_back((w0 * px[0] + w1 * px[1] + w2 * px[2]) /
                                   area);
      }
    }
  }
  std::vector<std::uint8_t> inside(nx * ny * nz, 0);
  for (std::uint64_t row = 0; row < hits.size(); ++row) {
    auto& xs = hits[row];
    std::sort(xs.begin(), xs.end());
    for (std::size_t k = 0; k + 1 < xs.size(); k += 2) {
      for (std::uint64_t x = 0; x < nx; ++x) {
        const double cx = box.lo[0] + spacing * (static_cast<double>(x) + 0.5);
        if (cx >= xs[k] && cx < xs[k + 1]) inside[x + nx * row] = 1;
      }
    }
  }
  Voxels voxels = LargestPiece(grid, inside);
  if (voxels.cells.empty()) {
    throw std::invalid_argument(
        "voxelize: no node centre lies inside the mesh at spacing " +
        std::to_string(spacing) + " (is it closed?)");
  }
  return voxels;
}

Voxels VoxelizeToCount(const Mesh& mesh, std::size_t particles) {
  if (particles == 0) {
    throw std::invalid_argument("voxelize: a particle count > 0 is needed");
  }
  const Box box = BoundsOfUsedVertices(mesh);
  double extent = 0;
  for (int a = 0; a < 3; ++a) extent = std::max(extent, box.hi[a] - box.lo[a]);
  if (!(extent > 0)) {
    throw std::invalid_argument("voxelize: the mesh has no extent");
  }
  // The count falls as the spacing grows (up to the staircase of the
  // grid): bisect on log(spacing) between one node across the model and
  // kMaxSide nodes across it.
  double volume = 1;
  for (int a = 0; a < 3; ++a) {
    volume *= std::max(box.hi[a] - box.lo[a], extent / kMaxSide);
  }
  // The box's count at cbrt(volume / particles) is `particles`; a solid
  // filling 1/512 of its box needs a spacing 8 times finer.
  double coarse = extent;
  double fine = std::max(std::cbrt(volume / static_cast<double>(particles)) / 8,
                         extent / (kMaxSide - 1));
  Voxels best;
  std::size_t best_gap = std::numeric_limits<std::size_t>::max();
  for (int step = 0; step < 40 && coarse / fine > 1 + 1e-6; ++step) {
    const double spacing = std::sqrt(coarse * fine);
    Voxels voxels;
    try {
      voxels = Voxelize(mesh, spacing);
    } catch (const std::invalid_argument&) {
      coarse = spacing;
      continue;
    }
    const std::size_t count = voxels.cells.size();
    const std::size_t gap =
        count > particles ? count - particles : particles - count;
    if (gap < best_gap) {
      best_gap = gap;
      best = std::move(voxels);
    }
    if (count == particles) break;
    if (count > particles) {
      fine = spacing;
    } else {
      coarse = spacing;
    }
  }
  if (best.cells.empty()) {
    throw std::invalid_argument(
        "voxelize: no spacing puts a node centre inside the mesh (is it "
        "closed?)");
  }
  return best;
}

Points SpherePositions(const Voxels& voxels, const Impact& impact,
                       std::uint32_t frame) {
  Points points;
  points.Resize(voxels.cells.size());
  const float cy = static_cast<float>(voxels.grid[1]) + impact.radius -
                   impact.speed * static_cast<float>(frame);
  const float r2 = impact.radius * impact.radius;
  for (std::size_t p = 0; p < voxels.cells.size(); ++p) {
    const auto& c = voxels.cells[p];
    const float x = static_cast<float>(c[0]);
    float y = static_cast<float>(c[1]);
    const float z = static_cast<float>(c[2]);
    const float dx = x - impact.center_x;
    const float dy = y - cy;
    const float dz = z - impact.center_z;
    if (dx * dx + dy * dy + dz * dz <= r2) y -= impact.push;
    points.x[p] = x;
    points.y[p] = y;
    points.z[p] = z;
  }
  return points;
}

}  // namespace adj::scenes
