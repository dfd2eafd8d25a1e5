#pragma once

// The tests that run one of the suite's binaries as a user does (the
// `adjacent` command line, the experiment runners): its exit status and
// what it printed.

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace adj::testing {

struct CommandResult {
  int status = -1;     // the exit status; -1 when it did not exit
  std::string output;  // stdout and stderr together
};

// Runs `binary arguments` through the shell.
inline CommandResult RunCommand(const std::string& binary,
                                const std::string& arguments) {
  const std::string command = binary + " " + arguments + " 2>&1";
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  std::size_t got = 0;
  while ((got = fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    result.output.append(buffer, got);
  }
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace adj::testing
