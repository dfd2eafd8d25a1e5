#include "algorithms/sph/sorted_gather.h"
#include "algorithms/sph/variants.h"

namespace adj::sph {

void SortedGatherOpenMpStep(State& state, const Params& params,
                            Workspace& workspace, StepReport& report) {
  detail::GatherStep(state, params, workspace, report,
                     detail::ScalarGatherKernels(), true);
}

}  // namespace adj::sph
