import numpy as np
import pytest

import adjacent
from conftest import runnable


@pytest.mark.parametrize("variant", runnable("prefix_sum"))
def test_scan_is_numpys_cumsum_modulo_2_32(rng, variant):
    for n in (0, 1, 1000, 100_000):
        values = rng.integers(0, 2**32, size=n, dtype=np.uint64)
        values = values.astype(np.uint32)
        inclusive = np.cumsum(values, dtype=np.uint64) % 2**32
        sums, total = adjacent.prefix_sum.scan(values, inclusive=True,
                                               variant=variant)
        assert np.array_equal(sums, inclusive.astype(np.uint32))
        sums, total = adjacent.prefix_sum.scan(values, variant=variant)
        exclusive = np.concatenate([[0], inclusive[:-1]]) if n else inclusive
        assert np.array_equal(sums, exclusive.astype(np.uint32))
        assert total == (int(inclusive[-1]) if n else 0)


@pytest.mark.parametrize("variant", runnable("compaction"))
def test_compact_removes_the_flagged_values_keeping_the_order(rng, variant):
    for n in (0, 1, 1000, 100_000):
        values = rng.integers(0, 2**32, size=n, dtype=np.uint64)
        values = values.astype(np.uint32)
        flags = (rng.random(n) < 0.3).astype(np.uint8)
        kept = adjacent.compaction.compact(values, flags, variant=variant)
        assert np.array_equal(kept, values[flags == 0])


@pytest.mark.parametrize("variant", runnable("hash_set"))
def test_a_set_holds_each_key_once(rng, variant):
    keys = rng.integers(0, 5000, size=3000).astype(np.uint32)
    s = adjacent.hash_set.make(4096, variant=variant)
    assert s.insert_all(keys) == len(np.unique(keys))
    assert len(s) == len(np.unique(keys))
    assert sorted(s.keys().tolist()) == np.unique(keys).tolist()
    probe = np.arange(6000, dtype=np.uint32)
    found = s.contains_all(probe)
    assert np.array_equal(found.astype(bool), np.isin(probe, keys))
    s.clear()
    assert len(s) == 0


def test_the_reserved_key_and_a_full_set_are_errors():
    s = adjacent.hash_set.make(4)
    with pytest.raises(adjacent.Error):
        s.insert_all(np.array([2**32 - 1], dtype=np.uint32))
    with pytest.raises(adjacent.Error):
        s.insert_all(np.arange(100, dtype=np.uint32))
    with pytest.raises(adjacent.Error):
        adjacent.compaction.compact(np.zeros(3, np.uint32),
                                    np.zeros(2, np.uint8))
