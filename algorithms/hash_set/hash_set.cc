#include "algorithms/hash_set/hash_set.h"

#include <array>
#include <bit>
#include <string>

#include "algorithms/hash_set/variants.h"

namespace adj::hash_set {

std::string TraitsText(const Traits& traits) {
  return traits.concurrent ? "concurrent=yes" : "";
}

std::span<const Variant> Variants() {
  static constexpr std::array kVariants = {
    Variant{"std_unordered", Backend::kSerial, Origin::kBaseline,
            "std::unordered_set<uint32_t> behind the same "
            "capacity limit",
            &MakeStdUnordered},
    Variant{"open_addressing", Backend::kSerial, Origin::kOurs,
            "one uint32 array, linear probing from a Fibonacci hash, "
            "0xFFFFFFFF for free slots; bulk operations prefetch the home "
            "slot of the key 16 ahead",
            &MakeOpenAddressing},
    Variant{"lock_free",
            Backend::kOpenMp,
            Origin::kOurs,
            "open_addressing on std::atomic slots: a free slot is claimed "
            "with compare-and-swap, a capacity reservation counter bounds "
            "the probes; bulk inserts and lookups on std::thread workers "
            "(omp_get_max_threads of them), prefetching as open_addressing",
            &MakeLockFree,
            "open_addressing",
            nullptr,
            {},
            nullptr,
            Traits{/*concurrent=*/true}},
    Variant{.name = "absl_flat_hash_set",
            .backend = Backend::kSerial,
            .origin = Origin::kPeer,
            .description =
                "absl::flat_hash_set<uint32_t> (Swiss tables), reserved for "
                "the capacity up front, behind the same capacity limit",
            .run = &MakeAbslFlatHashSet,
            .peer = &peers::Abseil},
    Variant{.name = "tbb_concurrent_set",
            .backend = Backend::kTbb,
            .origin = Origin::kPeer,
            .description =
                "tbb::concurrent_unordered_set<uint32_t> (split-ordered "
                "lists), a capacity reservation counter before each new "
                "key; bulk operations by tbb::parallel_for",
            .run = &MakeTbbConcurrentSet,
            .threads = &peers::OneTbbThreads,
            .traits = Traits{/*concurrent=*/true},
            .peer = &peers::OneTbb},
    Variant{.name = "tbb_concurrent_hash_map",
            .backend = Backend::kTbb,
            .origin = Origin::kPeer,
            .description =
                "tbb::concurrent_hash_map<uint32_t, empty> as a set "
                "(element locks by accessor), rehashed for the capacity, a "
                "capacity reservation counter before each new key; bulk "
                "operations by tbb::parallel_for",
            .run = &MakeTbbConcurrentHashMap,
            .threads = &peers::OneTbbThreads,
            .traits = Traits{/*concurrent=*/true},
            .peer = &peers::OneTbb},
#if ADJ_HAVE_CUDA
    Variant{"cuda_lock_free", Backend::kCuda, Origin::kOurs,
            "lock_free on the GPU: one thread per key, atomicCAS claims a "
            "slot, atomicAdd reserves capacity; the table lives on the "
            "device, keys and answers cross in host memory",
            &MakeCudaLockFree},
#endif
  };
  return kVariants;
}

std::size_t SlotsFor(std::size_t capacity) {
  return std::bit_ceil(capacity + capacity / 4 + 1);
}

void CheckCapacity(std::size_t capacity) {
  if (capacity == 0 || capacity > (std::size_t{1} << 31)) {
    throw Error("hash_set: capacity " + std::to_string(capacity) +
                " is not in 1 .. 2^31");
  }
}

void CheckKey(std::uint32_t key) {
  if (key == kEmptyKey) {
    throw Error("hash_set: key 0xFFFFFFFF is reserved as the empty marker");
  }
}

void ThrowFull(std::size_t capacity) {
  throw Error("hash_set: the set is full (capacity " +
              std::to_string(capacity) + " keys)");
}

void CheckFoundSize(std::span<const std::uint32_t> keys,
                    std::span<const std::uint8_t> found) {
  if (found.size() != keys.size()) {
    throw Error("hash_set: " + std::to_string(keys.size()) +
                " keys need as many results, got " +
                std::to_string(found.size()));
  }
}

std::size_t SerialBulkSet::InsertAll(std::span<const std::uint32_t> keys) {
  std::size_t added = 0;
  for (const std::uint32_t key : keys) added += Insert(key) ? 1 : 0;
  return added;
}

void SerialBulkSet::ContainsAll(std::span<const std::uint32_t> keys,
                                std::span<std::uint8_t> found) const {
  CheckFoundSize(keys, found);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    found[i] = Contains(keys[i]) ? 1 : 0;
  }
}

}  // namespace adj::hash_set
