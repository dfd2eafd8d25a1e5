#pragma once

// The memory budget: the most bytes one piece of work may allocate for
// output whose size its input does not fix (neighbour lists, scenes,
// repeated entries). Work computes or bounds that size first and asks
// Require() before allocating, so that an absurd input is refused at once,
// naming the size and the budget, instead of dying in the allocator. The
// budget is process-wide: the command line sets it from --max-memory, Python
// from adjacent.set_memory_budget; by default half of the machine's
// physical memory.

#include <cstdint>
#include <string>
#include <string_view>

namespace adj::memory {

// The budget in bytes.
std::uint64_t Budget();
// Sets the budget; 0 restores the default.
void SetBudget(std::uint64_t bytes);
// Half of the physical memory (sysconf), or 4 GiB where it is unknown.
std::uint64_t DefaultBudget();

// Throws adj::ResourceError naming `what`, `bytes` and the budget when
// bytes exceed the budget.
void Require(std::uint64_t bytes, std::string_view what);

// count * each_bytes, saturating at UINT64_MAX instead of wrapping, for
// sizes passed to Require.
std::uint64_t Bytes(std::uint64_t count, std::uint64_t each_bytes);

// "12.3 GiB", "512 B": a size for messages.
std::string Describe(std::uint64_t bytes);

// Parses "4G", "512M", "1.5GiB", "1000000" (bytes); throws adj::Error
// naming `text` when it is not a positive size.
std::uint64_t ParseSize(std::string_view text);

// Sets the budget for its lifetime, restoring the one before (tests).
class ScopedBudget {
 public:
  explicit ScopedBudget(std::uint64_t bytes);
  ~ScopedBudget();
  ScopedBudget(const ScopedBudget&) = delete;
  ScopedBudget& operator=(const ScopedBudget&) = delete;

 private:
  std::uint64_t before_;
};

}  // namespace adj::memory
