import numpy as np
import pytest

import adjacent


def test_a_nan_coordinate_is_an_error_naming_the_particle():
    points = np.zeros((10, 3), dtype=np.float32)
    points[7, 1] = np.nan
    with pytest.raises(adjacent.Error, match="7"):
        adjacent.hash_grid.query_all(points, 0.1)


def test_a_radius_of_zero_is_an_error():
    with pytest.raises(adjacent.Error):
        adjacent.hash_grid.query_all(np.zeros((3, 3)), 0.0)


def test_an_errors_message_is_the_cpp_one():
    with pytest.raises(ValueError) as error:
        adjacent.triangle_adjacency.build(
            np.array([[0, 1, 9]], dtype=np.uint32), 5)
    assert "9" in str(error.value)
    assert isinstance(error.value, adjacent.Error)


def test_an_unknown_variant_names_the_variants():
    with pytest.raises(ValueError, match="cell_sorted"):
        adjacent.hash_grid.query_all(np.zeros((3, 3)), 0.1, variant="nope")


def test_a_malformed_graph_is_an_error():
    with pytest.raises(adjacent.Error):
        adjacent.connected_components.label(
            np.array([0, 2], dtype=np.uint32), np.array([0], dtype=np.uint32))


def test_points_of_the_wrong_shape_are_a_type_error():
    with pytest.raises(TypeError):
        adjacent.hash_grid.query_all(np.zeros((4, 2)), 0.1)


def test_a_cuda_row_without_a_gpu_is_unavailable():
    cuda = [row for row in adjacent.variants()
            if row["family"] == "hash_grid" and row["backend"] == "cuda"
            and not row["runs_here"]]
    if not cuda:
        pytest.skip("no CUDA row that cannot run here (built without CUDA, "
                    "or a GPU is present)")
    with pytest.raises(adjacent.Unavailable):
        adjacent.hash_grid.query_all(np.zeros((3, 3)), 0.1,
                                     variant=cuda[0]["name"])


def test_resource_error_is_an_error_and_a_memory_error():
    assert issubclass(adjacent.ResourceError, adjacent.Error)
    assert issubclass(adjacent.ResourceError, MemoryError)
    assert "ResourceError" in adjacent.__all__


def test_the_memory_budget_is_set_read_and_restored():
    default = adjacent.memory_budget()
    assert default > 0
    try:
        adjacent.set_memory_budget(1 << 20)
        assert adjacent.memory_budget() == 1 << 20
        adjacent.set_memory_budget("512M")
        assert adjacent.memory_budget() == 512 << 20
        adjacent.set_memory_budget(np.int64(3 << 30))
        assert adjacent.memory_budget() == 3 << 30
        for bad in (0, -1, 2**64, "lots", "-4G"):
            with pytest.raises(adjacent.Error):
                adjacent.set_memory_budget(bad)
        for bad in (1.5e9, True, [1]):
            with pytest.raises(TypeError):
                adjacent.set_memory_budget(bad)
        assert adjacent.memory_budget() == 3 << 30
    finally:
        adjacent.set_memory_budget(None)
    assert adjacent.memory_budget() == default
