#pragma once

// The command line's option parsing, apart from anything that reads files or
// runs a variant, so that a fuzz target can drive every path of it. Each
// parser returns "" or what is wrong, in the words the usage message prints.

#include <cstdint>
#include <string>
#include <vector>

namespace adj::cli {

// The options of the commands on a CLOUD; 0: not given.
struct CloudOptions {
  float radius = 0;
  float spacing = 0;
  std::uint32_t table_size = 0;
};

bool IsCloudOption(const std::string& arg);

// Removes the cloud options and their values from `args` into `options`.
// --radius and --spacing: a finite number > 0 once rounded to float;
// --table-size: a whole number in [1, 2^32 - 1].
std::string TakeCloudOptions(std::vector<std::string>& args,
                             CloudOptions& options);

struct ScheduleWidths {
  unsigned simd = 4;   // NvCloth's SwCloth
  unsigned warp = 32;  // NvCloth's CuCloth
};

// Removes --simd-width W (in [1, 64]) and --warp-width W (16 or 32) and
// their values from `args` into `widths`.
std::string TakeScheduleWidths(std::vector<std::string>& args,
                               ScheduleWidths& widths);

// A whole number in [1, max] written in decimal digits only.
bool ParseCount(const std::string& text, std::uint64_t max,
                std::uint64_t& value);

struct FractureOptions {
  std::uint64_t frames = 1000;
  std::uint64_t particles = 90000;
  std::string cut = "blade";
  std::string variant = "serial";
  std::string png_dir = ".";
  std::string scene;  // block:L or a mesh file
};

// Every option takes a value; exactly one positional SCENE. Variant names
// are not checked here (the variant table is).
std::string ParseFractureOptions(const std::vector<std::string>& args,
                                 FractureOptions& options);

struct SphOptions {
  std::uint64_t steps = 1000;
  std::uint64_t particles = 8000;
  std::uint64_t every = 100;  // a line (and with --png, a snapshot) every K
  std::string variant = "sorted_pairs";
  std::string png_dir;  // "": no snapshots
  std::string scene;    // glass or dam_break
};

// Every option takes a value; exactly one positional SCENE, glass or
// dam_break. Variant names are not checked here (the variant table is).
std::string ParseSphOptions(const std::vector<std::string>& args,
                            SphOptions& options);

// The side L of a "block:L" scene, in [1, 1625]; false when `scene` is not
// of that form (a mesh file). Throws std::invalid_argument for a bad L.
bool ParseBlockSide(const std::string& scene, std::uint32_t& side);

}  // namespace adj::cli
