#!/usr/bin/env python3
"""What a call through Python adds to a variant: each family's call from
Python against the same variant on the same input called from C++ (the
package's `time_*` functions: the input converted once, each run into a
fresh output as the Python call's is, timed in C++), repetitions
interleaved, in one run:

- hash_grid: `query_all` on 1M uniform points (~30 neighbours each);
- prefix_sum: `scan` (exclusive) of 2^26 uint32;
- compaction: `compact` of 2^26 uint32, half of them removed;
- connected_components: `label` of a random graph of 1M vertices and
  average degree 4;
- triangle_adjacency: `build` of a shuffled grid mesh of about 1M
  triangles;
- hash_set: `Set.contains_all` of 2^20 keys, half of them stored, in a
  set for 2^21 holding 2^20.

triplet_schedule's calls also validate the schedule and compute its
metrics (a cost the call documents, not an overhead), and sph, fracture
and triplet_collide step state kept in C++ (python/tests cover them); they
are not timed here.

Writes Google Benchmark-shaped JSON (`python/<variant>/<scene>/n:<N>/
call:<family.call>/caller:python|cpp` rows per caller, and `python/memcpy/
<scene>/n:<N>/call:<family.call>`: a copy of the bytes the Python call
copies into the suite's layout, or of its input where it copies nothing, as
its limit), times in ms, and prints each ratio of medians; the goal is at
most 1.05. `make figures` runs it, and reports/families/python.py draws its
table.

    .venv/bin/python python/benchmarks/call_overhead.py \\
        [--scale 1.0] [--repetitions 9] [--families hash_grid ...] \\
        [--out reports/out/json/python_overhead.json]
"""

# house-check: the families whose calls this benchmark times, each with an
# input and variants of its own, not every family of the registry.
import argparse
import statistics
import time

import numpy as np

import adjacent
import bench_json


def hash_grid_case(scale, rng):
    size = int(1_000_000 * scale)
    points = rng.random((size, 3), dtype=np.float32)
    # About 30 neighbours a point in the unit cube.
    radius = float((30 / (4 / 3 * np.pi * size)) ** (1 / 3))

    def python(variant):
        return adjacent.hash_grid.query_all(points, radius, variant=variant)

    def cpp(variant):
        return adjacent.hash_grid.time_query_all(points, radius, variant, 1)[0]

    # The Python call copies the points into the suite's layout.
    return ("hash_grid.query_all", "uniform", size, points,
            ["cell_sorted", "cell_order_simd_openmp"], python, cpp)


def prefix_sum_case(scale, rng):
    size = int((1 << 26) * scale)
    values = rng.integers(0, 1 << 20, size=size, dtype=np.uint32)

    def python(variant):
        return adjacent.prefix_sum.scan(values, variant=variant)

    def cpp(variant):
        return adjacent.prefix_sum.time_scan(values, False, variant, 1)[0]

    # The values are read in place: the copy of the output's bytes is the
    # limit's scale.
    return ("prefix_sum.scan", "uniform", size, values,
            ["serial", "openmp"], python, cpp)


def compaction_case(scale, rng):
    size = int((1 << 26) * scale)
    values = rng.integers(0, 1 << 31, size=size, dtype=np.uint32)
    flags = (rng.random(size) < 0.5).astype(np.uint8)

    def python(variant):
        return adjacent.compaction.compact(values, flags, variant=variant)

    def cpp(variant):
        return adjacent.compaction.time_compact(values, flags, variant, 1)[0]

    return ("compaction.compact", "half_removed", size, values,
            ["serial", "openmp"], python, cpp)


def connected_components_case(scale, rng):
    size = int(1_000_000 * scale)
    edges = rng.integers(0, size, size=(2 * size, 2), dtype=np.uint32)
    edges = edges[edges[:, 0] != edges[:, 1]]
    both = np.concatenate([edges, edges[:, ::-1]])
    both = both[np.lexsort((both[:, 1], both[:, 0]))]
    offsets = np.zeros(size + 1, dtype=np.uint32)
    np.cumsum(np.bincount(both[:, 0], minlength=size), out=offsets[1:])
    indices = np.ascontiguousarray(both[:, 1])

    def python(variant):
        return adjacent.connected_components.label(offsets, indices,
                                                   variant=variant)

    def cpp(variant):
        return adjacent.connected_components.time_label(offsets, indices,
                                                        variant, 1)[0]

    # The call copies the graph's arrays into the suite's CSR.
    return ("connected_components.label", "random_degree4", size, indices,
            ["ecl_cc", "ecl_cc_openmp"], python, cpp)


def triangle_adjacency_case(scale, rng):
    # A grid of quads cut in two: about 1M triangles, six around an
    # inner particle; shuffled, as a mesh read from a file comes.
    side = max(2, int(708 * scale ** 0.5))
    corner = np.arange(side * side, dtype=np.uint32).reshape(side, side)
    a, b = corner[:-1, :-1].ravel(), corner[:-1, 1:].ravel()
    c, d = corner[1:, :-1].ravel(), corner[1:, 1:].ravel()
    triangles = np.concatenate([np.stack([a, b, d], axis=1),
                                np.stack([a, d, c], axis=1)])
    triangles = np.ascontiguousarray(rng.permutation(triangles))
    particles = side * side

    def python(variant):
        return adjacent.triangle_adjacency.build(triangles, particles,
                                                 variant=variant)

    def cpp(variant):
        return adjacent.triangle_adjacency.time_build(triangles, particles,
                                                      variant, 1)[0]

    # The triangles are read in place and the rows handed over: the copy
    # of the input's bytes is the limit's scale.
    return ("triangle_adjacency.build", "shuffled_grid", len(triangles),
            triangles, ["nvcloth", "openmp"], python, cpp)


def hash_set_case(scale, rng):
    # 2^20 distinct keys in a set for 2^21 (about half full), then
    # lookups of 2^20 keys of which half are in the set.
    size = max(2, int((1 << 20) * scale))
    keys = rng.choice(np.uint32(0xFFFFFFFE), size=2 * size, replace=False
                      ).astype(np.uint32)
    stored, absent = keys[:size], keys[size:]
    lookups = np.ascontiguousarray(rng.permutation(
        np.concatenate([stored[: size // 2], absent[: size - size // 2]])))
    sets = {}

    def filled(variant):
        if variant not in sets:
            sets[variant] = adjacent.hash_set.make(2 * size, variant=variant)
            sets[variant].insert_all(stored)
        return sets[variant]

    def python(variant):
        return filled(variant).contains_all(lookups)

    def cpp(variant):
        return filled(variant).time_contains_all(lookups, 1)[0]

    # The keys are read in place and the found bytes handed over.
    return ("hash_set.Set.contains_all", "half_present", size, lookups,
            ["open_addressing", "lock_free"], python, cpp)


CASES = {"hash_grid": hash_grid_case, "prefix_sum": prefix_sum_case,
         "compaction": compaction_case,
         "connected_components": connected_components_case,
         "triangle_adjacency": triangle_adjacency_case,
         "hash_set": hash_set_case}


def positive(kind):
    """An argparse type: a `kind` number above 0, else a usage error."""
    def parse(text):
        value = kind(text)
        if not value > 0:
            raise argparse.ArgumentTypeError(f"{text} is not above 0")
        return value
    return parse


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=positive(float), default=1.0,
                        help="input sizes times this")
    parser.add_argument("--repetitions", type=positive(int), default=9)
    parser.add_argument("--families", nargs="+", default=list(CASES),
                        choices=list(CASES))
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    rng = np.random.default_rng(1)
    rows = []
    for family in args.families:
        call, scene, size, copied, variants, python, cpp = CASES[family](
            args.scale, rng)
        known = {v["name"] for v in adjacent.variants()
                 if v["family"] == family}
        for variant in variants:
            if variant not in known:
                print(f"{call}: no variant {variant}; skipped")
                continue
            # A warm-up of each, then the two interleaved.
            python(variant)
            cpp(variant)
            python_ms, cpp_ms = [], []
            for _ in range(args.repetitions):
                start = time.perf_counter()
                result = python(variant)
                python_ms.append(1e3 * (time.perf_counter() - start))
                del result
                cpp_ms.append(1e3 * cpp(variant))
            ratios = [p / c for p, c in zip(python_ms, cpp_ms)]
            ratio = statistics.median(python_ms) / statistics.median(cpp_ms)
            print(f"{call} {variant}: python "
                  f"{statistics.median(python_ms):.2f} ms, C++ "
                  f"{statistics.median(cpp_ms):.2f} ms, ratio of medians "
                  f"{ratio:.4f} (pairwise {min(ratios):.4f} - "
                  f"{max(ratios):.4f}); goal <= 1.05")
            # Repetition k of both callers ran back to back: rows in
            # repetition order, so that the report pairs them.
            for caller, times in (("python", python_ms), ("cpp", cpp_ms)):
                name = (f"python/{variant}/{scene}/n:{size}/call:{call}/"
                        f"caller:{caller}")
                rows += bench_json.iteration_rows(name, times, n=size)
        # The limit beside the rows: a copy of the input's bytes that the
        # call copies (or reads), with as many repetitions.
        target = np.empty_like(copied)
        copy_ms = []
        for _ in range(args.repetitions):
            start = time.perf_counter()
            np.copyto(target, copied)
            copy_ms.append(1e3 * (time.perf_counter() - start))
        print(f"{call}: memcpy of {copied.nbytes / 1e6:.0f} MB: "
              f"{statistics.median(copy_ms):.2f} ms")
        name = f"python/memcpy/{scene}/n:{size}/call:{call}"
        for row in bench_json.iteration_rows(name, copy_ms, n=size):
            row["bytes_per_second"] = copied.nbytes / (row["real_time"] / 1e3)
            rows.append(row)
    document = {
        "context": bench_json.context(
            "python/benchmarks/call_overhead.py",
            f"python overhead, {args.repetitions} repetitions",
            **{"adj_goal/python/call_overhead_ratio": "1.05"}),
        "benchmarks": rows,
    }
    bench_json.write(args.out, document)


if __name__ == "__main__":
    main()
