#pragma once

// What the triplet_schedule tests share: NvCloth's documented grid, running
// a scheduler, the reference's checks and metrics, and generated input.

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "checks/triplet_schedule.h"
#include "properties/mesh_generators.h"
#include "scenes/meshes.h"

namespace adj::triplet_schedule {

using Sizes = std::vector<std::uint32_t>;
using Triplets = std::vector<Triplet>;

// NvCloth's documented 3 x 3 grid (2 x 2 quads, uniform diagonals) as
// virtual particles: t0..t7 below. Particle 4, the centre, is in 6 of them.
inline const Triplets kGrid = {{0, 1, 4, 0}, {0, 4, 3, 0}, {1, 2, 5, 0},
                               {1, 5, 4, 0}, {3, 4, 7, 0}, {3, 7, 6, 0},
                               {4, 5, 8, 0}, {4, 8, 7, 0}};
inline const Triplet kDummy = {9, 10, 11, 0};

// A warp scheduler by its row's name: the recipes (layouts.h's Recipe)
// have no function name of their own.
inline ScheduleFn* Warp(std::string_view name) {
  const Variant* row = FindVariant(WarpSchedulers(), name);
  if (row == nullptr)
    throw std::logic_error("no warp scheduler " + std::string(name));
  return row->run;
}

inline Schedule Scheduled(ScheduleFn* scheduler, const Triplets& triplets,
                          std::size_t particles, unsigned width) {
  Schedule out;
  scheduler(triplets, particles, width, out);
  return out;
}

inline std::string CheckSimd(const Triplets& input, std::size_t particles,
                             unsigned width, const Schedule& got) {
  return checks::triplet_schedule::FirstProblem(
      input, particles, checks::triplet_schedule::Layout::kSimd, width, got);
}

inline std::string CheckWarp(const Triplets& input, std::size_t particles,
                             unsigned width, const Schedule& got) {
  return checks::triplet_schedule::FirstProblem(
      input, particles, checks::triplet_schedule::Layout::kWarp, width, got);
}

// Triplets of a generated mesh, or random triplets with repeated particles
// inside a triplet and random weight indices.
inline rc::Gen<std::pair<Triplets, std::size_t>> AnyTriplets() {
  return rc::gen::oneOf(
      rc::gen::map(testing::AnyMeshSpec(20),
                   [](const testing::MeshSpec& spec) {
                     const Mesh mesh = testing::BuildMesh(spec);
                     return std::make_pair(scenes::VirtualParticles(mesh),
                                           mesh.particles());
                   }),
      rc::gen::mapcat(
          rc::gen::inRange<std::size_t>(1, 40), [](std::size_t particles) {
            const auto id = rc::gen::inRange<std::uint32_t>(
                0, static_cast<std::uint32_t>(particles));
            return rc::gen::map(
                rc::gen::container<Triplets>(rc::gen::construct<Triplet>(
                    id, id, id, rc::gen::inRange<std::uint32_t>(0, 5))),
                [particles](Triplets t) {
                  return std::make_pair(t, particles);
                });
          }));
}

// The triplets as a multiset: sorted, so that two layouts of one set
// compare equal.
inline Triplets Sorted(std::span<const Triplet> triplets) {
  Triplets sorted(triplets.begin(), triplets.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

// Each set of a warp schedule's order as its sorted triplets.
inline std::vector<Triplets> SortedSets(std::span<const Triplet> ordered,
                                        const Sizes& set_sizes) {
  std::vector<Triplets> sets;
  std::size_t start = 0;
  for (const std::uint32_t size : set_sizes) {
    sets.push_back(Sorted(ordered.subspan(start, size)));
    start += size;
  }
  return sets;
}

// The reference's metrics of a warp schedule of `input` (width 32).
inline checks::triplet_schedule::Metrics Measured(
    std::span<const Triplet> input, std::size_t particles,
    const Schedule& schedule) {
  return checks::triplet_schedule::MetricsOf(
      input, particles, 32, schedule.triplets, schedule.set_sizes, 0);
}

// `scheduler`'s warp schedule of `input`, checked by the reference
// validator (a failure is reported, the metrics returned still), measured.
inline checks::triplet_schedule::Metrics CheckedMetrics(ScheduleFn* scheduler,
                                                        const Triplets& input,
                                                        std::size_t particles) {
  const Schedule got = Scheduled(scheduler, input, particles, 32);
  EXPECT_EQ(CheckWarp(input, particles, 32, got), "");
  return Measured(input, particles, got);
}

}  // namespace adj::triplet_schedule
