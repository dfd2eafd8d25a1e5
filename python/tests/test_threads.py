"""Objects that keep state, shared by threads: calls run with the GIL
released, so the bindings lock each object. Four threads on one object
lose no update and do not hang (each test fails, instead of hanging, when
a thread is still running after its timeout)."""

import threading
import time

import numpy as np
import pytest

import adjacent
from conftest import runnable

THREADS = 4
TIMEOUT_S = 60


def run_threads(work):
    """work(t) on THREADS daemon threads at once; fails when one is still
    running after TIMEOUT_S, else re-raises the first error."""
    errors = []
    start = threading.Barrier(THREADS)

    def body(t):
        try:
            start.wait()
            work(t)
        except BaseException as error:  # noqa: BLE001 - re-raised below
            errors.append(error)

    threads = [threading.Thread(target=body, args=(t,), daemon=True)
               for t in range(THREADS)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + TIMEOUT_S
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    alive = sum(thread.is_alive() for thread in threads)
    assert alive == 0, f"{alive} threads still running after {TIMEOUT_S} s"
    if errors:
        raise errors[0]


@pytest.mark.parametrize("variant", runnable("hash_set"))
def test_threads_sharing_a_set_lose_no_key(variant):
    per_thread, batch = 8000, 250
    # Thread t inserts [t * 4000, t * 4000 + 8000): half of its keys are
    # its neighbour's too, so each must be counted new exactly once.
    distinct = (THREADS + 1) * per_thread // 2
    s = adjacent.hash_set.make(distinct, variant=variant)
    new = [0] * THREADS

    def work(t):
        keys = np.arange(t * per_thread // 2, t * per_thread // 2 + per_thread,
                         dtype=np.uint32)
        for begin in range(0, per_thread, batch):
            chunk = keys[begin:begin + batch]
            new[t] += s.insert_all(chunk)
            assert s.contains_all(chunk).all()
            assert len(s) <= distinct

    run_threads(work)
    assert sum(new) == distinct
    assert len(s) == distinct
    assert np.array_equal(np.sort(s.keys()), np.arange(distinct))
    # A clear racing lookups leaves an empty, usable set.
    run_threads(lambda t: s.clear() if t == 0 else s.contains_all(
        np.arange(1000, dtype=np.uint32)))
    s.clear()
    assert len(s) == 0 and s.insert_all([1, 2, 3]) == 3


def sph_variant():
    names = runnable("sph")
    return "sorted_pairs" if "sorted_pairs" in names else names[0]


def test_threads_stepping_one_state_take_turns():
    variant, steps, rounds = sph_variant(), 2, 3
    state, params = adjacent.sph.scene("glass", 1000)
    twin, _ = adjacent.sph.scene("glass", 1000)

    def work(t):
        for _ in range(rounds):
            adjacent.sph.step(state, params, variant=variant, steps=steps)
            assert len(state.positions) == len(state)

    run_threads(work)
    # One step after another: the state is the one stepped alone.
    adjacent.sph.step(twin, params, variant=variant,
                      steps=THREADS * rounds * steps)
    assert np.array_equal(state.positions, twin.positions)
    assert np.array_equal(state.velocities, twin.velocities)


@pytest.mark.parametrize("variant", runnable("fracture"))
def test_threads_sharing_a_simulation_take_turns(variant):
    coords, grid, offsets, indices = adjacent.fracture.block(6, 6, 6)
    sim = adjacent.fracture.start(coords, grid, offsets, indices,
                                  variant=variant, max_cluster_size=128)
    rest = np.asarray(coords, dtype=np.float32)

    def work(t):
        rng = np.random.default_rng(t)
        for frame in range(3):
            moved = rest + rng.normal(0, 0.05, rest.shape).astype(np.float32)
            cut = np.abs(rest[:, t % 3] - 2.5) < 0.6
            moved[cut, (t + 1) % 3] += 2.0 * (frame + 1)
            # The oracle recomputes the frame from the state before it:
            # another thread's frame in between would make them differ.
            assert sim.step(moved, check=True)["oracle"] == ""
            assert len(sim.intact()) == len(rest)
            sim.clusters()

    run_threads(work)
