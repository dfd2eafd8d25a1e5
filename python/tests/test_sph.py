import numpy as np
import pytest

import adjacent


def oracle_step(x, v, mass, p):
    """The three-pass step (docs/sph.md's contract) in float64 NumPy, every
    pair tested, in a box: densities of x (poly6), pressures k (rho -
    rho_0), Muller's symmetric pressure and viscosity forces, symplectic
    Euler, then the box's clamp with restitution."""
    h = p.h
    poly6 = 315 / (64 * np.pi * h ** 9)
    spiky = 45 / (np.pi * h ** 6)
    d = x[:, None, :] - x[None, :, :]
    r2 = (d ** 2).sum(axis=2)
    near = r2 < h * h
    rho = (mass[None, :] * np.where(near, poly6 * (h * h - r2) ** 3, 0)).sum(1)
    pressure = p.stiffness * (rho - p.rest_density)
    r = np.sqrt(r2)
    pair = near & (r > 0)
    s = np.where(pair, h - r, 0)
    safe_r = np.where(pair, r, 1)
    push = 0.5 * (pressure[:, None] + pressure[None, :]) * spiky * s * s / safe_r
    drag = p.viscosity * spiky * s
    weight = np.where(pair, mass[None, :] / (rho[:, None] * rho[None, :]), 0)
    a = (weight[:, :, None] * (push[:, :, None] * d + drag[:, :, None]
                               * (v[None, :, :] - v[:, None, :]))).sum(1)
    v = v + (a + np.array(p.gravity)) * p.dt
    x = x + v * p.dt
    lo, hi = np.array(p.lo), np.array(p.hi)
    below, above = x < lo, x > hi
    x = np.clip(x, lo, hi)
    v = np.where(below & (v < 0), -p.restitution * v, v)
    v = np.where(above & (v > 0), -p.restitution * v, v)
    return x, v, rho


def random_fluid(rng, n):
    params = adjacent.sph.Params()
    params.h, params.rest_density, params.stiffness = 0.1, 1000.0, 20.0
    params.viscosity, params.dt = 0.5, 1e-3
    params.gravity = (0.0, -9.81, 0.0)
    params.container, params.lo, params.hi = "box", (0, 0, 0), (0.4, 0.4, 0.4)
    params.restitution = 0.3
    x = rng.random((n, 3)).astype(np.float32) * 0.4
    v = (rng.random((n, 3)).astype(np.float32) - 0.5)
    mass = np.full(n, 1000 * 0.05 ** 3, dtype=np.float32)
    return x, v, mass, params


@pytest.mark.parametrize("variant", [
    row["name"] for row in adjacent.variants()
    if row["family"] == "sph" and row["runs_here"]
    and row["name"] in ("naive", "neighbor", "sorted_pairs", "sorted_gather",
                        "sorted_pairs_simd", "sorted_pairs_simd_openmp",
                        "cuda", "cuda_neighbor")])
def test_a_three_pass_step_matches_the_numpy_oracle(rng, variant):
    x, v, mass, params = random_fluid(rng, 300)
    state = adjacent.sph.State(x, v, np.ones(300, np.float32), mass)
    report = adjacent.sph.step(state, params, variant=variant)
    assert report["steps"] == 1 and report["interactions"] > 0
    x1, v1, rho = oracle_step(x.astype(np.float64), v.astype(np.float64),
                              mass.astype(np.float64), params)
    assert np.allclose(state.density, rho, rtol=1e-4)
    assert np.allclose(state.velocities, v1, rtol=1e-3, atol=1e-4)
    assert np.allclose(state.positions, x1, rtol=1e-5, atol=1e-6)


def test_a_scene_steps_in_place():
    state, params = adjacent.sph.scene("dam_break", 2000)
    assert len(state) >= 1000 and params.container == "box"
    before = state.positions
    report = adjacent.sph.step(state, params, steps=3)
    assert report["steps"] == 3
    assert not np.array_equal(before, state.positions)


def test_bad_input_is_an_error():
    x = np.zeros((2, 3), np.float32)
    x[1, 0] = np.nan
    state = adjacent.sph.State(x, np.zeros((2, 3)), np.ones(2), np.ones(2))
    params = adjacent.sph.scene("glass", 100)[1]
    with pytest.raises(adjacent.Error):
        adjacent.sph.step(state, params)
    with pytest.raises(ValueError, match="scenes"):
        adjacent.sph.scene("ocean", 100)
    with pytest.raises(ValueError):
        params.container = "bucket"


def test_reorder_by_cell_returns_the_permutation_it_applied(rng):
    x, v, mass, params = random_fluid(rng, 500)
    state = adjacent.sph.State(x, v, np.ones(500, np.float32), mass)
    permutation = adjacent.sph.reorder_by_cell(state, params)
    assert sorted(permutation.tolist()) == list(range(500))
    assert np.array_equal(state.positions, x[permutation])
    assert np.array_equal(state.velocities, v[permutation])
    assert np.array_equal(state.mass, mass[permutation])
    # Cells of h, z slowest, then y, then x (floor((c - lo) / h)).
    cells = np.floor((state.positions.astype(np.float64)
                      - np.array(params.lo)) / params.h).astype(np.int64)
    keys = [tuple(c[::-1]) for c in cells]
    assert keys == sorted(keys)
    again = adjacent.sph.reorder_by_cell(state, params)
    assert np.array_equal(again, np.arange(500))
    x[3, 1] = np.nan
    bad = adjacent.sph.State(x, v, np.ones(500, np.float32), mass)
    with pytest.raises(adjacent.Error):
        adjacent.sph.reorder_by_cell(bad, params)


def test_a_scene_over_the_memory_budget_is_refused_before_it_is_built():
    with pytest.raises(adjacent.ResourceError, match="memory budget"):
        adjacent.sph.scene("glass", 2**40)
    with pytest.raises(MemoryError):
        adjacent.sph.scene("dam_break", 2**40)
