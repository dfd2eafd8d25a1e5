#pragma once

// Internal to the family: the implementations behind the table and their
// tuning hooks. The table's own file and the family's tests include it;
// the build refuses it anywhere else (everyone else goes through
// Variants()).

#include "algorithms/triplet_collide/triplet_collide.h"

namespace adj::triplet_collide {

// The implementations, one file each; call them through Variants(). Each X
// is Check followed by XTrusted, which reads input the caller has checked
// and never validates it beyond its layout (the table's run_trusted).
CollideFn SerialCollide;
CollideFn Simd4Collide;
CollideFn SimdNativeCollide;
CollideFn AtomicUnscheduledCollide;
CollideFn SerialCollideTrusted;
CollideFn Simd4CollideTrusted;
CollideFn SimdNativeCollideTrusted;
CollideFn AtomicUnscheduledCollideTrusted;
// AtomicUnscheduledCollide with its threading exposed, so that tests can
// drive the threaded path on small inputs: at most max_threads threads, and
// no more than one per min_triplets_per_thread triplets.
void AtomicUnscheduledCollideTuned(const triplet_schedule::Schedule& schedule,
                                   std::span<const Weight> weights,
                                   const Shapes& shapes,
                                   std::span<Particle> particles,
                                   int max_threads,
                                   std::size_t min_triplets_per_thread);
// The threads AtomicUnscheduledCollide uses for `triplets` triplets.
int AtomicUnscheduledThreads(std::size_t triplets);
#if ADJ_HAVE_CUDA
CollideFn CudaSharedCollide;
CollideFn CudaGlobalCollide;
CollideFn CudaSharedCollideTrusted;
CollideFn CudaGlobalCollideTrusted;
CollideFn CudaSharedTiledCollide;
CollideFn CudaSharedTiledCollideTrusted;

#endif

}  // namespace adj::triplet_collide
