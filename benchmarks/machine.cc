#include "benchmarks/machine.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace adj::machine {
namespace {

std::string CommandOutput(const std::string& command) {
  std::string output;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
    pclose(pipe);
  }
  while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) {
    output.pop_back();
  }
  return output;
}

}  // namespace

std::string CpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown";
}

std::string GitRevision() {
  const std::string git = "git -C '" ADJ_SOURCE_DIR "' ";
  std::string revision = CommandOutput(git + "rev-parse HEAD 2>/dev/null");
  if (revision.empty()) return "unknown";
  if (!CommandOutput(git + "status --porcelain -uno 2>/dev/null").empty()) {
    revision += "-dirty";
  }
  return revision;
}

std::string BuildType() { return ADJ_BUILD_TYPE; }

std::string Compiler() { return ADJ_CXX_COMPILER; }

std::string EnvOr(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : fallback;
}

}  // namespace adj::machine
