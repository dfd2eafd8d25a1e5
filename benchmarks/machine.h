#pragma once

// What a measurement says about where it was taken, shared by the
// benchmark binaries and the experiment runners so that their JSON names
// the machine and the code the same way.

#include <string>

namespace adj::machine {

// /proc/cpuinfo's first "model name"; "unknown" without one.
std::string CpuModel();

// The checkout's HEAD, with "-dirty" when a tracked file differs from it;
// "unknown" outside a git checkout.
std::string GitRevision();

// CMAKE_BUILD_TYPE and "<compiler id> <version>" of this build.
std::string BuildType();
std::string Compiler();

// The environment variable's value, or `fallback` when it is unset.
std::string EnvOr(const char* name, const char* fallback);

}  // namespace adj::machine
