"""Ctrl-C stops a long call: a child Python steps a fluid for a very long
time (or waits for a fluid another thread steps), receives SIGINT, and
must raise KeyboardInterrupt within seconds, its state still usable."""

import signal
import subprocess
import sys
import time

import pytest

from conftest import runnable

CHILD = r"""
import signal, sys
# Python keeps SIGINT ignored where its parent ignored it (a background
# job): install the handler that raises KeyboardInterrupt either way.
signal.signal(signal.SIGINT, signal.default_int_handler)
import adjacent
state, params = adjacent.sph.scene("glass", 2000)
print("ready", flush=True)
try:
    adjacent.sph.step(state, params, variant=sys.argv[1], steps=10**9)
except KeyboardInterrupt:
    adjacent.sph.step(state, params, variant=sys.argv[1], steps=1)
    print("usable", flush=True)
    raise
"""


# The main thread waits for the state that another thread steps for a
# very long time: the wait, too, stops on Ctrl-C. The stepping thread
# cannot be stopped from Python, so the child leaves with os._exit.
WAITER = r"""
import os, signal, sys, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)
import adjacent
state, params = adjacent.sph.scene("glass", 2000)
threading.Thread(target=adjacent.sph.step, args=(state, params),
                 kwargs={"variant": sys.argv[1], "steps": 10**9},
                 daemon=True).start()
time.sleep(0.2)
print("ready", flush=True)
try:
    state.positions
except KeyboardInterrupt:
    print("interrupted", flush=True)
    os._exit(7)
"""


def interrupt_child(script, argument, wait):
    """(returncode, stdout, stderr, when the signal was sent) of `script`
    run with `argument`, sent SIGINT `wait` s after it prints 'ready';
    fails when it runs on for 10 s after the signal."""
    child = subprocess.Popen([sys.executable, "-c", script, argument],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout.readline().strip() == "ready", \
            child.stderr.read()
        time.sleep(wait)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        pytest.fail("the child went on for 10 s after SIGINT")
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    return child.returncode, out, err, sent


def run_and_interrupt(script):
    """(returncode, stdout, stderr) of `script` run with an sph variant,
    sent SIGINT 1 s after it prints 'ready'."""
    names = runnable("sph")
    variant = "sorted_pairs" if "sorted_pairs" in names else names[0]
    return interrupt_child(script, variant, 1.0)[:3]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
def test_ctrl_c_stops_a_long_sph_step():
    returncode, out, err = run_and_interrupt(CHILD)
    assert "usable" in out, err
    assert "KeyboardInterrupt" in err
    assert returncode != 0


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
def test_ctrl_c_stops_a_thread_waiting_for_a_busy_object():
    returncode, out, err = run_and_interrupt(WAITER)
    assert "interrupted" in out, err
    assert returncode == 7


# One long C++ call: every hash_grid row, or verify over them, on a cloud
# whose lists take seconds to build. The child reports how long the
# interrupt took to arrive after the signal.
LONG_CALL = r"""
import signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
import numpy as np
import adjacent
rng = np.random.default_rng(5)
points = (rng.random((400000, 3)) * 40).astype(np.float32)
call = sys.argv[1]
print("ready", flush=True)
try:
    for _ in range(1000):
        if call == "verify":
            adjacent.verify(points, 1.5)
        else:
            adjacent.hash_grid.query_all(points, 1.5, variant="muller")
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
    sys.exit(3)
"""


def seconds_to_interrupt(script, call):
    """Runs `script` with `call`, sends SIGINT 1.5 s after it prints
    'ready', and returns how long the KeyboardInterrupt took to arrive
    (the child prints its clock when it does, and exits 3)."""
    returncode, out, err, sent = interrupt_child(script, call, 1.5)
    assert returncode == 3, err
    return float(out.split()[-1]) - sent


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
@pytest.mark.parametrize("call", ["query_all", "verify"])
def test_ctrl_c_stops_one_long_call_within_a_second(call):
    assert seconds_to_interrupt(LONG_CALL, call) < 1.0


# Scheduling a cloth of about a million triplets, and fracture frames on
# a block, call after call: Ctrl-C arrives within a second, between the
# passes of a schedule (scheduler, validator, metrics: each well under a
# second at this size) or between frames.
PASSES = r"""
import signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
import numpy as np
import adjacent
call = sys.argv[1]
if call == "schedule":
    w = 700
    ids = np.arange((w + 1) * (w + 1)).reshape(w + 1, w + 1)
    a, b = ids[:-1, :-1].ravel(), ids[:-1, 1:].ravel()
    c, d = ids[1:, 1:].ravel(), ids[1:, :-1].ravel()
    tri = np.concatenate([np.stack([a, b, c], 1), np.stack([a, c, d], 1)])
    triplets = np.concatenate([tri, np.zeros((len(tri), 1), tri.dtype)], 1)
    work = lambda: adjacent.triplet_schedule.warp(
        triplets, (w + 1) ** 2, scheduler="bfs_banked_warp")
else:
    coords, grid, offsets, indices = adjacent.fracture.block(20, 20, 20)
    sim = adjacent.fracture.start(coords, grid, offsets, indices,
                                  max_cluster_size=128)
    positions = np.asarray(coords, dtype=np.float32).copy()
    cut = np.abs(positions[:, 0] - 9.5) < 0.6
    work = lambda: sim.step(np.where(cut[:, None], positions + 3, positions)
                            .astype(np.float32), check=True)
print("ready", flush=True)
try:
    for _ in range(100000):
        work()
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
    sys.exit(3)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
@pytest.mark.parametrize("call", ["schedule", "fracture"])
def test_ctrl_c_stops_schedules_and_frames_within_a_second(call):
    assert seconds_to_interrupt(PASSES, call) < 1.0
