"""run_benchmarks.py takes each family's quick sweep from the family's own
binary, and stops, naming the binary, when the binary cannot say. (The
real binaries' answers are ctest's bench.<family>.quick_sweep.)"""

import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "reports"))
import run_benchmarks  # noqa: E402


def fake_binary(tmp_path, script):
    binary = tmp_path / "family_bench"
    binary.write_text("#!/bin/sh\n" + script)
    binary.chmod(0o755)
    return binary


def test_the_declared_quick_sweep_is_read_from_the_binary(tmp_path):
    binary = fake_binary(tmp_path, (
        '[ "$1" = --adj_print_quick_sweep ] || exit 1\n'
        'echo \'{"repetitions": 5, "min_time_s": 0.02}\'\n'))
    assert run_benchmarks.quick_sweep(binary) == (5, 0.02)


def test_a_binary_that_cannot_say_stops_the_sweep(tmp_path):
    binary = fake_binary(tmp_path, "echo 'unrecognized flag' >&2\nexit 1\n")
    with pytest.raises(SystemExit) as stopped:
        run_benchmarks.quick_sweep(binary)
    message = str(stopped.value)
    assert "family_bench" in message and "unrecognized flag" in message
