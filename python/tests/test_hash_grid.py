import numpy as np
import pytest

import adjacent
from conftest import runnable


def oracle_pairs(points, radius):
    """Unordered pairs i < j within radius, by the contract's predicate:
    float64 differences of the float32 coordinates, (dx^2 + dy^2) + dz^2
    <= radius^2 in float64."""
    p = points.astype(np.float32).astype(np.float64)
    pairs = set()
    r2 = np.float64(np.float32(radius)) ** 2
    for i in range(len(p)):
        d = p[i] - p[:i]
        d2 = (d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]) + d[:, 2] * d[:, 2]
        pairs.update((int(j), i) for j in np.nonzero(d2 <= r2)[0])
    return pairs


def found_pairs(result, n):
    offsets = np.asarray(result.offsets)
    indices = np.asarray(result.indices)
    assert len(offsets) == n + 1 and offsets[0] == 0
    assert offsets[-1] == len(indices)
    pairs = set()
    for i in range(n):
        for j in indices[offsets[i]:offsets[i + 1]]:
            assert j != i
            pairs.add((min(i, int(j)), max(i, int(j))))
            if result.list == "half":
                assert j < i
    return pairs


# Müller's faithful row keeps his quirks (repeated entries, rows past
# their slots): verify() holds it to the oracle's quirk-aware check.
EXACT = [name for name in runnable("hash_grid") if name != "muller"]


@pytest.mark.parametrize("variant", EXACT)
def test_query_all_finds_the_oracles_pairs(rng, variant):
    for n, radius in ((0, 0.1), (1, 0.1), (400, 0.12), (300, 0.3)):
        points = rng.random((n, 3)).astype(np.float32)
        if n > 10:
            points[5] = points[4]  # a duplicate: distance 0
        result = adjacent.hash_grid.query_all(points, radius, variant=variant)
        assert found_pairs(result, n) == oracle_pairs(points, radius)
        if result.list == "full":
            counts = np.diff(np.asarray(result.offsets))
            assert counts.sum() == 2 * len(oracle_pairs(points, radius))


def test_query_all_takes_float64_and_strided_points(rng):
    points = rng.random((200, 6))[:, ::2]  # float64, not contiguous
    result = adjacent.hash_grid.query_all(points, 0.2)
    assert found_pairs(result, 200) == oracle_pairs(points, 0.2)


def test_verify_holds_every_row_to_the_oracle(rng):
    points = rng.random((300, 3)).astype(np.float32)
    report = adjacent.verify(points, 0.15)
    outcomes = {row["variant"]: row["outcome"] for row in report["rows"]}
    assert set(runnable("hash_grid")) <= set(outcomes)
    for name, outcome in outcomes.items():
        assert outcome in ("agrees", "skipped"), (name, outcome)
