#include "scenes/registry.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <initializer_list>
#include <string_view>
#include <system_error>

namespace adj::scenes {
namespace {

std::string LowerExtension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  for (char& c : extension) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return extension;
}

std::vector<std::filesystem::path> FilesIn(
    const std::filesystem::path& directory,
    std::initializer_list<std::string_view> extensions) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry :
       std::filesystem::directory_iterator(directory, error)) {
    if (!entry.is_regular_file()) continue;
    const std::string extension = LowerExtension(entry.path());
    if (std::find(extensions.begin(), extensions.end(), extension) !=
        extensions.end()) {
      files.push_back(entry.path());
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
  return FilesIn(DataDir() / "meshes", {".off", ".obj", ".ply"});
}

std::vector<std::filesystem::path> RealPointFiles() {
  return FilesIn(DataDir() / "points_3", {".xyz", ".ply", ".off"});
}

std::string MissingDataHint() {
  return "CGAL's data set was not found in " + DataDir().string() +
         ": `make data` fetches it (or set ADJ_DATA_DIR)";
}

}  // namespace adj::scenes
