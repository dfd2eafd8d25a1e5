#pragma once

// The suite's hard cases as data anyone can test against: per family, the
// inputs its generators build to break implementations (negative and
// denormal coordinates, points on cell boundaries, pairs at exactly the
// radius; paths, stars, isolated vertices, self-loops, many components)
// with the oracle's output beside them. `adjacent corpus export DIR`
// writes them as .npz files with a README; `adjacent check` reads them
// back (a 0-d input array named as a parameter is that parameter).

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "registry/outside_check.h"

namespace adj::registry {

struct CorpusCase {
  std::string name;
  std::string purpose;  // what it is for, in a sentence
  Arrays inputs;        // parameters as 0-d arrays
  Arrays expected;      // the oracle's output, in the check's layout
};

struct FamilyCorpus {
  std::string_view family;
  std::string_view layout;  // how `expected` is laid out, in words
  std::vector<CorpusCase> (*cases)();
};

// The families with exported cases, in name order.
std::span<const FamilyCorpus> Corpora();

}  // namespace adj::registry
