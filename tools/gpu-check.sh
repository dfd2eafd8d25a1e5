#!/usr/bin/env bash
# The GPU check, on a machine with an NVIDIA GPU: builds the suite with CUDA
# (preset `cuda`), runs every test, measures the CUDA benchmarks while the GPU
# is otherwise idle, then runs every CUDA test under compute-sanitizer's
# memcheck, racecheck, synccheck and initcheck. Everything lands in OUT as few files (the device
# tool brings back at most 8):
#   gpu.txt        nvidia-smi, nvcc and compiler versions
#   build.log      configure + build
#   ctest.log      every test, CUDA ones included
#   bench.log      the benchmark runner's output; json.tar.gz its JSON
#   sanitizer_summary.txt  per test binary and tool, its exit status
#   sanitizer.log.gz       the sanitizers' full output, one section each
#
#   tools/gpu-check.sh OUT [SECONDS]   (SECONDS: wall-clock budget, default 560;
#                                      later phases shrink to fit it)
set -uo pipefail
out=${1:?usage: tools/gpu-check.sh OUT [SECONDS]}
budget=${2:-560}
cd "$(dirname "$0")/.."
mkdir -p "$out"
jobs=$(nproc)
left() { echo $((budget - SECONDS)); }

{
  nvidia-smi
  nvcc --version
  c++ --version
  cmake --version
} >"$out/gpu.txt" 2>&1

if ! { cmake --preset cuda && cmake --build --preset cuda -j"$jobs"; } \
  >"$out/build.log" 2>&1; then
  tail -40 "$out/build.log"
  echo "gpu-check: build failed"
  exit 1
fi
echo "gpu-check: built at ${SECONDS}s"

ctest --preset cuda -j"$jobs" --output-on-failure \
  --timeout "$(($(left) / 3))" >"$out/ctest.log" 2>&1
echo "gpu-check: ctest exit $? at ${SECONDS}s"
grep -E "tests passed|tests failed|\*\*\*Failed|\*\*\*Timeout|Exception" \
  "$out/ctest.log" | head -30

# CUDA rows and the GPU limits beside them (memcpy_cuda,
# memcpy_cuda_one_block, memcpy_cuda_host), families with CUDA rows only; the GPU runs nothing else meanwhile.
families=()
for bench in build/cuda/benchmarks/*_bench; do
  rows=$("$bench" --benchmark_list_tests --benchmark_filter=cuda 2>/dev/null |
    grep -v /memcpy)
  [ -n "$rows" ] && families+=("$(basename "$bench" _bench)")
done
echo "gpu-check: benchmark families ${families[*]}"
timeout "$(($(left) - 120))" python3 reports/run_benchmarks.py \
  --build-dir build/cuda --out "$out/json" --filter cuda \
  --families "${families[@]}" >"$out/bench.log" 2>&1
echo "gpu-check: benchmarks exit $? at ${SECONDS}s"
tar -czf "$out/json.tar.gz" -C "$out" json && rm -rf "$out/json"

# The sanitizers slow kernels by orders of magnitude (the benchmarks leave
# them 120 s, over what all four need at these case counts): fewer RapidCheck cases,
# every binary with CUDA cases at once, all stopped before the budget ends.
sanitizer_seconds=$(($(left) - 15))
mkdir -p "$out/san"
for tool in memcheck racecheck synccheck initcheck; do
  for test in build/cuda/properties/*_test; do
    name=$(basename "$test")
    "$test" --gtest_list_tests --gtest_filter='*cuda*:*Cuda*' | grep -q '^  ' ||
      continue
    (
      RC_PARAMS="max_success=8 max_size=60" timeout "$sanitizer_seconds" \
        compute-sanitizer --tool "$tool" --error-exitcode 99 \
        "$test" --gtest_filter='*cuda*:*Cuda*' >"$out/san/$tool.$name.log" 2>&1
      echo "== $tool $name: exit $?" >>"$out/san/$tool.$name.log"
    ) &
  done
done
wait
for log in "$out"/san/*.log; do
  echo "==== $(basename "$log")"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|exit [0-9]+" "$log" |
    tail -6
done | tee "$out/sanitizer_summary.txt"
cat "$out"/san/*.log | gzip >"$out/sanitizer.log.gz"
rm -rf "$out/san"
echo "gpu-check: done at ${SECONDS}s"
