#include "algorithms/common/memory_budget.h"

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>

#include "algorithms/common/errors.h"

namespace adj::memory {
namespace {

// 0: the default.
std::atomic<std::uint64_t> chosen_budget{0};

}  // namespace

std::uint64_t DefaultBudget() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return std::uint64_t{4} << 30;
  return static_cast<std::uint64_t>(pages) *
         static_cast<std::uint64_t>(page_size) / 2;
}

std::uint64_t Budget() {
  const std::uint64_t chosen = chosen_budget.load(std::memory_order_relaxed);
  return chosen != 0 ? chosen : DefaultBudget();
}

void SetBudget(std::uint64_t bytes) {
  chosen_budget.store(bytes, std::memory_order_relaxed);
}

std::uint64_t Bytes(std::uint64_t count, std::uint64_t each_bytes) {
  if (each_bytes != 0 &&
      count > std::numeric_limits<std::uint64_t>::max() / each_bytes) {
    return std::numeric_limits<std::uint64_t>::max();
  }
  return count * each_bytes;
}

std::string Describe(std::uint64_t bytes) {
  if (bytes == std::numeric_limits<std::uint64_t>::max()) {
    return "more than 2^64 bytes";
  }
  constexpr const char* kUnits[] = {"B",   "KiB", "MiB", "GiB",
                                    "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  char text[48];
  if (unit == 0) {
    std::snprintf(text, sizeof(text), "%llu B",
                  static_cast<unsigned long long>(bytes));
  } else {
    std::snprintf(text, sizeof(text), "%.1f %s", value, kUnits[unit]);
  }
  return text;
}

void Require(std::uint64_t bytes, std::string_view what) {
  const std::uint64_t budget = Budget();
  if (bytes <= budget) return;
  throw ResourceError(std::string(what) + " would need " + Describe(bytes) +
                      ", over the memory budget of " + Describe(budget) +
                      " (--max-memory on the command line, "
                      "adjacent.set_memory_budget in Python)");
}

std::uint64_t ParseSize(std::string_view text) {
  const std::string copy(text);
  const auto refuse = [&] {
    return Error("memory size \"" + copy +
                 "\": expected a positive number of bytes, optionally with "
                 "K, M, G or T (powers of 1024), e.g. 512M or 4G");
  };
  if (copy.empty()) throw refuse();
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(copy, &used);
  } catch (const std::exception&) {
    throw refuse();
  }
  std::string_view unit = text.substr(used);
  if (unit.ends_with("iB")) unit.remove_suffix(2);
  if (unit.ends_with("B") && unit.size() > 1) unit.remove_suffix(1);
  double scale = 1;
  if (unit == "" || unit == "B") {
    scale = 1;
  } else if (unit == "K" || unit == "k") {
    scale = 1024.0;
  } else if (unit == "M") {
    scale = 1024.0 * 1024;
  } else if (unit == "G") {
    scale = 1024.0 * 1024 * 1024;
  } else if (unit == "T") {
    scale = 1024.0 * 1024 * 1024 * 1024;
  } else {
    throw refuse();
  }
  const double bytes = value * scale;
  if (!std::isfinite(bytes) || bytes < 1 || bytes >= 1.8e19) throw refuse();
  return static_cast<std::uint64_t>(bytes);
}

ScopedBudget::ScopedBudget(std::uint64_t bytes)
    : before_(chosen_budget.load(std::memory_order_relaxed)) {
  SetBudget(bytes);
}

ScopedBudget::~ScopedBudget() { SetBudget(before_); }

}  // namespace adj::memory
