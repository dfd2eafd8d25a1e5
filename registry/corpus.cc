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
      {"triangle_adjacency",
       "memberships (M, 2): (particle, triangle), by particle, each row's "
       "triangles ascending",
       &TriangleAdjacencyCorpus},
      {"triplet_schedule",
       "order (T, 4) and set_sizes (T,): one schedule the validator "
       "accepts, every triplet a set of its own (warp layout); any valid "
       "schedule agrees",
       &TripletScheduleCorpus},
  };
  return corpora;
}

}  // namespace adj::registry
