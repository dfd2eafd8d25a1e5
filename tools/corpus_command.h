#pragma once

// `adjacent corpus export DIR [--family F]`: the suite's hard cases
// (registry/corpus.h) as files anyone can test against, each input beside
// the oracle's output, with a README saying what each case is for.

#include <string>
#include <vector>

namespace adj::cli {

// Exit status: 0 written, 2 bad usage or a directory that cannot be
// written.
int CorpusCommand(const std::vector<std::string>& args);

}  // namespace adj::cli
