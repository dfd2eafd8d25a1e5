// Ours on CUDA: sorted_gather's three passes, one thread per particle.
// The particles are radix-sorted by their cell of h in the container (CUB,
// stable: ids ascending inside a cell, keys x + nx (y + ny z)) and
// gathered into sorted arrays; each thread finds the 9 rows of cells
// around its own (each row's cells x - 1 .. x + 1 one run of sorted
// positions, two binary searches over the keys) and sums its density, then
// in a second kernel its force and integrates, writing its particle's
// place in the state's order. Host memory in and out: the variant table's
// step copies the state to the device and back; StepReport::device_seconds
// is the sort and the kernels alone (CUDA events).
#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/cstdint>
#include <string>
#include <utility>

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

__global__ void Gather(Unsorted in, const std::uint32_t* ids, std::size_t n,
                       detail::SortedFluid out) {
  const std::size_t k = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (k >= n) return;
  const std::uint32_t i = ids[k];
  out.x[k] = in.x[i];
  out.y[k] = in.y[i];
  out.z[k] = in.z[i];
  out.vx[k] = in.vx[i];
  out.vy[k] = in.vy[i];
  out.vz[k] = in.vz[i];
  out.mass[k] = in.mass[i];
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

// Calls visit(begin, end) for the 9 rows of cells around sorted particle
// k's cell.
template <typename Visit>
__device__ void ForEachRow(const unsigned long long* keys, std::uint32_t n,
                           const Grid& g, std::uint32_t k, Visit&& visit) {
  const unsigned long long key = keys[k];
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
      visit(LowerBound(keys, n, KeyOf(g, x_lo, y, z)),
            LowerBound(keys, n, KeyOf(g, x_hi, y, z) + 1));
    }
  }
}

__global__ void Densities(detail::SortedFluid f, const unsigned long long* keys,
                          std::uint32_t n, Grid g, detail::PairConstants c,
                          float stiffness, float rest_density) {
  const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const float xk = f.x[k], yk = f.y[k], zk = f.z[k];
  float density = 0;
  ForEachRow(keys, n, g, k, [&](std::uint32_t begin, std::uint32_t end) {
    for (std::uint32_t j = begin; j < end; ++j) {
      const float dx = xk - f.x[j];
      const float dy = yk - f.y[j];
      const float dz = zk - f.z[j];
      const float r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= c.h2) continue;
      const float d = c.h2 - r2;
      density += f.mass[j] * (c.poly6 * (d * d * d));
    }
  });
  f.density[k] = density;
  f.pressure[k] = stiffness * (density - rest_density);
  f.inverse[k] = 1.0f / density;
}

__global__ void ForcesAndIntegration(detail::SortedFluid f,
                                     const unsigned long long* keys,
                                     const std::uint32_t* ids, std::uint32_t n,
                                     Grid g, detail::PairConstants c,
                                     Params params, Unsorted out,
                                     unsigned long long* counts) {
  const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const float xk = f.x[k], yk = f.y[k], zk = f.z[k];
  const float vxk = f.vx[k], vyk = f.vy[k], vzk = f.vz[k];
  const float pk = f.pressure[k], ik = f.inverse[k];
  detail::Vec3 a;
  unsigned long long pairs = 0;
  unsigned long long tested = 0;
  ForEachRow(keys, n, g, k, [&](std::uint32_t begin, std::uint32_t end) {
    tested += end - begin;
    for (std::uint32_t j = begin; j < end; ++j) {
      if (j == k) continue;
      const float dx = xk - f.x[j];
      const float dy = yk - f.y[j];
      const float dz = zk - f.z[j];
      const float r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= c.h2) continue;
      const float r = sqrtf(r2);
      const float s = c.h - r;
      const float push =
          r > 0 ? c.half_spiky * (pk + f.pressure[j]) * (s * s) / r : 0.0f;
      const float drag = c.drag * s;
      const float weight = f.mass[j] * (ik * f.inverse[j]);
      a.x += weight * (push * dx + drag * (f.vx[j] - vxk));
      a.y += weight * (push * dy + drag * (f.vy[j] - vyk));
      a.z += weight * (push * dz + drag * (f.vz[j] - vzk));
      ++pairs;
    }
  });
  float x = xk, y = yk, z = zk, vx = vxk, vy = vyk, vz = vzk;
  detail::Integrate(params, a, x, y, z, vx, vy, vz);
  const std::uint32_t i = ids[k];
  out.x[i] = x;
  out.y[i] = y;
  out.z[i] = z;
  out.vx[i] = vx;
  out.vy[i] = vy;
  out.vz[i] = vz;
  out.density[i] = f.density[k];
  // counts[0]: interactions; counts[1]: candidates of both kernels (they
  // scan the same rows).
  atomicAdd(&counts[0], pairs);
  atomicAdd(&counts[1], 2 * tested);
}

// Device buffers kept between steps of the calling thread, grown as needed.
struct Buffers {
  std::size_t capacity = 0;
  std::size_t temp_bytes = 0;
  cuda::DeviceBuffer<float> in;      // 8 arrays of the state
  cuda::DeviceBuffer<float> sorted;  // 10 arrays
  cuda::DeviceBuffer<unsigned long long> keys, sorted_keys, counter;
  cuda::DeviceBuffer<std::uint32_t> ids, sorted_ids;
  cuda::DeviceBuffer<unsigned char> temp;

  void Reserve(std::size_t n) {
    if (n <= capacity) return;
    in = cuda::DeviceBuffer<float>(8 * n);
    sorted = cuda::DeviceBuffer<float>(10 * n);
    keys = cuda::DeviceBuffer<unsigned long long>(n);
    sorted_keys = cuda::DeviceBuffer<unsigned long long>(n);
    counter = cuda::DeviceBuffer<unsigned long long>(2);
    ids = cuda::DeviceBuffer<std::uint32_t>(n);
    sorted_ids = cuda::DeviceBuffer<std::uint32_t>(n);
    capacity = n;
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

}  // namespace

void CudaSortedStep(State& state, const Params& params, Workspace&,
                    StepReport& report) {
  Check(state, params, false);
  cuda::RequireDevice();
  report = {};
  const std::size_t n = state.size();
  if (n == 0) return;
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
  float* in = b.in.data();
  const Unsorted unsorted{in,         in + n,     in + 2 * n, in + 3 * n,
                          in + 4 * n, in + 5 * n, in + 6 * n, in + 7 * n};
  const std::pair<float*, const float*> uploads[] = {
      {unsorted.x, state.x.x.data()},    {unsorted.y, state.x.y.data()},
      {unsorted.z, state.x.z.data()},    {unsorted.vx, state.v.x.data()},
      {unsorted.vy, state.v.y.data()},   {unsorted.vz, state.v.z.data()},
      {unsorted.mass, state.mass.data()}};
  for (const auto& [to, from] : uploads) {
    cuda::Check(cudaMemcpy(to, from, n * sizeof(float), cudaMemcpyHostToDevice),
                "cudaMemcpy to device");
  }
  float* s = b.sorted.data();
  const detail::SortedFluid sorted{n,         s,         s + n,     s + 2 * n,
                                   s + 3 * n, s + 4 * n, s + 5 * n, s + 6 * n,
                                   s + 7 * n, s + 8 * n, s + 9 * n};
  const detail::PairConstants constants = detail::PairConstantsOf(params);
  const int end_bit =
      BitsFor(static_cast<unsigned long long>(grid.nx * grid.ny * grid.nz));
  std::size_t temp_bytes = 0;
  cuda::Check(
      cub::DeviceRadixSort::SortPairs(
          nullptr, temp_bytes, b.keys.data(), b.sorted_keys.data(),
          b.ids.data(), b.sorted_ids.data(), static_cast<int>(n), 0, end_bit),
      "cub::DeviceRadixSort::SortPairs");
  if (temp_bytes > b.temp.size()) {
    b.temp = cuda::DeviceBuffer<unsigned char>(temp_bytes);
  }
  const auto count = static_cast<std::uint32_t>(n);
  report.device_seconds = cuda::TimeOnDevice([&] {
    cuda::Check(cudaMemset(b.counter.data(), 0, 2 * sizeof(unsigned long long)),
                "cudaMemset");
    CellKeys<<<BlocksFor(n), kThreads>>>(unsorted, n, grid, b.keys.data(),
                                         b.ids.data());
    std::size_t bytes = b.temp.size();
    cuda::Check(
        cub::DeviceRadixSort::SortPairs(
            b.temp.data(), bytes, b.keys.data(), b.sorted_keys.data(),
            b.ids.data(), b.sorted_ids.data(), static_cast<int>(n), 0, end_bit),
        "cub::DeviceRadixSort::SortPairs");
    Gather<<<BlocksFor(n), kThreads>>>(unsorted, b.sorted_ids.data(), n,
                                       sorted);
    Densities<<<BlocksFor(n), kThreads>>>(sorted, b.sorted_keys.data(), count,
                                          grid, constants, params.stiffness,
                                          params.rest_density);
    ForcesAndIntegration<<<BlocksFor(n), kThreads>>>(
        sorted, b.sorted_keys.data(), b.sorted_ids.data(), count, grid,
        constants, params, unsorted, b.counter.data());
    cuda::Check(cudaGetLastError(), "sph cuda kernels");
  });
  const std::pair<float*, const float*> downloads[] = {
      {state.x.x.data(), unsorted.x},          {state.x.y.data(), unsorted.y},
      {state.x.z.data(), unsorted.z},          {state.v.x.data(), unsorted.vx},
      {state.v.y.data(), unsorted.vy},         {state.v.z.data(), unsorted.vz},
      {state.density.data(), unsorted.density}};
  for (const auto& [to, from] : downloads) {
    cuda::Check(cudaMemcpy(to, from, n * sizeof(float), cudaMemcpyDeviceToHost),
                "cudaMemcpy to host");
  }
  unsigned long long counts[2] = {0, 0};
  b.counter.CopyToHost(counts, 2);
  report.interactions = counts[0];
  report.candidates = counts[1];
  detail::CheckFinished(state, params);
}

}  // namespace adj::sph
