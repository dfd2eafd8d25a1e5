import numpy as np
import pytest

import adjacent
from conftest import runnable


def random_graph(rng, n, edges):
    """A symmetric CSR graph of n vertices and `edges` random edges."""
    a = rng.integers(0, n, size=edges)
    b = rng.integers(0, n, size=edges)
    rows = [[] for _ in range(n)]
    for u, v in zip(a, b):
        rows[u].append(v)
        rows[v].append(u)
    offsets = np.zeros(n + 1, dtype=np.uint32)
    offsets[1:] = np.cumsum([len(r) for r in rows])
    indices = np.array([v for r in rows for v in r], dtype=np.uint32)
    return offsets, indices, rows


def oracle_components(rows):
    """Component id per vertex by breadth-first search."""
    component = [-1] * len(rows)
    count = 0
    for start in range(len(rows)):
        if component[start] >= 0:
            continue
        component[start] = count
        frontier = [start]
        while frontier:
            nxt = []
            for u in frontier:
                for v in rows[u]:
                    if component[v] < 0:
                        component[v] = count
                        nxt.append(v)
            frontier = nxt
        count += 1
    return component, count


@pytest.mark.parametrize("variant", runnable("connected_components"))
def test_label_partitions_like_breadth_first_search(rng, variant):
    for n, edges in ((0, 0), (1, 0), (100, 40), (1000, 900)):
        offsets, indices, rows = random_graph(rng, n, edges)
        result = adjacent.connected_components.label(offsets, indices,
                                                     variant=variant)
        labels = np.asarray(result.labels)
        component, count = oracle_components(rows)
        assert result.count == count
        # The same partition: a label determines the component and back.
        pairs = set(zip(labels.tolist(), component))
        assert len(pairs) == count
        assert len({label for label, _ in pairs}) == count
