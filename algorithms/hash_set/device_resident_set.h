#pragma once

// A cuda_lock_free table and its keys resident on the device, for timing the
// kernels alone (CUDA builds only): keys and queries copied once, then each
// call times one pass with CUDA events around the device entry
// (cuda::TimeOnDevice, the one way the suite measures device time). Plain
// C++, so that benchmarks compile with the host compiler.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace adj::hash_set {

class DeviceResidentSet {
 public:
  // A table for `capacity` keys (> 0), `keys` to insert (distinct, none
  // kEmptyKey, at most capacity: trusted) and `queries` to look up. Throws
  // adj::Unavailable without a usable device.
  DeviceResidentSet(std::size_t capacity, std::span<const std::uint32_t> keys,
                    std::span<const std::uint32_t> queries);
  ~DeviceResidentSet();
  DeviceResidentSet(const DeviceResidentSet&) = delete;
  DeviceResidentSet& operator=(const DeviceResidentSet&) = delete;

  // Seconds one insert pass of every key into the emptied table took on the
  // device (the emptying is not timed). Throws hash_set::Error if the pass
  // refused a key, which the contract above rules out.
  double TimeInsert();
  // Seconds one lookup of every query took on the device.
  double TimeLookup();

  // The table's key count and its stored keys, in slot order.
  std::size_t Size() const;
  std::vector<std::uint32_t> Keys() const;
  // The answers of the last lookup (1: present).
  std::vector<std::uint8_t> Found() const;

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

}  // namespace adj::hash_set
