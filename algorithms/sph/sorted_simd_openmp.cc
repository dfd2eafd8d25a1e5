#include "algorithms/sph/sorted_gather.h"
#include "algorithms/sph/variants.h"

namespace adj::sph {

void SortedSimdOpenMpStep(State& state, const Params& params,
                          Workspace& workspace, StepReport& report) {
  detail::GatherStep(state, params, workspace, report,
                     detail::SimdGatherKernels(), true);
}

}  // namespace adj::sph
