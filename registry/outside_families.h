#pragma once

// Each family's outside check (registry/outside_check.h), one file each:
// outside_<family>.cc. Internal to registry/.

#include "registry/outside_check.h"

namespace adj::registry {

OutsideVerdict CheckCompactionOutput(const Arrays& inputs,
                                     const Arrays& outputs,
                                     const Parameters& parameters);
OutsideVerdict CheckHashGridOutput(const Arrays& inputs, const Arrays& outputs,
                                   const Parameters& parameters);
OutsideVerdict CheckConnectedComponentsOutput(const Arrays& inputs,
                                              const Arrays& outputs,
                                              const Parameters& parameters);

OutsideVerdict CheckHashSetOutput(const Arrays& inputs, const Arrays& outputs,
                                  const Parameters& parameters);
OutsideVerdict CheckPrefixSumOutput(const Arrays& inputs, const Arrays& outputs,
                                    const Parameters& parameters);
OutsideVerdict CheckTripletScheduleOutput(const Arrays& inputs,
                                          const Arrays& outputs,
                                          const Parameters& parameters);
OutsideVerdict CheckTriangleAdjacencyOutput(const Arrays& inputs,
                                            const Arrays& outputs,
                                            const Parameters& parameters);

}  // namespace adj::registry
