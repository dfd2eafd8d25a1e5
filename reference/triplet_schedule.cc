#include "reference/triplet_schedule.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace adj::reference {
namespace {

// NvCloth's replay metric models 32 banks and 32-lane warps even when the
// scheduler ran with width 16 (docs/sources/nvcloth-triplet-scheduler.md).
constexpr std::uint64_t kBanks = 32;
constexpr std::uint64_t kChunk = 32;

std::string Times(std::uint64_t count) {
  return count == 1 ? "once" : std::to_string(count) + " times";
}

Triplet Dummy(std::size_t particle_count) {
  const auto n = static_cast<std::uint32_t>(particle_count);
  return {n, n + 1, n + 2, 0};
}

std::uint64_t PaddingAfter(std::uint64_t set_size, unsigned width) {
  return width == 0 ? 0 : (width - set_size % width) % width;
}

std::uint64_t Sum(std::span<const std::uint32_t> set_sizes) {
  std::uint64_t sum = 0;
  for (const std::uint32_t size : set_sizes) sum += size;
  return sum;
}

// Where every set of the output begins and where its real triplets end, so
// that messages can say which set and entry a position belongs to.
class SetLayout {
 public:
  // padding_width 0: sets back to back (warp); else each set is followed by
  // its dummies (simd).
  SetLayout(std::span<const std::uint32_t> set_sizes, unsigned padding_width)
      : padding_width_(padding_width) {
    std::uint64_t position = 0;
    for (const std::uint32_t size : set_sizes) {
      starts_.push_back(position);
      real_ends_.push_back(position + size);
      position += size + PaddingAfter(size, padding_width);
    }
    end_ = position;
  }

  std::size_t sets() const { return starts_.size(); }
  std::uint64_t start(std::size_t set) const { return starts_[set]; }
  std::uint64_t real_end(std::size_t set) const { return real_ends_[set]; }
  std::uint64_t end(std::size_t set) const {
    return set + 1 < starts_.size() ? starts_[set + 1] : end_;
  }

  std::string Where(std::uint64_t position) const {
    std::string where = "output[" + std::to_string(position) + "] (";
    // The last set starting at or before the position: empty sets share
    // their start with the next one, and upper_bound skips past them.
    const auto after =
        std::upper_bound(starts_.begin(), starts_.end(), position);
    if (after == starts_.begin() || position >= end_) {
      where += "past the last set";
    } else {
      const auto set = static_cast<std::size_t>(after - starts_.begin() - 1);
      where += "set " + std::to_string(set) + ", ";
      if (position < real_ends_[set]) {
        where += "real triplet " + std::to_string(position - starts_[set]) +
                 " of " + std::to_string(real_ends_[set] - starts_[set]);
      } else {
        where += "dummy " + std::to_string(position - real_ends_[set]) +
                 " of " + std::to_string(end(set) - real_ends_[set]);
      }
      if (padding_width_ != 0) {
        where += ", batch " + std::to_string(position / padding_width_);
      }
    }
    return where + ")";
  }

 private:
  unsigned padding_width_;
  std::vector<std::uint64_t> starts_;
  std::vector<std::uint64_t> real_ends_;
  std::uint64_t end_ = 0;
};

std::string CheckInputIndices(std::span<const Triplet> input,
                              std::size_t particle_count) {
  for (std::size_t i = 0; i < input.size(); ++i) {
    for (int k = 0; k < 3; ++k) {
      if (input[i][k] >= particle_count) {
        return "input[" + std::to_string(i) + "] " + DescribeTriplet(input[i]) +
               " names particle " + std::to_string(input[i][k]) +
               " >= particle_count " + std::to_string(particle_count);
      }
    }
  }
  return "";
}

std::string CheckSetSizesSum(std::span<const Triplet> input,
                             std::span<const std::uint32_t> set_sizes) {
  const std::uint64_t sum = Sum(set_sizes);
  if (sum == input.size()) return "";
  return "set sizes sum to " + std::to_string(sum) + " over " +
         std::to_string(set_sizes.size()) + " sets, but the input has " +
         std::to_string(input.size()) + " triplets";
}

struct Placed {
  Triplet triplet;
  std::uint64_t position;  // in the output
};

// Multiset equality of all four fields, by sorting both sides. On a
// mismatch, names the first input triplet that is short in the output and
// the first output triplet in surplus (every size check has passed, so a
// shortfall implies a surplus and the other way round).
std::string CheckPermutation(std::span<const Triplet> input,
                             std::vector<Placed> real,
                             const SetLayout& layout) {
  std::vector<Triplet> expected(input.begin(), input.end());
  std::sort(expected.begin(), expected.end());
  std::sort(real.begin(), real.end(), [](const Placed& a, const Placed& b) {
    return std::pair(a.triplet, a.position) < std::pair(b.triplet, b.position);
  });

  std::string shortfall;
  std::string surplus;
  std::size_t i = 0;
  std::size_t j = 0;
  while ((i < expected.size() || j < real.size()) &&
         (shortfall.empty() || surplus.empty())) {
    Triplet key;
    if (j == real.size() ||
        (i < expected.size() && expected[i] < real[j].triplet)) {
      key = expected[i];
    } else {
      key = real[j].triplet;
    }
    const std::size_t first_in_output = j;
    std::uint64_t in_input = 0;
    std::uint64_t in_output = 0;
    for (; i < expected.size() && expected[i] == key; ++i) ++in_input;
    for (; j < real.size() && real[j].triplet == key; ++j) ++in_output;
    if (in_input > in_output && shortfall.empty()) {
      shortfall =
          "input triplet " + DescribeTriplet(key) +
          (in_output == 0 ? " is missing from the output"
                          : " is in the input " + Times(in_input) +
                                " but in the output only " + Times(in_output));
    } else if (in_output > in_input && surplus.empty()) {
      if (in_input == 0) {
        surplus = layout.Where(real[first_in_output].position) + " " +
                  DescribeTriplet(key) + " is not in the input";
      } else {
        // Naming a few copies lets the reader tell the original from the
        // stray one.
        constexpr std::uint64_t kCopiesNamed = 3;
        surplus = DescribeTriplet(key) + " is duplicated: in the input " +
                  Times(in_input) + ", in the output " + Times(in_output) +
                  ", at ";
        for (std::uint64_t c = 0; c < std::min(in_output, kCopiesNamed); ++c) {
          if (c > 0) surplus += ", ";
          surplus += layout.Where(real[first_in_output + c].position);
        }
        if (in_output > kCopiesNamed) surplus += ", ...";
      }
    }
  }
  if (shortfall.empty() && surplus.empty()) return "";

  // Both sides sorted by all four fields are also sorted by the particles
  // alone, so equal particle sequences mean only weight indices differ.
  bool same_particles = expected.size() == real.size();
  for (std::size_t k = 0; same_particles && k < expected.size(); ++k) {
    same_particles =
        std::equal(expected[k].begin(), expected[k].begin() + 3,
                   real[k].triplet.begin(), real[k].triplet.begin() + 3);
  }
  std::string message = same_particles
                            ? "weight index changed (same particles, other "
                              "weights): "
                            : "output is not a permutation of the input: ";
  message += surplus;
  if (!surplus.empty() && !shortfall.empty()) message += "; ";
  return message + shortfall;
}

struct SharedParticle {
  std::uint32_t particle;
  std::uint64_t first;  // output positions of two different triplets
  std::uint64_t second;
};

// The smallest particle below particle_count that two different triplets
// of output[begin, end) name. A triplet naming a particle twice is not a
// conflict: the scatter into it comes from one lane.
std::optional<SharedParticle> FindSharedParticle(
    std::span<const Triplet> output, std::uint64_t begin, std::uint64_t end,
    std::size_t particle_count) {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> uses;
  for (std::uint64_t position = begin; position < end; ++position) {
    std::array<std::uint32_t, 3> particles = {
        output[position][0], output[position][1], output[position][2]};
    std::sort(particles.begin(), particles.end());
    for (int k = 0; k < 3; ++k) {
      if (particles[k] >= particle_count) continue;  // a dummy
      if (k > 0 && particles[k] == particles[k - 1]) continue;
      uses.emplace_back(particles[k], position);
    }
  }
  std::sort(uses.begin(), uses.end());
  for (std::size_t u = 1; u < uses.size(); ++u) {
    if (uses[u].first == uses[u - 1].first) {
      return SharedParticle{uses[u].first, uses[u - 1].second, uses[u].second};
    }
  }
  return std::nullopt;
}

std::string DescribeShared(std::span<const Triplet> output,
                           const SharedParticle& shared,
                           const SetLayout& layout) {
  return "particle " + std::to_string(shared.particle) +
         " is in two triplets: " + layout.Where(shared.first) + " " +
         DescribeTriplet(output[shared.first]) + " and " +
         layout.Where(shared.second) + " " +
         DescribeTriplet(output[shared.second]);
}

}  // namespace

std::uint64_t SimdPadding(std::span<const std::uint32_t> set_sizes,
                          unsigned width) {
  std::uint64_t padding = 0;
  for (const std::uint32_t size : set_sizes) {
    padding += PaddingAfter(size, width);
  }
  return padding;
}

std::string CheckSimdSchedule(std::span<const Triplet> input,
                              std::size_t particle_count, unsigned width,
                              std::span<const Triplet> output,
                              std::span<const std::uint32_t> set_sizes,
                              std::uint32_t padding) {
  if (width == 0) return "width is 0: a simd schedule needs at least 1 lane";
  if (auto problem = CheckInputIndices(input, particle_count);
      !problem.empty()) {
    return problem;
  }
  if (auto problem = CheckSetSizesSum(input, set_sizes); !problem.empty()) {
    return problem;
  }
  const std::uint64_t needed = SimdPadding(set_sizes, width);
  if (padding != needed) {
    return "padding is " + std::to_string(padding) + ", but " +
           std::to_string(set_sizes.size()) + " sets at width " +
           std::to_string(width) + " need " + std::to_string(needed) +
           " dummies";
  }
  if (output.size() != input.size() + needed) {
    return "output has " + std::to_string(output.size()) +
           " entries, expected " + std::to_string(input.size()) +
           " triplets + " + std::to_string(needed) +
           " dummies = " + std::to_string(input.size() + needed);
  }
  if (needed > 0 &&
      particle_count + 2 > std::numeric_limits<std::uint32_t>::max()) {
    return "particle_count " + std::to_string(particle_count) +
           " leaves no room for the dummy particles N..N+2 in 32 bits";
  }

  const SetLayout layout(set_sizes, width);
  const Triplet dummy = Dummy(particle_count);
  std::vector<Placed> real;
  real.reserve(input.size());
  for (std::size_t set = 0; set < layout.sets(); ++set) {
    for (std::uint64_t p = layout.start(set); p < layout.real_end(set); ++p) {
      for (int k = 0; k < 3; ++k) {
        if (output[p][k] >= particle_count) {
          return layout.Where(p) + " is " + DescribeTriplet(output[p]) +
                 ", naming particle " + std::to_string(output[p][k]) +
                 " >= particle_count " + std::to_string(particle_count) +
                 ": a dummy (or foreign triplet) where a real triplet "
                 "belongs";
        }
      }
      real.push_back({output[p], p});
    }
    for (std::uint64_t p = layout.real_end(set); p < layout.end(set); ++p) {
      if (output[p] == dummy) continue;
      const bool looks_like_dummy =
          std::all_of(output[p].begin(), output[p].begin() + 3,
                      [&](std::uint32_t id) { return id >= particle_count; });
      return layout.Where(p) + " is " + DescribeTriplet(output[p]) +
             (looks_like_dummy ? ", a wrong dummy"
                               : ", a real triplet where a dummy belongs") +
             "; expected the dummy " + DescribeTriplet(dummy);
    }
  }

  if (auto problem = CheckPermutation(input, std::move(real), layout);
      !problem.empty()) {
    return problem;
  }

  for (std::uint64_t begin = 0; begin < output.size(); begin += width) {
    const std::uint64_t end =
        std::min<std::uint64_t>(begin + width, output.size());
    if (const auto shared =
            FindSharedParticle(output, begin, end, particle_count)) {
      return "batch " + std::to_string(begin / width) + " (output[" +
             std::to_string(begin) + ".." + std::to_string(end) +
             ")): " + DescribeShared(output, *shared, layout);
    }
  }
  return "";
}

std::string CheckWarpSchedule(std::span<const Triplet> input,
                              std::size_t particle_count,
                              std::span<const Triplet> output,
                              std::span<const std::uint32_t> set_sizes) {
  if (auto problem = CheckInputIndices(input, particle_count);
      !problem.empty()) {
    return problem;
  }
  if (auto problem = CheckSetSizesSum(input, set_sizes); !problem.empty()) {
    return problem;
  }
  if (output.size() != input.size()) {
    return "output has " + std::to_string(output.size()) +
           " entries, but the input has " + std::to_string(input.size()) +
           " triplets (a warp schedule has no padding)";
  }

  const SetLayout layout(set_sizes, 0);
  std::vector<Placed> real;
  real.reserve(output.size());
  for (std::uint64_t p = 0; p < output.size(); ++p) {
    real.push_back({output[p], p});
  }
  if (auto problem = CheckPermutation(input, std::move(real), layout);
      !problem.empty()) {
    return problem;
  }

  // The permutation check leaves every output particle below
  // particle_count, so none is skipped as a dummy here.
  for (std::size_t set = 0; set < layout.sets(); ++set) {
    if (const auto shared = FindSharedParticle(
            output, layout.start(set), layout.end(set), particle_count)) {
      return "set " + std::to_string(set) + " (output[" +
             std::to_string(layout.start(set)) + ".." +
             std::to_string(layout.end(set)) +
             ")) is not an independent set: " +
             DescribeShared(output, *shared, layout);
    }
  }
  return "";
}

std::uint64_t MaxAdjacentCount(std::span<const Triplet> input,
                               std::size_t particle_count) {
  std::vector<std::uint32_t> slots;
  slots.reserve(3 * input.size());
  for (const Triplet& t : input) {
    for (int k = 0; k < 3; ++k) {
      if (t[k] < particle_count) slots.push_back(t[k]);
    }
  }
  std::sort(slots.begin(), slots.end());
  std::uint64_t longest = 0;
  for (std::size_t run_start = 0; run_start < slots.size();) {
    std::size_t run_end = run_start;
    while (run_end < slots.size() && slots[run_end] == slots[run_start]) {
      ++run_end;
    }
    longest = std::max<std::uint64_t>(longest, run_end - run_start);
    run_start = run_end;
  }
  return longest;
}

ScheduleMetrics MeasureSchedule(std::span<const Triplet> input,
                                std::size_t particle_count, unsigned width,
                                std::span<const Triplet> output,
                                std::span<const std::uint32_t> set_sizes,
                                std::uint32_t padding) {
  ScheduleMetrics metrics;
  metrics.sets = set_sizes.size();
  metrics.max_adj = MaxAdjacentCount(input, particle_count);
  if (!set_sizes.empty()) {
    metrics.set_min = *std::min_element(set_sizes.begin(), set_sizes.end());
    metrics.set_max = *std::max_element(set_sizes.begin(), set_sizes.end());
    metrics.set_mean = static_cast<double>(Sum(set_sizes)) /
                       static_cast<double>(set_sizes.size());
  }
  metrics.padding = padding;
  if (!input.empty()) {
    metrics.padding_ratio =
        static_cast<double>(padding) / static_cast<double>(input.size());
  }

  const SetLayout layout(set_sizes, padding > 0 ? width : 0);
  for (std::size_t set = 0; set < layout.sets(); ++set) {
    const std::uint64_t set_end =
        std::min<std::uint64_t>(layout.real_end(set), output.size());
    for (std::uint64_t chunk = layout.start(set); chunk < set_end;
         chunk += kChunk) {
      const std::uint64_t chunk_end = std::min(chunk + kChunk, set_end);
      for (int k = 0; k < 3; ++k) {
        std::array<std::uint64_t, kBanks> per_bank{};
        for (std::uint64_t p = chunk; p < chunk_end; ++p) {
          ++per_bank[output[p][k] % kBanks];
        }
        metrics.replays += *std::max_element(per_bank.begin(), per_bank.end());
      }
      metrics.ideal_replays += 3;
    }
    metrics.idle_lanes += (kChunk - set_sizes[set] % kChunk) % kChunk;
  }
  return metrics;
}

std::uint64_t ReplaysLowerBound(std::span<const Triplet> input) {
  std::array<std::uint64_t, kBanks> loads{};
  for (const Triplet& t : input) {
    for (int k = 0; k < 3; ++k) ++loads[t[k] % kBanks];
  }
  return *std::max_element(loads.begin(), loads.end());
}

double ReplayRatioLowerBound(std::span<const Triplet> input,
                             std::uint64_t max_sets) {
  if (input.empty()) return 0;
  // A schedule of any triplet has a set.
  const std::uint64_t sets = std::max<std::uint64_t>(max_sets, 1);
  const std::uint64_t most_chunks =
      (input.size() + (kChunk - 1) * sets) / kChunk;
  const double bound = static_cast<double>(ReplaysLowerBound(input)) /
                       static_cast<double>(3 * most_chunks);
  return std::max(bound, 1.0);
}

}  // namespace adj::reference
