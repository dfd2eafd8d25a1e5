#pragma once

// Each family's exported cases (registry/corpus.h), one file each:
// corpus_<family>.cc. Internal to registry/.

#include <vector>

#include "registry/corpus.h"

namespace adj::registry {

std::vector<CorpusCase> ConnectedComponentsCorpus();
std::vector<CorpusCase> HashGridCorpus();

}  // namespace adj::registry
