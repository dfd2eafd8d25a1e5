#pragma once

// Where the real data lives: CGAL's data set, fetched by `make data` into a
// cache git ignores. Tests, benchmarks and the command line find it here and
// skip, naming `make data`, when it is absent.

#include <filesystem>
#include <string>
#include <vector>

namespace adj::scenes {

// $ADJ_DATA_DIR when set, else <source tree>/.cache/cgal/data.
std::filesystem::path DataDir();

// DataDir()/meshes/*.{off,obj,ply,stl} and DataDir()/points_3/*.{xyz,ply,off},
// sorted by name; empty when the data is absent.
std::vector<std::filesystem::path> RealMeshFiles();
std::vector<std::filesystem::path> RealPointFiles();

// One sentence for a skip message: where the data was looked for and how to
// fetch it.
std::string MissingDataHint();

}  // namespace adj::scenes
