import numpy as np
import pytest

import adjacent


def schedulers(kind):
    """The table's schedulers that run here."""
    names = (adjacent.triplet_schedule.simd_schedulers() if kind == "simd"
             else adjacent.triplet_schedule.warp_schedulers())
    runs = {row["name"] for row in adjacent.variants()
            if row["family"] == "triplet_schedule" and row["runs_here"]}
    return [name for name in names if name in runs]


def random_triplets(rng, n, m):
    particles = np.array([rng.choice(n, size=3, replace=False)
                          for _ in range(m)], dtype=np.uint32).reshape(m, 3)
    weights = rng.integers(0, 100, size=(m, 1), dtype=np.uint32)
    return np.hstack([particles, weights]).astype(np.uint32)


def rows_of(array):
    return sorted(map(tuple, np.asarray(array).tolist()))


@pytest.mark.parametrize("scheduler", schedulers("warp"))
def test_warp_sets_are_independent_and_hold_every_triplet(rng, scheduler):
    n, m = 200, 600
    triplets = random_triplets(rng, n, m)
    schedule = adjacent.triplet_schedule.warp(triplets, n,
                                              scheduler=scheduler)
    assert schedule.problem == ""
    order = np.asarray(schedule.triplets)
    assert rows_of(order) == rows_of(triplets)
    sizes = np.asarray(schedule.set_sizes)
    assert sizes.sum() == m and schedule.padding == 0
    start = 0
    for size in sizes:
        members = order[start:start + size, :3]
        assert len(set(members.ravel().tolist())) == 3 * size
        start += size
    assert schedule.metrics["sets"] == len(sizes)


@pytest.mark.parametrize("scheduler", schedulers("simd"))
def test_simd_batches_share_no_particle(rng, scheduler):
    n, m, width = 100, 300, 4
    triplets = random_triplets(rng, n, m)
    schedule = adjacent.triplet_schedule.simd(triplets, n, width=width,
                                              scheduler=scheduler)
    assert schedule.problem == ""
    order = np.asarray(schedule.triplets)
    dummies = [tuple(t) for t in order.tolist() if t[0] >= n]
    real = [tuple(t) for t in order.tolist() if t[0] < n]
    assert sorted(real) == rows_of(triplets)
    assert len(dummies) == schedule.padding
    assert len(order) % width == 0
    for b in range(0, len(order), width):
        # A triplet may repeat its own particle; two may not share one.
        owners = set()
        for t in order[b:b + width]:
            mine = {int(q) for q in t[:3] if q < n}
            assert not (mine & owners), b
            owners |= mine


def test_an_index_past_the_particles_is_an_error():
    triplets = np.array([[0, 1, 7, 0]], dtype=np.uint32)
    with pytest.raises(adjacent.Error, match="7"):
        adjacent.triplet_schedule.warp(triplets, 5)
