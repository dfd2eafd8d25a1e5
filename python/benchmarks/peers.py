#!/usr/bin/env python3
"""`adjacent` from Python against what a Python user would call instead,
on the same inputs, repetitions interleaved, in one run:

- hash_grid: `adjacent.hash_grid.query_all` (full lists) against SciPy's
  `cKDTree(points).query_pairs(r, output_type="ndarray")` (each pair once)
  and `cKDTree(points).query_ball_point(points, r, workers=-1)` (a list
  per point, itself included), on uniform points with ~30 neighbours;
- connected_components: `adjacent.connected_components.label` against
  `scipy.sparse.csgraph.connected_components(directed=False)` on a random
  graph of average degree 4 (the CSR handed to SciPy as a csr_array) and
  python-igraph's `Graph(n, edges).connected_components()` (the Graph
  built from the (M, 2) edge array in the call, as a user holding edges
  pays it);
- prefix_sum: `adjacent.prefix_sum.scan` (inclusive) against
  `numpy.cumsum(dtype=numpy.uint32)`;
- compaction: `adjacent.compaction.compact` against a boolean mask,
  `values[flags == 0]`.

Every timed call is one a user makes, its conversion to an array
included. Each output is verified once, before timing, by
`adjacent.check.<family>` (the suite's oracle); a disagreement is printed
and recorded in the row (`verified: 0`), never hidden. Writes Google
Benchmark-shaped JSON (`python_peers/<caller>/<scene>/n:<N>/family:<f>`
rows, one per repetition, times in ms), which `make figures` draws
(reports/families/python.py).

    .venv/bin/python python/benchmarks/peers.py [--size 1000000] \
        [--repetitions 5] [--out reports/out/json/python_peers.json]
"""

import argparse
import statistics
import time

import numpy as np
import igraph
import scipy
import scipy.sparse
import scipy.sparse.csgraph
from scipy.spatial import cKDTree

import adjacent
import bench_json
import adjacent.check



# family -> its calls; each function below registers itself under its
# name without "_calls", so that the families are the package's own names.
PEER_CALLS = {}


def peer_calls(function):
    PEER_CALLS[function.__name__.removesuffix("_calls")] = function
    return function


@peer_calls
def hash_grid_calls(size, rng):
    points = rng.random((size, 3), dtype=np.float32)
    radius = float((30 / (4 / 3 * np.pi * size)) ** (1 / 3))

    def ours():
        return adjacent.hash_grid.query_all(
            points, radius, variant="cell_order_simd_openmp")

    def query_pairs():
        return cKDTree(points).query_pairs(radius, output_type="ndarray")

    def query_ball_point():
        return cKDTree(points).query_ball_point(points, radius, workers=-1,
                                                return_sorted=False)

    def verify_ours(result):
        return adjacent.check.hash_grid(points, radius,
                                        offsets=np.asarray(result.offsets),
                                        indices=np.asarray(result.indices),
                                        full=True)

    def verify_pairs(pairs):
        return adjacent.check.hash_grid(points, radius, pairs=pairs,
                                        full=False)

    def verify_balls(rows):
        # Each point's row holds the point itself: the contract's rows do
        # not.
        without_self = [[j for j in row if j != i]
                        for i, row in enumerate(rows)]
        return adjacent.check.hash_grid(points, radius, rows=without_self,
                                        full=True)

    scene = "uniform"
    return scene, [("adjacent.cell_order_simd_openmp", ours, verify_ours),
                   ("scipy.cKDTree.query_pairs", query_pairs, verify_pairs),
                   ("scipy.cKDTree.query_ball_point", query_ball_point,
                    verify_balls)]


@peer_calls
def connected_components_calls(size, rng):
    edges = rng.integers(0, size, size=(2 * size, 2), dtype=np.uint32)
    edges = edges[edges[:, 0] != edges[:, 1]]
    both = np.concatenate([edges, edges[:, ::-1]])
    order = np.lexsort((both[:, 1], both[:, 0]))
    both = both[order]
    offsets = np.zeros(size + 1, dtype=np.uint32)
    np.cumsum(np.bincount(both[:, 0], minlength=size), out=offsets[1:])
    indices = np.ascontiguousarray(both[:, 1])
    graph = scipy.sparse.csr_array(
        (np.ones(len(indices), dtype=np.int8), indices.astype(np.int32),
         offsets.astype(np.int64)), shape=(size, size))

    def ours():
        return adjacent.connected_components.label(offsets, indices)

    def csgraph():
        return scipy.sparse.csgraph.connected_components(
            graph, directed=False)[1]

    def igraph_components():
        graph = igraph.Graph(n=size, edges=edges)
        return np.asarray(graph.connected_components().membership)

    def verify(labels):
        labels = np.asarray(getattr(labels, "labels", labels))
        return adjacent.check.connected_components(labels, offsets=offsets,
                                                   indices=indices)

    return "random_degree4", [
        ("adjacent.ecl_cc", ours, verify),
        ("scipy.sparse.csgraph.connected_components", csgraph, verify),
        ("igraph.Graph.connected_components", igraph_components, verify)]


@peer_calls
def prefix_sum_calls(size, rng):
    values = rng.integers(0, 1 << 20, size=size, dtype=np.uint32)

    def ours():
        return adjacent.prefix_sum.scan(values, inclusive=True)[0]

    def cumsum():
        return np.cumsum(values, dtype=np.uint32)

    def verify(scan):
        return adjacent.check.prefix_sum(values, scan, inclusive=True)

    return "uniform", [("adjacent.serial", ours, verify),
                       ("numpy.cumsum", cumsum, verify)]


@peer_calls
def compaction_calls(size, rng):
    values = rng.integers(0, 1 << 31, size=size, dtype=np.uint32)
    flags = (rng.random(size) < 0.5).astype(np.uint8)

    def ours():
        return adjacent.compaction.compact(values, flags)

    def mask():
        return values[flags == 0]

    def verify(kept):
        return adjacent.check.compaction(values, flags, kept)

    return "half_removed", [("adjacent.serial", ours, verify),
                            ("numpy.boolean_mask", mask, verify)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--families", nargs="+", default=list(PEER_CALLS))
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    rng = np.random.default_rng(1)
    rows = []
    for family in args.families:
        scene, calls = PEER_CALLS[family](args.size, rng)
        verified = {}
        for caller, call, verify in calls:
            verdict = verify(call())
            verified[caller] = bool(verdict.agrees)
            if not verdict.agrees:
                print(f"{family}/{caller} DIFFERS from the oracle: "
                      f"{verdict}")
        times = {caller: [] for caller, _, _ in calls}
        for _ in range(args.repetitions):
            for caller, call, _ in calls:
                start = time.perf_counter()
                result = call()
                times[caller].append(1e3 * (time.perf_counter() - start))
                del result
        for caller, samples in times.items():
            print(f"{family}/{caller}/{scene}/n:{args.size}: median "
                  f"{statistics.median(samples):.1f} ms "
                  f"[{min(samples):.1f}, {max(samples):.1f}]"
                  f"{'' if verified[caller] else ' (differs)'}")
            name = (f"python_peers/{caller}/{scene}/n:{args.size}/"
                    f"family:{family}")
            rows += bench_json.iteration_rows(
                name, samples, size=args.size,
                verified=int(verified[caller]),
                peer=int(not caller.startswith("adjacent.")))
    document = {
        "context": bench_json.context(
            "python/benchmarks/peers.py",
            f"python peers, {args.repetitions} interleaved repetitions",
            scipy=scipy.__version__, igraph=igraph.__version__),
        "benchmarks": rows,
    }
    bench_json.write(args.out, document)


if __name__ == "__main__":
    main()
