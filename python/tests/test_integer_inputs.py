"""Integer arguments are checked, never cast: a value that is not an
integer or does not fit uint32 is an error naming the argument and the
first bad element, in every function that takes integers; any integer or
bool dtype, integral floats and lists are accepted."""

import numpy as np
import pytest

import adjacent


def test_compaction_flags_are_judged_nonzero_in_the_callers_dtype():
    values = np.array([10, 20, 30], dtype=np.uint32)
    # 256 as uint8 and 0.5 as an integer would both be 0: kept.
    assert adjacent.compaction.compact(values, [0, 256, 0]).tolist() == [10, 30]
    assert adjacent.compaction.compact(
        values, np.array([0, 0.5, 0])).tolist() == [10, 30]
    assert adjacent.compaction.compact(
        values, np.array([0, 256, 0], dtype=np.int16)).tolist() == [10, 30]
    assert adjacent.compaction.compact(
        values, np.array([True, False, True])).tolist() == [20]
    assert adjacent.compaction.compact(
        values, np.array([0, 2, 0], dtype=np.uint8)).tolist() == [10, 30]
    assert adjacent.compaction.compact(
        values, np.array([-1, 0, 0], dtype=np.int64)).tolist() == [20, 30]
    assert adjacent.compaction.compact(values, [0, 2**70, 0]).tolist() == \
        [10, 30]
    with pytest.raises(TypeError, match="remove"):
        adjacent.compaction.compact(values, ["", "x", ""])


def test_a_negative_or_fractional_value_is_refused_naming_it():
    with pytest.raises(ValueError, match=r"values\[0\] = -1 does not fit"):
        adjacent.prefix_sum.scan([-1, 2])
    with pytest.raises(adjacent.Error, match=r"values\[1\] = 0.5 is not an"):
        adjacent.prefix_sum.scan(np.array([1.0, 0.5]))
    with pytest.raises(adjacent.Error, match=r"values\[2\] = nan"):
        adjacent.prefix_sum.scan(np.array([1, 2, np.nan]))
    with pytest.raises(adjacent.Error, match=r"values\[0\] = inf"):
        adjacent.prefix_sum.scan(np.array([np.inf], dtype=np.float32))
    # NumPy makes an object array of a list with an int over 64 bits.
    with pytest.raises(adjacent.Error,
                       match=r"values\[1\] = 18446744073709551621 does not"):
        adjacent.prefix_sum.scan([1, 2**64 + 5])
    with pytest.raises(adjacent.Error, match=r"values\[1\] = 4294967296"):
        adjacent.compaction.compact(np.array([1, 2**32], dtype=np.uint64),
                                    [0, 0])


def test_integers_of_any_dtype_and_layout_are_read_as_written():
    for values in ([1, 2, 3, 4], np.array([1, 2, 3, 4], dtype=np.int8),
                   np.array([1, 2, 3, 4], dtype=np.uint64),
                   np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float16),
                   np.array([1, 2, 3, 4], dtype=">i4")):
        sums, total = adjacent.prefix_sum.scan(values)
        assert sums.tolist() == [0, 1, 3, 6] and total == 10
    strided = np.arange(8, dtype=np.int64)[::2]          # 0 2 4 6
    sums, total = adjacent.prefix_sum.scan(strided)
    assert sums.tolist() == [0, 0, 2, 6] and total == 12
    sums, total = adjacent.prefix_sum.scan(np.array([True, True, False]))
    assert sums.tolist() == [0, 1, 2] and total == 2
    sums, total = adjacent.prefix_sum.scan([])
    assert sums.tolist() == [] and total == 0
    big = np.array([2**32 - 1], dtype=np.int64)
    assert adjacent.prefix_sum.scan(big)[1] == 2**32 - 1


def test_a_dtype_that_is_not_numbers_is_a_type_error():
    for values in (np.array(["1", "2"]), np.array([1, None], dtype=object),
                   np.array([1 + 2j]), ["a"]):
        with pytest.raises(TypeError, match="values"):
            adjacent.prefix_sum.scan(values)
    with pytest.raises(TypeError, match="1-D"):
        adjacent.prefix_sum.scan(np.zeros((2, 2), dtype=np.uint32))


@pytest.mark.parametrize("variant", [row["name"] for row in adjacent.variants()
                                     if row["family"] == "hash_set"
                                     and row["runs_here"]])
def test_a_key_over_uint32_is_refused_not_wrapped(variant):
    s = adjacent.hash_set.make(16, variant=variant)
    with pytest.raises(adjacent.Error, match=r"keys\[1\] = 4294967301"):
        s.insert_all(np.array([1, 2**32 + 5], dtype=np.int64))
    assert len(s) == 0
    with pytest.raises(adjacent.Error, match=r"keys\[0\] = -3"):
        s.contains_all([-3])
    assert s.insert_all([5, 6.0, np.uint8(7)]) == 3
    assert s.contains_all(np.array([5, 7, 8], dtype=np.int32)).tolist() == \
        [1, 1, 0]


def test_triangle_indices_are_checked_by_row_and_corner():
    with pytest.raises(adjacent.Error, match=r"triangles\[1, 2\] = 4294967301"):
        adjacent.triangle_adjacency.build(
            np.array([[0, 1, 2], [0, 1, 2**32 + 5]], dtype=np.int64), 3)
    with pytest.raises(adjacent.Error, match=r"triangles\[0, 0\] = -1"):
        adjacent.triangle_adjacency.build([[-1, 1, 2]], 3)
    with pytest.raises(TypeError, match=r"\(n, 3\)"):
        adjacent.triangle_adjacency.build(np.zeros((2, 4), np.uint32), 3)
    # A Fortran-ordered int64 array and a list: read as written.
    triangles = np.asfortranarray(np.array([[0, 1, 2], [2, 3, 0]]))
    for given in (triangles, triangles.tolist()):
        a = adjacent.triangle_adjacency.build(given, 4)
        assert a.offsets.tolist() == [0, 2, 3, 5, 6]
    assert adjacent.triangle_adjacency.build([], 2).offsets.tolist() == [0, 0, 0]


def test_verify_refuses_a_bad_triangle_instead_of_reporting_rows_that_differ():
    points = np.zeros((3, 3), np.float32)
    points[1, 0] = points[2, 1] = 1
    for bad in ([[0, 1, 3]], [[0, -1, 2]], [[0, 1, 2**32 + 1]]):
        with pytest.raises(adjacent.Error, match="triangle"):
            adjacent.verify(points, triangles=np.array(bad))


def test_the_other_integer_arguments_are_checked_too():
    with pytest.raises(adjacent.Error, match=r"offsets\[2\] = -2"):
        adjacent.connected_components.label([0, 1, -2], [1])
    with pytest.raises(adjacent.Error, match=r"indices\[0\] = 0.5"):
        adjacent.connected_components.label([0, 1], [0.5])
    triplets = np.array([[0, 1, 2, 0], [3, 4, -5, 0]])
    with pytest.raises(adjacent.Error, match=r"triplets\[1, 2\] = -5"):
        adjacent.triplet_schedule.simd(triplets, 6)
    with pytest.raises(adjacent.Error, match=r"triplets\[1, 2\] = -5"):
        adjacent.triplet_schedule.warp(triplets, 6)
    with pytest.raises(adjacent.Error, match=r"triplets\[1, 2\] = -5"):
        adjacent.triplet_collide.input_order(triplets)
    coords, grid, offsets, indices = adjacent.fracture.block(4, 4, 4)
    bad = np.asarray(coords).astype(np.int64)
    bad[5, 1] = -1
    with pytest.raises(adjacent.Error, match=r"coords\[5, 1\] = -1"):
        adjacent.fracture.start(bad, grid, offsets, indices)
    # The block's own arrays as int64: accepted.
    adjacent.fracture.start(np.asarray(coords).astype(np.int64), grid,
                            np.asarray(offsets).astype(np.int64),
                            np.asarray(indices).astype(np.int64))
