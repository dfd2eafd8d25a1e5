"""python: what a call through the Python package adds to a variant
(python/benchmarks/query_all_overhead.py, run by `make figures`): each
variant's `hash_grid.query_all` through Python against the same variant
called from C++, repetitions interleaved, with a copy of the points' bytes
beside them; and `adjacent` against the SciPy and NumPy calls a Python user
would make instead (python/benchmarks/peers.py), each verified by
`adjacent.check` first."""

import statistics

from engine import real_time_us

FIGURES = []


def tables(run):
    return overhead_table(run) + peers_table(run)


def peers_table(run):
    """Per family: each caller's median (min - max) over the interleaved
    repetitions, its verdict against the oracle, and its ratio to the best
    `adjacent` call."""
    rows = [r for r in run.rows if r.family == "python_peers"]
    if not rows:
        return []
    lines = ["", "## python: adjacent against SciPy and NumPy", "",
             "Each call as a Python user makes it (conversion to an array "
             "included), repetitions interleaved in one run; every output "
             "checked by `adjacent.check` (the suite's oracle) before "
             "timing. Ratio: the call's median over the best `adjacent` "
             "call's median on the same input.", "",
             "| family | scene | n | call | median ms | min - max ms "
             "| oracle | ratio to adjacent |",
             "| --- | --- | ---: | --- | ---: | ---: | --- | ---: |"]
    by_input = {}
    for row in rows:
        key = (row.args.get("family", "?"), row.scene, row.args.get("n", 0))
        by_input.setdefault(key, []).append(row)
    for (family, scene, size), group in sorted(by_input.items()):
        medians = {row.variant: statistics.median(
            [t / 1e3 for t in row.times] or
            [real_time_us(row.values) / 1e3]) for row in group}
        ours = [m for variant, m in medians.items()
                if variant.startswith("adjacent.")]
        best_ours = min(ours) if ours else None
        for row in sorted(group, key=lambda r: medians[r.variant]):
            times = [t / 1e3 for t in row.times] or [medians[row.variant]]
            verdict = ("agrees" if row.values.get("verified", 1)
                       else "**differs**")
            ratio = (f"{medians[row.variant] / best_ours:.2f}"
                     if best_ours else "")
            lines.append(
                f"| {family} | {scene} | {size} | `{row.variant}` "
                f"| {medians[row.variant]:.3g} "
                f"| {min(times):.3g} - {max(times):.3g} | {verdict} "
                f"| {ratio} |")
    return lines


def overhead_table(run):
    rows = [r for r in run.rows if r.family == "python"]
    if not rows:
        return []
    goal = run.goals.get("python", {}).get("query_all_overhead_ratio")
    by_variant = {}
    for row in rows:
        by_variant.setdefault((row.variant, row.device), {})[
            row.args.get("caller", "limit")] = row
    lines = ["", "## python: what a call through Python costs", "",
             "`adjacent.hash_grid.query_all` against the same variant "
             "called from C++ on the same points (the C++ side timed in C++"
             ", each run into a fresh output), repetition k of the two run "
             "back to back; the Python call includes the copy of the points "
             "into the suite's layout, whose memcpy is the last row."
             + (f" Goal: at most {goal:g} x C++." if goal else ""), "",
             "| variant | points | Python, median ms | C++, median ms "
             "| ratio of medians | pairwise ratios (min - max) | device |",
             "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for (variant, device), callers in sorted(by_variant.items()):
        if variant == "memcpy":
            continue
        python, cpp = callers.get("python"), callers.get("cpp")
        if python is None or cpp is None:
            continue
        python_ms = [t / 1e3 for t in python.times] or [
            real_time_us(python.values) / 1e3]
        cpp_ms = [t / 1e3 for t in cpp.times] or [
            real_time_us(cpp.values) / 1e3]
        pairs = [p / c for p, c in zip(python_ms, cpp_ms)]
        ratio = statistics.median(python_ms) / statistics.median(cpp_ms)
        verdict = "" if goal is None else (" (met)" if ratio <= goal
                                           else " (not met)")
        lines.append(
            f"| `{variant}` | {python.args.get('points', '?')} "
            f"| {statistics.median(python_ms):.1f} "
            f"| {statistics.median(cpp_ms):.1f} | {ratio:.4f}{verdict} "
            f"| {min(pairs):.3f} - {max(pairs):.3f} | {device} |")
    for (variant, device), callers in sorted(by_variant.items()):
        if variant == "memcpy" and "limit" in callers:
            limit = callers["limit"]
            lines.append(
                f"| memcpy of the points | {limit.args.get('points', '?')} "
                f"| {real_time_us(limit.values) / 1e3:.2f} | | | | "
                f"{device} |")
    return lines
