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
// place in the state's order. Host memory in and out: the variant table's
// step copies the state to the device and back; StepReport::device_seconds
// is the sort and the kernels alone (CUDA events).
#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/sph/physics.h"
#include "algorithms/sph/sorted_gather.h"
#include "algorithms/sph/sph.h"

namespace adj::sph {
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

// The three forms of a step: the three passes with the rows searched in
// each (sorted_gather's), with the neighbours listed by the density pass
// (Algorithm 1 with neighbour lists), or one collapsed pass (Algorithm 3:
// pressures from the densities of t-1).
enum class Form { kThreePass, kNeighborList, kCollapsed };

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
  std::uint32_t* neighbours;
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
            lists.neighbours[std::size_t{listed} * n + k] = j;
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
struct Neighbourhood {
  const float4* __restrict__ position_mass;
  const float4* __restrict__ velocity_pressure;
  const float* __restrict__ inverse;
};

// The contract's acceleration of sorted particle k (own, own_v, 1 / rho_k
// = ik) by j != k within h, added to a; the pair's squared distance is
// r2 < h^2 and d = x_k - x_j.
__device__ void AddPair(const Neighbourhood& f, const detail::PairConstants& c,
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

// One thread per sorted particle: its acceleration (and, collapsed, its
// density) from the rows of cells around it or from its list, then the
// integration, written to the particle's place in the state's order.
template <Form kForm, typename Starts>
__global__ void ForcesAndIntegration(
    Neighbourhood f, const float* __restrict__ density,
    const unsigned long long* __restrict__ keys,
    const std::uint32_t* __restrict__ ids, std::uint32_t n, Grid g,
    Starts starts, Lists lists, detail::PairConstants c, Params params,
    Unsorted out, unsigned long long* counts) {
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
      const std::uint32_t listed = lists.count[k];
      tested += listed;
      for (std::uint32_t l = 0; l < listed; ++l) {
        visit(lists.neighbours[std::size_t{l} * n + k]);
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
    detail::Integrate(params, a, x, y, z, vx, vy, vz);
    const std::uint32_t i = ids[k];
    out.x[i] = x;
    out.y[i] = y;
    out.z[i] = z;
    out.vx[i] = vx;
    out.vy[i] = vy;
    out.vz[i] = vz;
    out.density[i] = kForm == Form::kCollapsed ? new_density : density[k];
  }
  // counts[0]: interactions; counts[1]: candidates of every pass (a list's
  // entries are its force pass's). One atomic per warp, not per particle.
  pairs = WarpSum(pairs);
  tested = WarpSum(tested);
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&counts[0], pairs);
    atomicAdd(&counts[1], tested);
  }
}

// Device buffers kept between steps of the calling thread, grown as needed.
struct Buffers {
  std::size_t capacity = 0;
  cuda::DeviceBuffer<float> in;  // 8 arrays of the state
  cuda::DeviceBuffer<float4> position_mass, velocity_pressure;
  cuda::DeviceBuffer<float> inverse, density;
  cuda::DeviceBuffer<unsigned long long> keys, sorted_keys, counter;
  cuda::DeviceBuffer<std::uint32_t> ids, sorted_ids, cell_start;
  cuda::DeviceBuffer<std::uint32_t> neighbours, neighbour_count;
  std::uint32_t list_capacity = 0;
  cuda::DeviceBuffer<unsigned char> temp;

  void Reserve(std::size_t n) {
    if (n <= capacity) return;
    in = cuda::DeviceBuffer<float>(8 * n);
    position_mass = cuda::DeviceBuffer<float4>(n);
    velocity_pressure = cuda::DeviceBuffer<float4>(n);
    inverse = cuda::DeviceBuffer<float>(n);
    density = cuda::DeviceBuffer<float>(n);
    keys = cuda::DeviceBuffer<unsigned long long>(n);
    sorted_keys = cuda::DeviceBuffer<unsigned long long>(n);
    // interactions, candidates, the longest overflowing list
    counter = cuda::DeviceBuffer<unsigned long long>(3);
    ids = cuda::DeviceBuffer<std::uint32_t>(n);
    sorted_ids = cuda::DeviceBuffer<std::uint32_t>(n);
    neighbours = cuda::DeviceBuffer<std::uint32_t>();
    neighbour_count = cuda::DeviceBuffer<std::uint32_t>();
    list_capacity = 0;
    capacity = n;
  }

  // Room for lists of `longest` neighbours for `n` particles.
  void ReserveLists(std::size_t n, std::uint32_t longest) {
    if (neighbour_count.size() < n) {
      neighbour_count = cuda::DeviceBuffer<std::uint32_t>(n);
    }
    if (longest <= list_capacity && neighbours.size() >= n * list_capacity) {
      return;
    }
    list_capacity = longest;
    neighbours = cuda::DeviceBuffer<std::uint32_t>(n * longest);
  }
};

Buffers& CallerBuffers() {
  thread_local Buffers buffers;
  return buffers;
}

int BitsFor(unsigned long long cells) {
  int bits = 1;
  while (bits < 64 && (cells >> bits) != 0) ++bits;
  return bits;
}

// What one step's kernels read, once per step.
struct Launch {
  std::uint32_t n;
  Grid grid;
  Packed packed;
  detail::PairConstants constants;
  const Params* params;
  Unsorted unsorted;
};

// The density pass (unless collapsed) and the force pass with cell starts
// found by `starts`.
template <Form kForm, typename Starts>
void LaunchPasses(Buffers& b, const Launch& l, const Starts& starts) {
  const Params& params = *l.params;
  Lists lists{b.neighbours.data(), b.neighbour_count.data(), b.list_capacity,
              b.counter.data() + 2};
  if constexpr (kForm != Form::kCollapsed) {
    const bool list = kForm == Form::kNeighborList;
    Densities<<<BlocksFor(l.n), kThreads>>>(
        l.packed, b.sorted_keys.data(), l.n, l.grid, starts, l.constants,
        params.stiffness, params.rest_density, list, lists,
        b.counter.data() + 1);
  }
  ForcesAndIntegration<kForm><<<BlocksFor(l.n), kThreads>>>(
      Neighbourhood{l.packed.position_mass, l.packed.velocity_pressure,
                    l.packed.inverse},
      l.packed.density, b.sorted_keys.data(), b.sorted_ids.data(), l.n, l.grid,
      starts, lists, l.constants, params, l.unsorted, b.counter.data());
}

template <Form kForm>
void LaunchPasses(Buffers& b, const Launch& l, bool table) {
  if (table) {
    LaunchPasses<kForm>(b, l, CellTable{b.cell_start.data()});
  } else {
    LaunchPasses<kForm>(b, l, KeySearch{b.sorted_keys.data(), l.n});
  }
}

void Step(State& state, const Params& params, StepReport& report, Form form) {
  const bool collapsed = form == Form::kCollapsed;
  Check(state, params, collapsed);
  cuda::RequireDevice();
  report = {};
  const std::size_t n = state.size();
  if (n == 0) return;
  if (n > std::numeric_limits<std::uint32_t>::max()) {
    throw Error("sph cuda: " + std::to_string(n) +
                " particles; sorted places are 32-bit");
  }
  Buffers& b = CallerBuffers();
  b.Reserve(n);
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
  // A table of cell starts where it costs at most 32 bytes a particle (plus
  // 256 KiB), else binary searches over the sorted keys.
  const bool table = cells + 1 <= 8ULL * n + (1ULL << 16);
  if (table && b.cell_start.size() < cells + 1) {
    b.cell_start = cuda::DeviceBuffer<std::uint32_t>(cells + 1);
  }
  if (form == Form::kNeighborList) b.ReserveLists(n, 64);
  float* in = b.in.data();
  const Unsorted unsorted{in,         in + n,     in + 2 * n, in + 3 * n,
                          in + 4 * n, in + 5 * n, in + 6 * n, in + 7 * n};
  std::vector<std::pair<float*, const float*>> uploads = {
      {unsorted.x, state.x.x.data()},    {unsorted.y, state.x.y.data()},
      {unsorted.z, state.x.z.data()},    {unsorted.vx, state.v.x.data()},
      {unsorted.vy, state.v.y.data()},   {unsorted.vz, state.v.z.data()},
      {unsorted.mass, state.mass.data()}};
  if (collapsed) uploads.emplace_back(unsorted.density, state.density.data());
  for (const auto& [to, from] : uploads) {
    cuda::Check(cudaMemcpy(to, from, n * sizeof(float), cudaMemcpyHostToDevice),
                "cudaMemcpy to device");
  }
  const Launch launch{static_cast<std::uint32_t>(n),
                      grid,
                      {b.position_mass.data(), b.velocity_pressure.data(),
                       b.inverse.data(), b.density.data()},
                      detail::PairConstantsOf(params),
                      &params,
                      unsorted};
  const int end_bit = BitsFor(cells);
  std::size_t temp_bytes = 0;
  cuda::Check(
      cub::DeviceRadixSort::SortPairs(
          nullptr, temp_bytes, b.keys.data(), b.sorted_keys.data(),
          b.ids.data(), b.sorted_ids.data(), static_cast<int>(n), 0, end_bit),
      "cub::DeviceRadixSort::SortPairs");
  if (temp_bytes > b.temp.size()) {
    b.temp = cuda::DeviceBuffer<unsigned char>(temp_bytes);
  }
  const auto sort_and_gather = [&] {
    CellKeys<<<BlocksFor(n), kThreads>>>(unsorted, n, grid, b.keys.data(),
                                         b.ids.data());
    std::size_t bytes = b.temp.size();
    cuda::Check(
        cub::DeviceRadixSort::SortPairs(
            b.temp.data(), bytes, b.keys.data(), b.sorted_keys.data(),
            b.ids.data(), b.sorted_ids.data(), static_cast<int>(n), 0, end_bit),
        "cub::DeviceRadixSort::SortPairs");
    Gather<<<BlocksFor(n), kThreads>>>(unsorted, b.sorted_ids.data(), n,
                                       collapsed, params.stiffness,
                                       params.rest_density, launch.packed);
    if (table) {
      FillCellTable<<<BlocksFor(cells + 1), kThreads>>>(
          b.sorted_keys.data(), launch.n, cells, b.cell_start.data());
    }
  };
  unsigned long long counts[3] = {0, 0, 0};
  report.device_seconds = cuda::TimeOnDevice([&] {
    cuda::Check(cudaMemset(b.counter.data(), 0, 3 * sizeof(unsigned long long)),
                "cudaMemset");
    sort_and_gather();
    switch (form) {
      case Form::kThreePass:
        LaunchPasses<Form::kThreePass>(b, launch, table);
        break;
      case Form::kNeighborList:
        LaunchPasses<Form::kNeighborList>(b, launch, table);
        break;
      case Form::kCollapsed:
        LaunchPasses<Form::kCollapsed>(b, launch, table);
        break;
    }
    cuda::Check(cudaGetLastError(), "sph cuda kernels");
  });
  b.counter.CopyToHost(counts, 3);
  if (form == Form::kNeighborList && counts[2] > b.list_capacity) {
    // A list overflowed, so the force pass read a truncated one and wrote
    // its step over the device's copy of the state: room for the longest
    // list, the state uploaded again, and the step again.
    b.ReserveLists(n, static_cast<std::uint32_t>(counts[2]));
    for (const auto& [to, from] : uploads) {
      cuda::Check(
          cudaMemcpy(to, from, n * sizeof(float), cudaMemcpyHostToDevice),
          "cudaMemcpy to device");
    }
    report.device_seconds += cuda::TimeOnDevice([&] {
      cuda::Check(
          cudaMemset(b.counter.data(), 0, 3 * sizeof(unsigned long long)),
          "cudaMemset");
      sort_and_gather();
      LaunchPasses<Form::kNeighborList>(b, launch, table);
      cuda::Check(cudaGetLastError(), "sph cuda kernels");
    });
    b.counter.CopyToHost(counts, 3);
  }
  const std::pair<float*, const float*> downloads[] = {
      {state.x.x.data(), unsorted.x},          {state.x.y.data(), unsorted.y},
      {state.x.z.data(), unsorted.z},          {state.v.x.data(), unsorted.vx},
      {state.v.y.data(), unsorted.vy},         {state.v.z.data(), unsorted.vz},
      {state.density.data(), unsorted.density}};
  for (const auto& [to, from] : downloads) {
    cuda::Check(cudaMemcpy(to, from, n * sizeof(float), cudaMemcpyDeviceToHost),
                "cudaMemcpy to host");
  }
  report.interactions = counts[0];
  report.candidates = counts[1];
  detail::CheckFinished(state, params);
}

}  // namespace

void CudaSortedStep(State& state, const Params& params, Workspace&,
                    StepReport& report) {
  Step(state, params, report, Form::kThreePass);
}

void CudaNeighborListStep(State& state, const Params& params, Workspace&,
                          StepReport& report) {
  Step(state, params, report, Form::kNeighborList);
}

void CudaCollapseStep(State& state, const Params& params, Workspace&,
                      StepReport& report) {
  Step(state, params, report, Form::kCollapsed);
}

}  // namespace adj::sph
