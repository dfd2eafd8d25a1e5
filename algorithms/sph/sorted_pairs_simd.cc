// sorted_pairs on SIMD lanes: each pair within h met once, from the first
// of its particles in cell order (its own row past it and the four rows
// after it, rows 4 to 8 of FindRows, each cut to the candidates less than
// h away in x: CutRows), a vector of candidates at a time;
// the second particle's share (its density and its equal and opposite
// force) is added to a contiguous run of the sorted arrays, lanes outside
// the row neither read nor written (a partial vector goes through a local
// buffer), so that a thread never touches what another writes. Particles are
// taken slab by slab (a slab: the cells of one z), even slabs first, then odd
// ones: a slab writes only itself and the next, so the slabs of one parity are
// independent and sorted_pairs_simd_openmp, which gives each to a thread,
// makes the same additions in the same order: the same bits. Highway,
// dynamic dispatch.
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/sph/cell_sort.h"
#include "algorithms/sph/sorted_gather.h"
#include "algorithms/sph/variants.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "algorithms/sph/sorted_pairs_simd.cc"
#include <hwy/foreach_target.h>  // re-includes this file once per target
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace adj::sph::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Rows of particle k that hold its later neighbours: [begin[r], end[r]).
constexpr int kHalfRows = 5;

// The first `count` floats at p (all lanes when count >= Lanes), the rest
// zero, and its store: a row's last, partial vector touches nothing past
// the row, where another thread may be adding (the next slab of the same
// parity). AVX2 and AVX-512 mask the lanes in the instruction; the older
// targets go through a local buffer (no MaskedLoad: on SSE4 Highway 1.0.3
// makes it an aligned load).
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
template <class D>
HWY_INLINE hn::VFromD<D> LoadPart(D d, const float* p, std::uint32_t count) {
  if (count >= hn::Lanes(d)) return hn::LoadU(d, p);
  return hn::MaskedLoad(hn::FirstN(d, count), d, p);
}

template <class D>
HWY_INLINE void StorePart(D d, hn::VFromD<D> v, float* p, std::uint32_t count) {
  if (count >= hn::Lanes(d)) {
    hn::StoreU(v, d, p);
    return;
  }
  hn::BlendedStore(v, hn::FirstN(d, count), d, p);
}
#else
template <class D>
HWY_INLINE hn::VFromD<D> LoadPart(D d, const float* p, std::uint32_t count) {
  if (count >= hn::Lanes(d)) return hn::LoadU(d, p);
  HWY_ALIGN float part[HWY_MAX_BYTES / sizeof(float)] = {};
  std::copy_n(p, count, part);
  return hn::Load(d, part);
}

template <class D>
HWY_INLINE void StorePart(D d, hn::VFromD<D> v, float* p, std::uint32_t count) {
  if (count >= hn::Lanes(d)) {
    hn::StoreU(v, d, p);
    return;
  }
  HWY_ALIGN float part[HWY_MAX_BYTES / sizeof(float)];
  hn::Store(v, d, part);
  std::copy_n(part, count, p);
}
#endif

// The candidates j .. j + Lanes of a row ending at `last` seen from (xk,
// yk, zk): d = x_k - x_j and r^2 per lane; returns the lanes inside the
// row within h (r^2 < h^2).
template <class D>
HWY_INLINE auto NearLanes(D d, const SortedFluid& f, std::uint32_t j,
                          hn::VFromD<hn::RebindToSigned<D>> last,
                          hn::VFromD<D> xk, hn::VFromD<D> yk, hn::VFromD<D> zk,
                          hn::VFromD<D> h2, hn::VFromD<D>& dx,
                          hn::VFromD<D>& dy, hn::VFromD<D>& dz,
                          hn::VFromD<D>& r2) {
  const hn::RebindToSigned<D> di;
  const auto in_row = hn::RebindMask(
      d, hn::Lt(hn::Iota(di, static_cast<std::int32_t>(j)), last));
  dx = hn::Sub(xk, hn::LoadU(d, f.x + j));
  dy = hn::Sub(yk, hn::LoadU(d, f.y + j));
  dz = hn::Sub(zk, hn::LoadU(d, f.z + j));
  r2 = hn::Add(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy)), hn::Mul(dz, dz));
  return hn::And(hn::Lt(r2, h2), in_row);
}

// density[k] and density[j] gain m_j W and m_k W for each later j within
// h (W without its constant poly6, applied by the caller); returns the
// candidates tested.
std::uint64_t HalfDensity(const SortedFluid& f, const PairConstants& c,
                          std::size_t k, const std::uint32_t* begin,
                          const std::uint32_t* end) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const auto lanes = static_cast<std::uint32_t>(hn::Lanes(d));
  const auto xk = hn::Set(d, f.x[k]);
  const auto yk = hn::Set(d, f.y[k]);
  const auto zk = hn::Set(d, f.z[k]);
  const auto mk = hn::Set(d, f.mass[k]);
  const auto h2 = hn::Set(d, c.h2);
  auto own = hn::Zero(d);
  std::uint64_t tested = 0;
  for (int row = 0; row < kHalfRows; ++row) {
    if (begin[row] >= end[row]) continue;
    tested += end[row] - begin[row];
    const auto last = hn::Set(di, static_cast<std::int32_t>(end[row]));
    for (std::uint32_t j = begin[row]; j < end[row]; j += lanes) {
      hn::VFromD<decltype(d)> dx, dy, dz, r2;
      const auto near =
          NearLanes(d, f, j, last, xk, yk, zk, h2, dx, dy, dz, r2);
      if (hn::AllFalse(d, near)) continue;
      const auto gap = hn::Sub(h2, r2);
      const auto w = hn::IfThenElseZero(near, hn::Mul(hn::Mul(gap, gap), gap));
      own = hn::Add(own, hn::Mul(hn::LoadU(d, f.mass + j), w));
      StorePart(
          d, hn::Add(LoadPart(d, f.density + j, end[row] - j), hn::Mul(mk, w)),
          f.density + j, end[row] - j);
    }
  }
  f.density[k] += hn::GetLane(hn::SumOfLanes(d, own));
  return tested;
}

// a[k] and a[j] gain m_j T and -m_k T for each later j within h, T =
// (push d + drag (v_j - v_k)) / (rho_k rho_j); returns the pairs.
std::uint64_t HalfForce(const SortedFluid& f, const PairConstants& c,
                        std::size_t k, const std::uint32_t* begin,
                        const std::uint32_t* end, float* ax_all, float* ay_all,
                        float* az_all) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const auto lanes = static_cast<std::uint32_t>(hn::Lanes(d));
  const auto xk = hn::Set(d, f.x[k]);
  const auto yk = hn::Set(d, f.y[k]);
  const auto zk = hn::Set(d, f.z[k]);
  const auto vxk = hn::Set(d, f.vx[k]);
  const auto vyk = hn::Set(d, f.vy[k]);
  const auto vzk = hn::Set(d, f.vz[k]);
  const auto mk = hn::Set(d, f.mass[k]);
  const auto pk = hn::Set(d, f.pressure[k]);
  const auto ik = hn::Set(d, f.inverse[k]);
  const auto h = hn::Set(d, c.h);
  const auto h2 = hn::Set(d, c.h2);
  const auto half_spiky = hn::Set(d, c.half_spiky);
  const auto drag_scale = hn::Set(d, c.drag);
  const auto zero = hn::Zero(d);
  const auto one = hn::Set(d, 1.0f);
  auto ax = zero, ay = zero, az = zero;
  std::uint64_t pairs = 0;
  for (int row = 0; row < kHalfRows; ++row) {
    const auto last = hn::Set(di, static_cast<std::int32_t>(end[row]));
    for (std::uint32_t j = begin[row]; j < end[row]; j += lanes) {
      hn::VFromD<decltype(d)> dx, dy, dz, r2;
      const auto near =
          NearLanes(d, f, j, last, xk, yk, zk, h2, dx, dy, dz, r2);
      if (hn::AllFalse(d, near)) continue;
      pairs += hn::CountTrue(d, near);
      const auto r = hn::Sqrt(r2);
      const auto s = hn::Sub(h, r);
      const auto over_r = hn::IfThenElseZero(hn::Gt(r, zero), hn::Div(one, r));
      const auto push = hn::Mul(
          hn::Mul(half_spiky, hn::Add(pk, hn::LoadU(d, f.pressure + j))),
          hn::Mul(hn::Mul(s, s), over_r));
      const auto drag = hn::Mul(drag_scale, s);
      const auto weight =
          hn::IfThenElseZero(near, hn::Mul(ik, hn::LoadU(d, f.inverse + j)));
      const auto tx = hn::Mul(
          weight, hn::Add(hn::Mul(push, dx),
                          hn::Mul(drag, hn::Sub(hn::LoadU(d, f.vx + j), vxk))));
      const auto ty = hn::Mul(
          weight, hn::Add(hn::Mul(push, dy),
                          hn::Mul(drag, hn::Sub(hn::LoadU(d, f.vy + j), vyk))));
      const auto tz = hn::Mul(
          weight, hn::Add(hn::Mul(push, dz),
                          hn::Mul(drag, hn::Sub(hn::LoadU(d, f.vz + j), vzk))));
      const auto mj = hn::LoadU(d, f.mass + j);
      ax = hn::Add(ax, hn::Mul(mj, tx));
      ay = hn::Add(ay, hn::Mul(mj, ty));
      az = hn::Add(az, hn::Mul(mj, tz));
      StorePart(d,
                hn::Sub(LoadPart(d, ax_all + j, end[row] - j), hn::Mul(mk, tx)),
                ax_all + j, end[row] - j);
      StorePart(d,
                hn::Sub(LoadPart(d, ay_all + j, end[row] - j), hn::Mul(mk, ty)),
                ay_all + j, end[row] - j);
      StorePart(d,
                hn::Sub(LoadPart(d, az_all + j, end[row] - j), hn::Mul(mk, tz)),
                az_all + j, end[row] - j);
    }
  }
  ax_all[k] += hn::GetLane(hn::SumOfLanes(d, ax));
  ay_all[k] += hn::GetLane(hn::SumOfLanes(d, ay));
  az_all[k] += hn::GetLane(hn::SumOfLanes(d, az));
  return pairs;
}

}  // namespace adj::sph::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace adj::sph {
namespace detail {

HWY_EXPORT(HalfDensity);
HWY_EXPORT(HalfForce);

namespace {

// A particle's own row past it and the four rows after it.
constexpr int kRowsAfter = 5;

// Each particle's rows (its own past it, then rows 5 to 8 of FindRows's 3 x
// 3) cut to the candidates j whose x_k - x_j (in float, sorted x) lies
// strictly between -h and h: a j outside has r^2 >= (x_k - x_j)^2 >= h^2
// after rounding, so no pair is lost. Row r of particle k is [cuts[2 (5 k
// + r)], cuts[2 (5 k + r) + 1]). A row being sorted by x (SortCellsByX),
// the j at or past h below x_k are a prefix of it and those less than h
// above x_k a longer one: two counts over the row, without branches, give
// both cuts. The particles on OpenMP threads when `parallel`.
void CutRows(const Workspace& workspace, const float* x, float h, bool parallel,
             std::uint32_t* cuts) {
  const auto n = static_cast<std::int64_t>(workspace.cell_run.size());
  const std::uint32_t* run = workspace.cell_run.data();
  const std::uint32_t* row_begin = workspace.row_begin.data();
  const std::uint32_t* row_end = workspace.row_end.data();
  ExceptionTrap trap_1;
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t k = 0; k < n; ++k) {
    trap_1.Run([&] {
      fault::Point("sph.sorted_pairs_simd.1");
      const std::size_t rows = kRows * std::size_t{run[k]} + 4;
      const float xk = x[k];
      std::uint32_t* cut = cuts + 2 * std::size_t{kRowsAfter} * k;
      for (int r = 0; r < kRowsAfter; ++r) {
        const std::uint32_t begin =
            r == 0 ? static_cast<std::uint32_t>(k + 1) : row_begin[rows + r];
        const std::uint32_t end = row_end[rows + r];
        std::uint32_t far_below = 0, not_far_above = 0;
        for (std::uint32_t j = begin; j < end; ++j) {
          const float dx = xk - x[j];
          far_below += dx >= h ? 1u : 0u;
          not_far_above += dx > -h ? 1u : 0u;
        }
        cut[2 * r] = begin + far_below;
        cut[2 * r + 1] = begin + not_far_above;
      }
    });
  }
  trap_1.Rethrow();
}

// Calls visit(k, begin, end) for every particle with its cut rows, slab by
// slab: the even slabs, then the odd ones; the slabs of one parity on
// OpenMP threads when `parallel`.
template <typename Visit>
void BySlabParity(const CellBox& box, const std::vector<std::uint64_t>& keys,
                  const std::uint32_t* cuts, bool parallel, Visit&& visit) {
  const std::int64_t slabs = keys.empty() ? 0 : box.nz;
  std::vector<std::uint32_t> slab_start(static_cast<std::size_t>(slabs) + 1);
  for (std::int64_t z = 0; z <= slabs; ++z) {
    slab_start[static_cast<std::size_t>(z)] = static_cast<std::uint32_t>(
        std::lower_bound(keys.begin(), keys.end(), box.Key(0, 0, z)) -
        keys.begin());
  }
  for (std::int64_t parity = 0; parity < 2; ++parity) {
    const std::int64_t count = (slabs - parity + 1) / 2;
    ExceptionTrap trap_2;
#pragma omp parallel for schedule(dynamic, 1) if (parallel)
    for (std::int64_t s = 0; s < count; ++s) {
      trap_2.Run([&] {
        fault::Point("sph.sorted_pairs_simd.2");
        const auto z = static_cast<std::size_t>(2 * s + parity);
        for (std::uint32_t k = slab_start[z]; k < slab_start[z + 1]; ++k) {
          const std::uint32_t* cut = cuts + 2 * std::size_t{kRowsAfter} * k;
          std::uint32_t begin[kRowsAfter], end[kRowsAfter];
          for (int r = 0; r < kRowsAfter; ++r) {
            begin[r] = cut[2 * r];
            end[r] = cut[2 * r + 1];
          }
          visit(k, begin, end);
        }
      });
    }
    trap_2.Rethrow();
  }
}

}  // namespace

void HalfPairsStep(State& state, const Params& params, Workspace& workspace,
                   StepReport& report, bool parallel) {
  CheckState(state, params, false, parallel);
  report = {};
  const auto n = static_cast<std::int64_t>(state.size());
  const CellBox box = SortByCell(state.x, params, workspace, parallel);
  FindRows(box, parallel, workspace);
  SortCellsByX(state.x, parallel, workspace);
  const std::vector<std::uint32_t>& order = workspace.entries;
  const std::vector<std::uint64_t>& keys = workspace.cell_keys;
  const auto size = static_cast<std::size_t>(n);
  const std::size_t stride = size + kPadding;
  const SortedFluid f =
      SortedCopy(state, order, 13, 10, parallel, workspace.scratch);
  float* ax = f.x + 10 * stride;
  float* ay = f.x + 11 * stride;
  float* az = f.x + 12 * stride;
  const PairConstants c = PairConstantsOf(params);
  std::vector<std::uint32_t>& cuts = workspace.neighbor_ids;
  cuts.resize(2 * kRowsAfter * size);
  CutRows(workspace, f.x, c.h, parallel, cuts.data());
  const Kernels shape(params.h);
  // The self term of the density, before W's constant: m_k (h^2)^3.
  const float self = shape.h2 * shape.h2 * shape.h2;
  ExceptionTrap trap_3;
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t k = 0; k < n; ++k) {
    trap_3.Run([&] {
      fault::Point("sph.sorted_pairs_simd.3");
      f.density[k] = f.mass[k] * self;
    });
  }
  trap_3.Rethrow();
  // Both written for every particle (BySlabParity visits each once).
  const std::unique_ptr<std::uint64_t[]> tested(new std::uint64_t[size]);
  BySlabParity(box, keys, cuts.data(), parallel,
               [&](std::uint32_t k, const std::uint32_t* begin,
                   const std::uint32_t* end) {
                 tested[k] =
                     HWY_DYNAMIC_DISPATCH(HalfDensity)(f, c, k, begin, end);
               });
  ExceptionTrap trap_4;
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t k = 0; k < n; ++k) {
    trap_4.Run([&] {
      fault::Point("sph.sorted_pairs_simd.4");
      const float density = shape.poly6 * f.density[k];
      f.density[k] = density;
      f.pressure[k] = params.stiffness * (density - params.rest_density);
      f.inverse[k] = 1.0f / density;
    });
  }
  trap_4.Rethrow();
  const std::unique_ptr<std::uint64_t[]> pairs(new std::uint64_t[size]);
  BySlabParity(box, keys, cuts.data(), parallel,
               [&](std::uint32_t k, const std::uint32_t* begin,
                   const std::uint32_t* end) {
                 pairs[k] = HWY_DYNAMIC_DISPATCH(HalfForce)(f, c, k, begin, end,
                                                            ax, ay, az);
               });
  std::uint64_t candidates = 0;
  std::uint64_t interactions = 0;
  const double bound2 = SquaredMoveBound(params);
  Overstep overstep;
  ExceptionTrap trap_5;
#pragma omp parallel for schedule(static) if (parallel) \
    reduction(+ : candidates, interactions) reduction(first_overstep : overstep)
  for (std::int64_t k = 0; k < n; ++k) {
    trap_5.Run([&] {
      fault::Point("sph.sorted_pairs_simd.5");
      candidates += tested[k];
      interactions += 2 * pairs[k];
      overstep.Note(order[k],
                    IntegrateInto(params, f, static_cast<std::size_t>(k),
                                  {ax[k], ay[k], az[k]}, order[k], state),
                    bound2);
    });
  }
  trap_5.Rethrow();
  report.candidates = candidates;
  report.interactions = interactions;
  report.threads = parallel ? omp_get_max_threads() : 1;
  CheckFinished(state, params, overstep, parallel);
}

}  // namespace detail

void SortedPairsSimdStep(State& state, const Params& params,
                         Workspace& workspace, StepReport& report) {
  detail::HalfPairsStep(state, params, workspace, report, false);
}

}  // namespace adj::sph
#endif  // HWY_ONCE
