#!/usr/bin/env bash
# Runs every fuzz target (fuzz/, built by the `fuzz` preset) for a bounded
# time and prints executions, coverage and the result per target:
#   tools/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 60, all)
#   FUZZ_RUNS=N tools/fuzz.sh ...   also stop a target after N executions
#                                   (the acceptance run: 1e7, or 2 hours)
# Each target starts from its checked-in seeds (fuzz/corpus/<target>), the
# fixed crashes (fuzz/regressions/<target>) and, for the loaders, the small
# files of CGAL's data set and of the test scenes when present; it keeps
# what it finds in build/fuzz/corpus/<target> across runs, with the format's
# dictionary (fuzz/dict). A crash, leak, sanitizer report or broken property
# stops that target, leaves the input in build/fuzz/crashes/<target>/ and
# makes the script exit 1 after the others ran. The table is also written to
# build/fuzz/summary.txt.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-60}"
shift || true
build="$root/build/fuzz"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  # Every target the fuzz build made (fuzz/CMakeLists.txt lists them).
  for binary in "$build"/fuzz/fuzz_*; do
    [ -x "$binary" ] && targets+=("${binary##*/fuzz_}")
  done
  if [ ${#targets[@]} -eq 0 ]; then
    echo "adjacent: no fuzz targets in $build/fuzz: build them with cmake --build --preset fuzz" >&2
    exit 2
  fi
fi

# Small real files as extra seeds: CGAL's data (make data) by extension.
seed_files() {
  local extension="$1"
  find "$root/.cache/cgal/data" -type f -iname "*.$extension" -size -64k \
    2>/dev/null | head -40
}

status=0
summary="$build/summary.txt"
mkdir -p "$build"
printf '%-12s %9s %12s %10s %7s %7s  %s\n' target seconds executions exec/s \
  cov ft result > "$summary"
for target in "${targets[@]}"; do
  binary="$build/fuzz/fuzz_$target"
  if [ ! -x "$binary" ]; then
    echo "adjacent: $binary is missing: build it with cmake --build --preset fuzz" >&2
    exit 2
  fi
  corpus="$build/corpus/$target"
  crashes="$build/crashes/$target"
  mkdir -p "$corpus" "$crashes"
  cp -n "$root/fuzz/corpus/$target"/* "$corpus"/ 2>/dev/null
  [ -d "$root/fuzz/regressions/$target" ] &&
    cp -n "$root/fuzz/regressions/$target"/* "$corpus"/ 2>/dev/null
  case "$target" in
    loader_*)
      extension="${target#loader_}"
      while IFS= read -r file; do
        cp -n "$file" "$corpus/cgal-$(basename "$file")" 2>/dev/null
      done < <(seed_files "$extension")
      ;;
  esac
  options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096
           -max_len=65536 -print_final_stats=1
           -artifact_prefix="$crashes/")
  [ -n "${FUZZ_RUNS:-}" ] && options+=(-runs="$FUZZ_RUNS")
  dict="$root/fuzz/dict/${target#loader_}.dict"
  [ -f "$dict" ] && options+=(-dict="$dict")
  log="$build/$target.log"
  started=$(date +%s)
  "$binary" "${options[@]}" "$corpus" > "$log" 2>&1
  result=$?
  elapsed=$(( $(date +%s) - started ))
  runs=$(grep -a -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  line=$(grep -a -E '^#[0-9]+' "$log" | grep -a -E 'cov:' | tail -1)
  cov=$(echo "$line" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*')
  ft=$(echo "$line" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*')
  verdict=ok
  if [ "$result" -ne 0 ]; then
    verdict="FAILED (exit $result; see $log and $crashes)"
    status=1
  fi
  per_second=$(( ${runs:-0} / (elapsed > 0 ? elapsed : 1) ))
  printf '%-12s %9s %12s %10s %7s %7s  %s\n' "$target" "$elapsed" \
    "${runs:-?}" "$per_second" "${cov:-?}" "${ft:-?}" "$verdict" | tee -a "$summary"
done
echo "adjacent: fuzz summary in $summary"
exit $status
