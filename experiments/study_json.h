#pragma once

// The JSON an experiment runner writes: the machine and code it ran on,
// then one record per study run,
//   {"context": {"cpu_model": ..., "adj_git_revision": ..., ...},
//    "studies": [{"family", "study", "variant", "verified",
//                 "parameters": {name: number}, "results": {name: number},
//                 "series": {name: [number, ...]}, "error": text}, ...]}
// ("error" only where the study stopped with one; its results and series
// then hold what it measured before). The reports read it
// (reports/engine.py, Run.studies); a number that is not finite is null.

#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace adj::experiments {

struct StudyRecord {
  std::string family;
  std::string study;
  std::string variant;
  bool verified = false;  // the variant agreed with the family's oracle
  std::vector<std::pair<std::string, double>> parameters;
  std::vector<std::pair<std::string, double>> results;
  std::vector<std::pair<std::string, std::vector<double>>> series;
  std::string error;  // "": it ran to the end
};

// The context every runner records: cpu_model, adj_git_revision,
// adj_build_type, adj_compiler, hwy_target, date, and `extra` after them.
std::map<std::string, std::string> MachineContext(
    const std::map<std::string, std::string>& extra);

void WriteStudies(std::ostream& out,
                  const std::map<std::string, std::string>& context,
                  const std::vector<StudyRecord>& records);

// Writes the document to `path` through a temporary file renamed over it,
// so that a reader never sees half of one; false when it cannot.
bool WriteStudiesFile(const std::string& path,
                      const std::map<std::string, std::string>& context,
                      const std::vector<StudyRecord>& records);

}  // namespace adj::experiments
