import numpy as np
import pytest

import adjacent
from conftest import runnable


@pytest.mark.parametrize("variant", runnable("triangle_adjacency"))
def test_build_lists_every_particles_triangles(rng, variant):
    for n, m in ((0, 0), (5, 0), (50, 80), (400, 2000)):
        triangles = rng.integers(0, max(n, 1), size=(m, 3), dtype=np.uint32)
        result = adjacent.triangle_adjacency.build(triangles, n,
                                                   variant=variant)
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
        assert row["outcome"] in ("agrees", "skipped"), row
