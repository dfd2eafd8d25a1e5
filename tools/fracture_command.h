#pragma once

// `adjacent fracture SCENE --frames N`: one fracture scenario run by one
// variant, the invariants checked after every frame, PNG snapshots of the
// clusters before and after.

#include <string>
#include <string_view>
#include <vector>

namespace adj::cli {

extern const std::string_view kFractureHelp;

// Exit status: 0 every frame kept the invariants, 1 one did not, 2 bad
// usage or unreadable input.
int FractureCommand(const std::vector<std::string>& args);

}  // namespace adj::cli
