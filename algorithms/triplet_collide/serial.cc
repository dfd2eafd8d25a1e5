// The pass exactly as triplet_collide.h specifies it: one triplet after
// another in schedule order. Dummy triplets are processed like the others:
// their particles are static and lie outside every shape.
#include "algorithms/triplet_collide/point_collide.h"
#include "algorithms/triplet_collide/triplet_collide.h"
#include "algorithms/triplet_collide/variants.h"

namespace adj::triplet_collide {

void SerialCollide(const triplet_schedule::Schedule& schedule,
                   std::span<const Weight> weights, const Shapes& shapes,
                   std::span<Particle> particles) {
  Check(schedule, weights, shapes, particles);
  SerialCollideTrusted(schedule, weights, shapes, particles);
}

void SerialCollideTrusted(const triplet_schedule::Schedule& schedule,
                          std::span<const Weight> weights, const Shapes& shapes,
                          std::span<Particle> particles) {
  const auto position = [&](std::uint32_t i) {
    const Particle& p = particles[i];
    return point::Vec3{p[0], p[1], p[2]};
  };
  for (const Triplet& t : schedule.triplets) {
    const Weight& w = weights[t[3]];
    const point::Vec3 p = point::Interpolate(position(t[0]), position(t[1]),
                                             position(t[2]), w[0], w[1], w[2]);
    const point::Vec3 delta =
        point::ShapesDelta(p, shapes.spheres.data(), shapes.spheres.size(),
                           shapes.capsules.data(), shapes.capsules.size());
    if (point::IsZero(delta)) continue;
    for (int k = 0; k < 3; ++k) {
      Particle& x = particles[t[k]];
      if (x[3] == 0.0f) continue;
      const float f = w[k] * w[3];
      x[0] += f * delta.x;
      x[1] += f * delta.y;
      x[2] += f * delta.z;
    }
  }
}

}  // namespace adj::triplet_collide
