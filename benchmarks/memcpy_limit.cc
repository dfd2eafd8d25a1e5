#include "benchmarks/memcpy_limit.h"

#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "algorithms/common/cuda.h"
#if ADJ_HAVE_CUDA
#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/common/device_copy.h"
#endif
#include "benchmarks/bench_main.h"
#include "benchmarks/streaming_copy.h"

namespace adj::bench {
namespace {

void CopyOneThread(const unsigned char* from, unsigned char* to,
                   std::size_t bytes) {
  std::memcpy(to, from, bytes);
}

void CopyEveryThread(const unsigned char* from, unsigned char* to,
                     std::size_t bytes) {
#pragma omp parallel
  {
    const std::size_t threads = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t thread = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t slice = (bytes + threads - 1) / threads;
    const std::size_t begin = std::min(bytes, thread * slice);
    const std::size_t end = std::min(bytes, begin + slice);
    std::memcpy(to + begin, from + begin, end - begin);
  }
}

// A copy's source: bytes that a copy of zeros could not fake.
std::vector<unsigned char> Patterned(std::size_t bytes) {
  std::vector<unsigned char> from(bytes);
  for (std::size_t i = 0; i < bytes; ++i) {
    from[i] = static_cast<unsigned char>(i * 131 + 7);
  }
  return from;
}

// Every copy counts the bytes its kernel must move (memcpy_limit.h), as the
// kernels count their own.
void SetCopyRates(benchmark::State& state, std::size_t moved,
                  const std::function<std::int64_t(std::int64_t)>& items_of) {
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(moved));
  if (items_of) {
    state.SetItemsProcessed(state.iterations() * items_of(state.range(0)));
  }
  state.counters["verified"] = 1;
}

enum class Copy { kMemcpy, kMemcpyEveryThread, kStreaming };

void RegisterOne(const std::string& name, Copy kind,
                 const std::string& arg_name,
                 const std::vector<std::int64_t>& values,
                 const std::function<std::size_t(std::int64_t)>& bytes_of,
                 const std::function<std::int64_t(std::int64_t)>& items_of) {
  auto* registered = benchmark::RegisterBenchmark(
      name.c_str(), [kind, bytes_of, items_of](benchmark::State& state) {
        const std::size_t moved = bytes_of(state.range(0));
        const std::size_t bytes = moved / 2;  // read once, written once
        const std::vector<unsigned char> from = Patterned(bytes);
        std::vector<unsigned char> to(bytes, 0);
        const auto copy = kind == Copy::kMemcpy      ? CopyOneThread
                          : kind == Copy::kStreaming ? StreamingCopy
                                                     : CopyEveryThread;
        copy(from.data(), to.data(), bytes);  // fault every page in first
        if (from != to) {
          state.SkipWithError("copy differs from its source");
          return;
        }
        for (auto _ : state) {
          copy(from.data(), to.data(), bytes);
          benchmark::DoNotOptimize(to.data());
          benchmark::ClobberMemory();
        }
        SetCopyRates(state, moved, items_of);
        DescribeCpuRun(
            state, kind == Copy::kMemcpyEveryThread ? omp_get_max_threads() : 1,
            "cpu");
      });
  registered->ArgName(arg_name)->UseRealTime();
  for (const std::int64_t value : values) registered->Arg(value);
}

#if ADJ_HAVE_CUDA
// The GPU's limit for a variant that takes host memory in and gives host
// memory back: bytes_of counts what such a variant reads and writes, so
// those bytes cross the bus once, half to the device and half back (the
// variant's input in, its output out), through pageable host memory as the
// variants' own copies go.
void RegisterHostRoundTrip(
    const std::string& name, const std::string& arg_name,
    const std::vector<std::int64_t>& values,
    const std::function<std::size_t(std::int64_t)>& bytes_of,
    const std::function<std::int64_t(std::int64_t)>& items_of) {
  auto* registered = benchmark::RegisterBenchmark(
      name.c_str(), [bytes_of, items_of](benchmark::State& state) {
        const std::size_t bytes = bytes_of(state.range(0));
        const std::vector<unsigned char> from = Patterned(bytes);
        std::vector<unsigned char> to(bytes, 0);
        const std::size_t in = bytes / 2;
        const std::size_t out = bytes - in;
        try {
          // DeviceBuffer's copies throw adj::Error on any CUDA error.
          cuda::DeviceBuffer<unsigned char> device(out);
          const auto round_trip = [&] {
            if (bytes == 0) return;
            device.CopyFromHost(from.data(), in);
            device.CopyToHost(to.data(), out);
          };
          round_trip();
          if (!std::equal(from.begin(), from.begin() + static_cast<long>(in),
                          to.begin())) {
            state.SkipWithError("the round trip through the GPU changed bytes");
            return;
          }
          for (auto _ : state) {
            round_trip();
            benchmark::DoNotOptimize(to.data());
            benchmark::ClobberMemory();
          }
        } catch (const std::exception& error) {
          state.SkipWithError(error.what());
          return;
        }
        SetCopyRates(state, bytes, items_of);
        DescribeGpuRun(state);
      });
  registered->ArgName(arg_name)->UseRealTime();
  for (const std::int64_t value : values) registered->Arg(value);
}

// A device-resident copy, timed alone: with threads == 0 by cudaMemcpy over
// the whole GPU, else by one block of `threads` threads.
void RegisterDeviceCopy(
    const std::string& name, int threads, const std::string& arg_name,
    const std::vector<std::int64_t>& values,
    const std::function<std::size_t(std::int64_t)>& bytes_of,
    const std::function<std::int64_t(std::int64_t)>& items_of) {
  auto* registered = benchmark::RegisterBenchmark(
      name.c_str(), [threads, bytes_of, items_of](benchmark::State& state) {
        const std::size_t moved = bytes_of(state.range(0));
        const std::vector<unsigned char> from = Patterned(moved / 2);
        double seconds = 0;
        try {
          cuda::DeviceCopy copy(from);
          const auto time = [&] {
            return threads == 0 ? copy.TimeWholeDevice()
                                : copy.TimeOneBlock(threads);
          };
          time();
          if (copy.Destination() != from) {
            state.SkipWithError("the device copy differs from its source");
            return;
          }
          for (auto _ : state) {
            const double once = time();
            state.SetIterationTime(once);
            seconds += once;
          }
        } catch (const std::exception& error) {
          state.SkipWithError(error.what());
          return;
        }
        SetCopyRates(state, moved, items_of);
        state.counters["kernel_us"] =
            1e6 * seconds /
            static_cast<double>(
                std::max<benchmark::IterationCount>(state.iterations(), 1));
        DescribeGpuRun(state, threads == 0 ? "device memory, copy time"
                                           : "device memory, one block of " +
                                                 std::to_string(threads) +
                                                 " threads, copy time");
      });
  registered->ArgName(arg_name)->UseManualTime();
  for (const std::int64_t value : values) registered->Arg(value);
}
#endif

}  // namespace

void RegisterMemcpyLimits(const std::string& family, const std::string& scene,
                          const std::string& arg_name,
                          const std::vector<std::int64_t>& values,
                          std::function<std::size_t(std::int64_t)> bytes_of,
                          std::function<std::int64_t(std::int64_t)> items_of,
                          [[maybe_unused]] HostRoundTrip host_round_trip) {
  RegisterOne(family + "/memcpy/" + scene, Copy::kMemcpy, arg_name, values,
              bytes_of, items_of);
  RegisterOne(family + "/memcpy_openmp/" + scene, Copy::kMemcpyEveryThread,
              arg_name, values, bytes_of, items_of);
  RegisterOne(family + "/memcpy_stream/" + scene, Copy::kStreaming, arg_name,
              values, bytes_of, items_of);
#if ADJ_HAVE_CUDA
  if (host_round_trip == HostRoundTrip::kRegister &&
      cuda::Available().available) {
    RegisterHostRoundTrip(family + "/memcpy_cuda_host/" + scene, arg_name,
                          values, bytes_of, items_of);
  }
#endif
}

void RegisterDeviceCopyLimits(
    [[maybe_unused]] const std::string& family,
    [[maybe_unused]] const std::string& scene,
    [[maybe_unused]] const std::string& arg_name,
    [[maybe_unused]] const std::vector<std::int64_t>& values,
    [[maybe_unused]] std::function<std::size_t(std::int64_t)> bytes_of,
    [[maybe_unused]] std::function<std::int64_t(std::int64_t)> items_of,
    [[maybe_unused]] int one_block_threads) {
#if ADJ_HAVE_CUDA
  if (!cuda::Available().available) return;
  RegisterDeviceCopy(family + "/memcpy_cuda/" + scene, 0, arg_name, values,
                     bytes_of, items_of);
  if (one_block_threads > 0) {
    RegisterDeviceCopy(family + "/memcpy_cuda_one_block/" + scene,
                       one_block_threads, arg_name, values, bytes_of, items_of);
  }
#endif
}

}  // namespace adj::bench
