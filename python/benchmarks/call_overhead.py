#!/usr/bin/env python3
"""What a call through Python adds to a hash_grid variant: a 1M-point
`adjacent.hash_grid.query_all` against the same variant on the same points
called from C++ (`time_query_all`: the points converted once, each run into
a fresh output, timed in C++), repetitions interleaved, in one run.

Writes Google Benchmark-shaped JSON (`python/<variant>/<scene>/...` rows
per caller, and `python/memcpy/<scene>/...`: a copy of the points' bytes,
the one copy the Python call makes, as its limit), times in ms, and prints
the ratio of medians; the goal is at most 1.05. `make figures`
runs it, and reports/families/python.py draws its table.

    .venv/bin/python python/benchmarks/query_all_overhead.py \
        [--points 1000000] [--repetitions 9] [--variant cell_order_simd_openmp] \
        [--out reports/out/json/python_overhead.json]
"""

import argparse
import statistics
import time

import numpy as np

import adjacent
import bench_json




def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=1_000_000)
    parser.add_argument("--repetitions", type=int, default=9)
    parser.add_argument("--variants", nargs="+",
                        default=["cell_sorted", "cell_order_simd_openmp"])
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    rng = np.random.default_rng(1)
    points = rng.random((args.points, 3), dtype=np.float32)
    # About 30 neighbours a point in the unit cube.
    radius = float((30 / (4 / 3 * np.pi * args.points)) ** (1 / 3))
    scene = "uniform"
    rows = []
    for variant in args.variants:
        # A warm-up of each, then the two interleaved.
        adjacent.hash_grid.query_all(points, radius, variant=variant)
        adjacent.hash_grid.time_query_all(points, radius, variant, 1)
        python_ms, cpp_ms = [], []
        entries = 0
        for _ in range(args.repetitions):
            start = time.perf_counter()
            result = adjacent.hash_grid.query_all(points, radius,
                                                  variant=variant)
            python_ms.append(1e3 * (time.perf_counter() - start))
            entries = len(result.indices)
            del result
            cpp_ms.append(1e3 * adjacent.hash_grid.time_query_all(
                points, radius, variant, 1)[0])
        ratios = [p / c for p, c in zip(python_ms, cpp_ms)]
        ratio = statistics.median(python_ms) / statistics.median(cpp_ms)
        print(f"{variant}: python {statistics.median(python_ms):.2f} ms, "
              f"C++ {statistics.median(cpp_ms):.2f} ms, ratio of medians "
              f"{ratio:.4f} (pairwise {min(ratios):.4f} - {max(ratios):.4f}); "
              f"goal <= 1.05")
        # Repetition k of both callers ran back to back: rows in
        # repetition order, so that the report pairs them.
        for caller, times in (("python", python_ms), ("cpp", cpp_ms)):
            for rep, t in enumerate(times):
                name = (f"python/{variant}/{scene}/points:{args.points}/"
                        f"caller:{caller}")
                rows.append({
                    "name": name, "run_name": name,
                    "run_type": "iteration", "repetition_index": rep,
                    "repetitions": args.repetitions, "iterations": 1,
                    "real_time": t, "time_unit": "ms",
                    "points": args.points, "radius": radius,
                    "entries": entries})
    # The limit beside the rows: a copy of the bytes the Python call copies
    # (the points), with as many repetitions.
    target = np.empty_like(points)
    copy_ms = []
    for _ in range(args.repetitions):
        start = time.perf_counter()
        np.copyto(target, points)
        copy_ms.append(1e3 * (time.perf_counter() - start))
    print(f"memcpy of the points ({points.nbytes / 1e6:.0f} MB): "
          f"{statistics.median(copy_ms):.2f} ms")
    for rep, t in enumerate(copy_ms):
        rows.append({
            "name": f"python/memcpy/{scene}/points:{args.points}",
            "run_name": f"python/memcpy/{scene}/points:{args.points}",
            "run_type": "iteration", "repetition_index": rep,
            "repetitions": args.repetitions, "iterations": 1,
            "real_time": t, "time_unit": "ms",
            "bytes_per_second": points.nbytes / (t / 1e3)})
    document = {
        "context": bench_json.context(
            "python/benchmarks/query_all_overhead.py",
            f"python overhead, {args.repetitions} repetitions",
            **{"adj_goal/python/query_all_overhead_ratio": "1.05"}),
        "benchmarks": rows,
    }
    bench_json.write(args.out, document)


if __name__ == "__main__":
    main()
