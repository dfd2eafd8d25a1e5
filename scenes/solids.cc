#include "scenes/solids.h"

#include <algorithm>
#include <random>
#include <string>

#include "algorithms/common/memory_budget.h"

namespace adj::scenes {
namespace {

std::uint64_t NodeOf(const Voxels& voxels, std::uint32_t x, std::uint32_t y,
                     std::uint32_t z) {
  return x + std::uint64_t{voxels.grid[0]} *
                 (y + std::uint64_t{voxels.grid[1]} * z);
}

// nx ny nz, saturating at 2^64 - 1.
std::uint64_t Nodes(std::uint32_t nx, std::uint32_t ny, std::uint32_t nz) {
  return memory::Bytes(memory::Bytes(nx, ny), nz);
}

std::string Grid(std::uint32_t nx, std::uint32_t ny, std::uint32_t nz) {
  return std::to_string(nx) + " x " + std::to_string(ny) + " x " +
         std::to_string(nz);
}

// Node -> particle (or -1) for the whole grid, and a byte per particle
// beside it (the callers' `seen`), asked for before they are allocated.
std::vector<std::int64_t> ParticleOfNode(const Voxels& voxels) {
  const std::uint64_t nodes =
      Nodes(voxels.grid[0], voxels.grid[1], voxels.grid[2]);
  const std::uint64_t map = memory::Bytes(nodes, sizeof(std::int64_t));
  const std::uint64_t seen = voxels.cells.size();
  memory::Require(map > UINT64_MAX - seen ? UINT64_MAX : map + seen,
                  "clusters on a grid of " +
                      Grid(voxels.grid[0], voxels.grid[1], voxels.grid[2]) +
                      " nodes (a node map of 8 bytes a node)");
  std::vector<std::int64_t> at(nodes, -1);
  for (std::size_t p = 0; p < voxels.cells.size(); ++p) {
    const auto& c = voxels.cells[p];
    at[NodeOf(voxels, c[0], c[1], c[2])] = static_cast<std::int64_t>(p);
  }
  return at;
}

// The face-connected pieces of the particles inside [lo, hi) per axis;
// each piece ascending, appended to `out` when below max_size.
void AppendPieces(const Voxels& voxels, const std::vector<std::int64_t>& at,
                  std::array<std::uint32_t, 3> lo,
                  std::array<std::uint32_t, 3> hi, std::uint32_t max_size,
                  std::vector<std::uint8_t>& seen, Csr& out) {
  for (int a = 0; a < 3; ++a) hi[a] = std::min(hi[a], voxels.grid[a]);
  std::vector<std::uint32_t> touched;
  for (std::uint32_t z = lo[2]; z < hi[2]; ++z) {
    for (std::uint32_t y = lo[1]; y < hi[1]; ++y) {
      for (std::uint32_t x = lo[0]; x < hi[0]; ++x) {
        const std::int64_t start = at[NodeOf(voxels, x, y, z)];
        if (start < 0 || seen[start]) continue;
        std::vector<std::uint32_t> piece{static_cast<std::uint32_t>(start)};
        seen[start] = 1;
        for (std::size_t head = 0; head < piece.size(); ++head) {
          const auto c = voxels.cells[piece[head]];
          static constexpr int kOffsets[6][3] = {{-1, 0, 0}, {1, 0, 0},
                                                 {0, -1, 0}, {0, 1, 0},
                                                 {0, 0, -1}, {0, 0, 1}};
          for (const auto& o : kOffsets) {
            const std::int64_t n[3] = {std::int64_t{c[0]} + o[0],
                                       std::int64_t{c[1]} + o[1],
                                       std::int64_t{c[2]} + o[2]};
            bool inside = true;
            for (int a = 0; a < 3; ++a) inside &= n[a] >= lo[a] && n[a] < hi[a];
            if (!inside) continue;
            const std::int64_t q =
                at[NodeOf(voxels, static_cast<std::uint32_t>(n[0]),
                          static_cast<std::uint32_t>(n[1]),
                          static_cast<std::uint32_t>(n[2]))];
            if (q >= 0 && !seen[q]) {
              seen[q] = 1;
              piece.push_back(static_cast<std::uint32_t>(q));
            }
          }
        }
        touched.insert(touched.end(), piece.begin(), piece.end());
        if (piece.size() >= max_size) continue;
        std::sort(piece.begin(), piece.end());
        out.indices.insert(out.indices.end(), piece.begin(), piece.end());
        out.offsets.push_back(static_cast<std::uint32_t>(out.indices.size()));
      }
    }
  }
  for (const std::uint32_t p : touched) seen[p] = 0;
}

}  // namespace

Voxels Block(std::uint32_t nx, std::uint32_t ny, std::uint32_t nz) {
  // Every node a particle of 12 bytes (the count saturates, not wraps).
  const std::uint64_t count = Nodes(nx, ny, nz);
  memory::Require(memory::Bytes(count, sizeof(std::array<std::uint32_t, 3>)),
                  "a block of " + Grid(nx, ny, nz) + " = " +
                      std::to_string(count) + " particles");
  Voxels voxels;
  voxels.grid = {nx, ny, nz};
  voxels.cells.reserve(count);
  for (std::uint32_t z = 0; z < nz; ++z) {
    for (std::uint32_t y = 0; y < ny; ++y) {
      for (std::uint32_t x = 0; x < nx; ++x) voxels.cells.push_back({x, y, z});
    }
  }
  return voxels;
}

Voxels RandomVoxels(std::uint32_t n, double fill, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  Voxels voxels;
  voxels.grid = {n, n, n};
  for (std::uint32_t z = 0; z < n; ++z) {
    for (std::uint32_t y = 0; y < n; ++y) {
      for (std::uint32_t x = 0; x < n; ++x) {
        if (static_cast<double>(engine() >> 11) * 0x1.0p-53 < fill) {
          voxels.cells.push_back({x, y, z});
        }
      }
    }
  }
  return voxels;
}

Csr CubeClusters(const Voxels& voxels, std::uint32_t side,
                 std::uint32_t stride) {
  const auto at = ParticleOfNode(voxels);
  std::vector<std::uint8_t> seen(voxels.cells.size(), 0);
  Csr out;
  stride = std::max<std::uint32_t>(stride, 1);
  for (std::uint32_t z = 0; z < voxels.grid[2]; z += stride) {
    for (std::uint32_t y = 0; y < voxels.grid[1]; y += stride) {
      for (std::uint32_t x = 0; x < voxels.grid[0]; x += stride) {
        AppendPieces(voxels, at, {x, y, z}, {x + side, y + side, z + side},
                     0xFFFFFFFFu, seen, out);
      }
    }
  }
  return out;
}

Csr RandomBoxClusters(const Voxels& voxels, std::uint32_t count,
                      std::uint32_t max_side, std::uint32_t max_size,
                      std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  const auto at = ParticleOfNode(voxels);
  std::vector<std::uint8_t> seen(voxels.cells.size(), 0);
  Csr out;
  for (std::uint32_t b = 0; b < count; ++b) {
    std::array<std::uint32_t, 3> lo{};
    std::array<std::uint32_t, 3> hi{};
    for (int a = 0; a < 3; ++a) {
      lo[a] = static_cast<std::uint32_t>(engine() % voxels.grid[a]);
      hi[a] = lo[a] + 1 + static_cast<std::uint32_t>(engine() % max_side);
    }
    AppendPieces(voxels, at, lo, hi, max_size, seen, out);
  }
  return out;
}

Points BladePositions(const Voxels& voxels, const Blade& blade,
                      std::uint32_t frame) {
  Points points;
  points.Resize(voxels.cells.size());
  const float edge = static_cast<float>(voxels.grid[1]) -
                     blade.speed * static_cast<float>(frame);
  for (std::size_t p = 0; p < voxels.cells.size(); ++p) {
    const auto& c = voxels.cells[p];
    float x = static_cast<float>(c[0]);
    const float y = static_cast<float>(c[1]);
    if (c[2] >= blade.z_begin && c[2] < blade.z_end && y >= edge) {
      x += x < blade.plane_x ? -0.5f * blade.width : 0.5f * blade.width;
    }
    points.x[p] = x;
    points.y[p] = y;
    points.z[p] = static_cast<float>(c[2]);
  }
  return points;
}

Points RandomDamage(const Voxels& voxels, std::uint32_t count, float distance,
                    std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  Points points;
  points.Resize(voxels.cells.size());
  for (std::size_t p = 0; p < voxels.cells.size(); ++p) {
    points.x[p] = static_cast<float>(voxels.cells[p][0]);
    points.y[p] = static_cast<float>(voxels.cells[p][1]);
    points.z[p] = static_cast<float>(voxels.cells[p][2]);
  }
  if (voxels.cells.empty()) return points;
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::size_t p = engine() % voxels.cells.size();
    std::vector<float>* axes[3] = {&points.x, &points.y, &points.z};
    (*axes[engine() % 3])[p] += distance;
  }
  return points;
}

}  // namespace adj::scenes
