#include "registry/corpus.h"

#include "registry/corpus_families.h"

namespace adj::registry {

std::span<const FamilyCorpus> Corpora() {
  static const FamilyCorpus corpora[] = {
      {"connected_components",
       "labels (V,): each vertex labelled with its component's smallest "
       "vertex",
       &ConnectedComponentsCorpus},
      {"hash_grid",
       "pairs (M, 2): every pair within the radius (inclusive) once, i < j, "
       "ascending",
       &HashGridCorpus},
  };
  return corpora;
}

}  // namespace adj::registry
