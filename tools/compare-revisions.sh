#!/usr/bin/env bash
# `make compare BASE=<revision>`: builds BASE (a git worktree under
# build/compare/) and the working tree (build/default), runs their
# benchmarks in alternating rounds, then prints reports/compare.py's table:
# per benchmark the time ratio of medians and a Mann-Whitney U test over
# the rounds, flagging what changed beyond the noise.
#
#   tools/compare-revisions.sh BASE [ROUNDS] [FAMILIES...]
#     ROUNDS: repetitions a side, default 7 (5 is the fewest that can flag
#             anything among a few dozen benchmarks)
#     FAMILIES: benchmark binaries to run (default: every one), e.g.
#             prefix_sum compaction
#   FILTER (environment): a --benchmark_filter for every binary
#   JOBS (environment): build parallelism
set -euo pipefail
base=${1:?usage: tools/compare-revisions.sh BASE [ROUNDS] [FAMILIES...]}
rounds=${2:-7}
shift $(($# >= 2 ? 2 : 1))
families=("$@")
cd "$(dirname "$0")/.."
root=$PWD
jobs=${JOBS:-$(nproc)}
python=${PYTHON:-.venv/bin/python}

revision=$(git rev-parse --verify "$base^{commit}")
worktree=build/compare/src
if [ ! -d "$worktree" ]; then
  git worktree add --detach "$worktree" "$revision" >/dev/null
else
  git -C "$worktree" checkout --quiet --detach "$revision"
fi
echo "compare: base $base = $(git -C "$worktree" log -1 --format='%h %s')"
echo "compare: head = the working tree ($(git describe --always --dirty))"

targets=()
if [ ${#families[@]} -eq 0 ]; then
  for bench in build/default/benchmarks/*_bench; do
    families+=("$(basename "$bench" _bench)")
  done
fi
for family in "${families[@]}"; do targets+=("${family}_bench"); done
(cd "$worktree" && cmake --preset default >/dev/null &&
  cmake --build --preset default -j"$jobs" --target "${targets[@]}")
cmake --build --preset default -j"$jobs" --target "${targets[@]}"

# Both sides run from paths of one length, under one environment: the
# size of argv and the environment moves the stack's alignment, which
# alone shifts a 30 ns benchmark by 20 % (Mytkowicz et al., ASPLOS 2009,
# "Producing wrong data without doing anything obviously wrong!").
out=build/compare/runs
rm -rf "$out" build/compare/bin
mkdir -p "$out" build/compare/bin/base build/compare/bin/head
for family in "${families[@]}"; do
  cp "$worktree/build/default/benchmarks/${family}_bench" build/compare/bin/base/
  cp "build/default/benchmarks/${family}_bench" build/compare/bin/head/
done
export OMP_PROC_BIND=${OMP_PROC_BIND:-close}
export OMP_PLACES=${OMP_PLACES:-cores}
for ((round = 1; round <= rounds; ++round)); do
  # Alternate which side goes first, so that a drift over the run (a
  # warming or throttling host) falls on both.
  sides=(base head)
  ((round % 2 == 0)) && sides=(head base)
  for side in "${sides[@]}"; do
    for family in "${families[@]}"; do
      "build/compare/bin/$side/${family}_bench" --benchmark_min_time=0.05 \
        ${FILTER:+--benchmark_filter="$FILTER"} \
        --benchmark_out="$out/$side.$family.$round.json" \
        --benchmark_out_format=json >/dev/null 2>&1 ||
        echo "compare: $side $family round $round exited $?" >&2
    done
  done
  echo "compare: round $round of $rounds done"
done
"$python" reports/compare.py --base "$out"/base.*.json --head "$out"/head.*.json
