#pragma once

// Each family's exported cases (registry/corpus.h), one file each:
// corpus_<family>.cc (prefix_sum, compaction and hash_set share
// corpus_streams.cc). Internal to registry/.

#include <vector>

#include "registry/corpus.h"

namespace adj::registry {

std::vector<CorpusCase> CompactionCorpus();
std::vector<CorpusCase> ConnectedComponentsCorpus();
std::vector<CorpusCase> FractureCorpus();
std::vector<CorpusCase> HashGridCorpus();
std::vector<CorpusCase> HashSetCorpus();
std::vector<CorpusCase> PrefixSumCorpus();
std::vector<CorpusCase> SphCorpus();
std::vector<CorpusCase> TriangleAdjacencyCorpus();
std::vector<CorpusCase> TripletCollideCorpus();
std::vector<CorpusCase> TripletScheduleCorpus();

}  // namespace adj::registry
