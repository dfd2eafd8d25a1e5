#include "algorithms/sph/sorted_gather.h"

namespace adj::sph {

void SortedSimdOpenMpStep(State& state, const Params& params,
                          Workspace& workspace, StepReport& report) {
  detail::GatherStep(state, params, workspace, report,
                     detail::SimdGatherKernels(), true);
}

}  // namespace adj::sph
