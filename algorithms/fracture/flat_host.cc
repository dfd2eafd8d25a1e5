#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "algorithms/compaction/compaction.h"
#include "algorithms/connected_components/connected_components.h"
#include "algorithms/fracture/flat_simulation.h"
#include "algorithms/fracture/variants.h"
#include "algorithms/hash_set/hash_set.h"
#include "algorithms/prefix_sum/prefix_sum.h"

namespace adj::fracture {
namespace {

// The flat passes on the calling thread, one item after another, with the
// suite's serial scan, compaction, open-addressing set and ECL-CC between
// them.
class HostBackend {
 public:
  template <typename T>
  class Array {
   public:
    T* data() { return items_.data(); }
    const T* data() const { return items_.data(); }
    std::size_t size() const { return items_.size(); }
    void Resize(std::size_t n) { items_.resize(n); }

   private:
    std::vector<T> items_;
  };

  template <typename Body>
  void ForEach(std::uint32_t n, Body&& body) {
    for (std::uint32_t i = 0; i < n; ++i) body(i);
  }

  std::uint32_t Scan(const std::uint32_t* in, std::uint32_t n,
                     std::uint32_t* out) {
    out[0] = 0;
    return scan_->run(prefix_sum::Kind::kInclusive, {in, n}, {out + 1, n});
  }

  std::uint32_t Compact(const std::uint32_t* values, const std::uint8_t* drop,
                        std::uint32_t n, std::uint32_t* out) {
    return static_cast<std::uint32_t>(
        compact_->run({values, n}, {drop, n}, {out, n}));
  }

  // Least significant digit first, 8 bits a pass over the end_bit bits that
  // hold the keys, each pass a stable counting sort: the device's radix
  // sort, item by item.
  void SortPairs(std::uint64_t* keys, std::uint32_t* values, std::uint32_t n,
                 int end_bit) {
    sorted_keys_.resize(n);
    sorted_values_.resize(n);
    for (int shift = 0; shift < end_bit; shift += 8) {
      std::uint32_t count[257] = {};
      for (std::uint32_t k = 0; k < n; ++k) {
        ++count[((keys[k] >> shift) & 0xFF) + 1];
      }
      for (int digit = 0; digit < 256; ++digit) {
        count[digit + 1] += count[digit];
      }
      for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint32_t at = count[(keys[k] >> shift) & 0xFF]++;
        sorted_keys_[at] = keys[k];
        sorted_values_[at] = values[k];
      }
      std::copy(sorted_keys_.begin(), sorted_keys_.end(), keys);
      std::copy(sorted_values_.begin(), sorted_values_.end(), values);
    }
  }

  void Labels(const std::uint32_t* offsets, const std::uint32_t* indices,
              std::uint32_t n, std::uint32_t* labels) {
    graph_.offsets.assign(offsets, offsets + n + 1);
    graph_.indices.assign(indices, indices + offsets[n]);
    components_->run_trusted(graph_, labelled_);
    std::copy(labelled_.labels.begin(), labelled_.labels.end(), labels);
  }

  class RemovedSetOf {
   public:
    struct Lookup {
      const hash_set::Set* set;
      bool operator()(std::uint32_t key) const { return set->Contains(key); }
    };
    explicit RemovedSetOf(std::unique_ptr<hash_set::Set> set)
        : set_(std::move(set)) {}
    Lookup View() const { return {set_.get()}; }

   private:
    std::unique_ptr<hash_set::Set> set_;
  };
  RemovedSetOf RemovedSet(const std::uint32_t* keys, std::uint32_t n) {
    auto set = open_addressing_->run(std::max<std::uint32_t>(n, 1));
    set->InsertAll({keys, n});
    return RemovedSetOf(std::move(set));
  }

  template <typename T>
  void Copy(T* to, const T* from, std::size_t n) {
    if (n > 0) std::memcpy(to, from, n * sizeof(T));
  }
  template <typename T>
  void Upload(T* to, const T* host, std::size_t n) {
    Copy(to, host, n);
  }
  template <typename T>
  void Download(T* host, const T* from, std::size_t n) {
    Copy(host, from, n);
  }
  void Sync() {}

 private:
  const prefix_sum::Variant* scan_ =
      FindVariant(prefix_sum::Variants(), "serial");
  const compaction::Variant* compact_ =
      FindVariant(compaction::Variants(), "serial");
  const hash_set::Variant* open_addressing_ =
      FindVariant(hash_set::Variants(), "open_addressing");
  const connected_components::Variant* components_ =
      FindVariant(connected_components::Variants(), "ecl_cc");
  std::vector<std::uint64_t> sorted_keys_;
  std::vector<std::uint32_t> sorted_values_;
  Csr graph_;
  connected_components::Components labelled_;
};

}  // namespace

std::unique_ptr<Simulation> StartFlatHost(const State& initial,
                                          const Params& params) {
  Check(initial, params);
  return std::make_unique<flat::FlatSimulation<HostBackend>>(initial, params,
                                                             false);
}

std::unique_ptr<Simulation> StartFlatHostPublished(const State& initial,
                                                   const Params& params) {
  Check(initial, params);
  return std::make_unique<flat::FlatSimulation<HostBackend>>(initial, params,
                                                             true);
}

}  // namespace adj::fracture
