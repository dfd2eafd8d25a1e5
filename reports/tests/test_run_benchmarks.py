"""run_benchmarks.py takes each family's quick sweep from the family's own
binary, and stops, naming the binary, when the binary cannot say."""

import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "default"
sys.path.insert(0, str(ROOT / "reports"))
import run_benchmarks  # noqa: E402


def test_the_declared_quick_sweep_is_read_from_the_binary():
    binary = BUILD / "benchmarks" / "triplet_schedule_bench"
    if not binary.exists():
        pytest.skip("build/default has no triplet_schedule_bench: make build")
    # Its goal table tests the spread of 5 repetitions a side.
    repetitions, min_time = run_benchmarks.quick_sweep(binary)
    assert repetitions == 5
    assert 0 < min_time < 0.1


def test_a_binary_that_cannot_say_stops_the_sweep(tmp_path):
    binary = tmp_path / "old_bench"
    binary.write_text("#!/bin/sh\necho 'unrecognized flag' >&2\nexit 1\n")
    binary.chmod(0o755)
    with pytest.raises(SystemExit) as stopped:
        run_benchmarks.quick_sweep(binary)
    message = str(stopped.value)
    assert "old_bench" in message and "unrecognized flag" in message
