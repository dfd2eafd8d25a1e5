// Ours on CUDA: sorted_gather's three passes, one thread per particle.
// The particles are radix-sorted by their cell of h in the container (CUB,
// stable: ids ascending inside a cell, keys x + nx (y + ny z)) and
// gathered into sorted arrays, position and mass packed in one float4,
// velocity and pressure in another, so that a neighbour costs one or two
// 16-byte loads; each thread finds the 9 rows of cells around its own
// (each row's cells x - 1 .. x + 1 one run of sorted positions, its ends
// read from a table of cell starts, or binary-searched in the keys where
// the container has too many cells for a table) and sums its density, then
// in a second kernel its force and integrates, writing its particle's
// place in the state's order (into a second set of arrays: a step's input
// survives it). The same kernels step a fluid kept on the device
// (DeviceState, device_state.cu) and the variant table's rows, whose
// state is in host memory in and out: those copy it through page-locked
// staging on a stream of their own, in chunks that overlap the host's
// copies (on OpenMP threads: staging.h) with the bus's.
// StepReport::device_seconds is the sort and the kernels alone (CUDA
// events). The force kernel also flags particles whose result may be
// blown up, so that the host scans the state for the blow-up only when
// one is flagged.
#include <algorithm>
#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/sph/device_step.cuh"
#include "algorithms/sph/physics.h"
#include "algorithms/sph/sorted_gather.h"
#include "algorithms/sph/sph.h"
#include "algorithms/sph/staging.h"
#include "algorithms/sph/variants.h"

namespace adj::sph {
namespace device {
namespace {

constexpr int kThreads = 256;

unsigned BlocksFor(std::size_t items) {
  return static_cast<unsigned>((items + kThreads - 1) / kThreads);
}

// The container's cells of h.
struct Grid {
  double lo[3];
  double h;
  long long nx, ny, nz;
};

__device__ unsigned long long KeyOf(const Grid& g, long long x, long long y,
                                    long long z) {
  return static_cast<unsigned long long>(x + g.nx * (y + g.ny * z));
}

// The state's arrays, in its own order.
struct Unsorted {
  float* x;
  float* y;
  float* z;
  float* vx;
  float* vy;
  float* vz;
  float* mass;
  float* density;
};

__global__ void CellKeys(Unsorted in, std::size_t n, Grid g,
                         unsigned long long* keys, std::uint32_t* ids) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const long long x = static_cast<long long>(floor((in.x[i] - g.lo[0]) / g.h));
  const long long y = static_cast<long long>(floor((in.y[i] - g.lo[1]) / g.h));
  const long long z = static_cast<long long>(floor((in.z[i] - g.lo[2]) / g.h));
  keys[i] = KeyOf(g, x, y, z);
  ids[i] = static_cast<std::uint32_t>(i);
}

// The sorted fluid as the kernels read it: a neighbour's position and mass
// in one 16-byte load, its velocity and pressure in another.
struct Packed {
  float4* position_mass;      // x, y, z, m
  float4* velocity_pressure;  // vx, vy, vz, k (rho - rho_0)
  float* inverse;             // 1 / rho
  float* density;
};

// Sorted place k <- particle ids[k]; for the collapsed pass also its
// pressure and 1 / rho from the densities of t-1 (in.density).
__global__ void Gather(Unsorted in, const std::uint32_t* ids, std::size_t n,
                       bool collapsed, float stiffness, float rest_density,
                       Packed out) {
  const std::size_t k = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (k >= n) return;
  const std::uint32_t i = ids[k];
  out.position_mass[k] = make_float4(in.x[i], in.y[i], in.z[i], in.mass[i]);
  float pressure = 0;
  if (collapsed) {
    const float density = in.density[i];
    pressure = stiffness * (density - rest_density);
    out.inverse[k] = 1.0f / density;
  }
  out.velocity_pressure[k] =
      make_float4(in.vx[i], in.vy[i], in.vz[i], pressure);
}

// The first position whose key is >= key in the ascending keys[0, n).
__device__ std::uint32_t LowerBound(const unsigned long long* keys,
                                    std::uint32_t n, unsigned long long key) {
  std::uint32_t begin = 0;
  while (n > 0) {
    const std::uint32_t half = n / 2;
    if (keys[begin + half] < key) {
      begin += half + 1;
      n -= half + 1;
    } else {
      n = half;
    }
  }
  return begin;
}

// Where a cell's particles begin among the sorted ones (the first sorted
// position whose key is >= the cell's), two ways: a table with an entry per
// cell of the container and one past the last (where the container has few
// cells for the particles), or a binary search over the sorted keys.
struct CellTable {
  const std::uint32_t* __restrict__ start;
  __device__ std::uint32_t operator()(unsigned long long key) const {
    return start[key];
  }
};
struct KeySearch {
  const unsigned long long* __restrict__ keys;
  std::uint32_t n;
  __device__ std::uint32_t operator()(unsigned long long key) const {
    return LowerBound(keys, n, key);
  }
};

__global__ void FillCellTable(const unsigned long long* keys, std::uint32_t n,
                              unsigned long long cells, std::uint32_t* start) {
  const unsigned long long cell =
      blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  if (cell > cells) return;
  start[cell] = LowerBound(keys, n, cell);
}

// Calls visit(begin, end) for the 9 rows of cells around the cell `key`.
template <typename Starts, typename Visit>
__device__ void ForEachRow(unsigned long long key, const Grid& g,
                           const Starts& starts, Visit&& visit) {
  const long long cx = static_cast<long long>(key % g.nx);
  const long long cy = static_cast<long long>((key / g.nx) % g.ny);
  const long long cz = static_cast<long long>(key / (g.nx * g.ny));
  const long long x_lo = cx > 0 ? cx - 1 : 0;
  const long long x_hi = cx + 1 < g.nx ? cx + 1 : g.nx - 1;
  for (long long dz = -1; dz <= 1; ++dz) {
    for (long long dy = -1; dy <= 1; ++dy) {
      const long long y = cy + dy;
      const long long z = cz + dz;
      if (y < 0 || y >= g.ny || z < 0 || z >= g.nz) continue;
      visit(starts(KeyOf(g, x_lo, y, z)), starts(KeyOf(g, x_hi, y, z) + 1));
    }
  }
}

// Neighbour lists, column-major (neighbour c of sorted particle k at
// c n + k, so that a warp's lanes read one row of memory), at most
// `capacity` each; count[k] is the true count even where it overflows.
struct Lists {
  std::uint32_t* neighbors;
  std::uint32_t* count;
  std::uint32_t capacity;
  unsigned long long* longest;
};

// The sum over the warp's lanes, in lane 0 (every lane of the warp calls
// it).
__device__ unsigned long long WarpSum(unsigned long long value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  return value;
}

template <typename Starts>
__global__ void Densities(Packed f, const unsigned long long* __restrict__ keys,
                          std::uint32_t n, Grid g, Starts starts,
                          detail::PairConstants c, float stiffness,
                          float rest_density, bool list, Lists lists,
                          unsigned long long* candidates) {
  const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long tested = 0;
  // No early return: every lane takes part in the warp sum below.
  if (k < n) {
    const float4* __restrict__ position_mass = f.position_mass;
    const float4 own = position_mass[k];
    float density = 0;
    std::uint32_t listed = 0;
    ForEachRow(keys[k], g, starts, [&](std::uint32_t begin, std::uint32_t end) {
      tested += end - begin;
      for (std::uint32_t j = begin; j < end; ++j) {
        const float4 other = position_mass[j];
        const float dx = own.x - other.x;
        const float dy = own.y - other.y;
        const float dz = own.z - other.z;
        const float r2 = dx * dx + dy * dy + dz * dz;
        if (r2 >= c.h2) continue;
        const float d = c.h2 - r2;
        density += other.w * (c.poly6 * (d * d * d));
        if (list && j != k) {
          if (listed < lists.capacity) {
            lists.neighbors[std::size_t{listed} * n + k] = j;
          }
          ++listed;
        }
      }
    });
    f.density[k] = density;
    f.velocity_pressure[k].w = stiffness * (density - rest_density);
    f.inverse[k] = 1.0f / density;
    if (list) {
      lists.count[k] = listed;
      if (listed > lists.capacity) {
        atomicMax(lists.longest, static_cast<unsigned long long>(listed));
      }
    }
  }
  tested = WarpSum(tested);
  if (threadIdx.x % 32 == 0) atomicAdd(candidates, tested);
}

// What a force kernel reads of particle k and its neighbours.
struct Neighborhood {
  const float4* __restrict__ position_mass;
  const float4* __restrict__ velocity_pressure;
  const float* __restrict__ inverse;
};

// The contract's acceleration of sorted particle k (own, own_v, 1 / rho_k
// = ik) by j != k within h, added to a; the pair's squared distance is
// r2 < h^2 and d = x_k - x_j.
__device__ void AddPair(const Neighborhood& f, const detail::PairConstants& c,
                        const float4& own_v, float ik, std::uint32_t j,
                        float mass_j, float dx, float dy, float dz, float r2,
                        detail::Vec3& a) {
  const float4 other_v = f.velocity_pressure[j];
  const float r = sqrtf(r2);
  const float s = c.h - r;
  const float push =
      r > 0 ? c.half_spiky * (own_v.w + other_v.w) * (s * s) / r : 0.0f;
  const float drag = c.drag * s;
  const float weight = mass_j * (ik * f.inverse[j]);
  a.x += weight * (push * dx + drag * (other_v.x - own_v.x));
  a.y += weight * (push * dy + drag * (other_v.y - own_v.y));
  a.z += weight * (push * dz + drag * (other_v.z - own_v.z));
}

// Whether a finished particle is not finite (detail::CheckFinished then
// names the first such one from the state on the host).
__device__ bool NotFinite(float x, float y, float z, float vx, float vy,
                          float vz, float density) {
  return !(isfinite(x) && isfinite(y) && isfinite(z) && isfinite(vx) &&
           isfinite(vy) && isfinite(vz) && isfinite(density));
}

// One thread per sorted particle: its acceleration (and, collapsed, its
// density) from the rows of cells around it or from its list, then the
// integration, written to the particle's place in the state's order.
template <Form kForm, typename Starts>
__global__ void ForcesAndIntegration(
    Neighborhood f, const float* __restrict__ density,
    const unsigned long long* __restrict__ keys,
    const std::uint32_t* __restrict__ ids, std::uint32_t n, Grid g,
    Starts starts, Lists lists, detail::PairConstants c, Params params,
    Unsorted out, double move_bound2, double* overstep_step2,
    unsigned long long* counts) {
  const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long pairs = 0;
  unsigned long long tested = 0;
  // No early return: every lane takes part in the warp sums below.
  if (k < n) {
    const float4 own = f.position_mass[k];
    const float4 own_v = f.velocity_pressure[k];
    const float ik = f.inverse[k];
    detail::Vec3 a;
    float new_density = 0;
    const auto visit = [&](std::uint32_t j) {
      const float4 other = f.position_mass[j];
      const float dx = own.x - other.x;
      const float dy = own.y - other.y;
      const float dz = own.z - other.z;
      const float r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= c.h2) return;
      if constexpr (kForm == Form::kCollapsed) {
        const float d = c.h2 - r2;
        new_density += other.w * (c.poly6 * (d * d * d));
      }
      if (j == k) return;
      AddPair(f, c, own_v, ik, j, other.w, dx, dy, dz, r2, a);
      ++pairs;
    };
    if constexpr (kForm == Form::kNeighborList) {
      // A list longer than its room holds only its first `capacity`
      // entries (the step is run again with room for the longest).
      const std::uint32_t listed = min(lists.count[k], lists.capacity);
      tested += listed;
      for (std::uint32_t l = 0; l < listed; ++l) {
        visit(lists.neighbors[std::size_t{l} * n + k]);
      }
    } else {
      ForEachRow(keys[k], g, starts,
                 [&](std::uint32_t begin, std::uint32_t end) {
                   tested += end - begin;
                   for (std::uint32_t j = begin; j < end; ++j) visit(j);
                 });
    }
    float x = own.x, y = own.y, z = own.z;
    float vx = own_v.x, vy = own_v.y, vz = own_v.z;
    // The step before the wall's response, rounded as the host's is
    // (--fmad=false): the blow-up check's measure.
    const double step2 = detail::Integrate(params, a, x, y, z, vx, vy, vz);
    const std::uint32_t i = ids[k];
    out.x[i] = x;
    out.y[i] = y;
    out.z[i] = z;
    out.vx[i] = vx;
    out.vy[i] = vy;
    out.vz[i] = vz;
    const float rho = kForm == Form::kCollapsed ? new_density : density[k];
    out.density[i] = rho;
    if (NotFinite(x, y, z, vx, vy, vz, rho)) {
      atomicMin(&counts[3], static_cast<unsigned long long>(i));
    }
    if (!(step2 <= move_bound2)) {
      // Each overstepping particle leaves its step at its own place; the
      // host reads the lowest one's.
      overstep_step2[i] = step2;
      atomicMin(&counts[4], static_cast<unsigned long long>(i));
    }
  }
  // counts[0]: interactions; counts[1]: candidates of every pass (a list's
  // entries are its force pass's). One atomic per warp, not per particle;
  // counts[3] and [4], the first particle not finite and the first that
  // overstepped, take one per such particle (none in a step that did not
  // blow up).
  pairs = WarpSum(pairs);
  tested = WarpSum(tested);
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&counts[0], pairs);
    atomicAdd(&counts[1], tested);
  }
}

int BitsFor(unsigned long long cells) {
  int bits = 1;
  while (bits < 64 && (cells >> bits) != 0) ++bits;
  return bits;
}

// The container's cells of h and how a step finds where each begins.
struct Geometry {
  Grid grid;
  unsigned long long cells;
  // A table of cell starts where it costs at most 32 bytes a particle (plus
  // 256 KiB), else binary searches over the sorted keys.
  bool table;
  int end_bit;  // of the sort's keys
};

Geometry GeometryOf(const Params& params, std::size_t n) {
  const detail::Cell last =
      detail::CellOf(params, params.container.hi[0], params.container.hi[1],
                     params.container.hi[2]);
  const Grid grid{
      {params.container.lo[0], params.container.lo[1], params.container.lo[2]},
      params.h,
      last.x + 1LL,
      last.y + 1LL,
      last.z + 1LL};
  const auto cells =
      static_cast<unsigned long long>(grid.nx * grid.ny * grid.nz);
  return {grid, cells, cells + 1 <= 8ULL * n + (1ULL << 16), BitsFor(cells)};
}

std::size_t SortTempBytes(std::size_t n, int end_bit) {
  std::size_t bytes = 0;
  cuda::Check(cub::DeviceRadixSort::SortPairs(
                  nullptr, bytes, static_cast<unsigned long long*>(nullptr),
                  static_cast<unsigned long long*>(nullptr),
                  static_cast<std::uint32_t*>(nullptr),
                  static_cast<std::uint32_t*>(nullptr), static_cast<int>(n), 0,
                  end_bit),
              "cub::DeviceRadixSort::SortPairs");
  return bytes;
}

// The neighbours a list holds at first; a step whose longest list is
// longer runs again with room for it.
constexpr std::uint32_t kListLength = 64;

// Floats a copy through the staging buffer moves at once: small enough
// that the host's copy of one chunk and the bus's of the previous overlap
// for most of an array, large enough that each copy's fixed cost is
// small beside its bytes.
constexpr std::size_t kChunk = std::size_t{1} << 20;

// Calls visit(buffer, count) for every device buffer a step of `n`
// particles in `form` needs, with the count of elements it needs.
template <typename Visit>
void ForEachBuffer(Stepper& s, std::size_t n, const Geometry& geometry,
                   Form form, std::size_t temp_bytes, Visit&& visit) {
  visit(s.arrays[0], 7 * n);
  visit(s.arrays[1], 7 * n);
  visit(s.mass, n);
  visit(s.position_mass, n);
  visit(s.velocity_pressure, n);
  visit(s.inverse, n);
  visit(s.density, n);
  visit(s.keys, n);
  visit(s.sorted_keys, n);
  visit(s.counter, std::size_t{5});
  visit(s.ids, n);
  visit(s.sorted_ids, n);
  visit(s.cell_start, geometry.table ? geometry.cells + 1 : 0);
  if (form == Form::kNeighborList) {
    visit(s.neighbor_count, n);
    visit(s.neighbors, n * s.list_capacity);
  }
  visit(s.temp, temp_bytes);
}

// The state's arrays in one set of 7 (and the masses), as kernels read
// them.
Unsorted ArraysOf(const cuda::DeviceBuffer<float>& arrays,
                  const cuda::DeviceBuffer<float>& mass, std::size_t n) {
  float* a = arrays.data();
  return {a,         a + n,     a + 2 * n,   a + 3 * n,
          a + 4 * n, a + 5 * n, mass.data(), a + 6 * n};
}

// What one step's kernels read, once per step.
struct Launch {
  std::uint32_t n;
  Grid grid;
  Packed packed;
  detail::PairConstants constants;
  const Params* params;
  Unsorted out;
  double move_bound2;
  cudaStream_t stream;
};

// The density pass (unless collapsed) and the force pass with cell starts
// found by `starts`.
template <Form kForm, typename Starts>
void LaunchPasses(Stepper& s, const Launch& l, const Starts& starts) {
  const Params& params = *l.params;
  const Lists lists{s.neighbors.data(), s.neighbor_count.data(),
                    s.list_capacity, s.counter.data() + 2};
  if constexpr (kForm != Form::kCollapsed) {
    const bool list = kForm == Form::kNeighborList;
    Densities<<<BlocksFor(l.n), kThreads, 0, l.stream>>>(
        l.packed, s.sorted_keys.data(), l.n, l.grid, starts, l.constants,
        params.stiffness, params.rest_density, list, lists,
        s.counter.data() + 1);
  }
  ForcesAndIntegration<kForm><<<BlocksFor(l.n), kThreads, 0, l.stream>>>(
      Neighborhood{l.packed.position_mass, l.packed.velocity_pressure,
                   l.packed.inverse},
      l.packed.density, s.sorted_keys.data(), s.sorted_ids.data(), l.n, l.grid,
      starts, lists, l.constants, params, l.out, l.move_bound2,
      // The unsorted keys are free once sorted: oversteps' steps go there.
      reinterpret_cast<double*>(s.keys.data()), s.counter.data());
}

template <Form kForm>
void LaunchPasses(Stepper& s, const Launch& l, bool table) {
  if (table) {
    LaunchPasses<kForm>(s, l, CellTable{s.cell_start.data()});
  } else {
    LaunchPasses<kForm>(s, l, KeySearch{s.sorted_keys.data(), l.n});
  }
}

}  // namespace

void Reserve(Stepper& s, std::size_t n, const Params& params, Form form) {
  if (n > std::numeric_limits<std::uint32_t>::max()) {
    throw Error("sph cuda: " + std::to_string(n) +
                " particles; sorted places are 32-bit");
  }
  const Geometry geometry = GeometryOf(params, n);
  if (form == Form::kNeighborList) {
    s.list_capacity = std::max(s.list_capacity, kListLength);
  }
  const std::size_t temp_bytes = n > 0 ? SortTempBytes(n, geometry.end_bit) : 0;
  // What must be allocated, each allocation rounded up to the driver's 2
  // MiB pages, against what is free once the buffers it replaces are.
  constexpr std::size_t kPage = std::size_t{2} << 20;
  std::size_t needed = 0;
  std::size_t replaced = 0;
  ForEachBuffer(s, n, geometry, form, temp_bytes,
                [&](auto& buffer, std::size_t count) {
                  if (buffer.size() >= count) return;
                  const std::size_t bytes = count * sizeof(*buffer.data());
                  needed += (bytes + kPage - 1) / kPage * kPage;
                  replaced += buffer.size() * sizeof(*buffer.data());
                });
  if (needed > 0) {
    std::size_t free = 0;
    std::size_t total = 0;
    cuda::Check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    if (needed > free + replaced) {
      throw Error("sph cuda: " + std::to_string(n) + " particles need " +
                  std::to_string(needed >> 20) +
                  " MiB more of device memory; " +
                  std::to_string((free + replaced) >> 20) + " MiB are free");
    }
  }
  s.n = n;
  ForEachBuffer(s, n, geometry, form, temp_bytes,
                [](auto& buffer, std::size_t count) {
                  if (buffer.size() >= count) return;
                  using Buffer = std::remove_reference_t<decltype(buffer)>;
                  buffer = Buffer();  // freed before its successor is made
                  buffer = Buffer(count);
                });
  if (s.staging.size() < 8 * n) {
    s.staging = PinnedBuffer<float>();
    s.staging = PinnedBuffer<float>(8 * n);
  }
}

void Upload(Stepper& s, const State& state, bool with_density) {
  const std::size_t n = s.n;
  const Unsorted to = ArraysOf(s.arrays[s.current], s.mass, n);
  const std::pair<float*, const float*> copies[] = {
      {to.x, state.x.x.data()},     {to.y, state.x.y.data()},
      {to.z, state.x.z.data()},     {to.vx, state.v.x.data()},
      {to.vy, state.v.y.data()},    {to.vz, state.v.z.data()},
      {to.mass, state.mass.data()}, {to.density, state.density.data()}};
  float* staged = s.staging.data();
  for (const auto& [device, host] : copies) {
    if (device == to.density && !with_density) continue;
    for (std::size_t begin = 0; begin < n; begin += kChunk) {
      const std::size_t count = std::min(kChunk, n - begin);
      detail::StagingCopy(staged + begin, host + begin, count);
      cuda::Check(
          cudaMemcpyAsync(device + begin, staged + begin, count * sizeof(float),
                          cudaMemcpyHostToDevice, s.stream.get()),
          "cudaMemcpyAsync to device");
    }
    staged += n;
  }
}

void Download(Stepper& s, State& state, bool with_mass) {
  const std::size_t n = s.n;
  const Unsorted from = ArraysOf(s.arrays[s.current], s.mass, n);
  const std::pair<float*, const float*> copies[] = {
      {state.x.x.data(), from.x},           {state.x.y.data(), from.y},
      {state.x.z.data(), from.z},           {state.v.x.data(), from.vx},
      {state.v.y.data(), from.vy},          {state.v.z.data(), from.vz},
      {state.density.data(), from.density}, {state.mass.data(), from.mass}};
  const std::size_t arrays = with_mass ? 8 : 7;
  const std::size_t chunks = arrays * ((n + kChunk - 1) / kChunk);
  while (s.chunk_done.size() < chunks) {
    s.chunk_done.push_back(std::make_unique<Event>(false));
  }
  // Every chunk's copy queued first, an event after each; then the host
  // copies each out of staging as soon as its event has passed, while the
  // bus carries the next.
  std::size_t chunk = 0;
  for (std::size_t a = 0; a < arrays; ++a) {
    float* staged = s.staging.data() + a * n;
    for (std::size_t begin = 0; begin < n; begin += kChunk) {
      const std::size_t bytes = std::min(kChunk, n - begin) * sizeof(float);
      cuda::Check(
          cudaMemcpyAsync(staged + begin, copies[a].second + begin, bytes,
                          cudaMemcpyDeviceToHost, s.stream.get()),
          "cudaMemcpyAsync to host");
      cuda::Check(cudaEventRecord(s.chunk_done[chunk++]->get(), s.stream.get()),
                  "cudaEventRecord");
    }
  }
  chunk = 0;
  for (std::size_t a = 0; a < arrays; ++a) {
    const float* staged = s.staging.data() + a * n;
    for (std::size_t begin = 0; begin < n; begin += kChunk) {
      const std::size_t count = std::min(kChunk, n - begin);
      cuda::Check(cudaEventSynchronize(s.chunk_done[chunk++]->get()),
                  "cudaEventSynchronize");
      detail::StagingCopy(copies[a].first + begin, staged + begin, count);
    }
  }
}

Stepped Step(Stepper& s, const Params& params, Form form) {
  Stepped stepped;
  const std::size_t n = s.n;
  if (n == 0) return stepped;
  const Geometry geometry = GeometryOf(params, n);
  const Unsorted in = ArraysOf(s.arrays[s.current], s.mass, n);
  const cudaStream_t stream = s.stream.get();
  const Launch launch{static_cast<std::uint32_t>(n),
                      geometry.grid,
                      {s.position_mass.data(), s.velocity_pressure.data(),
                       s.inverse.data(), s.density.data()},
                      detail::PairConstantsOf(params),
                      &params,
                      ArraysOf(s.arrays[1 - s.current], s.mass, n),
                      detail::SquaredMoveBound(params),
                      stream};
  const bool collapsed = form == Form::kCollapsed;
  unsigned long long* counts = s.counts.data();
  // Queues the step, awaits it, and returns its seconds on the device; the
  // counters land in `counts`.
  const auto run = [&] {
    cuda::Check(cudaEventRecord(s.start.get(), stream), "cudaEventRecord");
    cuda::Check(cudaMemsetAsync(s.counter.data(), 0,
                                3 * sizeof(unsigned long long), stream),
                "cudaMemsetAsync");
    cuda::Check(cudaMemsetAsync(s.counter.data() + 3, 0xff,
                                2 * sizeof(unsigned long long), stream),
                "cudaMemsetAsync");
    CellKeys<<<BlocksFor(n), kThreads, 0, stream>>>(
        in, n, geometry.grid, s.keys.data(), s.ids.data());
    std::size_t bytes = s.temp.size();
    cuda::Check(cub::DeviceRadixSort::SortPairs(
                    s.temp.data(), bytes, s.keys.data(), s.sorted_keys.data(),
                    s.ids.data(), s.sorted_ids.data(), static_cast<int>(n), 0,
                    geometry.end_bit, stream),
                "cub::DeviceRadixSort::SortPairs");
    Gather<<<BlocksFor(n), kThreads, 0, stream>>>(
        in, s.sorted_ids.data(), n, collapsed, params.stiffness,
        params.rest_density, launch.packed);
    if (geometry.table) {
      FillCellTable<<<BlocksFor(geometry.cells + 1), kThreads, 0, stream>>>(
          s.sorted_keys.data(), launch.n, geometry.cells, s.cell_start.data());
    }
    switch (form) {
      case Form::kThreePass:
        LaunchPasses<Form::kThreePass>(s, launch, geometry.table);
        break;
      case Form::kNeighborList:
        LaunchPasses<Form::kNeighborList>(s, launch, geometry.table);
        break;
      case Form::kCollapsed:
        LaunchPasses<Form::kCollapsed>(s, launch, geometry.table);
        break;
    }
    cuda::Check(cudaGetLastError(), "sph cuda kernels");
    cuda::Check(cudaEventRecord(s.stop.get(), stream), "cudaEventRecord");
    cuda::Check(cudaMemcpyAsync(counts, s.counter.data(),
                                5 * sizeof(unsigned long long),
                                cudaMemcpyDeviceToHost, stream),
                "cudaMemcpyAsync to host");
    cuda::Check(cudaStreamSynchronize(stream), "sph cuda step");
    float milliseconds = 0;
    cuda::Check(
        cudaEventElapsedTime(&milliseconds, s.start.get(), s.stop.get()),
        "cudaEventElapsedTime");
    return milliseconds * 1e-3;
  };
  double seconds = run();
  if (form == Form::kNeighborList && counts[2] > s.list_capacity) {
    // A list overflowed, so the force pass read a truncated one: room for
    // the longest list, and the step again from its input, which the
    // force pass did not overwrite.
    s.list_capacity = static_cast<std::uint32_t>(counts[2]);
    Reserve(s, n, params, form);
    seconds += run();
  }
  s.current = 1 - s.current;
  stepped.report.interactions = counts[0];
  stepped.report.candidates = counts[1];
  stepped.report.device_seconds = seconds;
  constexpr auto kNoParticle = std::numeric_limits<unsigned long long>::max();
  stepped.suspect = counts[3] != kNoParticle;
  if (counts[4] != kNoParticle) {
    const auto p = static_cast<std::size_t>(counts[4]);
    stepped.overstep.particle = p;
    cuda::Check(cudaMemcpy(&stepped.overstep.step2,
                           reinterpret_cast<const double*>(s.keys.data()) + p,
                           sizeof(double), cudaMemcpyDeviceToHost),
                "cudaMemcpy to host");
  }
  return stepped;
}

}  // namespace device

namespace {

// The rows' fluid, kept between steps of the calling thread.
device::Stepper& CallerStepper() {
  thread_local device::Stepper stepper;
  return stepper;
}

void Step(State& state, const Params& params, StepReport& report,
          device::Form form) {
  const bool collapsed = form == device::Form::kCollapsed;
  Check(state, params, collapsed);
  cuda::RequireDevice();
  report = {};
  const std::size_t n = state.size();
  if (n == 0) return;
  device::Stepper& stepper = CallerStepper();
  device::Reserve(stepper, n, params, form);
  // A step that does not read the densities of t-1 overwrites them: they
  // need not cross the bus.
  device::Upload(stepper, state, collapsed);
  const device::Stepped stepped = device::Step(stepper, params, form);
  device::Download(stepper, state, false);
  report = stepped.report;
  // The device flagged every particle the check could name, so a step it
  // flagged none of needs no scan of the state on the host.
  if (stepped.Checked()) {
    detail::CheckFinished(state, params, stepped.overstep);
  }
}

}  // namespace

void CudaSortedStep(State& state, const Params& params, Workspace&,
                    StepReport& report) {
  Step(state, params, report, device::Form::kThreePass);
}

void CudaNeighborListStep(State& state, const Params& params, Workspace&,
                          StepReport& report) {
  Step(state, params, report, device::Form::kNeighborList);
}

void CudaCollapseStep(State& state, const Params& params, Workspace&,
                      StepReport& report) {
  Step(state, params, report, device::Form::kCollapsed);
}

}  // namespace adj::sph
