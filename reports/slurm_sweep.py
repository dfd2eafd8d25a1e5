#!/usr/bin/env python3
"""`make figures SLURM=1`: the benchmark sweep as a Slurm job array, one
task per family and shard (a shard: one variant's rows, or the family's
memcpy limits, chosen by --benchmark_filter), then the tasks' JSON merged
per machine into reports/out/json/<family>.<machine>.json, from which
reports/figures.py draws one report with a row per machine.

The checkout (build, venv, reports/out) must be on a filesystem the nodes
share, as on most clusters. Each --partition gets its own array, so a
researcher sweeps every node type of a cluster in one command:

    reports/slurm_sweep.py --build-dir build/default --out reports/out \
        [--full] [--partitions cpu-a cpu-b] [--families prefix_sum ...] \
        [--only REGEX] [--poll 10]
"""

import argparse
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys
import time
from collections import defaultdict

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "reports"))
import run_benchmarks  # noqa: E402


def shards(binary, family, full):
    """The filters of one family's tasks: one per variant, one for the
    memcpy limits (which every figure needs beside its variants)."""
    sweep = "--adj_sweep=full" if full else "--adj_sweep=quick"
    listing = subprocess.run([str(binary), sweep,
                              "--benchmark_list_tests=true"],
                             capture_output=True, text=True, check=True)
    variants = []
    for line in listing.stdout.splitlines():
        parts = line.split("/")
        if len(parts) > 2 and parts[0] == family:
            name = "memcpy" if parts[1].startswith("memcpy") else parts[1]
            if name not in variants:
                variants.append(name)
    # Google Benchmark's filter is a POSIX extended regex: no lookahead.
    return [f"^{family}/memcpy[^/]*/" if v == "memcpy"
            else f"^{family}/{v}/" for v in variants]


def machine_of(context):
    """A file name for the machine a JSON ran on: its CPU (and GPU)."""
    name = context.get("cpu_model") or context.get("host_name", "unknown")
    gpu = context.get("gpu", "")
    if gpu and not gpu.startswith("none"):
        name += "-" + gpu
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()


def merge(task_dirs, json_dir):
    """Every task's JSON, per family and machine, into one file each;
    returns {machine: [families]}."""
    merged = {}
    for task_dir in task_dirs:
        for path in sorted(task_dir.glob("*.json")):
            document = json.loads(path.read_text())
            key = (path.stem, machine_of(document.get("context", {})))
            if key not in merged:
                merged[key] = {"context": document.get("context", {}),
                               "benchmarks": []}
            merged[key]["benchmarks"] += document.get("benchmarks", [])
    json_dir.mkdir(parents=True, exist_ok=True)
    machines = defaultdict(list)
    for (family, machine), document in sorted(merged.items()):
        (json_dir / f"{family}.{machine}.json").write_text(
            json.dumps(document, indent=1))
        machines[machine].append(family)
    return machines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", required=True, type=pathlib.Path)
    parser.add_argument("--out", required=True, type=pathlib.Path)
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--families", nargs="*", default=None)
    parser.add_argument("--partitions", nargs="*", default=[None])
    parser.add_argument("--only", default=None,
                        help="a regex every benchmark run must also match "
                             "past its variant (e.g. 'n:1024/' for a short "
                             "smoke sweep)")
    parser.add_argument("--poll", type=float, default=10,
                        help="seconds between squeue polls")
    args = parser.parse_args()

    binaries = run_benchmarks.benchmark_binaries(args.build_dir,
                                                 args.families)
    tasks = []
    for binary in binaries:
        family = binary.name.removesuffix("_bench")
        for pattern in shards(binary, family, args.full):
            if args.only:
                pattern += f".*{args.only}"
            tasks.append((family, pattern))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    run_dir = (args.out / "slurm" / stamp).resolve()
    run_dir.mkdir(parents=True)
    (run_dir / "tasks.tsv").write_text(
        "".join(f"{family}\t{pattern}\n" for family, pattern in tasks))
    python = sys.executable
    script = run_dir / "sweep.sh"
    script.write_text(f"""#!/bin/bash
# One task of the sweep: line SLURM_ARRAY_TASK_ID + 1 of tasks.tsv.
set -euo pipefail
cd {shlex.quote(str(ROOT))}
IFS=$'\\t' read -r family pattern < <(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" {shlex.quote(str(run_dir / 'tasks.tsv'))})
out={shlex.quote(str(run_dir))}/$SLURM_ARRAY_JOB_ID.$SLURM_ARRAY_TASK_ID
{shlex.quote(python)} reports/run_benchmarks.py --build-dir {shlex.quote(str(args.build_dir.resolve()))} \\
  --out "$out" --families "$family" --filter "$pattern" {'--full' if args.full else ''}
""")
    script.chmod(0o755)
    jobs = []
    for partition in args.partitions:
        command = ["sbatch", "--parsable", f"--array=0-{len(tasks) - 1}",
                   "--cpus-per-task", str(os.cpu_count() or 1),
                   "--job-name", "adjacent-sweep",
                   f"--output={run_dir}/%A.%a.log"]
        if partition:
            command += ["--partition", partition]
        job = subprocess.run(command + [str(script)], capture_output=True,
                             text=True, check=True).stdout.strip()
        jobs.append(job.split(";")[0])
        print(f"slurm: job array {jobs[-1]} ({len(tasks)} tasks"
              + (f", partition {partition}" if partition else "") + ")",
              flush=True)
    while True:
        queued = subprocess.run(["squeue", "-h", "-j", ",".join(jobs)],
                                capture_output=True, text=True).stdout
        waiting = len([line for line in queued.splitlines() if line.strip()])
        if waiting == 0:
            break
        print(f"slurm: {waiting} task(s) queued or running", flush=True)
        time.sleep(args.poll)
    task_dirs = sorted(p for p in run_dir.iterdir() if p.is_dir())
    expected = len(tasks) * len(jobs)
    if len(task_dirs) != expected:
        sys.exit(f"slurm: {len(task_dirs)} of {expected} tasks wrote JSON; "
                 f"their logs are in {run_dir}")
    machines = merge(task_dirs, args.out / "json")
    for machine, families in machines.items():
        print(f"slurm: {machine}: {', '.join(families)} -> "
              f"{args.out / 'json'}")


if __name__ == "__main__":
    main()
