"""`make figures SLURM=1` end to end on a real one-node Slurm started here
(tools/local-slurm.sh: Debian's slurm-wlm and munge): a job array of one
task per shard of prefix_sum (each variant, and the memcpy limits) at its
smallest size, the JSON merged per machine, and the report drawn from it.
Skips, saying why, where such a Slurm cannot start (not root, packages
missing, no build)."""

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "default"


@pytest.fixture
def slurm(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("a local Slurm needs root")
    missing = [c for c in ("munged", "slurmctld", "slurmd", "sbatch")
               if shutil.which(c) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (Debian's slurm-wlm "
                    "and munge; tools/install-deps.sh tries them as root)")
    directory = tmp_path / "slurm"
    started = subprocess.run([str(ROOT / "tools" / "local-slurm.sh"), "start",
                              str(directory)], capture_output=True, text=True)
    if started.returncode != 0:
        pytest.skip(f"a local Slurm did not start: {started.stderr.strip()}")
    environment = dict(os.environ, SLURM_CONF=str(directory / "slurm.conf"))
    yield environment
    subprocess.run([str(ROOT / "tools" / "local-slurm.sh"), "stop",
                    str(directory)])


def test_a_job_array_sweeps_merges_and_reports(slurm, tmp_path):
    if not (BUILD / "benchmarks" / "prefix_sum_bench").exists():
        pytest.skip("build/default has no prefix_sum_bench: make build")
    out = tmp_path / "out"
    subprocess.run(
        [sys.executable, str(ROOT / "reports" / "slurm_sweep.py"),
         "--build-dir", str(BUILD), "--out", str(out),
         "--families", "prefix_sum", "--only", "n:1024/", "--poll", "1"],
        env=slurm, check=True, capture_output=True, text=True, timeout=600)
    (run_dir,) = (out / "slurm").iterdir()
    tasks = run_dir.joinpath("tasks.tsv").read_text().splitlines()
    task_dirs = [p for p in run_dir.iterdir() if p.is_dir()]
    assert len(tasks) >= 3 and len(task_dirs) == len(tasks)
    merged = list((out / "json").glob("prefix_sum.*.json"))
    assert len(merged) == 1  # one machine
    rows = json.loads(merged[0].read_text())["benchmarks"]
    variants = {row["name"].split("/")[1] for row in rows}
    for _, pattern in (line.split("\t") for line in tasks):
        shard = pattern.split("/")[1].removesuffix("[^")
        assert any(v.startswith(shard) for v in variants), shard
    subprocess.run([sys.executable, str(ROOT / "reports" / "figures.py"),
                    "--json", str(out / "json"), "--out", str(out)],
                   check=True, capture_output=True, timeout=300)
    report = (out / "report.md").read_text()
    assert "prefix_sum" in report and (out / "index.html").exists()
