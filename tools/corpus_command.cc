#include "tools/corpus_command.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "registry/corpus.h"
#include "registry/outside_check.h"
#include "tools/array_files.h"

namespace adj::cli {
namespace {

constexpr int kOk = 0;
constexpr int kUsage = 2;

constexpr std::string_view kHelp =
    R"(usage: adjacent corpus export DIR [--family FAMILY]

Writes the suite's hard cases, the inputs its generators build to break
implementations, each beside the oracle's output, as files any language
can read: DIR/<family>/<case>/input.npz and expected.npz (NumPy's format;
np.load reads them), and DIR/README.md saying what each case is for and
how the outputs are laid out. Check your own output on a case with
  adjacent check FAMILY DIR/FAMILY/CASE/input.npz YOUR_OUTPUT
(a case's parameters, such as the radius, are 0-d arrays in its input).
)";

int Usage(const std::string& problem) {
  std::cerr << "adjacent corpus: " << problem << "\n\n" << kHelp;
  return kUsage;
}

std::string Readme(const std::string& only) {
  std::string readme =
      "# adjacent's hard cases\n\n"
      "Written by `adjacent corpus export`. Each case is a folder with\n"
      "`input.npz` (the input arrays; parameters such as the radius as 0-d\n"
      "arrays) and `expected.npz` (the oracle's output). Run your own code\n"
      "on the input, then\n\n"
      "    adjacent check <family> <family>/<case>/input.npz your_output\n\n"
      "(your output as .npz, .npy or text; `adjacent check --help` lists\n"
      "the layouts each family reads) for the first difference in words.\n";
  for (const registry::FamilyCorpus& corpus : registry::Corpora()) {
    if (!only.empty() && corpus.family != only) continue;
    const registry::OutsideCheck* check =
        registry::FindOutsideCheck(corpus.family);
    readme += "\n## " + std::string(corpus.family) + "\n\nInput: " +
              std::string(check != nullptr ? check->inputs : "") +
              ".\nExpected: " + std::string(corpus.layout) + ".\n\n";
    for (const registry::CorpusCase& entry : corpus.cases()) {
      readme += "- `" + entry.name + "`: " + entry.purpose + ".\n";
    }
  }
  return readme;
}

}  // namespace

int CorpusCommand(const std::vector<std::string>& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << kHelp;
    return kOk;
  }
  if (args.empty() || args[0] != "export") {
    return Usage("expected `export DIR`");
  }
  std::string directory;
  std::string only;
  for (std::size_t k = 1; k < args.size(); ++k) {
    if (args[k] == "--family") {
      if (k + 1 >= args.size()) return Usage("--family needs a FAMILY");
      only = args[++k];
    } else if (directory.empty() && args[k].rfind("--", 0) != 0) {
      directory = args[k];
    } else {
      return Usage("unexpected argument " + args[k]);
    }
  }
  if (directory.empty()) return Usage("expected `export DIR`");
  bool known = only.empty();
  for (const registry::FamilyCorpus& corpus : registry::Corpora()) {
    known = known || corpus.family == only;
  }
  if (!known) return Usage("no exported cases for " + only);
  std::size_t written = 0;
  for (const registry::FamilyCorpus& corpus : registry::Corpora()) {
    if (!only.empty() && corpus.family != only) continue;
    for (const registry::CorpusCase& entry : corpus.cases()) {
      const std::filesystem::path folder =
          std::filesystem::path(directory) / corpus.family / entry.name;
      std::error_code error;
      std::filesystem::create_directories(folder, error);
      if (error) {
        return Usage(folder.string() +
                     ": cannot be created: " + error.message());
      }
      WriteNpz((folder / "input.npz").string(), entry.inputs);
      WriteNpz((folder / "expected.npz").string(), entry.expected);
      ++written;
    }
  }
  const std::filesystem::path readme =
      std::filesystem::path(directory) / "README.md";
  std::ofstream(readme) << Readme(only);
  std::cout << "wrote " << written << " cases and " << readme.string() << "\n";
  return kOk;
}

}  // namespace adj::cli
