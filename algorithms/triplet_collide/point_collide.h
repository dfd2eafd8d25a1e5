#pragma once

// The arithmetic of one virtual particle, written once for the scalar
// kernels (serial, atomic_unscheduled) and the CUDA ones, operation for
// operation as triplet_collide.h specifies it. The SIMD kernels
// (collide-inl.h) perform the same operations lane-wise. Files that include
// this header are compiled with -ffp-contract=off (C++) or --fmad=false
// (CUDA), so that no multiply and add are fused.

#include <cmath>
#include <cstddef>

#include "algorithms/triplet_collide/triplet_collide.h"

#if defined(__CUDACC__)
#define ADJ_TC_HOST_DEVICE __host__ __device__
#else
#define ADJ_TC_HOST_DEVICE
#endif

namespace adj::triplet_collide::point {

struct Vec3 {
  float x, y, z;
};

// Correctly rounded on both sides (CUDA's __fdiv_rn / __fsqrt_rn even under
// --use_fast_math; IEEE division and sqrt on the host).
ADJ_TC_HOST_DEVICE inline float Div(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}

ADJ_TC_HOST_DEVICE inline float Sqrt(float v) {
#if defined(__CUDA_ARCH__)
  return __fsqrt_rn(v);
#else
  return std::sqrt(v);
#endif
}

ADJ_TC_HOST_DEVICE inline Vec3 Interpolate(Vec3 x0, Vec3 x1, Vec3 x2, float w0,
                                           float w1, float w2) {
  return {w0 * x0.x + w1 * x1.x + w2 * x2.x, w0 * x0.y + w1 * x1.y + w2 * x2.y,
          w0 * x0.z + w1 * x1.z + w2 * x2.z};
}

// push(d, r) of the contract; true when the point was inside.
ADJ_TC_HOST_DEVICE inline bool AddPush(float dx, float dy, float dz,
                                       float radius, Vec3& delta) {
  const float d2 = dx * dx + dy * dy + dz * dz;
  if (!(d2 < radius * radius)) return false;
  if (d2 > 0.0f) {
    const float k = Div(radius, Sqrt(d2)) - 1.0f;
    delta.x += dx * k;
    delta.y += dy * k;
    delta.z += dz * k;
  } else {
    delta.z += radius;
  }
  return true;
}

// The sum of the pushes of every sphere, then every capsule, on point p.
ADJ_TC_HOST_DEVICE inline Vec3 ShapesDelta(Vec3 p, const Sphere* spheres,
                                           std::size_t sphere_count,
                                           const Capsule* capsules,
                                           std::size_t capsule_count) {
  Vec3 delta = {0.0f, 0.0f, 0.0f};
  for (std::size_t i = 0; i < sphere_count; ++i) {
    const Sphere& s = spheres[i];
    AddPush(p.x - s.centre[0], p.y - s.centre[1], p.z - s.centre[2], s.radius,
            delta);
  }
  for (std::size_t i = 0; i < capsule_count; ++i) {
    const Capsule& c = capsules[i];
    const float abx = c.b[0] - c.a[0];
    const float aby = c.b[1] - c.a[1];
    const float abz = c.b[2] - c.a[2];
    const float len2 = abx * abx + aby * aby + abz * abz;
    float t = 0.0f;
    if (len2 > 0.0f) {
      const float dot =
          (p.x - c.a[0]) * abx + (p.y - c.a[1]) * aby + (p.z - c.a[2]) * abz;
      t = Div(dot, len2);
      t = t > 0.0f ? t : 0.0f;
      t = t < 1.0f ? t : 1.0f;
    }
    AddPush(p.x - (c.a[0] + t * abx), p.y - (c.a[1] + t * aby),
            p.z - (c.a[2] + t * abz), c.radius, delta);
  }
  return delta;
}

ADJ_TC_HOST_DEVICE inline bool IsZero(Vec3 v) {
  return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f;
}

}  // namespace adj::triplet_collide::point
