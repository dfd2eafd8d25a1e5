// sorted_gather's row sums on SIMD lanes: a row's candidates are
// contiguous in cell order, so as many as a vector of floats holds are
// tested and summed at once, the pairs outside h, past the row's end (the
// arrays are padded) and k itself masked to zero. Lanes sum in their own order,
// so the bits differ from sorted_gather's (within the oracle's tolerance);
// sorted_simd_openmp gives these bits. Highway, dynamic dispatch.
#include <cstddef>
#include <cstdint>

#include "algorithms/sph/sorted_gather.h"
#include "algorithms/sph/variants.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "algorithms/sph/sorted_simd.cc"
#include <hwy/foreach_target.h>  // re-includes this file once per target
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace adj::sph::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

float SimdDensity(const SortedFluid& f, const PairConstants& c, std::size_t k,
                  const std::uint32_t* begin, const std::uint32_t* end) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const auto lanes = static_cast<std::uint32_t>(hn::Lanes(d));
  const auto xk = hn::Set(d, f.x[k]);
  const auto yk = hn::Set(d, f.y[k]);
  const auto zk = hn::Set(d, f.z[k]);
  const auto h2 = hn::Set(d, c.h2);
  auto sum = hn::Zero(d);
  for (int row = 0; row < kRows; ++row) {
    const auto last = hn::Set(di, static_cast<std::int32_t>(end[row]));
    // The last vector of a row reads past its end (the arrays are padded):
    // lanes at or past the end are masked off.
    for (std::uint32_t j = begin[row]; j < end[row]; j += lanes) {
      const auto in_row = hn::RebindMask(
          d, hn::Lt(hn::Iota(di, static_cast<std::int32_t>(j)), last));
      const auto dx = hn::Sub(xk, hn::LoadU(d, f.x + j));
      const auto dy = hn::Sub(yk, hn::LoadU(d, f.y + j));
      const auto dz = hn::Sub(zk, hn::LoadU(d, f.z + j));
      const auto r2 =
          hn::Add(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy)), hn::Mul(dz, dz));
      const auto gap = hn::Sub(h2, r2);
      const auto w = hn::Mul(hn::Mul(gap, gap), gap);
      sum = hn::Add(sum,
                    hn::IfThenElseZero(hn::And(hn::Lt(r2, h2), in_row),
                                       hn::Mul(hn::LoadU(d, f.mass + j), w)));
    }
  }
  return c.poly6 * hn::GetLane(hn::SumOfLanes(d, sum));
}

std::uint32_t SimdForce(const SortedFluid& f, const PairConstants& c,
                        std::size_t k, const std::uint32_t* begin,
                        const std::uint32_t* end, float a[3]) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const auto lanes = static_cast<std::uint32_t>(hn::Lanes(d));
  const auto xk = hn::Set(d, f.x[k]);
  const auto yk = hn::Set(d, f.y[k]);
  const auto zk = hn::Set(d, f.z[k]);
  const auto vxk = hn::Set(d, f.vx[k]);
  const auto vyk = hn::Set(d, f.vy[k]);
  const auto vzk = hn::Set(d, f.vz[k]);
  const auto pk = hn::Set(d, f.pressure[k]);
  const auto ik = hn::Set(d, f.inverse[k]);
  const auto h = hn::Set(d, c.h);
  const auto h2 = hn::Set(d, c.h2);
  const auto half_spiky = hn::Set(d, c.half_spiky);
  const auto drag_scale = hn::Set(d, c.drag);
  const auto zero = hn::Zero(d);
  const auto one = hn::Set(d, 1.0f);
  const auto self = hn::Set(di, static_cast<std::int32_t>(k));
  auto ax = zero, ay = zero, az = zero;
  std::uint32_t pairs = 0;
  for (int row = 0; row < kRows; ++row) {
    const auto last = hn::Set(di, static_cast<std::int32_t>(end[row]));
    for (std::uint32_t j = begin[row]; j < end[row]; j += lanes) {
      const auto index = hn::Iota(di, static_cast<std::int32_t>(j));
      const auto counted =
          hn::RebindMask(d, hn::And(hn::Lt(index, last), hn::Ne(index, self)));
      const auto dx = hn::Sub(xk, hn::LoadU(d, f.x + j));
      const auto dy = hn::Sub(yk, hn::LoadU(d, f.y + j));
      const auto dz = hn::Sub(zk, hn::LoadU(d, f.z + j));
      const auto r2 =
          hn::Add(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy)), hn::Mul(dz, dz));
      const auto near = hn::And(hn::Lt(r2, h2), counted);
      if (hn::AllFalse(d, near)) continue;
      pairs += static_cast<std::uint32_t>(hn::CountTrue(d, near));
      const auto r = hn::Sqrt(r2);
      const auto s = hn::Sub(h, r);
      const auto over_r = hn::IfThenElseZero(hn::Gt(r, zero), hn::Div(one, r));
      const auto push = hn::Mul(
          hn::Mul(half_spiky, hn::Add(pk, hn::LoadU(d, f.pressure + j))),
          hn::Mul(hn::Mul(s, s), over_r));
      const auto drag = hn::Mul(drag_scale, s);
      const auto weight = hn::IfThenElseZero(
          near, hn::Mul(hn::LoadU(d, f.mass + j),
                        hn::Mul(ik, hn::LoadU(d, f.inverse + j))));
      const auto dvx = hn::Sub(hn::LoadU(d, f.vx + j), vxk);
      const auto dvy = hn::Sub(hn::LoadU(d, f.vy + j), vyk);
      const auto dvz = hn::Sub(hn::LoadU(d, f.vz + j), vzk);
      ax = hn::Add(
          ax, hn::Mul(weight, hn::Add(hn::Mul(push, dx), hn::Mul(drag, dvx))));
      ay = hn::Add(
          ay, hn::Mul(weight, hn::Add(hn::Mul(push, dy), hn::Mul(drag, dvy))));
      az = hn::Add(
          az, hn::Mul(weight, hn::Add(hn::Mul(push, dz), hn::Mul(drag, dvz))));
    }
  }
  a[0] += hn::GetLane(hn::SumOfLanes(d, ax));
  a[1] += hn::GetLane(hn::SumOfLanes(d, ay));
  a[2] += hn::GetLane(hn::SumOfLanes(d, az));
  return pairs;
}

}  // namespace adj::sph::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace adj::sph {
namespace detail {

HWY_EXPORT(SimdDensity);
HWY_EXPORT(SimdForce);

namespace {

float DispatchDensity(const SortedFluid& f, const PairConstants& c,
                      std::size_t k, const std::uint32_t* begin,
                      const std::uint32_t* end) {
  return HWY_DYNAMIC_DISPATCH(SimdDensity)(f, c, k, begin, end);
}

std::uint32_t DispatchForce(const SortedFluid& f, const PairConstants& c,
                            std::size_t k, const std::uint32_t* begin,
                            const std::uint32_t* end, float a[3]) {
  return HWY_DYNAMIC_DISPATCH(SimdForce)(f, c, k, begin, end, a);
}

}  // namespace

GatherKernels SimdGatherKernels() { return {&DispatchDensity, &DispatchForce}; }

}  // namespace detail

void SortedSimdStep(State& state, const Params& params, Workspace& workspace,
                    StepReport& report) {
  detail::GatherStep(state, params, workspace, report,
                     detail::SimdGatherKernels(), false);
}

}  // namespace adj::sph
#endif  // HWY_ONCE
