#pragma once

// Internal to the family: the implementations behind the table and their
// tuning hooks. The table's own file and the family's tests include it;
// the build refuses it anywhere else (everyone else goes through
// Variants()).

#include "algorithms/connected_components/connected_components.h"

namespace adj::connected_components {

// The implementations, one file each; call them through Variants(). Each
// XLabels is Check (on omp_get_max_threads() threads for the OpenMP
// ones) followed by XLabelsTrusted, which reads a graph the caller has
// checked and never validates it (the table's run_trusted).
LabelFn DfsLabels;
LabelFn BfsLabels;
LabelFn UnionFindLabels;
LabelFn EclCcLabels;
LabelFn EclCcOpenMpLabels;
LabelFn AfforestLabels;
LabelFn DfsLabelsTrusted;
LabelFn BfsLabelsTrusted;
LabelFn UnionFindLabelsTrusted;
LabelFn EclCcLabelsTrusted;
LabelFn EclCcOpenMpLabelsTrusted;
LabelFn AfforestLabelsTrusted;
// Peers (origin kPeer): the library called as its documentation shows
// (Trusted: that alone; the table's run: Check first); without the library
// at build time they throw Unavailable.
LabelFn BoostDfsLabels;
LabelFn BoostDisjointSetsLabels;
LabelFn BoostDfsLabelsTrusted;
LabelFn BoostDisjointSetsLabelsTrusted;
LabelFn IgraphLabels;
LabelFn IgraphLabelsTrusted;
#if ADJ_HAVE_CUDA
LabelFn CudaEclCcLabels;
LabelFn CudaEclCcLabelsTrusted;
#endif

}  // namespace adj::connected_components
