import numpy as np
import pytest

import adjacent
from conftest import runnable

FACE = [(-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1)]


def connected(members, coords):
    """Whether the members are connected through face neighbours among
    themselves (breadth-first search over their grid coordinates)."""
    where = {tuple(int(c) for c in coords[p]): p for p in members}
    seen = {members[0]}
    frontier = [members[0]]
    while frontier:
        nxt = []
        for p in frontier:
            x, y, z = (int(c) for c in coords[p])
            for dx, dy, dz in FACE:
                q = where.get((x + dx, y + dy, z + dz))
                if q is not None and q not in seen:
                    seen.add(q)
                    nxt.append(q)
        frontier = nxt
    return len(seen) == len(members)


@pytest.mark.parametrize("variant", runnable("fracture"))
def test_frames_match_the_oracle_and_keep_the_invariants(rng, variant):
    coords, grid, offsets, indices = adjacent.fracture.block(8, 8, 8)
    sim = adjacent.fracture.start(coords, grid, offsets, indices,
                                  variant=variant, max_cluster_size=128)
    positions = np.asarray(coords, dtype=np.float32).copy()
    for frame in range(4):
        # A blade through the block's middle, moving along y, and jitter.
        cut = (np.abs(positions[:, 0] - 3.5) < 0.6) & \
              (positions[:, 1] < 2 * (frame + 1))
        moved = positions + rng.normal(0, 0.05, positions.shape)
        moved[cut, 2] += 3.0
        report = sim.step(moved.astype(np.float32), check=True)
        assert report["oracle"] == "", report["oracle"]
        intact = np.asarray(sim.intact())
        for members in sim.clusters():
            members = np.asarray(members).tolist()
            assert 0 < len(members) < 128
            assert all(intact[p] for p in members)
            assert connected(members, np.asarray(coords).astype(np.int64))
    assert intact.sum() < len(intact)  # the blade removed particles


def test_bad_input_is_an_error():
    coords, grid, offsets, indices = adjacent.fracture.block(3, 3, 3)
    sim = adjacent.fracture.start(coords, grid, offsets, indices)
    with pytest.raises(adjacent.Error):
        sim.step(np.zeros((5, 3), np.float32))  # not one per particle
    with pytest.raises(adjacent.Error):
        adjacent.fracture.start(coords, (2, 2, 2), offsets, indices)
    with pytest.raises(ValueError, match="face6"):
        adjacent.fracture.start(coords, grid, offsets, indices,
                                neighborhood="diagonal")
