#!/usr/bin/env python3
"""Runs every family's benchmark binary and writes one JSON per family.

Quick sweep by default (every 4th power of two, short runs, as many
repetitions as the family's benchmark declares: `--adj_print_quick_sweep`
asks the binary, bench_main.h's QuickSweep); --full is the paper sweep
(every power of two, 5 repetitions). Repetitions run interleaved in random
order, and the JSON keeps every repetition and the mean/median/stddev/cv
aggregates. OpenMP threads are pinned unless the caller already chose a
binding; the binaries record the binding, thread count, CPU, git revision
and build type in the JSON context.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

try:  # the venv has it; a GPU machine's bare python3 (gpu-check.sh) may not
    import tqdm
except ImportError:
    tqdm = None


def benchmark_binaries(build_dir, families=None):
    """The families' benchmark binaries under build_dir (every one when
    `families` is empty); exits when there is none."""
    binaries = sorted((build_dir / "benchmarks").glob("*_bench"))
    if families:
        binaries = [b for b in binaries
                    if b.name.removesuffix("_bench") in families]
    if not binaries:
        sys.exit(f"no *_bench binaries under {build_dir}/benchmarks: "
                 "build first (make build)")
    return binaries


def quick_sweep(binary):
    """(repetitions, minimum seconds each) the family's benchmark declares
    for the quick sweep; exits when the binary cannot say."""
    asked = subprocess.run([str(binary), "--adj_print_quick_sweep"],
                           capture_output=True, text=True)
    try:
        declared = json.loads(asked.stdout)
        return int(declared["repetitions"]), float(declared["min_time_s"])
    except (ValueError, KeyError, TypeError):
        sys.exit(f"{binary.name} --adj_print_quick_sweep did not print its "
                 f"quick sweep (exit status {asked.returncode}): "
                 f"{asked.stdout.strip() or asked.stderr.strip()}")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build-dir", required=True, type=pathlib.Path)
    parser.add_argument("--out", required=True, type=pathlib.Path)
    parser.add_argument("--full", action="store_true",
                        help="paper sweep: every size, 5 repetitions")
    parser.add_argument("--filter", default=None,
                        help="--benchmark_filter passed to every binary")
    parser.add_argument("--families", nargs="*", default=None,
                        help="only these families (default: all built)")
    args = parser.parse_args()

    binaries = benchmark_binaries(args.build_dir, args.families)
    args.out.mkdir(parents=True, exist_ok=True)

    env = dict(os.environ)
    env.setdefault("OMP_PROC_BIND", "close")
    env.setdefault("OMP_PLACES", "cores")

    for k, binary in enumerate(binaries, start=1):
        family = binary.name.removesuffix("_bench")
        out = args.out / f"{family}.json"
        if args.full:
            sweep = ["--adj_sweep=full", "--benchmark_min_time=0.5"]
            repetitions = 5
        else:
            repetitions, min_time = quick_sweep(binary)
            sweep = ["--adj_sweep=quick", f"--benchmark_min_time={min_time}"]
        if repetitions > 1:
            sweep += [f"--benchmark_repetitions={repetitions}",
                      "--benchmark_enable_random_interleaving=true"]
        print(f"[{k}/{len(binaries)}] measuring {family} "
              f"({'full' if args.full else 'quick'} sweep) -> {out}",
              flush=True)
        command = [str(binary), f"--benchmark_out={out}",
                   "--benchmark_out_format=json", *sweep]
        if args.filter:
            command.append(f"--benchmark_filter={args.filter}")
        started = time.monotonic()
        result = run_with_progress(command, env, family, repetitions)
        if result.returncode != 0:
            sys.exit(f"{binary.name} failed with exit status "
                     f"{result.returncode}")
        print(f"[{k}/{len(binaries)}] {family} done in "
              f"{time.monotonic() - started:.0f} s", flush=True)


def run_with_progress(command, env, family, repetitions):
    """Runs one benchmark binary, its console lines passed through, with a
    progress bar over its benchmarks and an estimate of the time left
    (tqdm: from the pace so far); without tqdm, just the lines."""
    if tqdm is None:
        return subprocess.run(command, env=env)
    listing = subprocess.run(
        [c for c in command if not c.startswith("--benchmark_out")]
        + ["--benchmark_list_tests=true"],
        env=env, capture_output=True, text=True)
    names = [line for line in listing.stdout.splitlines()
             if line.startswith(f"{family}/")]
    # A repeated benchmark prints a line per repetition as it runs (in
    # random order: the bar then moves steadily) and its 4 aggregates
    # (mean, median, stddev, cv); a single one its own line.
    total = len(names) * (repetitions + 4 if repetitions > 1 else 1)
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                               text=True, bufsize=1)
    with tqdm.tqdm(total=total or None, desc=family, unit="row",
                   dynamic_ncols=True, leave=False) as bar:
        for line in process.stdout:
            tqdm.tqdm.write(line.rstrip("\n"))
            if line.startswith(f"{family}/"):
                bar.update(1)
    process.wait()
    return process


if __name__ == "__main__":
    main()
