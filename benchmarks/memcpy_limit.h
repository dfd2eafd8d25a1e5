#pragma once

// The machine's own limit beside every bandwidth-bound kernel: copies that
// move as many bytes as the kernel must, in the same binary and run. A
// family states bytes_of(value): the bytes its kernel moves at least, its
// input read once plus its output written once. A copy reads and writes,
// so on the CPU <family>/memcpy/<scene>/... (one thread, std::memcpy),
// <family>/memcpy_openmp/<scene>/... (every thread copying its slice) and
// <family>/memcpy_stream/<scene>/... (one thread, non-temporal stores) copy
// half of bytes_of. Where a GPU is usable, <family>/memcpy_cuda_host/...
// sends all of bytes_of across the bus, half to the device and half back
// (pageable host memory): the limit of a CUDA variant whose time includes
// taking its input from host memory and giving its output back.
// RegisterDeviceCopyLimits adds the limits of kernels timed alone on
// device-resident data (half of bytes_of copied on the device). Every copy
// and every kernel reports bytes_of as its bytes_per_second's bytes, so a
// ratio of rates is a ratio of times; reports divide a variant's rate by
// the best copy's on the same device at the same size.
//
// No one copy is the limit everywhere: glibc's memcpy can take a slow
// `rep movsb` at some sizes (docs/compaction.md#decisions-and-dead-ends).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace adj::bench {

// Whether a family has CUDA rows timed host to host, whose limit is
// memcpy_cuda_host (families without them, or whose CUDA rows are timed
// on the device alone, say kNone: the row would stand beside nothing).
enum class HostRoundTrip { kRegister, kNone };

// Registers the CPU copies (and memcpy_cuda_host) for each value of the
// named argument `arg_name`, moving bytes_of(value) bytes as above. With
// items_of, items_per_second says how many of the family's items
// (triangles, particles) per second a kernel moving the same bytes at copy
// speed would process.
void RegisterMemcpyLimits(
    const std::string& family, const std::string& scene,
    const std::string& arg_name, const std::vector<std::int64_t>& values,
    std::function<std::size_t(std::int64_t)> bytes_of,
    std::function<std::int64_t(std::int64_t)> items_of = nullptr,
    HostRoundTrip host_round_trip = HostRoundTrip::kRegister);

// Where a GPU is usable, the limit of a kernel timed alone (CUDA events) on
// data already on the device: <family>/memcpy_cuda/<scene>/... copies half
// of bytes_of(value) device to device with cudaMemcpy (the whole GPU) and,
// with one_block_threads > 0, <family>/memcpy_cuda_one_block/<scene>/...
// copies it with a kernel of one block of that many threads (the limit of
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
