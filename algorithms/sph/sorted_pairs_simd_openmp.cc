#include "algorithms/sph/sorted_gather.h"
#include "algorithms/sph/variants.h"

namespace adj::sph {

void SortedPairsSimdOpenMpStep(State& state, const Params& params,
                               Workspace& workspace, StepReport& report) {
  detail::HalfPairsStep(state, params, workspace, report, true);
}

}  // namespace adj::sph
