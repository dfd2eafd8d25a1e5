#pragma once

// `adjacent sph SCENE --steps N`: one SPH scene run by one variant beside
// the three-pass reference (naive), its accuracy printed as it goes, PNG
// snapshots of the particles.

#include <string>
#include <string_view>
#include <vector>

namespace adj::cli {

extern const std::string_view kSphHelp;

// Exit status: 0 the run finished, 1 the state blew up, 2 bad usage.
int SphCommand(const std::vector<std::string>& args);

}  // namespace adj::cli
