"""Shared inputs for the package's tests: small random inputs and the
brute-force oracles, written here in NumPy apart from the C++ (an
independent check of each family through its Python interface)."""

import numpy as np
import pytest

import adjacent


def runnable(family):
    """The names of the family's variants that can run here."""
    return [row["name"] for row in adjacent.variants()
            if row["family"] == family and row["runs_here"]]


@pytest.fixture
def rng():
    return np.random.default_rng(20261126)


def manifold_only(family, variant):
    """Whether the row is a peer whose library holds only oriented manifold
    meshes (triangle_adjacency's one exception to its contract)."""
    return any(row["family"] == family and row["name"] == variant
               and "meshes=manifold" in row["axes"]
               for row in adjacent.variants())


def oriented_manifold(triangles, particles):
    """Whether the triangles form an oriented 2-manifold: three distinct
    corners each, no directed edge twice, and one fan around each
    particle (written apart from the C++ oracle's)."""
    directed = set()
    links = [[] for _ in range(particles)]
    for a, b, c in (tuple(int(x) for x in t) for t in triangles):
        if len({a, b, c}) < 3:
            return False
        for p, q, r in ((a, b, c), (b, c, a), (c, a, b)):
            if (p, q) in directed:
                return False
            directed.add((p, q))
            links[p].append((q, r))
    for link in links:
        parent = {}

        def root(x):
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x

        for q, r in link:
            parent[root(q)] = root(r)
        if len({root(x) for x in list(parent)}) > 1:
            return False
    return True


def build_or_refused(triangles, particles, variant):
    """triangle_adjacency.build's result, or None where a manifold-only peer
    refused a mesh that is not an oriented manifold (asserted here: only
    such a row, only such a mesh, naming the triangle)."""
    try:
        return adjacent.triangle_adjacency.build(triangles, particles,
                                                 variant=variant)
    except adjacent.Error as refusal:
        if not manifold_only("triangle_adjacency", variant):
            raise
        assert "refused triangle" in str(refusal), refusal
        assert not oriented_manifold(triangles, particles), refusal
        return None
