import numpy as np
import pytest

import adjacent
from conftest import build_or_refused, manifold_only, runnable


def grid(width, height):
    """A width x height grid of quads, two triangles each, oriented alike,
    its particles in shuffled order: an oriented manifold."""
    ids = np.random.default_rng(7).permutation((width + 1) * (height + 1))
    triangles = []
    for y in range(height):
        for x in range(width):
            a, b = y * (width + 1) + x, y * (width + 1) + x + 1
            c, d = a + width + 1, b + width + 1
            triangles += [(a, b, d), (a, d, c)]
    return ids[np.array(triangles, dtype=np.int64)].astype(np.uint32)


@pytest.mark.parametrize("variant", runnable("triangle_adjacency"))
def test_build_lists_every_particles_triangles(rng, variant):
    cases = [(n, rng.integers(0, max(n, 1), size=(m, 3), dtype=np.uint32))
             for n, m in ((0, 0), (5, 0), (50, 80), (400, 2000))]
    cases.append((21 * 31, grid(20, 30)))
    for n, triangles in cases:
        result = build_or_refused(triangles, n, variant)
        if result is None:
            continue
        offsets = np.asarray(result.offsets)
        indices = np.asarray(result.indices)
        assert len(offsets) == n + 1
        expected = [[] for _ in range(n)]
        for t, corners in enumerate(triangles):
            for p in corners:
                expected[int(p)].append(t)
        longest = 0
        for p in range(n):
            row = list(indices[offsets[p]:offsets[p + 1]])
            assert sorted(row) == sorted(expected[p])
            step = -1 if result.order == "descending" else 1
            assert row == sorted(row, reverse=step < 0)
            longest = max(longest, len(row))
        assert result.max_adjacent == longest


def test_build_reads_int64_triangles_too(rng):
    triangles = rng.integers(0, 30, size=(40, 3))  # int64
    a = adjacent.triangle_adjacency.build(triangles, 30)
    b = adjacent.triangle_adjacency.build(triangles.astype(np.uint32), 30)
    assert np.array_equal(a.indices, b.indices)


def test_verify_on_a_mesh_agrees(rng):
    positions = rng.random((60, 3))
    triangles = rng.integers(0, 60, size=(100, 3), dtype=np.uint32)
    report = adjacent.verify(positions, triangles=triangles)
    assert report["rows"]
    for row in report["rows"]:
        if row["outcome"] == "refused":
            # A soup no halfedge mesh holds: the manifold-only peers' one
            # exception, only theirs.
            assert manifold_only(row["family"], row["variant"]), row
            assert "refused triangle" in row["detail"], row
            continue
        assert row["outcome"] in ("agrees", "skipped"), row
