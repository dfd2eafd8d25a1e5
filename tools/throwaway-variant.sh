#!/usr/bin/env bash
# docs/architecture.md's recipe for a variant, proved rather than promised:
# in a scratch copy of the working tree, add a throwaway row to prefix_sum in
# exactly the places the recipe names (an implementation file, its
# declaration in variants.h, its row in the table, its source line), build
# without CUDA, and see every layer pick it up from the table alone:
#   tests       the family's variant tests run it and pass;
#   benchmarks  prefix_sum_bench registers it and its row verifies;
#   CLI         `adjacent variants` lists it;
#   docs        the docs test fails while docs/prefix_sum.md lacks it, and
#               passes once tools/update-docs.py has written it in;
#   Python      adjacent.variants() lists it and adjacent.prefix_sum.scan
#               runs it.
# Run by .ci/run after `make test`; needs the venv `make test` made.
#   tools/throwaway-variant.sh [SCRATCH]   (default build/throwaway)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${1:-$root/build/throwaway}
jobs=${JOBS:-$(nproc)}
python=$root/.venv/bin/python
say() { echo "throwaway-variant: $*"; }
fail() { echo "throwaway-variant: FAILED: $*" >&2; exit 1; }

rm -rf "$scratch"
mkdir -p "$scratch/src"
(cd "$root" && git ls-files -z | xargs -0 cp --parents -t "$scratch/src")
cd "$scratch/src"

# 1. The implementation, one file.
cat >algorithms/prefix_sum/throwaway.cc <<'EOF'
// A throwaway row (tools/throwaway-variant.sh): the textbook scan.
#include <cstddef>

#include "algorithms/prefix_sum/variants.h"

namespace adj::prefix_sum {

std::uint32_t ThrowawayScan(Kind kind, std::span<const std::uint32_t> in,
                            std::span<std::uint32_t> out) {
  Check(in, out);
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::uint32_t value = in[i];
    if (kind == Kind::kExclusive) out[i] = sum;
    sum += value;
    if (kind == Kind::kInclusive) out[i] = sum;
  }
  return sum;
}

}  // namespace adj::prefix_sum
EOF
# 2. Its declaration, in the family's internal header.
sed -i 's/^ScanFn SerialScan;$/&\nScanFn ThrowawayScan;/' \
  algorithms/prefix_sum/variants.h
# 3. Its row, after the baseline.
"$python" - <<'EOF'
import pathlib
table = pathlib.Path("algorithms/prefix_sum/prefix_sum.cc")
text = table.read_text()
row = '''            "the textbook loop: one running sum, one pass", &SerialScan},
'''
assert row in text, "prefix_sum's serial row moved: update this script"
table.write_text(text.replace(row, row + '''    Variant{"throwaway", Backend::kSerial, Origin::kOurs,
            "a throwaway row (tools/throwaway-variant.sh)", &ThrowawayScan},
''', 1))
EOF
# 4. Its source line.
sed -i 's/SOURCES prefix_sum.cc serial.cc/& throwaway.cc/' \
  algorithms/prefix_sum/CMakeLists.txt
grep -q "throwaway.cc" algorithms/prefix_sum/CMakeLists.txt ||
  fail "prefix_sum's SOURCES line moved: update this script"
say "row added in the recipe's four places"

# Build what the checks run, without CUDA (what a CPU machine can check).
cmake --preset default -DADJ_CUDA=OFF >"$scratch/configure.log" 2>&1 ||
  { cat "$scratch/configure.log"; fail "configure"; }
build=build/default
cmake --build "$build" -j"$jobs" --target prefix_sum_test prefix_sum_bench \
  adjacent adjacent_cli_test variant_tables_test >"$scratch/build.log" 2>&1 ||
  { tail -40 "$scratch/build.log"; fail "build"; }

# Tests: the table's invariants, and the family's tests over the new row.
(cd "$build" && ctest --no-tests=error -R '^VariantTables[.]' --output-on-failure >/dev/null) ||
  fail "the table invariants with the row"
count=$(cd "$build" && ctest -N -R '/throwaway' | grep -c 'Test *#' || true)
[ "$count" -gt 0 ] || fail "no test runs the row"
(cd "$build" && ctest -R '/throwaway' --output-on-failure >"$scratch/tests.log") ||
  { tail -40 "$scratch/tests.log"; fail "the row's tests"; }
say "tests: $count run the row and pass"

# Benchmarks: registered, and its row agrees with the oracle.
"$build/benchmarks/prefix_sum_bench" --benchmark_list_tests |
  grep -q '^prefix_sum/throwaway/' || fail "no benchmark registers the row"
"$build/benchmarks/prefix_sum_bench" \
  --benchmark_filter='^prefix_sum/throwaway/counts/n:1024/' \
  --benchmark_min_time=0.001 --benchmark_format=json \
  >"$scratch/bench.json" 2>/dev/null || fail "the row's benchmark"
"$python" - "$scratch/bench.json" <<'EOF' || fail "the row's benchmark JSON"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["benchmarks"]
        if r["name"].startswith("prefix_sum/throwaway/")]
assert rows and all(r.get("verified") == 1 for r in rows), rows
EOF
say "benchmarks: registered, verified=1"

# The command line.
"$build/tools/adjacent" variants --family prefix_sum | grep -q '^prefix_sum *throwaway ' ||
  fail "adjacent variants does not list the row"
say "CLI: adjacent variants lists it"

# The docs: stale until the updater writes the row in.
if (cd "$build" && ctest -R 'DocsEmbedTheCurrentVariantTables' >/dev/null 2>&1); then
  fail "the docs test passed with a row missing from docs/prefix_sum.md"
fi
"$python" tools/update-docs.py --adjacent "$build/tools/adjacent" >/dev/null
grep -q '`throwaway`' docs/prefix_sum.md || fail "the doc's table lacks it"
(cd "$build" && ctest --no-tests=error -R 'DocsEmbedTheCurrentVariantTables' >/dev/null) ||
  fail "the docs test after tools/update-docs.py"
say "docs: stale without it, current once tools/update-docs.py ran"

# Python: the package built from the same tree as `make python` builds it
# (pip, scikit-build-core), installed into a folder and imported from there.
rm -rf "$scratch/site"
ADJ_CUDA=OFF CMAKE_BUILD_PARALLEL_LEVEL=$jobs "$python" -m pip install \
  --quiet --no-deps --target "$scratch/site" . >"$scratch/python.log" 2>&1 ||
  { tail -40 "$scratch/python.log"; fail "build the Python package"; }
PYTHONPATH="$scratch/site" "$python" - <<'EOF' || fail "Python"
import numpy as np
import adjacent
rows = [r for r in adjacent.variants()
        if r["family"] == "prefix_sum" and r["name"] == "throwaway"]
assert rows and rows[0]["runs_here"], rows
sums, total = adjacent.prefix_sum.scan(np.array([1, 2, 3], np.uint32),
                                       variant="throwaway")
assert list(sums) == [0, 1, 3] and total == 6, (sums, total)
EOF
say "Python: adjacent.variants() lists it, adjacent.prefix_sum.scan runs it"
say "passed"
