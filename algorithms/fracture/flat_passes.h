#pragma once

// The per-item bodies of the flat formulation (flat_simulation.h): each is
// one item of a pass (a particle, a vertex, a new cluster, a target, a
// slot), callable from host and device code. Internal to the family.

#include <atomic>
#include <cstdint>

#include "algorithms/fracture/fracture.h"
#include "algorithms/fracture/split_mix.h"

namespace adj::fracture::flat {

// The grid as the passes read it, copied by value into each pass.
struct GridView {
  std::uint32_t nx = 0;
  std::uint32_t ny = 0;
  std::uint32_t nz = 0;
  std::uint32_t offset_count = 0;
  std::int8_t offsets[26][3] = {};
  std::int64_t delta[26] = {};
  const Coord* coords = nullptr;
  const std::uint32_t* node_of = nullptr;
  const std::uint32_t* node_particle = nullptr;
  const std::uint8_t* node_is_particle = nullptr;

  // Topology::ForEachIntactNeighbor: the same tests in the same order.
  template <typename Visit>
  ADJ_FRACTURE_HD void ForEachIntactNeighbor(std::uint32_t p,
                                             Visit&& visit) const {
    const Coord c = coords[p];
    const std::uint32_t node = node_of[p];
    for (std::uint32_t k = 0; k < offset_count; ++k) {
      const std::int8_t* o = offsets[k];
      if ((o[0] < 0 && c.x == 0) || (o[0] > 0 && c.x + 1 >= nx) ||
          (o[1] < 0 && c.y == 0) || (o[1] > 0 && c.y + 1 >= ny) ||
          (o[2] < 0 && c.z == 0) || (o[2] > 0 && c.z + 1 >= nz)) {
        continue;
      }
      const auto neighbor = static_cast<std::uint32_t>(
          static_cast<std::int64_t>(node) + delta[k]);
      if (node_is_particle[neighbor]) visit(node_particle[neighbor]);
    }
  }
};

// Row r of a Csr held as two arrays.
struct Rows {
  const std::uint32_t* offsets = nullptr;
  const std::uint32_t* indices = nullptr;
  ADJ_FRACTURE_HD std::uint32_t Begin(std::uint32_t r) const {
    return offsets[r];
  }
  ADJ_FRACTURE_HD std::uint32_t End(std::uint32_t r) const {
    return offsets[r + 1];
  }
  ADJ_FRACTURE_HD std::uint32_t Size(std::uint32_t r) const {
    return offsets[r + 1] - offsets[r];
  }
};

// Step 1 for particle p (SerialSimulation::Damaged).
ADJ_FRACTURE_HD inline bool Damaged(const GridView& grid, const float* x,
                                    const float* y, const float* z,
                                    std::uint32_t p, float limit) {
  if (!grid.node_is_particle[grid.node_of[p]]) return false;
  const float px = x[p];
  const float py = y[p];
  const float pz = z[p];
  bool damaged = false;
  grid.ForEachIntactNeighbor(p, [&](std::uint32_t q) {
    const float dx = px - x[q];
    const float dy = py - y[q];
    const float dz = pz - z[q];
    damaged = damaged || dx * dx + dy * dy + dz * dz > limit;
  });
  return damaged;
}

// The first position in the ascending keys[begin, end) holding `key`, or
// kNone.
ADJ_FRACTURE_HD inline std::uint32_t Find(const std::uint64_t* keys,
                                          std::uint32_t begin,
                                          std::uint32_t end,
                                          std::uint64_t key) {
  while (begin < end) {
    const std::uint32_t middle = begin + (end - begin) / 2;
    if (keys[middle] < key) {
      begin = middle + 1;
    } else {
      end = middle;
    }
  }
  return begin;
}

// Whether the ascending row r of `rows` holds `value`.
ADJ_FRACTURE_HD inline bool RowHolds(const Rows& rows, std::uint32_t r,
                                     std::uint32_t value) {
  std::uint32_t begin = rows.Begin(r);
  std::uint32_t end = rows.End(r);
  while (begin < end) {
    const std::uint32_t middle = begin + (end - begin) / 2;
    if (rows.indices[middle] < value) {
      begin = middle + 1;
    } else {
      end = middle;
    }
  }
  return begin < rows.End(r) && rows.indices[begin] == value;
}

// The first i with values[i] > value in the ascending values[0, n).
ADJ_FRACTURE_HD inline std::uint32_t UpperBound(const std::uint32_t* values,
                                                std::uint32_t n,
                                                std::uint32_t value) {
  std::uint32_t begin = 0;
  while (n > 0) {
    const std::uint32_t half = n / 2;
    if (values[begin + half] <= value) {
      begin += half + 1;
      n -= half + 1;
    } else {
      n = half;
    }
  }
  return begin;
}

// The sort key of a pair ordered by high, then low: (influenced cluster,
// particle) in the aggregated graph, (target, new cluster) in the search
// and the merges.
ADJ_FRACTURE_HD inline std::uint64_t PairKey(std::uint32_t high,
                                             std::uint32_t low) {
  return (static_cast<std::uint64_t>(high) << 32) | low;
}
ADJ_FRACTURE_HD inline std::uint32_t HighHalf(std::uint64_t key) {
  return static_cast<std::uint32_t>(key >> 32);
}

// Step 5's edges of vertex v (member `particle` of influenced cluster i,
// whose vertices hold sorted_keys[base_i, end_i) once sorted): the vertex
// of each intact neighbour in the same cluster, in neighbour order. Writes
// them to out when out is not null; returns how many.
ADJ_FRACTURE_HD inline std::uint32_t Edges(
    const GridView& grid, std::uint32_t i, std::uint32_t particle,
    const std::uint64_t* sorted_keys, const std::uint32_t* sorted_vertex,
    std::uint32_t base_i, std::uint32_t end_i, std::uint32_t* out) {
  std::uint32_t count = 0;
  grid.ForEachIntactNeighbor(particle, [&](std::uint32_t q) {
    const std::uint64_t key = PairKey(i, q);
    const std::uint32_t at = Find(sorted_keys, base_i, end_i, key);
    if (at == end_i || sorted_keys[at] != key) return;
    if (out != nullptr) out[count] = sorted_vertex[at];
    ++count;
  });
  return count;
}

// What the search reads of the table and the belong lists.
struct SearchView {
  GridView grid;
  Rows fresh;
  Rows belong;
  const std::uint8_t* valid = nullptr;
  std::uint32_t max_cluster_size = 0;
};

// data_parallel's walk for new cluster c: the first fit on `reserved` in
// the serial search order from member *resume on, or kNone; *resume is the
// member where it was found.
ADJ_FRACTURE_HD inline std::uint32_t Propose(const SearchView& view,
                                             const std::uint32_t* reserved,
                                             std::uint32_t c,
                                             std::uint32_t* resume) {
  const std::uint32_t begin = view.fresh.Begin(c);
  const std::uint32_t size = view.fresh.Size(c);
  for (std::uint32_t k = *resume; k < size; ++k) {
    std::uint32_t found = kNone;
    view.grid.ForEachIntactNeighbor(
        view.fresh.indices[begin + k], [&](std::uint32_t j) {
          if (found != kNone) return;
          for (std::uint32_t e = view.belong.Begin(j); e < view.belong.End(j);
               ++e) {
            const std::uint32_t nc = view.belong.indices[e];
            if (view.valid[nc] &&
                static_cast<std::uint64_t>(reserved[nc]) + size <
                    view.max_cluster_size) {
              found = nc;
              return;
            }
          }
        });
    if (found != kNone) {
      *resume = k;
      return found;
    }
  }
  return kNone;
}

// 32-bit atomics of the published protocol: relaxed loads and
// compare-and-swap (device atomics, std::atomic_ref on the host).
ADJ_FRACTURE_HD inline std::uint32_t LoadRelaxed(const std::uint32_t* at) {
#if defined(__CUDA_ARCH__)
  return *static_cast<const volatile std::uint32_t*>(at);
#else
  return std::atomic_ref<const std::uint32_t>(*at).load(
      std::memory_order_relaxed);
#endif
}

ADJ_FRACTURE_HD inline void StoreRelease(std::uint32_t* at,
                                         std::uint32_t value) {
#if defined(__CUDA_ARCH__)
  __threadfence();
  *static_cast<volatile std::uint32_t*>(at) = value;
#else
  std::atomic_ref<std::uint32_t>(*at).store(value, std::memory_order_release);
#endif
}

// Returns the value found at `at`; it became `desired` when that equals
// `expected`.
ADJ_FRACTURE_HD inline std::uint32_t CompareAndSwap(std::uint32_t* at,
                                                    std::uint32_t expected,
                                                    std::uint32_t desired) {
#if defined(__CUDA_ARCH__)
  const std::uint32_t seen = atomicCAS(at, expected, desired);
  __threadfence();
  return seen;
#else
  std::atomic_ref<std::uint32_t>(*at).compare_exchange_strong(
      expected, desired, std::memory_order_acq_rel);
  return expected;
#endif
}

// The published search's work item: member entry e of new cluster c
// (docs/sources/cutting-simulation-update.md, step 7's Try, with lock and
// searched per new cluster).
struct PublishedSearch {
  SearchView view;
  std::uint32_t* reserved = nullptr;
  std::uint32_t* lock = nullptr;
  std::uint32_t* searched = nullptr;
  std::uint32_t* target = nullptr;

  ADJ_FRACTURE_HD void Item(std::uint32_t c, std::uint32_t e) const {
    if (LoadRelaxed(&searched[c])) return;
    const std::uint32_t size = view.fresh.Size(c);
    bool done = false;
    view.grid.ForEachIntactNeighbor(
        view.fresh.indices[e], [&](std::uint32_t j) {
          for (std::uint32_t b = view.belong.Begin(j);
               !done && b < view.belong.End(j); ++b) {
            if (LoadRelaxed(&searched[c])) {
              done = true;
              return;
            }
            const std::uint32_t nc = view.belong.indices[b];
            if (view.valid[nc]) Try(c, nc, size);
          }
        });
  }

  ADJ_FRACTURE_HD void Try(std::uint32_t c, std::uint32_t nc,
                           std::uint32_t size) const {
    while (true) {
      if (LoadRelaxed(&searched[c])) return;
      const std::uint32_t old = LoadRelaxed(&reserved[nc]);
      const std::uint64_t grown = static_cast<std::uint64_t>(old) + size;
      if (grown >= view.max_cluster_size) return;
      while (true) {
        if (LoadRelaxed(&searched[c])) return;
        if (CompareAndSwap(&lock[c], 0, 1) == 0) {
          if (CompareAndSwap(&reserved[nc], old,
                             static_cast<std::uint32_t>(grown)) == old) {
            target[c] = nc;
            StoreRelease(&searched[c], 1);
          }
          StoreRelease(&lock[c], 0);
          break;
        }
      }
    }
  }
};

// Whether p is among members[0, count).
ADJ_FRACTURE_HD inline bool Holds(const std::uint32_t* members,
                                  std::uint32_t count, std::uint32_t p) {
  for (std::uint32_t k = 0; k < count; ++k) {
    if (members[k] == p) return true;
  }
  return false;
}

// Step 10 for one inserted cluster (SerialSimulation::Expand): members are
// row[0, size) then grown[0, returned); `candidates` has room for
// min_cluster_size entries. Returns how many particles it added.
ADJ_FRACTURE_HD inline std::uint32_t Grow(
    const GridView& grid, const std::uint32_t* row, std::uint32_t size,
    std::uint32_t min_cluster_size, bool breadth_first, std::uint64_t seed,
    std::uint32_t* grown, std::uint32_t* candidates) {
  std::uint32_t added = 0;
  const auto member = [&](std::uint32_t k) {
    return k < size ? row[k] : grown[k - size];
  };
  const auto holds = [&](std::uint32_t q) {
    return Holds(row, size, q) || Holds(grown, added, q);
  };
  if (breadth_first) {
    for (std::uint32_t head = 0;
         head < size + added && size + added < min_cluster_size; ++head) {
      grid.ForEachIntactNeighbor(member(head), [&](std::uint32_t q) {
        if (size + added >= min_cluster_size || holds(q)) return;
        grown[added++] = q;
      });
    }
    return added;
  }
  detail::SplitMix64 random(seed);
  std::uint32_t count = size;
  for (std::uint32_t k = 0; k < size; ++k) candidates[k] = row[k];
  while (size + added < min_cluster_size && count > 0) {
    const auto k = static_cast<std::uint32_t>(random.Next() % count);
    std::uint32_t free[26];
    std::uint32_t free_count = 0;
    grid.ForEachIntactNeighbor(candidates[k], [&](std::uint32_t q) {
      if (!holds(q)) free[free_count++] = q;
    });
    if (free_count == 0) {
      candidates[k] = candidates[--count];
      continue;
    }
    const std::uint32_t q =
        free[static_cast<std::uint32_t>(random.Next() % free_count)];
    grown[added++] = q;
    candidates[count++] = q;
  }
  return added;
}

// RestLocal's rule for members[0, n) (fracture.h), written to out.
ADJ_FRACTURE_HD inline void WriteRestLocal(const Coord* coords,
                                           const std::uint32_t* members,
                                           std::uint32_t n, Vec3* out) {
  std::int64_t sx = 0;
  std::int64_t sy = 0;
  std::int64_t sz = 0;
  for (std::uint32_t k = 0; k < n; ++k) {
    sx += coords[members[k]].x;
    sy += coords[members[k]].y;
    sz += coords[members[k]].z;
  }
  const double count = static_cast<double>(n);
  const double mx = static_cast<double>(sx) / count;
  const double my = static_cast<double>(sy) / count;
  const double mz = static_cast<double>(sz) / count;
  for (std::uint32_t k = 0; k < n; ++k) {
    const Coord c = coords[members[k]];
    out[k] = Vec3{static_cast<float>(c.x - mx), static_cast<float>(c.y - my),
                  static_cast<float>(c.z - mz)};
  }
}

}  // namespace adj::fracture::flat
