#include "tools/arguments.h"

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::cli {

bool IsCloudOption(const std::string& arg) {
  return arg == "--radius" || arg == "--spacing" || arg == "--table-size";
}

namespace {

void EraseFlagAndValue(std::vector<std::string>& args, std::size_t i) {
  args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
             args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
}

bool StartsWithDigit(const std::string& text) {
  return !text.empty() && text[0] >= '0' && text[0] <= '9';
}

}  // namespace

std::string TakeCloudOptions(std::vector<std::string>& args,
                             CloudOptions& options) {
  for (std::size_t i = 0; i < args.size();) {
    if (!IsCloudOption(args[i])) {
      ++i;
      continue;
    }
    const std::string flag = args[i];
    if (i + 1 == args.size()) return flag + " needs a value";
    const std::string& text = args[i + 1];
    if (flag == "--table-size") {
      std::uint64_t value = 0;
      if (!ParseCount(text, 0xffffffffULL, value)) {
        return "bad --table-size " + text +
               ": must be a whole number in [1, 2^32 - 1]";
      }
      options.table_size = static_cast<std::uint32_t>(value);
    } else {
      double value = 0;
      std::size_t used = 0;
      try {
        value = std::stod(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      // Rounded to nearest float, as the loaders round: up to half an ulp
      // past FLT_MAX gives FLT_MAX, from there on infinity (refused).
      constexpr double kFirstOverflow = static_cast<double>(FLT_MAX) + 0x1p103;
      const bool fits =
          std::isfinite(value) && std::fabs(value) < kFirstOverflow;
      float as_float = 0;
      if (fits) {
        as_float = std::fabs(value) <= static_cast<double>(FLT_MAX)
                       ? static_cast<float>(value)
                       : (value > 0 ? FLT_MAX : -FLT_MAX);
      }
      if (used == 0 || used != text.size() || !fits || !(as_float > 0)) {
        return "bad " + flag + " " + text +
               ": must be a finite number > 0 (as a float)";
      }
      (flag == "--radius" ? options.radius : options.spacing) = as_float;
    }
    EraseFlagAndValue(args, i);
  }
  return "";
}

std::string TakeScheduleWidths(std::vector<std::string>& args,
                               ScheduleWidths& widths) {
  for (std::size_t i = 0; i < args.size();) {
    const bool simd = args[i] == "--simd-width";
    if (!simd && args[i] != "--warp-width") {
      ++i;
      continue;
    }
    if (i + 1 == args.size()) return args[i] + " needs a value";
    std::uint64_t value = 0;  // "0" is a number, if not a width
    if (args[i + 1] != "0" && !ParseCount(args[i + 1], 1024, value)) {
      return "bad width " + args[i + 1];
    }
    const auto width = static_cast<unsigned>(value);
    if (simd ? !triplet_schedule::IsValidSimdWidth(width)
             : !triplet_schedule::IsValidWarpWidth(width)) {
      return args[i] + " " + args[i + 1] +
             (simd ? " is outside [1, 64]" : " is not 16 or 32");
    }
    (simd ? widths.simd : widths.warp) = width;
    EraseFlagAndValue(args, i);
  }
  return "";
}

bool ParseCount(const std::string& text, std::uint64_t max,
                std::uint64_t& value) {
  if (!StartsWithDigit(text)) return false;
  std::size_t used = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used == text.size() && value >= 1 && value <= max;
}

std::string ParseFractureOptions(const std::vector<std::string>& args,
                                 FractureOptions& options) {
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag.rfind("--", 0) != 0) {
      positional.push_back(flag);
      continue;
    }
    if (i + 1 == args.size()) return flag + " needs a value";
    const std::string& value = args[++i];
    if (flag == "--frames") {
      if (!ParseCount(value, 1000000, options.frames)) {
        return "bad --frames " + value +
               ": must be a whole number in [1, 1000000]";
      }
    } else if (flag == "--particles") {
      if (!ParseCount(value, 50000000, options.particles)) {
        return "bad --particles " + value +
               ": must be a whole number in [1, 50000000]";
      }
    } else if (flag == "--cut") {
      if (value != "blade" && value != "impact" && value != "random") {
        return "bad --cut " + value + ": blade, impact or random";
      }
      options.cut = value;
    } else if (flag == "--variant") {
      options.variant = value;
    } else if (flag == "--png") {
      options.png_dir = value;
    } else {
      return "unknown option " + flag;
    }
  }
  if (positional.size() != 1) {
    return positional.empty() ? "missing SCENE" : "expected one SCENE";
  }
  options.scene = positional[0];
  return "";
}

std::string ParseSphOptions(const std::vector<std::string>& args,
                            SphOptions& options) {
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag.rfind("--", 0) != 0) {
      positional.push_back(flag);
      continue;
    }
    if (i + 1 == args.size()) return flag + " needs a value";
    const std::string& value = args[++i];
    if (flag == "--steps") {
      if (!ParseCount(value, 10000000, options.steps)) {
        return "bad --steps " + value +
               ": must be a whole number in [1, 10000000]";
      }
    } else if (flag == "--particles") {
      if (!ParseCount(value, 50000000, options.particles)) {
        return "bad --particles " + value +
               ": must be a whole number in [1, 50000000]";
      }
    } else if (flag == "--every") {
      if (!ParseCount(value, 10000000, options.every)) {
        return "bad --every " + value +
               ": must be a whole number in [1, 10000000]";
      }
    } else if (flag == "--variant") {
      options.variant = value;
    } else if (flag == "--png") {
      options.png_dir = value;
    } else {
      return "unknown option " + flag;
    }
  }
  if (positional.size() != 1) {
    return positional.empty() ? "missing SCENE" : "expected one SCENE";
  }
  if (positional[0] != "glass" && positional[0] != "dam_break") {
    return "unknown SCENE " + positional[0] + ": glass or dam_break";
  }
  options.scene = positional[0];
  return "";
}

bool ParseBlockSide(const std::string& scene, std::uint32_t& side) {
  if (scene.rfind("block:", 0) != 0) return false;
  std::uint64_t value = 0;
  if (!ParseCount(scene.substr(6), 1625, value)) {
    throw std::invalid_argument("bad " + scene +
                                ": L must be a whole number in [1, 1625]");
  }
  side = static_cast<std::uint32_t>(value);
  return true;
}

}  // namespace adj::cli
