"""python: what a call through the Python package adds to a variant
(python/benchmarks/call_overhead.py, run by `make figures`): each
family's call through Python against the same variant called from C++,
repetitions interleaved, with a copy of the input's bytes beside them; and
`adjacent` against the SciPy, NumPy and igraph calls a Python user would
make instead (python/benchmarks/peers.py), each verified by
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
    lines = ["", "## python: adjacent against SciPy, NumPy and igraph", "",
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
    goals = run.goals.get("python", {})
    goal = goals.get("call_overhead_ratio",
                     goals.get("query_all_overhead_ratio"))
    # Kept runs before the other families were measured timed only
    # hash_grid's query_all, with the size as `points`.
    by_call = {}
    for row in rows:
        call = row.args.get("call", "hash_grid.query_all")
        size = row.args.get("n", row.args.get("points", "?"))
        by_call.setdefault((call, size, row.variant, row.device), {})[
            row.args.get("caller", "limit")] = row
    lines = ["", "## python: what a call through Python costs", "",
             "Each family's call from Python against the same variant "
             "called from C++ on the same input (the C++ side timed in C++"
             ", the input converted once, each run into a fresh output), "
             "repetition k of the two run back to back; the Python call "
             "includes converting its input (hash_grid's points and "
             "connected_components' CSR are copied into the suite's "
             "layout) and wrapping its output. The memcpy row is a copy of "
             "the input's bytes, for scale."
             + (f" Goal: at most {goal:g} x C++." if goal else ""), "",
             "| call | variant | n | Python, median ms | C++, median ms "
             "| ratio of medians | pairwise ratios (min - max) | device |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"]

    def ms(row):
        return [t / 1e3 for t in row.times] or [
            real_time_us(row.values) / 1e3]

    def order(item):
        call, size, variant, device = item[0]
        return call, str(size), device, variant == "memcpy", variant

    for (call, size, variant, device), callers in sorted(by_call.items(),
                                                         key=order):
        if variant == "memcpy":
            limit = callers.get("limit")
            if limit is not None:
                lines.append(
                    f"| {call} | memcpy of the input | {size} "
                    f"| {statistics.median(ms(limit)):.2f} | | | "
                    f"| {device} |")
            continue
        python, cpp = callers.get("python"), callers.get("cpp")
        if python is None or cpp is None:
            continue
        python_ms, cpp_ms = ms(python), ms(cpp)
        pairs = [p / c for p, c in zip(python_ms, cpp_ms)]
        ratio = statistics.median(python_ms) / statistics.median(cpp_ms)
        verdict = "" if goal is None else (" (met)" if ratio <= goal
                                           else " (not met)")
        lines.append(
            f"| {call} | `{variant}` | {size} "
            f"| {statistics.median(python_ms):.4g} "
            f"| {statistics.median(cpp_ms):.4g} | {ratio:.4f}{verdict} "
            f"| {min(pairs):.3f} - {max(pairs):.3f} | {device} |")
    return lines
