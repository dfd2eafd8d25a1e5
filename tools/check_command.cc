#include "tools/check_command.h"

#include <charconv>
#include <cmath>
#include <iostream>
#include <string>

#include "registry/outside_check.h"
#include "tools/array_files.h"

namespace adj::cli {
namespace {

constexpr int kAgrees = 0;
constexpr int kDiffers = 1;
constexpr int kUsage = 2;

std::string Help() {
  std::string help =
      R"(usage: adjacent check FAMILY INPUT OUTPUT [--PARAMETER VALUE]...

Checks an output your own code computed against the family's oracle, the
one the suite's own variants are held to. INPUT and OUTPUT are files:
  .npz   named arrays (np.savez / np.savez_compressed), by the names below
  .npy   one array (np.save), taken as the family's lone input or output
  text   one row per line, numbers apart by spaces, tabs or commas, '#'
         comments; likewise one array
Prints "agrees" or the first difference (which particle, pair or vertex,
expected against got), what the oracle covered, and the output's
statistics. Exit status: 0 agrees, 1 differs, 2 bad usage or a malformed
file (the message names it), 3 refused for resources.

Families:
)";
  for (const registry::OutsideCheck& check : registry::OutsideChecks()) {
    help += "  " + std::string(check.family) +
            "\n    input: " + std::string(check.inputs) +
            " (lone file: " + std::string(check.default_input) +
            ")\n    output: " + std::string(check.outputs) +
            " (lone file: " + std::string(check.default_output) + ")\n";
  }
  return help;
}

int Usage(const std::string& problem) {
  std::cerr << "adjacent check: " << problem << "\n\n" << Help();
  return kUsage;
}

}  // namespace

int CheckCommand(const std::vector<std::string>& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << Help();
    return kAgrees;
  }
  std::vector<std::string> positional;
  registry::Parameters parameters;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (args[k].rfind("--", 0) != 0) {
      positional.push_back(args[k]);
      continue;
    }
    if (k + 1 >= args.size()) return Usage(args[k] + " needs a value");
    const std::string& text = args[++k];
    double value = 0;
    const auto [end, error] =
        std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() ||
        !std::isfinite(value)) {
      return Usage("bad " + args[k - 1] + " " + text + ": a finite number");
    }
    parameters[args[k - 1].substr(2)] = value;
  }
  if (positional.size() != 3) {
    return Usage("expected FAMILY INPUT OUTPUT, got " +
                 std::to_string(positional.size()) + " arguments");
  }
  const registry::OutsideCheck* check =
      registry::FindOutsideCheck(positional[0]);
  if (check == nullptr) {
    return Usage("no outside check for " + positional[0] +
                 " (the families below have one)");
  }
  registry::Arrays inputs = ReadArrayFile(positional[1], check->default_input);
  // A 0-d input array named as a parameter is that parameter (an exported
  // case carries its radius so); a flag given on the line wins.
  for (const std::string_view name : check->parameters) {
    const auto found = inputs.find(name);
    if (found == inputs.end() || !found->second.shape.empty()) continue;
    const registry::Array& value = found->second;
    parameters.try_emplace(std::string(name),
                           value.integral
                               ? static_cast<double>(value.integers[0])
                               : value.reals[0]);
    inputs.erase(found);
  }
  const registry::Arrays outputs =
      ReadArrayFile(positional[2], check->default_output);
  registry::RequireKnownNames(*check, inputs, outputs, parameters);
  const registry::OutsideVerdict verdict =
      check->check(inputs, outputs, parameters);
  std::cout << (verdict.difference.empty() ? "agrees"
                                           : "differs: " + verdict.difference)
            << "\noracle: " << verdict.scope << "\n";
  for (const auto& [name, value] : verdict.statistics) {
    std::cout << name << ": " << value << "\n";
  }
  return verdict.difference.empty() ? kAgrees : kDiffers;
}

}  // namespace adj::cli
