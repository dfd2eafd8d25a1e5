"""adjacent.testing: property tests of your own code with Hypothesis.

Strategies that mirror the suite's RapidCheck generators (the clouds,
graphs, meshes and triplets its own variants are tested on: negative
coordinates, points on cell boundaries, pairs at exactly the radius,
coincident points, far clusters; paths, stars, isolated vertices,
self-loops, many components; degenerate and repeated triangles,
non-manifold edges, particles in no triangle, high valence),
and ``assert_agrees``, which fails with the oracle's first difference::

    from hypothesis import given
    import adjacent.testing as at

    @given(at.clouds())
    def test_my_search(cloud):
        points, radius = cloud
        at.assert_agrees("hash_grid", {"points": points},
                         {"pairs": my_search(points, radius)}, radius=radius)

Hypothesis then shrinks a failure to a small cloud. Needs the
``hypothesis`` package (reports/requirements.txt pins the version the
suite tests with); ``import adjacent`` does not.
"""

import numpy as np
from hypothesis import strategies as st

from . import check as _check

__all__ = ["CLOUD_KINDS", "assert_agrees", "clouds", "graphs", "meshes",
           "triplets"]

# The kinds of properties/cloud_generators.h, simplest first (Hypothesis
# shrinks towards the first).
CLOUD_KINDS = ("uniform", "clustered", "far_clusters", "one_cell",
               "exact_lattice", "coincident")
RADII = (0.25, 0.5, 1.0, 1.25, 2.5)
OFFSETS = (0.0, -1000.5, 1048576.0, -2097152.0)


def _cloud(kind, coordinates, radius, clusters, offset):
    """The points of a cloud spec, as properties/cloud_generators.h's
    BuildCloud makes them: small integers scaled by powers of two plus an
    offset, so that coordinates, differences and squares are exact."""
    c = np.array(coordinates, dtype=np.float64).reshape(-1, 3)
    if kind == "uniform":
        c = c / 16
    elif kind in ("clustered", "far_clusters"):
        gap = 4.0 if kind == "clustered" else 4096.0
        centre = gap * (np.arange(len(c)) % clusters)
        c = np.stack([centre + c[:, 0] / 256, c[:, 1] / 256 - centre,
                      c[:, 2] / 256], 1)
    elif kind == "one_cell":
        c = np.abs(c) / 1024 * radius
    elif kind == "exact_lattice":
        c = c * radius / 5
    elif kind == "coincident":
        c = np.stack([np.fmod(c[:, 0], 3) * 0.5, np.fmod(c[:, 1], 2) * 0.5,
                      np.zeros(len(c))], 1)
    c = c + np.array([offset, offset, -offset])
    return c.astype(np.float32).reshape(-1, 3)


@st.composite
def clouds(draw, max_points=40, kinds=CLOUD_KINDS):
    """(points, radius): float32 points (N, 3), N <= max_points, and a
    radius, of one of ``kinds``."""
    kind = draw(st.sampled_from(kinds))
    extent = 12 if kind == "exact_lattice" else 160
    coordinate = st.integers(-extent, extent - 1)
    coordinates = draw(st.lists(st.tuples(coordinate, coordinate, coordinate),
                                max_size=max_points))
    radius = draw(st.sampled_from(RADII))
    clusters = draw(st.integers(1, 5))
    offset = draw(st.sampled_from(OFFSETS))
    return _cloud(kind, coordinates, radius, clusters, offset), radius


@st.composite
def graphs(draw, max_vertices=40):
    """(edges, vertices): an (M, 2) int64 edge list over ``vertices``
    vertices, as a path, a star, random edges or small components, with
    self-loops and repeated edges allowed and isolated vertices left."""
    vertices = draw(st.integers(0, max_vertices))
    if vertices == 0:
        return np.zeros((0, 2), dtype=np.int64), 0
    shape = draw(st.sampled_from(("random", "path", "star", "components")))
    vertex = st.integers(0, vertices - 1)
    if shape == "path":
        edges = [(v, v + 1) for v in range(vertices - 1)]
    elif shape == "star":
        centre = draw(vertex)
        edges = [(centre, v) for v in range(vertices) if v != centre]
    elif shape == "components":
        size = draw(st.integers(1, 4))
        edges = [(v, v + 1) for v in range(vertices - 1)
                 if (v + 1) % size != 0]
    else:
        edges = []
    edges += draw(st.lists(st.tuples(vertex, vertex), max_size=2 * vertices))
    permutation = draw(st.permutations(range(vertices)))
    edges = [(permutation[a], permutation[b]) for a, b in edges]
    return np.array(edges, dtype=np.int64).reshape(-1, 2), vertices


@st.composite
def meshes(draw, max_triangles=40, max_particles=30):
    """(triangles, particles): an (T, 3) int64 triangle list over
    ``particles`` particles: random corners (a repeated corner, a repeated
    triangle and many triangles on one edge included), a fan around one
    particle, or a strip; particles past the last corner have no
    triangle."""
    particles = draw(st.integers(1, max_particles))
    particle = st.integers(0, particles - 1)
    shape = draw(st.sampled_from(("random", "fan", "strip")))
    if shape == "fan" and particles >= 3:
        centre = draw(particle)
        rim = [p for p in range(particles) if p != centre]
        triangles = [(centre, a, b) for a, b in zip(rim, rim[1:])]
    elif shape == "strip" and particles >= 3:
        triangles = [(p, p + 1, p + 2) for p in range(particles - 2)]
    else:
        triangles = []
    triangles += draw(st.lists(st.tuples(particle, particle, particle),
                               max_size=max_triangles))
    if triangles and draw(st.booleans()):
        triangles.append(triangles[0])  # a triangle listed twice
    return (np.array(triangles, dtype=np.int64).reshape(-1, 3),
            particles + draw(st.integers(0, 3)))


@st.composite
def triplets(draw, max_triplets=60, max_particles=40):
    """(triplets, particles): an (T, 4) int64 list of (p0, p1, p2,
    weight) over ``particles`` particles, as a mesh's virtual particles
    are (meshes(), one per triangle) or with repeated corners, so that a
    scheduler meets high valence and triplets sharing two particles."""
    triangles, particles = draw(meshes(max_triplets, max_particles))
    weights = draw(st.lists(st.integers(0, 3), min_size=len(triangles),
                            max_size=len(triangles)))
    return (np.concatenate([triangles,
                            np.array(weights, dtype=np.int64).reshape(-1, 1)],
                           1).reshape(-1, 4),
            particles)


def assert_agrees(family, inputs, outputs, **parameters):
    """Raises AssertionError with the first difference unless the output
    agrees with the family's oracle (adjacent.check.check)."""
    report = _check.check(family, inputs, outputs, **parameters)
    if not report.agrees:
        raise AssertionError(f"{family}: {report} ({report.scope})")
    return report
