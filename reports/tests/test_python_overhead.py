"""The call-overhead table (reports/families/python.py): drawn from a small
synthetic JSON shaped as python/benchmarks/call_overhead.py writes it, with
two families' calls sharing a variant name, and from a kept run that timed
only hash_grid's query_all (rows without `call`, the size as `points`)."""

import pathlib
import sys
import types

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from families import python as python_report  # noqa: E402


def rows(name, times_ms):
    return [{"name": name, "run_name": name, "run_type": "iteration",
             "repetition_index": k, "repetitions": len(times_ms),
             "iterations": 1, "real_time": t, "time_unit": "ms"}
            for k, t in enumerate(times_ms)]


def overhead(document):
    run = types.SimpleNamespace(rows=engine.rows_of(document, "test.json"),
                                goals={})
    return python_report.overhead_table(run)


def test_each_call_and_variant_is_a_row_paired_by_repetition():
    benchmarks = []
    for call, python_ms, cpp_ms in (
            ("prefix_sum.scan", [11.0, 12.0, 13.0], [10.0, 10.0, 10.0]),
            ("compaction.compact", [20.0, 20.0, 20.0], [25.0, 20.0, 16.0])):
        for caller, times in (("python", python_ms), ("cpp", cpp_ms)):
            benchmarks += rows(f"python/serial/uniform/n:64/call:{call}/"
                               f"caller:{caller}", times)
        benchmarks += rows(f"python/memcpy/uniform/n:64/call:{call}",
                           [0.5, 0.5, 0.5])
    lines = overhead({"context": {"cpu_model": "Test CPU"},
                      "benchmarks": benchmarks})
    body = [line for line in lines if line.startswith("| ")][2:]
    # Per call: the variant's row, then its memcpy row.
    assert [line.split(" | ")[0:2] for line in body] == [
        ["| compaction.compact", "`serial`"],
        ["| compaction.compact", "memcpy of the input"],
        ["| prefix_sum.scan", "`serial`"],
        ["| prefix_sum.scan", "memcpy of the input"]]
    scan = body[2]
    assert "| 12 | 10 | 1.2000 |" in scan
    assert "| 1.100 - 1.300 |" in scan
    compact = body[0]
    assert "| 20 | 20 | 1.0000 |" in compact
    assert "| 0.800 - 1.250 |" in compact


def test_a_kept_query_all_run_still_draws():
    benchmarks = []
    for caller in ("python", "cpp"):
        benchmarks += rows(f"python/cell_sorted/uniform/points:1000/"
                           f"caller:{caller}", [100.0, 100.0])
    lines = overhead({"context": {"cpu_model": "Test CPU"},
                      "benchmarks": benchmarks})
    assert any(line.startswith("| hash_grid.query_all | `cell_sorted` "
                               "| 1000 |") for line in lines)
