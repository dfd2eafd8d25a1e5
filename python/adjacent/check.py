"""adjacent.check: your own code's output against the suite's oracles.

Each function takes a family's input and an output computed anywhere (your
CUDA kernel, a Rust crate, a NumPy prototype) and returns a ``Report``:
``''`` when the output agrees with the oracle the suite's own variants are
held to, else the first difference in words (which particle, pair or
vertex; expected against got). ``report.statistics`` has the output's
statistics, ``report.scope`` what the oracle covered and how the output
was read. Malformed arrays raise ``adjacent.Error`` naming them::

    report = adjacent.check.hash_grid(points, 0.25, pairs=my_pairs)
    assert report == "", report

``available()`` lists the families an output can be checked for;
docs/check-your-code.md shows the three routes (this one, ``adjacent
check`` on files, and the installed C++ package).
"""

import numpy as np

from . import _adjacent
from ._adjacent import Error

# Each family's function below, for the families the registry gives a
# check (a test holds the two to each other).
__all__ = ["Report", "available", "check",
           *(entry["family"] for entry in _adjacent.outside_checks())]


class Report(str):
    """The first difference ('' when the output agrees), with
    ``statistics`` (dict) and ``scope`` (str)."""

    def __new__(cls, difference, statistics, scope):
        report = super().__new__(cls, difference)
        report.statistics = statistics
        report.scope = scope
        return report

    @property
    def agrees(self):
        return self == ""


def available():
    """[{'family', 'inputs', 'outputs'}] of every family with a check."""
    return _adjacent.outside_checks()


def _array(name, value):
    """`value` as the C++ side reads it: int64 for integers and bools
    (a uint64 past 2**63 - 1 refused, never wrapped), float64 for floats."""
    array = np.asarray(value)
    if array.dtype.kind in "biu":
        if (array.dtype == np.uint64 and array.size
                and array.max() > np.iinfo(np.int64).max):
            raise Error(f"{name}: an entry exceeds 2**63 - 1")
        return np.ascontiguousarray(array, dtype=np.int64)
    if array.dtype.kind == "f":
        return np.ascontiguousarray(array, dtype=np.float64)
    raise TypeError(f"{name}: an array of numbers, not dtype {array.dtype}")


def _given(arrays):
    return {name: _array(name, value) for name, value in arrays.items()
            if value is not None}


def check(family, inputs, outputs, **parameters):
    """Any family's check by name: ``inputs`` and ``outputs`` map the
    array names ``available()`` lists to arrays."""
    difference, statistics, scope = _adjacent.check_output(
        family, _given(inputs), _given(outputs),
        {name: float(value) for name, value in parameters.items()})
    return Report(difference, statistics, scope)


def _csr_of_rows(rows):
    """Per-row sequences (in any order) as (offsets, indices)."""
    lengths = [len(row) for row in rows]
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    indices = (np.concatenate([np.asarray(row, dtype=np.int64).ravel()
                               for row in rows])
               if any(lengths) else np.zeros(0, dtype=np.int64))
    return offsets, indices


def hash_grid(points, radius, *, pairs=None, offsets=None, indices=None,
              rows=None, full=None):
    """Neighbour lists within ``radius`` (inclusive) of ``points`` (N, 3),
    given as ``pairs`` (M, 2), as CSR ``offsets`` (N + 1,) and
    ``indices``, or as ``rows`` (a sequence per particle): a full list
    (every pair both ways) or a half list (each pair once, either way),
    rows in any order. ``full``: True (a full list) or False (a half
    list); left out, it is inferred, which cannot tell a full list that
    lost one direction of its only pair from a half list: declare it.
    Statistics: entries, duplicates, pairs, neighbors_per_particle."""
    if rows is not None:
        if pairs is not None or offsets is not None or indices is not None:
            raise Error("hash_grid: give rows, pairs or offsets and "
                        "indices, one of them")
        offsets, indices = _csr_of_rows(rows)
    parameters = {"radius": radius}
    if full is not None:
        parameters["full"] = 1 if full else 0
    return check("hash_grid", {"points": points},
                 {"pairs": pairs, "offsets": offsets, "indices": indices},
                 **parameters)


def connected_components(labels, *, edges=None, vertices=None, offsets=None,
                         indices=None):
    """A labelling (V,) of any integers, equal within a component, of the
    graph given as ``edges`` (M, 2) with ``vertices`` (V), or as CSR
    ``offsets`` (V + 1,) and ``indices``; edges are read as undirected and
    labels compared as a partition. Statistics: components,
    largest_component."""
    parameters = {} if vertices is None else {"vertices": vertices}
    return check("connected_components",
                 {"edges": edges, "offsets": offsets, "indices": indices},
                 {"labels": labels}, **parameters)


def prefix_sum(values, scan, *, inclusive, total=None):
    """The scan (N,) of uint32 ``values`` (N,), modulo 2**32: ``inclusive``
    True (out[i] = in[0] + ... + in[i]) or False (exclusive, out[0] = 0),
    and optionally its ``total``. Statistics: values, total."""
    return check("prefix_sum", {"values": values},
                 {"scan": scan, "total": total},
                 inclusive=1 if inclusive else 0)


def compaction(values, flags, kept):
    """``kept``: the uint32 ``values`` whose ``flags`` are 0, in order (a
    nonzero flag removes its value). Statistics: values, kept."""
    return check("compaction", {"values": values, "flags": flags},
                 {"kept": kept})


def triangle_adjacency(triangles, particles, *, memberships=None,
                       offsets=None, indices=None, rows=None):
    """Each particle's triangles of ``triangles`` (T, 3) over
    ``particles`` particles, given as ``memberships`` (M, 2) of
    (particle, triangle), as CSR ``offsets`` (P + 1,) and ``indices``, or
    as ``rows`` (a sequence per particle); rows in any order. Statistics:
    entries, max_adjacent."""
    if rows is not None:
        if (memberships is not None or offsets is not None
                or indices is not None):
            raise Error("triangle_adjacency: give rows, memberships or "
                        "offsets and indices, one of them")
        offsets, indices = _csr_of_rows(rows)
    return check("triangle_adjacency", {"triangles": triangles},
                 {"memberships": memberships, "offsets": offsets,
                  "indices": indices},
                 particles=particles)


def triplet_schedule(triplets, particles, order, set_sizes, *, width, simd):
    """A schedule of ``triplets`` (T, 4) or (T, 3) over ``particles``
    particles: ``order`` (the triplets set by set; with ``simd`` True each
    set padded with dummies to a multiple of ``width``) and ``set_sizes``
    (padding excluded). Judged valid by the reference validator, not
    compared with one expected order. Statistics: the bounds
    (max_adjacent, replays_bound) and, when valid, sets, set_min,
    set_max, padding, padding_ratio, replays, ideal_replays, idle_lanes."""
    return check("triplet_schedule", {"triplets": triplets},
                 {"order": order, "set_sizes": set_sizes},
                 particles=particles, width=width, simd=1 if simd else 0)


def hash_set(inserted, keys, *, queries=None, answers=None):
    """``keys``: the keys a set holds after inserting ``inserted`` (each
    once, any order; 0xFFFFFFFF cannot be a key), and optionally its
    ``answers`` (1 present, 0 absent) to ``queries``. Statistics:
    inserted, keys."""
    return check("hash_set", {"inserted": inserted, "queries": queries},
                 {"keys": keys, "answers": answers})


_UPDATES = {"three_pass": 0, "collapsed": 1, "in_place": 2}


def _field(source, name):
    return source[name] if isinstance(source, dict) else getattr(source,
                                                                  name)


def sph(before, after, params, *, update):
    """One SPH step: ``before`` and ``after`` with ``positions`` (N, 3),
    ``velocities`` (N, 3), ``density`` (N,) and (before) ``mass`` (N,),
    as an ``adjacent.sph.State`` or a dict; ``params`` an
    ``adjacent.sph.Params`` or a dict of h, rest_density, stiffness,
    viscosity, dt, gravity, container ('box' or 'glass'), lo, hi and
    restitution; ``update`` 'three_pass', 'collapsed' or 'in_place'
    (which densities the forces read: sph.h). Held to the
    double-precision oracle within a float tolerance. Statistics:
    particles."""
    if update not in _UPDATES:
        raise Error(f"sph: update is one of {sorted(_UPDATES)}, not "
                    f"{update!r}")
    inputs = {"x": _field(before, "positions"),
              "v": _field(before, "velocities"),
              "density": _field(before, "density"),
              "mass": _field(before, "mass"),
              "lo": _field(params, "lo"), "hi": _field(params, "hi"),
              "gravity": _field(params, "gravity")}
    outputs = {"x": _field(after, "positions"),
               "v": _field(after, "velocities"),
               "density": _field(after, "density")}
    return check("sph", inputs, outputs,
                 h=_field(params, "h"),
                 rest_density=_field(params, "rest_density"),
                 stiffness=_field(params, "stiffness"),
                 viscosity=_field(params, "viscosity"),
                 dt=_field(params, "dt"),
                 glass=1 if _field(params, "container") == "glass" else 0,
                 restitution=_field(params, "restitution"),
                 update=_UPDATES[update])


def triplet_collide(particles, triplets, after, *, weights=None,
                    spheres=None, capsules=None, interleaved=False):
    """One collision pass: ``particles`` (N, 4) of (x, y, z, invMass)
    before it and ``after`` it, over ``triplets`` (T, 4) of (p0, p1, p2,
    weight index) or (T, 3) in the order the pass ran them; ``weights``
    (W, 4) or (W, 3) (default: the centroid's alone), ``spheres`` (S, 4),
    ``capsules`` (C, 7). Bit for bit, or with ``interleaved`` True (adds
    that may interleave, as with atomics) within the bound any
    interleaving keeps. Statistics: triplets, collided, max_error."""
    inputs = {"particles": particles, "triplets": triplets,
              "weights": weights, "spheres": spheres, "capsules": capsules}
    return check("triplet_collide", inputs, {"particles": after},
                 interleaved=1 if interleaved else 0)


_MERGES = {"first_fit": 0, "printed": 1, "any_valid": 2,
           "priority_rounds": 3}


def _clusters(prefix, rows, slots):
    offsets, members = _csr_of_rows(rows)
    arrays = {f"{prefix}offsets": offsets, f"{prefix}members": members}
    if slots is not None:
        arrays[f"{prefix}slots"] = slots
    return arrays


def fracture(coords, grid, clusters, positions, intact_after,
             clusters_after, *, slots=None, slots_after=None, intact=None,
             merges=None, belong=None, merge="first_fit",
             damage_distance=1.5, max_cluster_size=1024, min_cluster_size=8,
             neighborhood="face6", expansion="breadth_first", seed=0,
             frame=0):
    """One frame of the cluster-topology update: the particles at node
    ``coords`` (N, 3) of ``grid`` (nx, ny, nz), ``intact`` before (default
    all), the live ``clusters`` (a member sequence each) in ``slots``
    (default 0, 1, ...), and the frame's ``positions`` (N, 3); after it,
    ``intact_after`` (N,) and ``clusters_after`` in ``slots_after``.
    Optionally ``merges`` (per new cluster in canonical order, the slots
    it merged into; required with ``merge='any_valid'``) and ``belong``
    (per particle, its slots ascending). ``merge`` is the search the
    frame ran: 'first_fit', 'printed', 'any_valid' or 'priority_rounds'.
    Judged on topology: attributes and rest positions are the contract's
    on both sides. Statistics: removed, influenced, new_clusters, merged,
    live_clusters."""
    if merge not in _MERGES:
        raise Error(f"fracture: merge is one of {sorted(_MERGES)}, not "
                    f"{merge!r}")
    if neighborhood not in ("face6", "all26"):
        raise Error("fracture: neighborhood must be 'face6' or 'all26'")
    if expansion not in ("random", "breadth_first"):
        raise Error("fracture: expansion must be 'random' (as published) "
                    "or 'breadth_first'")
    inputs = {"grid": grid, "coords": coords, "intact": intact,
              "positions": positions, **_clusters("cluster_", clusters, slots)}
    outputs = {"intact": intact_after,
               **_clusters("cluster_", clusters_after, slots_after)}
    if merges is not None:
        outputs["merge_offsets"], outputs["merge_slots"] = _csr_of_rows(
            merges)
    if belong is not None:
        outputs["belong_offsets"], outputs["belong_indices"] = (
            _csr_of_rows(belong))
    return check("fracture", inputs, outputs,
                 damage_distance=damage_distance,
                 max_cluster_size=max_cluster_size,
                 min_cluster_size=min_cluster_size,
                 neighborhood=26 if neighborhood == "all26" else 6,
                 expansion=1 if expansion == "breadth_first" else 0,
                 seed=seed, frame=frame, merge=_MERGES[merge])
