"""triplet_collide through Python: every variant that runs here, on the
schedule layout it consumes, against a NumPy float32 pass written here from
the contract in triplet_collide.h (one IEEE single operation at a time,
left to right, no fused multiply-add), bit for bit."""

import numpy as np
import pytest

import adjacent
from conftest import runnable

tc = adjacent.triplet_collide
f32 = np.float32


def push(d, r, delta):
    d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
    if d2 < r * r:
        if d2 > f32(0):
            k = r / np.sqrt(d2) - f32(1)
            for c in range(3):
                delta[c] = delta[c] + d[c] * k
        else:
            delta[2] = delta[2] + r


def numpy_pass(order, weights, spheres, capsules, particles):
    x = particles.copy()
    collided = 0
    for p0, p1, p2, wi in order.tolist():
        w = weights[wi]
        p = [w[0] * x[p0, c] + w[1] * x[p1, c] + w[2] * x[p2, c]
             for c in range(3)]
        delta = [f32(0), f32(0), f32(0)]
        for s in spheres:
            push([p[c] - s[c] for c in range(3)], s[3], delta)
        for cap in capsules:
            a, b, r = cap[0:3], cap[3:6], cap[6]
            ab = [b[c] - a[c] for c in range(3)]
            len2 = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2]
            t = f32(0)
            if len2 > f32(0):
                t = ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]
                     + (p[2] - a[2]) * ab[2]) / len2
                t = t if t > f32(0) else f32(0)
                t = t if t < f32(1) else f32(1)
            push([p[c] - (a[c] + t * ab[c]) for c in range(3)], r, delta)
        if delta == [f32(0)] * 3:
            continue
        collided += 1
        for k, pk in enumerate((p0, p1, p2)):
            if x[pk, 3] == f32(0):
                continue
            f = w[k] * w[3]
            for c in range(3):
                x[pk, c] = x[pk, c] + f * delta[c]
    return x, collided


@pytest.fixture
def scene(rng):
    n, m = 120, 400
    positions = rng.random((n, 3), dtype=np.float32)
    inv_mass = np.where(rng.random(n) < 0.1, 0, 1).astype(np.float32)
    spheres = np.array([[0.5, 0.5, 0.5, 0.3]], dtype=np.float32)
    capsules = np.array([[0.0, 0.3, 0.6, 1.0, 0.4, 0.6, 0.15]],
                        dtype=np.float32)
    particles = tc.with_dummies(np.column_stack([positions, inv_mass]),
                                spheres, capsules)
    weights = np.array(
        [tc.centroid_weight, tc.make_weight(0.5, 0.25, 0.25),
         tc.make_weight(0.1, 0.2, 0.7)], dtype=np.float32)
    triplets = np.array([np.append(rng.choice(n, size=3, replace=False),
                                   rng.integers(0, len(weights)))
                         for _ in range(m)], dtype=np.uint32)
    return n, triplets, weights, spheres, capsules, particles


def schedule_for(variant, triplets, n):
    order, width = tc.consumes(variant)
    if order == "simd":
        width = width or tc.native_simd_width()
        return adjacent.triplet_schedule.simd(triplets, n, width=width,
                                              scheduler="stamped_simd")
    if order == "warp":
        return adjacent.triplet_schedule.warp(triplets, n, width=32,
                                              scheduler="bank_matched_warp")
    return tc.input_order(triplets)


@pytest.mark.parametrize("variant", runnable("triplet_collide"))
def test_every_variant_equals_the_numpy_pass_bit_for_bit(scene, variant):
    n, triplets, weights, spheres, capsules, before = scene
    schedule = schedule_for(variant, triplets, n)
    expected, collided = numpy_pass(np.asarray(schedule.triplets), weights,
                                    spheres, capsules, before)
    assert 0 < collided < len(triplets)  # the shapes catch some, not all
    particles = before.copy()
    assert tc.collide(particles, weights, schedule, spheres, capsules,
                      variant=variant) is None
    np.testing.assert_array_equal(particles.view(np.uint32),
                                  expected.view(np.uint32))
    static = before[:, 3] == 0
    np.testing.assert_array_equal(particles[static], before[static])
    assert not np.array_equal(particles, before)


@pytest.mark.parametrize("variant", runnable("triplet_collide"))
def test_check_returns_the_oracles_verdict(scene, variant):
    n, triplets, weights, spheres, capsules, before = scene
    schedule = schedule_for(variant, triplets, n)
    particles = before.copy()
    assert tc.collide(particles, weights, schedule, spheres, capsules,
                      variant=variant, check=True) == ""
    assert not np.array_equal(particles, before)


def test_bad_input_is_refused_before_anything_is_written(scene):
    n, triplets, weights, spheres, capsules, before = scene
    schedule = tc.input_order(triplets)

    def refused(particles, message, **kwargs):
        original = particles.copy()
        with pytest.raises(adjacent.Error, match=message):
            tc.collide(particles, kwargs.get("weights", weights),
                       kwargs.get("schedule", schedule), spheres,
                       kwargs.get("capsules", capsules))
        np.testing.assert_array_equal(particles, original)

    nan = before.copy()
    nan[5, 1] = np.nan
    refused(nan, "NaN|finite")
    moving_dummy = before.copy()
    moving_dummy[-1, 3] = 1
    refused(moving_dummy, "dumm")
    out_of_range = triplets.copy()
    out_of_range[7, 2] = n + 3
    refused(before.copy(), "triplet",
            schedule=tc.input_order(out_of_range))
    assert triplets[:, 3].max() > 0
    refused(before.copy(), "weight", weights=weights[:1])
    negative = capsules.copy()
    negative[0, 6] = -1
    refused(before.copy(), "radius", capsules=negative)
    with pytest.raises(adjacent.Error, match="simd4"):
        tc.collide(before.copy(), weights, schedule, spheres, capsules,
                   variant="simd4")


def test_arrays_of_the_wrong_kind_are_type_errors(scene):
    n, triplets, weights, spheres, capsules, before = scene
    schedule = tc.input_order(triplets)
    # A float64 or strided array would be converted into a copy, and the
    # in-place update would never reach the caller: refused instead.
    with pytest.raises(TypeError):
        tc.collide(before.astype(np.float64), weights, schedule)
    with pytest.raises(TypeError):
        tc.collide(np.asfortranarray(before), weights, schedule)
    with pytest.raises(TypeError):
        tc.collide(before.copy(), weights, schedule, spheres[:, :3])
    with pytest.raises(ValueError, match="no variant"):
        tc.collide(before.copy(), weights, schedule, variant="nope")
    cuda = [row["name"] for row in adjacent.variants()
            if row["family"] == "triplet_collide" and not row["runs_here"]]
    for name in cuda:
        with pytest.raises(adjacent.Unavailable):
            tc.collide(before.copy(), weights, schedule, variant=name)


def test_with_dummies_gives_an_array_collide_updates_in_place(scene):
    n, triplets, weights, spheres, capsules, before = scene
    particles = tc.with_dummies(before[:n], spheres, capsules)
    np.testing.assert_array_equal(particles, before)
    tc.collide(particles, weights, tc.input_order(triplets), spheres,
               capsules)
    assert not np.array_equal(particles, before)
