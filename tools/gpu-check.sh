#!/usr/bin/env bash
# The GPU check, in one go on a machine with an NVIDIA GPU, within a
# wall-clock budget (480 s by default, so that a second try fits in a
# 15-minute lease; reports/data/h200/README.md has the runs):
#   1. builds the suite with CUDA (preset `cuda`);
#   2. runs the CUDA cases of every test binary (full RapidCheck counts) and,
#      at the same time, the same cases under compute-sanitizer's memcheck,
#      racecheck, synccheck and initcheck (fewer RapidCheck cases);
#   3. measures the GPU rows (BENCH below, most wanted first, each within
#      its share of seconds) while the GPU is otherwise idle, beside the
#      device copy of the same bytes, repetitions interleaved;
# then leaves at most 8 files in OUT (what the device tool brings back):
#   gpu.txt                nvidia-smi, nvcc and compiler versions
#   build.log.gz           configure + build
#   tests.log              the CUDA cases: summary, then each failure
#   sanitizer_summary.txt  per tool and binary: errors and exit status
#   sanitizer.log.gz       the sanitizers' full output
#   bench.log              the benchmarks' console output
#   json.tar.gz            the benchmarks' JSON, one file per family
#
#   tools/gpu-check.sh OUT [SECONDS]   SECONDS: the wall-clock budget
#                                      (default 480); the benchmarks stop
#                                      inside it, and say what they skipped
#   GPU_CHECK_BENCH="family ..."       only these families' rows (default:
#                                      every entry of BENCH)
#   GPU_CHECK_CORRECTNESS_SECONDS=N    the limit of step 2 (default 150)
#
# Offline machines: tools/fetch-device-debs.sh fills .deps/ where a package
# registry answers; there, `source .deps/env.sh` first.
set -uo pipefail
out=${1:?usage: tools/gpu-check.sh OUT [SECONDS]}
budget=${2:-480}
cd "$(dirname "$0")/.."
mkdir -p "$out"
jobs=$(nproc)
left() { echo $((budget - SECONDS)); }
say() { echo "gpu-check: $* at ${SECONDS}s"; }

{
  nvidia-smi
  nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem \
    --format=csv
  nvcc --version
  c++ --version
  cmake --version
  git log -1 --format='%H %s' 2>/dev/null
  git status --short 2>/dev/null | head -40
} >"$out/gpu.txt" 2>&1

if ! { cmake --preset cuda && cmake --build --preset cuda -j"$jobs"; } \
  >"$out/build.log" 2>&1; then
  tail -60 "$out/build.log"
  gzip -f "$out/build.log"
  say "build failed"
  exit 1
fi
gzip -f "$out/build.log"
say "built"

# The test binaries with CUDA cases.
cuda_tests=()
for test in build/cuda/properties/*_test; do
  "$test" --gtest_list_tests --gtest_filter='*cuda*:*Cuda*' 2>/dev/null |
    grep -q '^  ' && cuda_tests+=("$test")
done

# 2. Correctness, all at once (nothing is timed, so they may share the GPU
# and the cores): the CUDA cases of every binary with full RapidCheck
# counts, and the same cases under compute-sanitizer's memcheck,
# racecheck, synccheck and initcheck with fewer cases (the sanitizers slow
# kernels by orders of magnitude). Every process is stopped at the phase's
# limit; CPU-only tests are left to the CPU machines (`make test`).
correct_seconds=${GPU_CHECK_CORRECTNESS_SECONDS:-150}
mkdir -p "$out/tests" "$out/san"
for test in "${cuda_tests[@]}"; do
  name=$(basename "$test")
  (
    timeout "$correct_seconds" "$test" --gtest_filter='*cuda*:*Cuda*' \
      >"$out/tests/$name.log" 2>&1
    echo "== $name: exit $?" >>"$out/tests/$name.log"
  ) &
  for tool in memcheck racecheck synccheck initcheck; do
    (
      RC_PARAMS="max_success=8 max_size=60" timeout "$correct_seconds" \
        compute-sanitizer --tool "$tool" --error-exitcode 99 \
        "$test" --gtest_filter='*cuda*:*Cuda*' >"$out/san/$tool.$name.log" 2>&1
      echo "== $tool $name: exit $?" >>"$out/san/$tool.$name.log"
    ) &
  done
done
wait
for log in "$out"/tests/*.log; do
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED  \]|== .*exit" "$log"
done >"$out/tests_summary.txt"
{
  cat "$out/tests_summary.txt"
  echo
  for log in "$out"/tests/*.log; do
    echo "==== $(basename "$log")"
    grep -B2 -A25 "Failure\|FAILED\|exception\|error:" "$log" | head -200
  done
} >"$out/tests.log"
grep -E "FAILED|exit [1-9]" "$out/tests_summary.txt" | head -30
rm -rf "$out/tests" "$out/tests_summary.txt"
for log in "$out"/san/*.log; do
  echo "==== $(basename "$log")"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|\[  PASSED|\[  FAILED|exit [0-9]+" \
    "$log" | tail -6
done | tee "$out/sanitizer_summary.txt" | grep -B1 -E "exit [1-9]" | head -40
cat "$out"/san/*.log | gzip >"$out/sanitizer.log.gz"
rm -rf "$out/san"
say "CUDA tests and sanitizers done"

# 3. The GPU rows: "family;filter;most seconds;extra flags", run in this
# order, each within its share and what is left; then every other family's
# GPU rows with the defaults (a new family needs no line here). Each
# family's JSON is its own file (prefix_sum_tiles: the tuning sweep, kept
# apart from figures).
# house-check: per-family settings and their order, not a list of families.
BENCH=(
  "prefix_sum;^prefix_sum/(cuda|cuda_cub|thrust|memcpy_cuda[a-z_]*)/;90;--benchmark_repetitions=3"
  "prefix_sum_tiles;^prefix_sum/cuda_tile_;90;--benchmark_repetitions=3"
  "hash_grid;^hash_grid/(cuda[a-z_]*|memcpy_cuda[a-z_]*)/uniform/;40;--benchmark_repetitions=3"
  "sph;^sph/(cuda|memcpy_cuda)[a-z_]*/glass/particles:(1000000|10000000)(/real_time|/manual_time)?$;60;"
  "triplet_collide;^triplet_collide/(cuda[a-z_]*|memcpy_cuda[a-z_]*)/;50;"
  "compaction;^compaction/(cuda[a-z_]*|thrust|memcpy_cuda[a-z_]*)/;30;"
  "fracture;^fracture/(cuda[a-z_]*|memcpy_cuda[a-z_]*)/;60;"
)
for binary in build/cuda/benchmarks/*_bench; do
  family=$(basename "$binary" _bench)
  printf '%s\n' "${BENCH[@]}" | grep -q "^$family;" ||
    BENCH+=("$family;^$family/(cuda[a-z_]*|memcpy_cuda[a-z_]*)/;30;")
done
mkdir -p "$out/json"
bench_end=$((budget - 10))
for entry in "${BENCH[@]}"; do
  IFS=';' read -r family filter share extra <<<"$entry"
  if [ -n "${GPU_CHECK_BENCH:-}" ] &&
    ! grep -qw "$family" <<<"$GPU_CHECK_BENCH"; then
    continue
  fi
  binary="build/cuda/benchmarks/${family%_tiles}_bench"
  seconds=$((bench_end - SECONDS))
  [ "$seconds" -gt "$share" ] && seconds=$share
  if [ "$seconds" -lt 20 ]; then
    say "no time left for $family's rows (skipped)"
    continue
  fi
  say "measuring $family (at most ${seconds}s)"
  # shellcheck disable=SC2086
  ADJ_BENCH_SCAN_TILES=1 timeout "$seconds" "$binary" \
    --benchmark_filter="$filter" --adj_sweep=quick \
    --benchmark_min_time=0.1 --benchmark_enable_random_interleaving=true \
    $extra --benchmark_out="$out/json/$family.json" \
    --benchmark_out_format=json >>"$out/bench.log" 2>&1
  status=$?
  [ "$status" -ne 0 ] && say "$family's rows exited $status"
done
tar -czf "$out/json.tar.gz" -C "$out" json && rm -rf "$out/json"
say "benchmarks done"

say "done"
