#!/usr/bin/env python3
"""Compares two benchmark runs: per benchmark, the time ratio of medians
(B over A) and a two-sided Mann-Whitney U test over the repetitions
(reports/noise.py), flagging what changed significantly.

    reports/compare.py A.json B.json
    reports/compare.py --base a1.json a2.json --head b1.json b2.json

Several files a side are pooled (the rounds of an interleaved run: `make
compare`). A benchmark is flagged `slower` or `faster` when its p-value is
under alpha divided by the number of benchmarks compared (Bonferroni: the
chance of any false flag stays under alpha) and its medians differ by at
least --min-change; otherwise `~` (within noise). Exit status 0 either way;
--fail-on-change makes a flag exit 1.
"""

import argparse
import gzip
import json
import pathlib
import sys
from collections import defaultdict

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import noise  # noqa: E402

TO_NS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def read(path):
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def repetitions(paths):
    """{benchmark: [real time in ns of each repetition]} over the files;
    failed rows and aggregates left out."""
    times = defaultdict(list)
    for path in paths:
        for row in read(path).get("benchmarks", []):
            if row.get("error_occurred") or "real_time" not in row:
                continue
            if row.get("run_type", "iteration") != "iteration":
                continue
            name = row.get("run_name", row["name"])
            times[name].append(row["real_time"] *
                               TO_NS[row.get("time_unit", "ns")])
    return times


def compare(base, head, alpha=noise.ALPHA, min_change=0.02):
    """Rows (benchmark, base median ns, head median ns, ratio, p, verdict)
    for the benchmarks in both, in name order."""
    names = sorted(set(base) & set(head))
    threshold = alpha / max(1, len(names))
    rows = []
    for name in names:
        a, b = base[name], head[name]
        ratio = noise.ratio_of_medians(a, b)
        p = noise.p_value(a, b)
        verdict = "~"
        if p is not None and p < threshold and abs(ratio - 1) >= min_change:
            verdict = "slower" if ratio > 1 else "faster"
        rows.append((name, sorted(a)[len(a) // 2], sorted(b)[len(b) // 2],
                     ratio, p, verdict))
    return rows, threshold


def human(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=pathlib.Path,
                        help="A.json B.json")
    parser.add_argument("--base", nargs="+", type=pathlib.Path, default=[])
    parser.add_argument("--head", nargs="+", type=pathlib.Path, default=[])
    parser.add_argument("--alpha", type=float, default=noise.ALPHA)
    parser.add_argument("--min-change", type=float, default=0.02,
                        help="smallest |ratio - 1| flagged (default 0.02)")
    parser.add_argument("--all", action="store_true",
                        help="print every benchmark, not only the flagged")
    parser.add_argument("--fail-on-change", action="store_true")
    args = parser.parse_args()
    base, head = list(args.base), list(args.head)
    if args.files:
        if len(args.files) != 2 or base or head:
            parser.error("give A.json B.json, or --base ... --head ...")
        base, head = [args.files[0]], [args.files[1]]
    if not base or not head:
        parser.error("nothing to compare")
    rows, threshold = compare(repetitions(base), repetitions(head),
                              args.alpha, args.min_change)
    if not rows:
        sys.exit("no benchmark is in both runs")
    flagged = [r for r in rows if r[5] != "~"]
    print(f"{len(rows)} benchmarks in both runs; flagged: p < "
          f"{args.alpha:g}/{len(rows)} = {threshold:.2g} (two-sided "
          f"Mann-Whitney U over the repetitions) and medians "
          f"{args.min_change:.0%} or more apart")
    print()
    print("| benchmark | base median | head median | head/base | p | verdict |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, a, b, ratio, p, verdict in rows:
        if verdict == "~" and not args.all:
            continue
        print(f"| {name} | {human(a)} | {human(b)} | {ratio:.3f} | "
              + ("n/a" if p is None else f"{p:.2g}") + f" | {verdict} |")
    print()
    print(f"{len(flagged)} flagged, {len(rows) - len(flagged)} within noise")
    if args.fail_on_change and flagged:
        sys.exit(1)


if __name__ == "__main__":
    main()
