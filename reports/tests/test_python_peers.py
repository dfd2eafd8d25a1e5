"""The Python peers' table (reports/families/python.py): drawn from a small
synthetic JSON shaped as python/benchmarks/peers.py writes it, with one
peer that disagrees with the oracle, which the table must show, and the
ratio of each call's median to the best `adjacent` call's."""

import pathlib
import sys
import types

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from families import python as python_report  # noqa: E402


def rows(caller, times_ms, verified):
    name = f"python_peers/{caller}/uniform/n:1000/family:prefix_sum"
    return [{"name": name, "run_name": name, "run_type": "iteration",
             "repetition_index": k, "repetitions": len(times_ms),
             "iterations": 1, "real_time": t, "time_unit": "ms",
             "verified": verified, "peer": int(caller != "adjacent.serial")}
            for k, t in enumerate(times_ms)]


def table():
    document = {"context": {"cpu_model": "Test CPU"},
                "benchmarks": rows("adjacent.serial", [2.0, 1.0, 3.0], 1) +
                rows("numpy.cumsum", [4.0, 6.0, 5.0], 1) +
                rows("broken.peer", [0.5, 0.5, 0.5], 0)}
    run = types.SimpleNamespace(rows=engine.rows_of(document, "test.json"),
                                goals={})
    return python_report.tables(run)


def test_every_call_is_a_row_with_its_verdict_and_ratio():
    lines = table()
    assert "## python: adjacent against SciPy, NumPy and igraph" in lines
    by_call = {line.split("`")[1]: line for line in lines
               if line.startswith("| prefix_sum")}
    assert set(by_call) == {"adjacent.serial", "numpy.cumsum", "broken.peer"}
    assert "| 1 - 3 | agrees | 1.00 |" in by_call["adjacent.serial"]
    assert "| 4 - 6 | agrees | 2.50 |" in by_call["numpy.cumsum"]
    # A peer that differs is shown as such, never dropped.
    assert "**differs**" in by_call["broken.peer"]


def test_no_rows_no_table():
    run = types.SimpleNamespace(rows=[], goals={})
    assert python_report.tables(run) == []
