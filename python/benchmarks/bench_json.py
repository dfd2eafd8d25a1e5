"""What the Python benchmarks share: the context every JSON they write
opens with (machine, revision, threads, versions), as Google Benchmark's
own context and the suite's benchmarks' `adj_*` keys give it, and the
writing of the document."""

import json
import os
import platform
import subprocess
import time

import numpy as np


def git_revision():
    try:
        return subprocess.run(["git", "describe", "--always", "--dirty",
                               "--abbrev=40"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def context(executable, sweep, **extra):
    """The context of a document written by `executable`; `extra` keys
    (versions, goals) are added as given."""
    return {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "executable": executable,
        "adj_git_revision": git_revision(),
        "host_name": platform.node(),
        "cpu_model": cpu_model(),
        "num_cpus": os.cpu_count(),
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS", "unset"),
        "omp_proc_bind": os.environ.get("OMP_PROC_BIND", "unset"),
        "omp_places": os.environ.get("OMP_PLACES", "unset"),
        "gpu": "not used",
        "adj_sweep": sweep,
        "python": platform.python_version(),
        "numpy": np.__version__,
        **extra,
    }


def iteration_rows(name, times_ms, **values):
    """Google Benchmark's per-repetition rows of one benchmark `name`, one
    per time in `times_ms` (in repetition order, so that a report can pair
    the k-th repetitions of two rows), each with `values` beside it."""
    return [{"name": name, "run_name": name, "run_type": "iteration",
             "repetition_index": rep, "repetitions": len(times_ms),
             "iterations": 1, "real_time": ms, "time_unit": "ms", **values}
            for rep, ms in enumerate(times_ms)]


def write(path, document):
    """Writes `document` to `path` (its folder made), when a path is given."""
    if not path:
        return
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as out:
        json.dump(document, out, indent=1)
    print(f"wrote {path}")
