#pragma once

// The machine's own limit beside every bandwidth-bound kernel: copies of the
// same bytes, in the same binary and run, named <family>/memcpy/<scene>/...
// (one thread, std::memcpy), <family>/memcpy_openmp/<scene>/... (every
// thread copying its slice) and <family>/memcpy_stream/<scene>/... (one
// thread, non-temporal stores). Reports divide a CPU variant's
// bytes_per_second by the fastest of them at the same size. Where a GPU is
// usable, <family>/memcpy_cuda_host/<scene>/... moves the bytes across the
// bus once, half to the device and half back (pageable host memory): the
// limit of a CUDA variant whose time includes taking its input from host
// memory and giving its output back. RegisterDeviceCopyLimits adds the
// limits of kernels timed alone on device-resident data.
//
// No one copy is the limit everywhere. On a 2-vCPU AMD EPYC VM (AVX2, FSRM)
// glibc's memcpy copies 224 and 448 KiB with `rep movsb` (perf: 96 % of the
// samples on it), and compaction/memcpy/keep50 took 147 and 191 us at 2^16
// and 2^17 items against memcpy_stream's 14 and 33 us, but 29 us at 2^18
// (896 KiB), where memcpy_stream took 61 (scratch: console medians of 5,
// one run, no JSON kept).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace adj::bench {

// Registers the three copies for each value of the named argument `arg_name`,
// copying bytes_of(value) bytes (bytes_per_second counts them read + written,
// as the kernels count their own traffic). With items_of, items_per_second
// says how many of the family's items (triangles, particles) per second a
// kernel moving the same bytes at copy speed would process.
void RegisterMemcpyLimits(
    const std::string& family, const std::string& scene,
    const std::string& arg_name, const std::vector<std::int64_t>& values,
    std::function<std::size_t(std::int64_t)> bytes_of,
    std::function<std::int64_t(std::int64_t)> items_of = nullptr);

// Where a GPU is usable, the limit of a kernel timed alone (CUDA events) on
// data already on the device: <family>/memcpy_cuda/<scene>/... copies
// bytes_of(value) bytes device to device with cudaMemcpy (the whole GPU)
// and, with one_block_threads > 0, <family>/memcpy_cuda_one_block/<scene>/...
// copies them with a kernel of one block of that many threads (the limit of
// a kernel that runs one block per problem). Each row's time is the copy
// alone (manual time), also given as the counter kernel_us, which is what
// reports compare a CUDA row's own kernel_us with. Rates as above.
void RegisterDeviceCopyLimits(
    const std::string& family, const std::string& scene,
    const std::string& arg_name, const std::vector<std::int64_t>& values,
    std::function<std::size_t(std::int64_t)> bytes_of,
    std::function<std::int64_t(std::int64_t)> items_of = nullptr,
    int one_block_threads = 0);

}  // namespace adj::bench
