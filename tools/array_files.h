#pragma once

// Arrays from files, for `adjacent check`: NumPy's .npy (one array) and
// .npz (named arrays, stored or deflated, as np.savez and
// np.savez_compressed write them), and text (one row per line, numbers
// apart by spaces, tabs or commas, '#' to the end of a line a comment).
// Every malformed file is refused with adj::Error naming the file and
// what is wrong; sizes are budgeted (memory::Require) before the arrays
// are allocated.

#include <string>
#include <string_view>

#include "registry/outside_check.h"

namespace adj::cli {

// The arrays of `path`: an .npz's by their names (without ".npy"), a lone
// array (.npy or text) as `lone_name`.
registry::Arrays ReadArrayFile(const std::string& path,
                               std::string_view lone_name);

// The same from bytes already read (`name` for the messages), so that a
// fuzz target can drive every path.
registry::Arrays ParseArrayBytes(std::string_view bytes,
                                 const std::string& name,
                                 std::string_view lone_name);

// Writes `arrays` to `path` as an .npz that np.load reads: each array a
// stored .npy member, int64 or float64, C order. Throws adj::Error naming
// the path when it cannot be written.
void WriteNpz(const std::string& path, const registry::Arrays& arrays);

}  // namespace adj::cli
