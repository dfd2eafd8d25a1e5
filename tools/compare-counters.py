#!/usr/bin/env python3
"""Whether a restructuring changed what the benchmarks measure, as opposed
to how fast: every row two sweeps share, its quality counters side by side.

  tools/compare-counters.py BEFORE_DIR AFTER_DIR [--tolerance 0]

BEFORE_DIR and AFTER_DIR hold the JSON of two `reports/run_benchmarks.py`
sweeps (one file per family). A counter is a quality counter unless its
name says it is a time or a rate (TIMED below) or Google Benchmark's
bookkeeping; `threads` is one (the thread count a row ran on). Counters
that vary from run to run of one binary by design (VARYING_*) are listed
apart and not judged. Rows are
matched by run_name; a repeated row compares its first repetition. A row that
errored (a benchmark's SkipWithError: its verification failed) is
compared by its error. Prints each counter that differs (beyond
--tolerance, relative), the rows only one side has, and a summary; exits
0 when every common row's counters are identical and no row or file of
BEFORE is missing after, 1 otherwise, 2 when a folder holds no JSON.
"""

import argparse
import json
import math
import pathlib
import re
import sys

TIMED = re.compile(r"(per_second|_ms$|_us$|_ns$|_ms_|seconds|time|^speedup)")
# Counters and rows that vary from run to run of one binary, by design:
# reported apart, not judged.
VARYING_COUNTERS = {
    # sph's means over the steps its timing loop ran: the fluid moves, and
    # the loop runs as many steps as the time allows.
    "candidates_per_particle": "a mean over a time-dependent number of steps",
    "interactions_per_particle": "a mean over a time-dependent number of "
                                 "steps",
    # atomic_unscheduled's float sums, in the order its threads add.
    "max_error": "float sums in the order threads add",
}
VARYING_ROWS = {
    # Its merge targets depend on the thread schedule (its row's untwinned
    # reason), and so do the frame counters after them.
    re.compile(r"^fracture/openmp/"): "merge targets depend on the threads",
}
BOOKKEEPING = {"iterations", "repetitions", "repetition_index",
               "family_index", "per_family_instance_index", "threads_used",
               "error_occurred"}


def rows_of(path):
    """{run_name: {counter: value}} of one file's first repetitions."""
    document = json.loads(path.read_text())
    rows = {}
    for row in document.get("benchmarks", []):
        if row.get("run_type") == "aggregate":
            continue
        name = row.get("run_name", row["name"])
        if name in rows:
            continue
        if row.get("error_occurred"):
            rows[name] = {"error": row.get("error_message", "an error")}
            continue
        rows[name] = {key: value for key, value in row.items()
                      if isinstance(value, (int, float))
                      and not isinstance(value, bool)
                      and key not in BOOKKEEPING and not TIMED.search(key)}
    return rows


def differs(before, after, tolerance):
    if isinstance(before, float) and math.isnan(before):
        return not (isinstance(after, float) and math.isnan(after))
    if tolerance == 0:
        return before != after
    scale = max(abs(before), abs(after))
    return scale > 0 and abs(before - after) > tolerance * scale


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("before", type=pathlib.Path)
    parser.add_argument("after", type=pathlib.Path)
    parser.add_argument("--tolerance", type=float, default=0.0,
                        help="relative difference still called equal")
    args = parser.parse_args()
    for folder in (args.before, args.after):
        if not folder.is_dir() or not any(folder.glob("*.json")):
            print(f"compare-counters: {folder} is no folder of sweep JSON",
                  file=sys.stderr)
            return 2
    common_rows = changed_rows = counters = varying = lost = 0
    for before_file in sorted(args.before.glob("*.json")):
        after_file = args.after / before_file.name
        if not after_file.exists():
            print(f"{before_file.name}: no such file after")
            lost += 1
            continue
        before, after = rows_of(before_file), rows_of(after_file)
        for name in sorted(set(before) - set(after)):
            print(f"only before: {name}")
            lost += 1
        for name in sorted(set(after) - set(before)):
            print(f"only after: {name}")
        for name in sorted(set(before) & set(after)):
            common_rows += 1
            if "error" in after[name] or "error" in before[name]:
                if before[name] != after[name]:
                    print(f"{name}: {before[name].get('error', 'ran')} -> "
                          f"{after[name].get('error', 'ran')}")
                    changed_rows += 1
                continue
            changed = False
            for key in sorted(set(before[name]) | set(after[name])):
                counters += 1
                old, new = before[name].get(key), after[name].get(key)
                if old is None or new is None or differs(old, new,
                                                         args.tolerance):
                    why = VARYING_COUNTERS.get(key) or next(
                        (reason for pattern, reason in VARYING_ROWS.items()
                         if pattern.search(name)), None)
                    if why:
                        varying += 1
                        print(f"{name}: {key} {old} -> {new} (varies: {why})")
                        continue
                    print(f"{name}: {key} {old} -> {new}")
                    changed = True
            changed_rows += changed
    print(f"{common_rows} common rows, {counters} counters compared, "
          f"{changed_rows} rows with a changed counter or error, {lost} rows "
          f"or files only before, {varying} changes in counters that vary "
          "run to run by design")
    return 1 if changed_rows or lost else 0


if __name__ == "__main__":
    sys.exit(main())
