#pragma once

// `adjacent check FAMILY INPUT OUTPUT [--PARAMETER VALUE]...`: an output
// computed outside the suite against the family's oracle
// (registry/outside_check.h), from files (tools/array_files.h).

#include <string>
#include <string_view>
#include <vector>

namespace adj::cli {

// Exit status: 0 the output agrees, 1 it differs (the first difference
// printed), 2 bad usage or a malformed file.
int CheckCommand(const std::vector<std::string>& args);

}  // namespace adj::cli
