#pragma once

// Internal to the family: the implementations behind the table and their
// tuning hooks. The table's own file and the family's tests include it;
// the build refuses it anywhere else (everyone else goes through
// Variants()).

#include "algorithms/sph/sph.h"

namespace adj::sph {

// The implementations, one file each; call them through Variants().
StepFn NaiveStep;
StepFn NeighborStep;
StepFn CollapseStep;
StepFn CollapseInplaceStep;
StepFn GcbHashStep;
StepFn HomogeneousStep;
StepFn SortedPairsStep;
StepFn SortedGatherStep;
StepFn SortedGatherOpenMpStep;
StepFn SortedSimdStep;
StepFn SortedSimdOpenMpStep;
StepFn SortedPairsSimdStep;
StepFn SortedPairsSimdOpenMpStep;
StepFn CudaSortedStep;
StepFn CudaNeighborListStep;
StepFn CudaCollapseStep;

}  // namespace adj::sph
