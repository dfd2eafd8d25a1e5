#include "scenes/registry.h"

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <string_view>
#include <system_error>

#include "scenes/mesh_io.h"

namespace adj::scenes {
namespace {

std::vector<std::filesystem::path> FilesIn(
    const std::filesystem::path& directory,
    std::initializer_list<std::string_view> extensions) {
  std::vector<std::filesystem::path> files;
  // error_code overloads throughout: an absent or unreadable directory is
  // an empty data set, never an exception.
  std::error_code error;
  std::filesystem::directory_iterator entry(directory, error);
  for (; !error && entry != std::filesystem::directory_iterator();
       entry.increment(error)) {
    if (!entry->is_regular_file(error)) continue;
    const std::string extension = LowerExtension(entry->path());
    if (std::find(extensions.begin(), extensions.end(), extension) !=
        extensions.end()) {
      files.push_back(entry->path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::filesystem::path DataDir() {
  if (const char* overridden = std::getenv("ADJ_DATA_DIR");
      overridden != nullptr && *overridden != '\0') {
    return overridden;
  }
  return ADJ_DEFAULT_DATA_DIR;
}

std::vector<std::filesystem::path> RealMeshFiles() {
  return FilesIn(DataDir() / "meshes", {".off", ".obj", ".ply", ".stl"});
}

std::vector<std::filesystem::path> RealPointFiles() {
  return FilesIn(DataDir() / "points_3", {".xyz", ".ply", ".off"});
}

std::string MissingDataHint() {
  return "CGAL's data set was not found in " + DataDir().string() +
         ": `make data` fetches it (or set ADJ_DATA_DIR)";
}

}  // namespace adj::scenes
