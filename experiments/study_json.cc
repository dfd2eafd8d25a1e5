#include "experiments/study_json.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "algorithms/common/simd.h"
#include "benchmarks/machine.h"

namespace adj::experiments {
namespace {

std::string Quoted(std::string_view text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      quoted += escaped;
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

std::string Number(double value) {
  if (!std::isfinite(value)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

void WriteNumbers(std::ostream& out,
                  const std::vector<std::pair<std::string, double>>& numbers) {
  out << "{";
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    out << (i == 0 ? "" : ", ") << Quoted(numbers[i].first) << ": "
        << Number(numbers[i].second);
  }
  out << "}";
}

void WriteSeries(
    std::ostream& out,
    const std::vector<std::pair<std::string, std::vector<double>>>& series) {
  out << "{";
  for (std::size_t i = 0; i < series.size(); ++i) {
    out << (i == 0 ? "" : ", ") << Quoted(series[i].first) << ": [";
    const std::vector<double>& values = series[i].second;
    for (std::size_t k = 0; k < values.size(); ++k) {
      out << (k == 0 ? "" : ", ") << Number(values[k]);
    }
    out << "]";
  }
  out << "}";
}

void WriteRecord(std::ostream& out, const StudyRecord& record) {
  out << "    {\"family\": " << Quoted(record.family)
      << ", \"study\": " << Quoted(record.study)
      << ", \"variant\": " << Quoted(record.variant)
      << ", \"verified\": " << (record.verified ? "true" : "false")
      << ",\n     \"parameters\": ";
  WriteNumbers(out, record.parameters);
  out << ",\n     \"results\": ";
  WriteNumbers(out, record.results);
  out << ",\n     \"series\": ";
  WriteSeries(out, record.series);
  if (!record.error.empty())
    out << ",\n     \"error\": " << Quoted(record.error);
  out << "}";
}

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace

std::map<std::string, std::string> MachineContext(
    const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> context = {
      {"cpu_model", machine::CpuModel()},
      {"adj_git_revision", machine::GitRevision()},
      {"adj_build_type", machine::BuildType()},
      {"adj_compiler", machine::Compiler()},
      {"hwy_target", simd::BestTargetName()},
      {"date", UtcNow()},
  };
  for (const auto& [key, value] : extra) context[key] = value;
  return context;
}

void WriteStudies(std::ostream& out,
                  const std::map<std::string, std::string>& context,
                  const std::vector<StudyRecord>& records) {
  out << "{\n  \"context\": {";
  bool first = true;
  for (const auto& [key, value] : context) {
    out << (first ? "\n    " : ",\n    ") << Quoted(key) << ": "
        << Quoted(value);
    first = false;
  }
  out << "\n  },\n  \"studies\": [";
  for (std::size_t i = 0; i < records.size(); ++i) {
    out << (i == 0 ? "\n" : ",\n");
    WriteRecord(out, records[i]);
  }
  out << "\n  ]\n}\n";
}

bool WriteStudiesFile(const std::string& path,
                      const std::map<std::string, std::string>& context,
                      const std::vector<StudyRecord>& records) {
  const std::string temporary = path + ".partial";
  {
    std::ofstream out(temporary);
    if (!out) return false;
    WriteStudies(out, context, records);
    if (!out.flush()) return false;
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  return !error;
}

}  // namespace adj::experiments
