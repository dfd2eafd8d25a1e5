// Ours: open addressing on std::atomic<uint32_t> slots, for many threads
// inserting at once. Linear probing without deletion lets every insert of a
// key walk the same slots, so whichever thread claims the first free slot
// with compare-and-swap stores the key and every other sees it there: each
// key ends up stored once. A reservation counter bounds claims by the
// capacity, and the table always has more slots than that, so a probe
// always meets a free slot or the key. Bulk operations split the keys among
// std::thread workers (which ThreadSanitizer understands, unlike OpenMP).
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <thread>

#include "algorithms/hash_set/hash_set.h"
#include "algorithms/hash_set/look_ahead.h"
#include "algorithms/hash_set/variants.h"

namespace adj::hash_set {
namespace {

// Below this many keys per worker a bulk call stays on the calling thread.
constexpr std::size_t kMinKeysPerThread = 4096;

class LockFree final : public Set {
 public:
  LockFree(std::size_t capacity, int threads)
      : capacity_(capacity), threads_(threads) {
    CheckCapacity(capacity);
    const std::size_t slots = SlotsFor(capacity);
    slots_ = std::make_unique<std::atomic<std::uint32_t>[]>(slots);
    mask_ = slots - 1;
    Clear();
  }

  bool Insert(std::uint32_t key) override { return InsertKey(key); }
  bool Contains(std::uint32_t key) const override { return ContainsKey(key); }

  std::size_t Size() const override {
    return size_.load(std::memory_order_relaxed);
  }
  std::size_t Capacity() const override { return capacity_; }

  void Clear() override {
    for (std::size_t slot = 0; slot <= mask_; ++slot) {
      slots_[slot].store(kEmptyKey, std::memory_order_relaxed);
    }
    size_.store(0, std::memory_order_relaxed);
    reserved_.store(0, std::memory_order_relaxed);
  }

  std::size_t InsertAll(std::span<const std::uint32_t> keys) override {
    std::atomic<std::size_t> added{0};
    ForEachShare(keys.size(), [&](std::size_t begin, std::size_t end) {
      std::size_t mine = 0;
      VisitLookingAhead<true>(
          keys, begin, end, slots_.get(), mask_,
          [&](std::size_t i) { mine += InsertKey(keys[i]); });
      added.fetch_add(mine, std::memory_order_relaxed);
    });
    return added.load();
  }

  void ContainsAll(std::span<const std::uint32_t> keys,
                   std::span<std::uint8_t> found) const override {
    CheckFoundSize(keys, found);
    ForEachShare(keys.size(), [&](std::size_t begin, std::size_t end) {
      VisitLookingAhead<false>(
          keys, begin, end, slots_.get(), mask_,
          [&](std::size_t i) { found[i] = ContainsKey(keys[i]) ? 1 : 0; });
    });
  }

  std::vector<std::uint32_t> Keys() const override {
    std::vector<std::uint32_t> keys;
    for (std::size_t slot = 0; slot <= mask_; ++slot) {
      const std::uint32_t key = slots_[slot].load(std::memory_order_acquire);
      if (key != kEmptyKey) keys.push_back(key);
    }
    return keys;
  }

 private:
  // Not virtual, so that the bulk loops inline them.
  bool InsertKey(std::uint32_t key) {
    CheckKey(key);
    bool reserved = false;
    for (std::size_t slot = HomeSlot(key, mask_);; slot = (slot + 1) & mask_) {
      std::uint32_t seen = slots_[slot].load(std::memory_order_acquire);
      if (seen == key) return Release(reserved, false);
      if (seen != kEmptyKey) continue;
      if (!reserved) {
        if (reserved_.fetch_add(1, std::memory_order_relaxed) >= capacity_) {
          reserved_.fetch_sub(1, std::memory_order_relaxed);
          // With the capacity's worth of keys stored, no insert can succeed
          // any more and the table is final: the key is either among them
          // (another thread stored it meanwhile, possibly past this slot,
          // which another key took) or the set is full.
          if (size_.load(std::memory_order_acquire) >= capacity_) {
            if (ContainsKey(key)) return false;
            ThrowFull(capacity_);
          }
          // Fewer stored: the refusal is transient, some reservation in
          // flight belongs to a key that is already present and will be
          // given back. Probe again from the start.
          std::this_thread::yield();
          slot = HomeSlot(key, mask_) - 1;  // the loop's step adds 1 back
          continue;
        }
        reserved = true;
      }
      if (slots_[slot].compare_exchange_strong(seen, key,
                                               std::memory_order_acq_rel,
                                               std::memory_order_acquire)) {
        // Release: whoever reads the full size sees every stored key.
        size_.fetch_add(1, std::memory_order_release);
        return true;
      }
      if (seen == key) return Release(reserved, false);
      // Another key took the slot: go on, keeping the reservation.
    }
  }

  bool ContainsKey(std::uint32_t key) const {
    if (key == kEmptyKey) return false;
    for (std::size_t slot = HomeSlot(key, mask_);; slot = (slot + 1) & mask_) {
      const std::uint32_t seen = slots_[slot].load(std::memory_order_acquire);
      if (seen == key) return true;
      if (seen == kEmptyKey) return false;
    }
  }

  bool Release(bool reserved, bool result) {
    if (reserved) reserved_.fetch_sub(1, std::memory_order_relaxed);
    return result;
  }

  // Runs work(begin, end) over contiguous shares of [0, n) on the workers,
  // then rethrows the first error any of them threw.
  template <typename Work>
  void ForEachShare(std::size_t n, Work&& work) const {
    const int wanted = threads_ > 0 ? threads_ : omp_get_max_threads();
    const std::size_t workers = std::clamp<std::size_t>(
        n / kMinKeysPerThread, 1, static_cast<std::size_t>(wanted));
    if (workers == 1) {
      work(std::size_t{0}, n);
      return;
    }
    std::vector<std::exception_ptr> errors(workers);
    std::vector<std::thread> pool;
    pool.reserve(workers);
    for (std::size_t w = 0; w < workers; ++w) {
      pool.emplace_back([&, w] {
        try {
          work(n * w / workers, n * (w + 1) / workers);
        } catch (...) {
          errors[w] = std::current_exception();
        }
      });
    }
    for (std::thread& thread : pool) thread.join();
    for (const std::exception_ptr& error : errors) {
      if (error) std::rethrow_exception(error);
    }
  }

  std::size_t capacity_;
  int threads_;
  std::size_t mask_ = 0;
  std::unique_ptr<std::atomic<std::uint32_t>[]> slots_;
  std::atomic<std::size_t> size_{0};
  std::atomic<std::size_t> reserved_{0};
};

}  // namespace

std::unique_ptr<Set> MakeLockFreeWithThreads(std::size_t capacity,
                                             int threads) {
  return std::make_unique<LockFree>(capacity, threads);
}

std::unique_ptr<Set> MakeLockFree(std::size_t capacity) {
  return MakeLockFreeWithThreads(capacity, 0);
}

}  // namespace adj::hash_set
