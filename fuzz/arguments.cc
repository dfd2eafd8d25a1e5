// Fuzz target: the command line's option parsing (tools/arguments.h) on any
// argument vector (the bytes split at NUL). Whatever the arguments: the
// parsers return a problem or values within their documented ranges, never
// throw (ParseBlockSide: std::invalid_argument only) and never crash.
#include "tools/arguments.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "fuzz/fuzz_input.h"

namespace adj::fuzz {
namespace {

std::vector<std::string> Arguments(std::string_view bytes) {
  std::vector<std::string> args;
  while (!bytes.empty() && args.size() < 16) {
    const std::size_t end = bytes.find('\0');
    args.emplace_back(bytes.substr(0, end));
    if (end == std::string_view::npos) break;
    bytes.remove_prefix(end + 1);
  }
  return args;
}

bool ValidLength(float value) {
  return value == 0 || (std::isfinite(value) && value > 0);
}

void FuzzArguments(Input& in) {
  const std::vector<std::string> given = Arguments(in.Rest());

  std::vector<std::string> args = given;
  cli::CloudOptions cloud;
  if (cli::TakeCloudOptions(args, cloud).empty()) {
    if (!ValidLength(cloud.radius) || !ValidLength(cloud.spacing)) {
      Broken("a cloud option accepted a length that is not finite and > 0");
    }
    for (const std::string& arg : args) {
      if (cli::IsCloudOption(arg)) {
        Broken("a cloud option was left among the arguments");
      }
    }
  }

  args = given;
  cli::ScheduleWidths widths;
  if (cli::TakeScheduleWidths(args, widths).empty()) {
    if (!triplet_schedule::IsValidSimdWidth(widths.simd) ||
        !triplet_schedule::IsValidWarpWidth(widths.warp)) {
      Broken("a schedule width outside the schedulers' range was accepted");
    }
    for (const std::string& arg : args) {
      if (arg == "--simd-width" || arg == "--warp-width") {
        Broken("a width option was left among the arguments");
      }
    }
  }

  cli::FractureOptions fracture;
  if (cli::ParseFractureOptions(given, fracture).empty()) {
    if (fracture.frames < 1 || fracture.frames > 1000000 ||
        fracture.particles < 1 || fracture.particles > 50000000 ||
        (fracture.cut != "blade" && fracture.cut != "impact" &&
         fracture.cut != "random")) {
      Broken("a fracture option outside its range was accepted");
    }
    std::uint32_t side = 0;
    try {
      if (cli::ParseBlockSide(fracture.scene, side) &&
          (side < 1 || side > 1625)) {
        Broken("a block side outside [1, 1625] was accepted");
      }
    } catch (const std::invalid_argument&) {
    }
  }

  cli::SphOptions sph;
  if (cli::ParseSphOptions(given, sph).empty()) {
    if (sph.steps < 1 || sph.steps > 10000000 || sph.particles < 1 ||
        sph.particles > 50000000 || sph.every < 1 ||
        (sph.scene != "glass" && sph.scene != "dam_break")) {
      Broken("an sph option outside its range was accepted");
    }
  }
}

}  // namespace
}  // namespace adj::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  adj::fuzz::Input in(data, size);
  adj::fuzz::FuzzArguments(in);
  return 0;
}
