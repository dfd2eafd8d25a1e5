#include "registry/corpus.h"

#include "registry/corpus_families.h"

namespace adj::registry {

std::span<const FamilyCorpus> Corpora() {
  static const FamilyCorpus corpora[] = {
      {"compaction", "kept (K,): the values whose flag is 0, in order",
       &CompactionCorpus},
      {"connected_components",
       "labels (V,): each vertex labelled with its component's smallest "
       "vertex",
       &ConnectedComponentsCorpus},
      {"fracture",
       "intact (N,), the live clusters cluster_offsets, cluster_members "
       "and cluster_slots, merge_offsets and merge_slots (per new cluster "
       "the slots it merged into), belong_offsets and belong_indices: the "
       "oracle's frame",
       &FractureCorpus},
      {"hash_grid",
       "pairs (M, 2): every pair within the radius (inclusive) once, i < j, "
       "ascending",
       &HashGridCorpus},
      {"hash_set",
       "keys (K,): the distinct keys inserted, ascending (any order "
       "agrees), and answers (Q,): 1 where the query is a key",
       &HashSetCorpus},
      {"prefix_sum",
       "scan (N,) modulo 2^32 and total (0-d), of the kind the input's "
       "inclusive says",
       &PrefixSumCorpus},
      {"sph",
       "x (N, 3), v (N, 3) and density (N,): the double-precision oracle's "
       "step rounded to float; agreeing within the check's tolerance",
       &SphCorpus},
      {"triangle_adjacency",
       "memberships (M, 2): (particle, triangle), by particle, each row's "
       "triangles ascending",
       &TriangleAdjacencyCorpus},
      {"triplet_collide",
       "particles (N, 4): the oracle's pass over the triplets in the order "
       "given, bit for bit",
       &TripletCollideCorpus},
      {"triplet_schedule",
       "order (T, 4) and set_sizes (T,): one schedule the validator "
       "accepts, every triplet a set of its own (warp layout); any valid "
       "schedule agrees",
       &TripletScheduleCorpus},
  };
  return corpora;
}

}  // namespace adj::registry
