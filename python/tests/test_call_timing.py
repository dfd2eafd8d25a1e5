"""The C++ side of python/benchmarks/call_overhead.py: each `time_*` entry
runs its variant `repetitions` times on the input converted once and
returns a time per run; what it is given is checked as the call it times
checks it, and fewer than one repetition is refused, not answered with no
times."""

import numpy as np
import pytest

import adjacent

VALUES = np.arange(1000, dtype=np.uint32)
FLAGS = (np.arange(1000) % 3 == 0).astype(np.uint8)
# A path 0-1-2 and a vertex alone.
OFFSETS = np.array([0, 1, 3, 4, 4], dtype=np.uint32)
INDICES = np.array([1, 0, 2, 1], dtype=np.uint32)
POINTS = np.random.default_rng(1).random((500, 3), dtype=np.float32)
# Two triangles sharing an edge, over four particles.
TRIANGLES = np.array([[0, 1, 2], [1, 3, 2]], dtype=np.uint32)


def contains_all(repetitions, variant="open_addressing", values=VALUES):
    keys = adjacent.hash_set.make(2048, variant=variant)
    keys.insert_all(VALUES[::2])
    return keys.time_contains_all(values, repetitions)


TIMERS = {
    "scan": lambda repetitions, variant="serial", values=VALUES:
        adjacent.prefix_sum.time_scan(values, False, variant, repetitions),
    "compact": lambda repetitions, variant="serial", values=VALUES:
        adjacent.compaction.time_compact(values, FLAGS, variant,
                                         repetitions),
    "label": lambda repetitions, variant="ecl_cc", values=INDICES:
        adjacent.connected_components.time_label(OFFSETS, values, variant,
                                                 repetitions),
    "query_all": lambda repetitions, variant="cell_sorted", values=POINTS:
        adjacent.hash_grid.time_query_all(values, 0.1, variant,
                                          repetitions),
    "build": lambda repetitions, variant="nvcloth", values=TRIANGLES:
        adjacent.triangle_adjacency.time_build(values, 4, variant,
                                               repetitions),
    "contains_all": contains_all,
}


@pytest.mark.parametrize("call", sorted(TIMERS))
def test_a_time_per_repetition(call):
    seconds = TIMERS[call](3)
    assert len(seconds) == 3
    assert all(s >= 0 for s in seconds)


@pytest.mark.parametrize("call", sorted(TIMERS))
@pytest.mark.parametrize("repetitions", [0, -1])
def test_fewer_than_one_repetition_is_refused(call, repetitions):
    with pytest.raises(adjacent.Error, match="repetitions must be at least"):
        TIMERS[call](repetitions)


# contains_all's variant is the set's, refused by hash_set.make.
@pytest.mark.parametrize("call", sorted(set(TIMERS) - {"contains_all"}))
def test_an_unknown_variant_is_refused_by_name(call):
    with pytest.raises(ValueError, match="no_such_row"):
        TIMERS[call](1, variant="no_such_row")


@pytest.mark.parametrize("call", ["scan", "compact", "label", "build",
                                  "contains_all"])
def test_values_that_are_not_integers_are_refused(call):
    with pytest.raises(TypeError):
        TIMERS[call](1, values=np.array(["a", "b"]))


def test_build_refuses_a_particle_past_the_count_as_build_does():
    bad = np.array([[0, 1, 9]], dtype=np.uint32)
    with pytest.raises(adjacent.Error, match="particle 9"):
        adjacent.triangle_adjacency.build(bad, 4)
    with pytest.raises(adjacent.Error, match="particle 9"):
        adjacent.triangle_adjacency.time_build(bad, 4, "nvcloth", 1)


def test_contains_all_times_leave_the_set_as_it_was():
    keys = adjacent.hash_set.make(64)
    keys.insert_all(np.array([1, 2, 3], dtype=np.uint32))
    keys.time_contains_all(np.array([3, 4], dtype=np.uint32), 3)
    assert len(keys) == 3
    assert keys.contains_all(np.array([3, 4], dtype=np.uint32)).tolist() == [
        1, 0]
