#pragma once

// Internal to the family: the implementations behind the table and their
// tuning hooks. The table's own file and the family's tests include it;
// the build refuses it anywhere else (everyone else goes through
// Variants()).

#include "algorithms/hash_set/hash_set.h"

namespace adj::hash_set {

// The implementations, one file each; call them through Variants().
MakeFn MakeStdUnordered;
MakeFn MakeOpenAddressing;
MakeFn MakeLockFree;
// lock_free with its bulk thread count fixed (tests; 0: omp_get_max_threads).
std::unique_ptr<Set> MakeLockFreeWithThreads(std::size_t capacity, int threads);
// Peers (origin kPeer): the library's set behind the family's contract;
// without it at build time they throw Unavailable.
MakeFn MakeAbslFlatHashSet;
MakeFn MakeTbbConcurrentSet;
MakeFn MakeTbbConcurrentHashMap;
#if ADJ_HAVE_CUDA
MakeFn MakeCudaLockFree;
#endif

}  // namespace adj::hash_set
