#include "scenes/meshes.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace adj::scenes {
namespace {

// Fisher-Yates from raw engine output, so that every standard library
// produces the same permutation.
std::vector<std::uint32_t> RandomPermutation(std::size_t n,
                                             std::mt19937_64& engine) {
  std::vector<std::uint32_t> permutation(n);
  for (std::size_t i = 0; i < n; ++i) {
    permutation[i] = static_cast<std::uint32_t>(i);
  }
  for (std::size_t i = n; i > 1; --i) {
    std::swap(permutation[i - 1], permutation[engine() % i]);
  }
  return permutation;
}

float UnitFloat(std::mt19937_64& engine) {
  return static_cast<float>(engine() >> 40) * 0x1.0p-24f;
}

// The generators' outputs index with uint32: refuse what would wrap.
void CheckParticleCount(std::size_t particles, const char* generator) {
  if (particles > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument(std::string(generator) +
                                ": more particles than uint32 indices reach");
  }
}

void CheckCorners(const Mesh& mesh, const char* generator) {
  for (const Triangle& triangle : mesh.triangles) {
    for (const std::uint32_t corner : triangle) {
      if (corner >= mesh.particles()) {
        throw std::invalid_argument(
            std::string(generator) + ": corner " + std::to_string(corner) +
            " of " + std::to_string(mesh.particles()) + " particles");
      }
    }
  }
}

}  // namespace

Mesh ClothGrid(std::size_t width, std::size_t height, Diagonals diagonals,
               float spacing) {
  Mesh mesh;
  if (width == 0 || height == 0) return mesh;
  CheckParticleCount((width + 1) * (height + 1), "ClothGrid");
  const std::size_t columns = width + 1;
  for (std::size_t j = 0; j <= height; ++j) {
    for (std::size_t i = 0; i <= width; ++i) {
      mesh.positions.PushBack(static_cast<float>(i) * spacing,
                              static_cast<float>(j) * spacing, 0.0f);
    }
  }
  mesh.triangles.reserve(2 * width * height);
  for (std::size_t j = 0; j < height; ++j) {
    for (std::size_t i = 0; i < width; ++i) {
      const auto at = [&](std::size_t di, std::size_t dj) {
        return static_cast<std::uint32_t>((j + dj) * columns + i + di);
      };
      const bool flipped =
          diagonals == Diagonals::kAlternating && (i + j) % 2 == 1;
      if (!flipped) {
        mesh.triangles.push_back({at(0, 0), at(1, 0), at(1, 1)});
        mesh.triangles.push_back({at(0, 0), at(1, 1), at(0, 1)});
      } else {
        mesh.triangles.push_back({at(0, 0), at(1, 0), at(0, 1)});
        mesh.triangles.push_back({at(1, 0), at(1, 1), at(0, 1)});
      }
    }
  }
  return mesh;
}

Mesh Shuffled(const Mesh& mesh, std::uint64_t seed) {
  CheckCorners(mesh, "Shuffled");
  std::mt19937_64 engine(seed);
  const std::vector<std::uint32_t> new_id =
      RandomPermutation(mesh.particles(), engine);
  const std::vector<std::uint32_t> triangle_order =
      RandomPermutation(mesh.triangles.size(), engine);
  Mesh shuffled;
  shuffled.positions.Resize(mesh.particles());
  for (std::size_t p = 0; p < mesh.particles(); ++p) {
    shuffled.positions.x[new_id[p]] = mesh.positions.x[p];
    shuffled.positions.y[new_id[p]] = mesh.positions.y[p];
    shuffled.positions.z[new_id[p]] = mesh.positions.z[p];
  }
  shuffled.triangles.reserve(mesh.triangles.size());
  for (const std::uint32_t t : triangle_order) {
    const Triangle& corners = mesh.triangles[t];
    shuffled.triangles.push_back(
        {new_id[corners[0]], new_id[corners[1]], new_id[corners[2]]});
  }
  return shuffled;
}

Mesh TriangleSoup(std::size_t triangle_count, std::size_t particle_count,
                  std::uint64_t seed) {
  if (triangle_count > 0 && particle_count == 0) {
    throw std::invalid_argument("TriangleSoup: triangles need particles");
  }
  CheckParticleCount(particle_count, "TriangleSoup");
  std::mt19937_64 engine(seed);
  Mesh mesh;
  for (std::size_t p = 0; p < particle_count; ++p) {
    const float x = UnitFloat(engine);
    const float y = UnitFloat(engine);
    mesh.positions.PushBack(x, y, UnitFloat(engine));
  }
  mesh.triangles.resize(triangle_count);
  for (Triangle& triangle : mesh.triangles) {
    for (std::uint32_t& corner : triangle) {
      corner = static_cast<std::uint32_t>(engine() % particle_count);
    }
  }
  return mesh;
}

Mesh Disc(std::size_t segments, std::size_t rings) {
  if (segments < 3) throw std::invalid_argument("Disc: segments < 3");
  CheckParticleCount(1 + segments * rings, "Disc");
  Mesh mesh;
  mesh.positions.PushBack(0, 0, 0);
  for (std::size_t r = 1; r <= rings; ++r) {
    for (std::size_t s = 0; s < segments; ++s) {
      const double angle = 2 * std::numbers::pi * static_cast<double>(s) /
                           static_cast<double>(segments);
      mesh.positions.PushBack(
          static_cast<float>(static_cast<double>(r) * std::cos(angle)),
          static_cast<float>(static_cast<double>(r) * std::sin(angle)), 0.0f);
    }
  }
  const auto at = [segments](std::size_t ring, std::size_t s) {
    return static_cast<std::uint32_t>(
        ring == 0 ? 0 : 1 + (ring - 1) * segments + s % segments);
  };
  for (std::size_t r = 0; r < rings; ++r) {
    for (std::size_t s = 0; s < segments; ++s) {
      if (r == 0) {
        mesh.triangles.push_back({at(0, 0), at(1, s), at(1, s + 1)});
      } else {
        mesh.triangles.push_back({at(r, s), at(r + 1, s), at(r + 1, s + 1)});
        mesh.triangles.push_back({at(r, s), at(r + 1, s + 1), at(r, s + 1)});
      }
    }
  }
  return mesh;
}

Mesh Subdivided(const Mesh& mesh) {
  CheckCorners(mesh, "Subdivided");
  // At most one new particle per corner.
  CheckParticleCount(mesh.particles() + 3 * mesh.triangles.size(),
                     "Subdivided");
  Mesh fine;
  fine.positions = mesh.positions;
  std::unordered_map<std::uint64_t, std::uint32_t> midpoint_of_edge;
  midpoint_of_edge.reserve(3 * mesh.triangles.size() / 2 + 1);
  const auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
    const std::uint64_t key =
        (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
    const auto [it, inserted] = midpoint_of_edge.try_emplace(
        key, static_cast<std::uint32_t>(fine.positions.size()));
    if (inserted) {
      fine.positions.PushBack(
          0.5f * (mesh.positions.x[a] + mesh.positions.x[b]),
          0.5f * (mesh.positions.y[a] + mesh.positions.y[b]),
          0.5f * (mesh.positions.z[a] + mesh.positions.z[b]));
    }
    return it->second;
  };
  fine.triangles.reserve(4 * mesh.triangles.size());
  for (const auto& [a, b, c] : mesh.triangles) {
    const std::uint32_t ab = midpoint(a, b);
    const std::uint32_t bc = midpoint(b, c);
    const std::uint32_t ca = midpoint(c, a);
    fine.triangles.push_back({a, ab, ca});
    fine.triangles.push_back({ab, b, bc});
    fine.triangles.push_back({ca, bc, c});
    fine.triangles.push_back({ab, bc, ca});
  }
  return fine;
}

Mesh SubdividedTo(const Mesh& mesh, std::size_t min_triangles) {
  Mesh result = mesh;
  while (!result.triangles.empty() && result.triangles.size() < min_triangles) {
    result = Subdivided(result);
  }
  return result;
}

std::vector<Triplet> VirtualParticles(const Mesh& mesh) {
  std::vector<Triplet> triplets;
  triplets.reserve(mesh.triangles.size());
  for (const Triangle& triangle : mesh.triangles) {
    triplets.push_back({triangle[0], triangle[1], triangle[2], 0});
  }
  return triplets;
}

}  // namespace adj::scenes
