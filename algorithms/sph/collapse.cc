#include <cstdint>

#include "algorithms/sph/collapsed_pass.h"
#include "algorithms/sph/sph.h"
#include "algorithms/sph/teschner_hash.h"
#include "algorithms/sph/variants.h"

namespace adj::sph {

void CollapseStep(State& state, const Params& params, Workspace& workspace,
                  StepReport& report) {
  Check(state, params, true);
  report = {};
  const std::uint32_t table_size = detail::TableSize(params, state.size());
  detail::BuildTeschnerHash(state.x, params, table_size, workspace);
  detail::CollapsedPass(
      state, params, workspace, report, [&](detail::Cell cell, auto&& visit) {
        return detail::ForEachCandidate(workspace, table_size, cell, visit);
      });
}

}  // namespace adj::sph
