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


@pytest.mark.parametrize("variant", runnable("hash_grid"))
def test_lists_over_the_memory_budget_raise_resource_error(variant):
    # 3,000 coincident points: 9 million full-list entries, 36 MB, against
    # a budget of 4 MiB; refused as a MemoryError, never an abort.
    points = np.full((3000, 3), 0.5, dtype=np.float32)
    before = adjacent.memory_budget()
    adjacent.set_memory_budget("4M")
    try:
        with pytest.raises(adjacent.ResourceError, match="memory budget"):
            adjacent.hash_grid.query_all(points, 1.0, variant=variant)
        with pytest.raises(MemoryError):
            adjacent.hash_grid.query_all(points, 1.0, variant=variant)
    finally:
        adjacent.set_memory_budget(before)
    small = adjacent.hash_grid.query_all(points[:30], 1.0, variant=variant)
    assert len(small.offsets) == 31


def test_verify_reports_refused_rows_as_refused():
    points = np.full((3000, 3), 0.5, dtype=np.float32)
    before = adjacent.memory_budget()
    adjacent.set_memory_budget("4M")
    try:
        report = adjacent.verify(points, 1.0)
    finally:
        adjacent.set_memory_budget(before)
    outcomes = {row["outcome"] for row in report["rows"]}
    assert "refused" in outcomes and "differs" not in outcomes, outcomes


@pytest.mark.parametrize("radius", [1e-300, 1e300, -1.0, float("nan")])
def test_a_radius_that_is_no_float32_is_named_as_the_radius(radius):
    points = np.zeros((4, 3), dtype=np.float32)
    with pytest.raises(adjacent.Error, match="radius"):
        adjacent.hash_grid.query_all(points, radius)
