"""reports/engine.py's ratios and aggregation, unit by unit, on small
benchmark JSON written here the way Google Benchmark writes it (iterations,
and mean/median/stddev/cv aggregates when repeated, a `label` naming the
GPU, the `context` block with the variant tables and goals the suite's
benchmarks record). Each expected value is worked out by hand in the
comment beside it, so that a wrong ratio fails a test."""

import gzip
import json
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import engine  # noqa: E402

CPU = "CPU Test CPU"
GPU = "GPU NVIDIA Test"
CPU_LABEL = "cpu"
GPU_LABEL = "gpu:NVIDIA Test (device memory, kernel time)"
CONTEXT = {
    "date": "2026-01-01T00:00:00+00:00", "host_name": "box",
    "executable": "build/default/benchmarks/test_bench", "num_cpus": 4,
    "mhz_per_cpu": 3000, "cpu_scaling_enabled": False,
    "caches": [
        {"type": "Data", "level": 1, "size": 32768, "num_sharing": 1},
        {"type": "Unified", "level": 3, "size": 8388608, "num_sharing": 4}],
    "library_build_type": "release", "adj_build_type": "Release",
    "adj_compiler": "GNU 13.3.0", "adj_git_revision": "abc123",
    "adj_sweep": "quick", "cpu_model": "Test CPU", "gpu": "NVIDIA Test",
    "hwy_target": "AVX2", "omp_max_threads": "4", "omp_places": "cores",
    "omp_proc_bind": "close"}


def iteration(name, real_time, unit="ns", label=CPU_LABEL, repetition=0,
              repetitions=1, **counters):
    """One row of a run, as Google Benchmark writes it."""
    return {"name": name, "family_index": 0, "per_family_instance_index": 0,
            "run_name": name, "run_type": "iteration",
            "repetitions": repetitions, "repetition_index": repetition,
            "threads": 1, "iterations": 100, "real_time": real_time,
            "cpu_time": real_time, "time_unit": unit, **counters,
            "label": label}


def aggregate(name, kind, real_time, unit="ns", label=CPU_LABEL,
              repetitions=3, **counters):
    """One aggregate row (mean, median, stddev or cv) of a repeated run."""
    return {"name": f"{name}_{kind}", "family_index": 0,
            "per_family_instance_index": 0, "run_name": name,
            "run_type": "aggregate", "repetitions": repetitions,
            "threads": 1, "aggregate_name": kind,
            "aggregate_unit": "percentage" if kind == "cv" else "time",
            "iterations": repetitions, "real_time": real_time,
            "cpu_time": real_time, "time_unit": unit, **counters,
            "label": label}


def table(baseline, *variants):
    """An adj_table/<family>/<table> context value: (name, origin, twin)."""
    return json.dumps({"baseline": baseline, "variants": [
        {"name": name, "backend": "serial", "origin": origin, "twin": twin}
        for name, origin, twin in variants]})


def write(path, benchmarks, **context):
    path.write_text(json.dumps({"context": {**CONTEXT, **context},
                                "benchmarks": benchmarks}))
    return path


def load(tmp_path, benchmarks, **context):
    """A Run of one file, as figures.py loads this run's JSON."""
    return engine.load_run([write(tmp_path / "run.json", benchmarks,
                                  **context)])


def cells(line):
    return [cell.strip() for cell in line.strip("|").split("|")]


def by_name(rows):
    return {(r.variant, r.scene, tuple(sorted(r.args.items()))): r
            for r in rows}


# Names, units and devices.

def test_parse_name_reads_named_arguments_and_needs_three_parts():
    assert engine.parse_name(
        "hash_grid/cell_sorted/uniform/n:1024/min_time:0.100/real_time") == (
        "hash_grid", "cell_sorted", "uniform",
        {"n": 1024, "min_time": "0.100"})  # an int where it parses
    assert engine.parse_name("BM_memcpy/64") is None


def test_real_time_us_converts_every_unit():
    assert engine.real_time_us({"real_time": 2500.0, "time_unit": "ns"}) \
        == pytest.approx(2.5)
    assert engine.real_time_us({"real_time": 2.5, "time_unit": "us"}) == 2.5
    assert engine.real_time_us({"real_time": 2.5, "time_unit": "ms"}) \
        == pytest.approx(2500.0)
    assert engine.real_time_us({"real_time": 2.5, "time_unit": "s"}) \
        == pytest.approx(2.5e6)
    # No time_unit: Google Benchmark's default, ns.
    assert engine.real_time_us({"real_time": 4000.0}) == pytest.approx(4.0)


def test_device_is_the_gpu_of_the_label_else_the_cpu_model():
    assert engine.device_of({"label": GPU_LABEL}, CONTEXT) == GPU
    assert engine.device_of({"label": "gpu:NVIDIA Test, stream 2"},
                            CONTEXT) == GPU
    assert engine.device_of({"label": "cpu, input check"}, CONTEXT) == CPU
    assert engine.device_of({}, {"host_name": "box"}) == "CPU box"
    assert engine.device_of({}, {}) == "CPU ?"


def test_kernel_only_rows_and_left_out_rows_are_not_shown(tmp_path):
    run = load(tmp_path, [
        iteration("hash_grid/cell_sorted/uniform/n:8/real_time", 1.0),
        iteration("hash_grid/cell_sorted/uniform/n:8/trusted:1/real_time",
                  1.0),
        iteration("hash_grid/cuda/uniform/n:8/device:1/manual_time", 1.0,
                  label=GPU_LABEL),
        iteration("hash_grid/check/uniform/n:8/real_time", 1.0)])
    assert [engine.is_kernel_only(r) for r in run.rows] == [
        False, True, True, False]
    figure = engine.Figure(name="f", family="hash_grid", x="n",
                           y="real_time", xlabel="", ylabel="",
                           leave_out=lambda r: r.variant == "check")
    shown = engine.shown(figure, run)
    assert [(r.variant, r.args) for r in shown.rows] == [
        ("cell_sorted", {"n": 8})]
    assert len(run.rows) == 4  # the run itself is left as it was


# One row per run: repetitions and aggregates.

def test_a_repeated_run_is_its_median_aggregate_with_stddev_as_spread():
    name = "prefix_sum/serial/counts/n:1024/real_time"
    benchmarks = [
        iteration(name, 3000.0, repetition=0, repetitions=3,
                  bytes_per_second=1e9, verified=1.0),
        iteration(name, 1000.0, repetition=1, repetitions=3,
                  bytes_per_second=3e9, verified=1.0),
        iteration(name, 2000.0, repetition=2, repetitions=3,
                  bytes_per_second=1.5e9, verified=1.0),
        aggregate(name, "mean", 2000.0, bytes_per_second=1.833e9,
                  verified=1.0),
        aggregate(name, "median", 2000.0, bytes_per_second=1.5e9,
                  verified=1.0),
        aggregate(name, "stddev", 1000.0, bytes_per_second=1.04e9,
                  verified=0.0),
        aggregate(name, "cv", 0.5, bytes_per_second=0.57, verified=0.0)]
    (row,) = engine.rows_of({"context": CONTEXT, "benchmarks": benchmarks},
                            "a.json")
    assert (row.family, row.variant, row.scene, row.args) == (
        "prefix_sum", "serial", "counts", {"n": 1024})
    assert row.device == CPU and row.source == "a.json"
    # The median of [3, 1, 2] us is 2 us: the median aggregate's row,
    # verified included (the stddev of the flags is 0, not a verdict).
    assert row.values["real_time"] == 2000.0
    assert row.values["bytes_per_second"] == 1.5e9
    assert row.values["verified"] == 1.0
    assert row.spread_row["aggregate_name"] == "stddev"
    assert row.spread_row["real_time"] == 1000.0
    # Each repetition's time, ns -> us, in the order written.
    assert row.times == pytest.approx([3.0, 1.0, 2.0])


def test_repetitions_without_aggregates_are_medianed_field_by_field():
    name = "prefix_sum/serial/counts/n:1024/real_time"
    odd = [iteration(name, t, unit="us", repetition=i, repetitions=3,
                     bytes_per_second=b)
           for i, (t, b) in enumerate([(3.0, 10.0), (1.0, 30.0),
                                       (2.0, 20.0)])]
    (row,) = engine.rows_of({"context": CONTEXT, "benchmarks": odd}, "a")
    # median([3, 1, 2]) = 2; median([10, 30, 20]) = 20, each field alone;
    # times are kept in ns whatever the unit written (2 us = 2000 ns).
    assert row.values["real_time"] == 2000.0
    assert row.values["time_unit"] == "ns"
    assert row.values["bytes_per_second"] == 20.0
    assert row.spread_row is None
    assert row.times == [3.0, 1.0, 2.0]
    even = [iteration(name, t, unit="ms", repetition=i, repetitions=4)
            for i, t in enumerate([4.0, 1.0, 3.0, 2.0])]
    (row,) = engine.rows_of({"context": CONTEXT, "benchmarks": even}, "a")
    assert row.values["real_time"] == 2.5e6  # (2 + 3) / 2 ms, in ns
    assert row.times == pytest.approx([4000.0, 1000.0, 3000.0, 2000.0])


def test_aggregates_only_output_reads_the_median_and_has_no_times():
    name = "prefix_sum/serial/counts/n:1024/real_time"
    benchmarks = [aggregate(name, kind, t) for kind, t in
                  (("mean", 5.0), ("median", 4.0), ("stddev", 1.0),
                   ("cv", 0.2))]
    (row,) = engine.rows_of({"context": CONTEXT, "benchmarks": benchmarks},
                            "a")
    assert row.values["real_time"] == 4.0
    assert row.spread_row["real_time"] == 1.0
    assert row.times == []


def test_single_runs_errors_unparsed_names_and_failed_verification():
    benchmarks = [
        iteration("sph/serial/glass/particles:64/real_time", 7.0,
                  verified=0.0),
        iteration("sph/cuda/glass/particles:64/manual_time", 2.0,
                  label=GPU_LABEL, verified=1.0),
        {**iteration("sph/openmp/glass/particles:64/real_time", 1.0),
         "error_occurred": True,
         "error_message": "output differs from the oracle"},
        iteration("BM_unrelated/64", 1.0)]
    rows = engine.rows_of({"context": CONTEXT, "benchmarks": benchmarks},
                          "a")
    # The error row and the name outside the schema give no row; a row the
    # oracle disagreed with (verified 0) is kept, flag and all, for the
    # page's verification matrix to count.
    assert [(r.variant, r.device, r.values["verified"]) for r in rows] == [
        ("serial", CPU, 0.0), ("cuda", GPU, 1.0)]
    assert [r.spread_row for r in rows] == [None, None]
    assert [r.times for r in rows] == [[], []]


# Files, tables and goals.

def test_load_run_keeps_gpu_rows_of_kept_runs_and_the_first_table(tmp_path):
    run_file = write(
        tmp_path / "run.json",
        [iteration("fam/serial/s/n:1/real_time", 1.0),
         iteration("fam/cuda/s/n:1/manual_time", 1.0, label=GPU_LABEL)],
        **{"adj_table/fam/variants": table("serial", ("serial", "baseline",
                                                      "")),
           "adj_goal/fam/ratio": "1.5",
           "adj_other": "ignored: not family/name"})
    gz = tmp_path / "more.json.gz"
    gz.write_bytes(gzip.compress(json.dumps({
        "context": CONTEXT,
        "benchmarks": [iteration("fam/openmp/s/n:1/real_time", 1.0)]})
        .encode()))
    kept = write(
        tmp_path / "kept.json",
        [iteration("fam/serial/s/n:2/real_time", 1.0),
         iteration("fam/cuda/s/n:2/manual_time", 1.0,
                   label="gpu:NVIDIA Kept (host memory)")],
        **{"adj_table/fam/variants": table("other", ("other", "ours", "")),
           "adj_table/fam/warp": table("w", ("w", "faithful", "")),
           "adj_goal/fam/ratio": "9", "adj_goal/fam/count": "2"})
    kept_cpu = write(tmp_path / "kept_cpu.json",
                     [iteration("fam/serial/s/n:4/real_time", 1.0)])
    tables_only = write(
        tmp_path / "tables.json",
        [iteration("fam/simd/s/n:1/real_time", 1.0)],
        **{"adj_table/fam/variants": table("late", ("late", "ours", "")),
           "adj_table/other/variants": table("x", ("x", "ours", ""))})
    broken = tmp_path / "broken.json"
    broken.write_text("{ not json")
    run = engine.load_run([run_file, gz, broken], [kept, kept_cpu],
                          [tables_only])
    assert sorted((r.variant, r.device, r.args["n"]) for r in run.rows) == [
        ("cuda", "GPU NVIDIA Kept", 2), ("cuda", GPU, 1),
        ("openmp", CPU, 1), ("serial", CPU, 1)]
    # A file is a machine of the report where it gave rows.
    assert sorted(run.contexts) == sorted([str(run_file), str(gz),
                                           str(kept)])
    # This run's table first, then the kept run's, then the context file's.
    assert run.baseline("fam") == "serial"
    assert run.baseline("fam", "warp") == "w"
    assert run.variants("fam", "warp")["w"]["origin"] == "faithful"
    assert run.baseline("other") == "x"
    assert run.goals == {"fam": {"ratio": 1.5, "count": 2.0}}


def test_missing_tables_and_goals_read_as_none(tmp_path, capsys):
    run = load(tmp_path, [iteration("fam/serial/s/n:1/real_time", 1.0)])
    assert run.baseline("fam") is None
    assert run.variants("fam") == {}
    assert run.goal("fam", "ratio") is None
    assert "no goal fam/ratio" in capsys.readouterr().err


# The copy limit and the ratio tables.

RATES = [
    iteration("prefix_sum/serial/counts/n:1024/real_time", 1.0,
              bytes_per_second=1e9),
    iteration("prefix_sum/serial/counts/n:4096/real_time", 1.0,
              bytes_per_second=6e9),
    iteration("prefix_sum/simd/zeros/n:4096/real_time", 1.0,
              bytes_per_second=7e9),
    iteration("prefix_sum/memcpy/counts/n:1024/real_time", 1.0,
              bytes_per_second=100e9),
    iteration("prefix_sum/memcpy/counts/n:4096/real_time", 1.0,
              bytes_per_second=8e9),
    iteration("prefix_sum/memcpy_openmp/counts/n:4096/real_time", 1.0,
              bytes_per_second=5e9),
    iteration("prefix_sum/memcpy_stream/counts/n:4096/real_time", 1.0,
              bytes_per_second=4e9),
    iteration("prefix_sum/cuda/counts/n:4096/manual_time", 1.0,
              label=GPU_LABEL, bytes_per_second=30e9),
    iteration("prefix_sum/memcpy_cuda/counts/n:4096/manual_time", 1.0,
              label=GPU_LABEL, bytes_per_second=60e9),
]
RATE_FIGURE = engine.Figure(name="prefix_sum_throughput", family="prefix_sum",
                            x="n", y="bytes_per_second", y_scale=1e-9,
                            xlabel="", ylabel="")


def test_limit_is_the_best_copy_on_the_same_device_scene_and_x(tmp_path):
    rows = by_name(load(tmp_path, RATES).rows)
    serial = rows[("serial", "counts", (("n", 4096),))]
    cuda = rows[("cuda", "counts", (("n", 4096),))]
    simd = rows[("simd", "zeros", (("n", 4096),))]
    # CPU copies at n = 4096: 8, 5 and 4 GB/s; the GPU's copy is apart.
    assert engine.limit_for(serial, rows.values(), "n",
                            "bytes_per_second") == 8e9
    assert engine.limit_for(serial, rows.values(), "n", "bytes_per_second",
                            best=min) == 4e9
    assert engine.limit_for(cuda, rows.values(), "n",
                            "bytes_per_second") == 60e9
    # No copy of the scene "zeros": no limit.
    assert engine.limit_for(simd, rows.values(), "n",
                            "bytes_per_second") is None


def test_ratio_table_divides_the_largest_run_by_its_limit(tmp_path):
    lines = engine.ratio_table(RATE_FIGURE, load(tmp_path, RATES).rows)
    assert cells(lines[0])[-1] == "ratio"
    # Each variant at its largest n (4096): 6 / 8 = 0.75 on the CPU,
    # 30 / 60 = 0.50 on the GPU; GB/s through y_scale.
    assert [cells(line) for line in lines[2:]] == [
        ["cuda", GPU, "counts", "4096", "30.00", "60.00", "0.50"],
        ["serial", CPU, "counts", "4096", "6.00", "8.00", "0.75"],
        ["simd", CPU, "zeros", "4096", "7.00", "-", "no limit measured"]]


def test_ratio_table_of_a_time_is_limit_time_over_time(tmp_path):
    rows = load(tmp_path, [
        iteration("hash_grid/cell_sorted/uniform/n:1000/real_time", 4e6),
        iteration("hash_grid/cell_sorted/other/n:1000/real_time", 1e6),
        iteration("hash_grid/memcpy/uniform/n:1000/real_time", 3e6),
        iteration("hash_grid/memcpy_openmp/uniform/n:1000/real_time",
                  1.5e6)]).rows
    figure = engine.Figure(name="t", family="hash_grid", x="n",
                           y="real_time", y_scale=1e-6, xlabel="", ylabel="",
                           scene="uniform", lower_is_better=True)
    lines = engine.ratio_table(figure, rows)
    assert cells(lines[0])[-1] == "ratio (limit time / time)"
    # The fastest copy, 1.5 ms, over 4 ms: 0.375 (the scene "other" is
    # outside the figure).
    assert [cells(line) for line in lines[2:]] == [
        ["cell_sorted", CPU, "uniform", "1000", "4.00", "1.50", "0.375"]]


def test_ratio_table_of_a_time_reads_each_rows_time_unit(tmp_path):
    rows = load(tmp_path, [
        iteration("fracture/serial/wall/n:1000/real_time", 2.0, unit="ms"),
        iteration("fracture/memcpy/wall/n:1000/real_time", 1e6,
                  unit="ns")]).rows
    figure = engine.Figure(name="t", family="fracture", x="n", y="real_time",
                           xlabel="", ylabel="", lower_is_better=True)
    (line,) = engine.ratio_table(figure, rows)[2:]
    # The copy takes 1e6 ns = 1 ms, the variant 2 ms: 1 / 2 = 0.5. The
    # engine divides the raw numbers, 1e6 / 2, and writes 500000.000.
    assert cells(line)[-1] == "0.500"


BASELINE_CONTEXT = {"adj_table/tri/variants": table(
    "nvcloth", ("nvcloth", "baseline", ""), ("csr", "ours", ""),
    ("csr_openmp", "ours", ""))}


def test_baseline_table_divides_by_the_baselines_rate(tmp_path):
    def rate(variant, scene, triangles, items):
        return iteration(f"tri/{variant}/{scene}/triangles:{triangles}/"
                         "real_time", 1.0, items_per_second=items)
    run = load(tmp_path, [
        rate("nvcloth", "grid", 100, 2e6), rate("csr", "grid", 100, 4e6),
        rate("nvcloth", "grid", 200, 4e6), rate("csr", "grid", 200, 6e6),
        rate("csr_openmp", "grid", 200, 10e6),
        rate("csr", "grid", 400, 9e6),  # no baseline at 400: no line
        rate("nvcloth", "bunny", 100, 1e6), rate("csr", "bunny", 100, 3e6),
        rate("csr_openmp", "bunny", 100, 5e6),
        rate("memcpy", "grid", 100, 50e6)], **BASELINE_CONTEXT)
    figure = engine.Figure(name="t", family="tri", x="triangles",
                           y="items_per_second", xlabel="", ylabel="",
                           compare_with_baseline=True)
    lines = engine.baseline_table(figure, run)
    assert "`nvcloth`" in lines[1]
    assert cells(lines[3]) == ["device", "scene", "triangles", "csr",
                               "csr_openmp"]
    # Rate over the baseline's: 4/2, 6/4, 10/4, 3/1, 5/1; "-" where the
    # variant did not run; the scene "grid" first.
    assert [cells(line) for line in lines[5:]] == [
        [CPU, "grid", "100", "2.00", "-"],
        [CPU, "grid", "200", "1.50", "2.50"],
        [CPU, "bunny", "100", "3.00", "5.00"]]


# 8 / 2 = 4 times faster, 8 / 16 = 0.5: twice as slow; and the same ratios
# when the rows are written in different units (8 ms over 2e6 ns and over
# 4000 us: 4.00 and 2.00).
@pytest.mark.parametrize("times, expected", [
    (((8.0, "us"), (2.0, "us"), (16.0, "us")), ["4.00", "0.50"]),
    (((8.0, "ms"), (2e6, "ns"), (4000.0, "us")), ["4.00", "2.00"]),
])
def test_baseline_table_of_a_time_is_baseline_time_over_time(tmp_path, times,
                                                             expected):
    names = ["tri/nvcloth/grid/triangles:100/real_time",
             "tri/csr/grid/triangles:100/real_time",
             "tri/csr_openmp/grid/triangles:100/real_time"]
    run = load(tmp_path, [iteration(name, time, unit=unit)
                          for name, (time, unit) in zip(names, times)],
               **BASELINE_CONTEXT)
    figure = engine.Figure(name="t", family="tri", x="triangles",
                           y="real_time", xlabel="", ylabel="",
                           compare_with_baseline=True, lower_is_better=True)
    assert cells(engine.baseline_table(figure, run)[-1]) == [
        CPU, "grid", "100", *expected]


def test_no_baseline_gives_no_speedup_table(tmp_path, capsys):
    rows = [iteration("tri/nvcloth/grid/triangles:100/real_time", 1.0,
                      items_per_second=1.0),
            iteration("tri/csr/grid/triangles:100/real_time", 1.0,
                      items_per_second=2.0)]
    figure = engine.Figure(name="t", family="tri", x="triangles",
                           y="items_per_second", xlabel="", ylabel="",
                           compare_with_baseline=True)
    # No variant table in the context: nothing, and a word on stderr.
    assert engine.baseline_table(figure, load(tmp_path, rows)) == []
    assert "no baseline to compare with" in capsys.readouterr().err
    # A table whose baseline did not run: nothing.
    other = tmp_path / "other"
    other.mkdir()
    assert engine.baseline_table(figure, load(other, rows[1:],
                                              **BASELINE_CONTEXT)) == []
    # A figure that does not ask: nothing.
    plain = engine.Figure(name="t", family="tri", x="triangles",
                          y="items_per_second", xlabel="", ylabel="")
    assert engine.baseline_table(plain, load(other, rows,
                                             **BASELINE_CONTEXT)) == []


def test_value_table_lists_quality_values_scaled(tmp_path):
    def duplicates(radius, factor, fraction, variant="muller"):
        return iteration(f"hash_grid/{variant}/uniform/radius_cells:{radius}"
                         f"/table_factor:{factor}/real_time", 1.0,
                         duplicate_fraction=fraction)
    rows = load(tmp_path, [duplicates(2, 4, 0.0123), duplicates(1, 4, 0.25),
                           duplicates(1, 2, 0.5),
                           duplicates(1, 2, 0.9, variant="memcpy")]).rows
    figure = engine.Figure(name="t", family="hash_grid", x="table_factor",
                           y="duplicate_fraction", y_scale=100.0, xlabel="",
                           ylabel="", series_arg="radius_cells",
                           quality=True)
    lines = engine.value_table(figure, rows)
    assert cells(lines[0])[-1] == "duplicate_fraction (x 100)"
    # Fractions in percent, by radius then factor; no copy.
    assert [cells(line)[3:] for line in lines[2:]] == [
        ["1", "2", "50.000"], ["1", "4", "25.000"], ["2", "4", "1.230"]]


# Bars.

def values_and_ticks(groups):
    """bar_values' groups without each bar's spread and row."""
    return {key: {variant: bar[:2] for variant, bar in bars.items()}
            for key, bars in groups.items()}


def test_bar_values_are_counters_per_second_at_the_largest_size(tmp_path):
    run = load(tmp_path, [
        iteration("hash_grid/cell_sorted/uniform/n:1000/real_time", 1.0,
                  unit="ms", pairs=1e6),
        iteration("hash_grid/cell_sorted/uniform/n:2000/real_time", 1.5,
                  unit="ms", pairs=3e6),
        iteration("hash_grid/muller/uniform/n:2000/real_time", 3e6,
                  unit="ns", pairs=3e6),
        iteration("hash_grid/cell_sorted/empty/n:2000/real_time", 1.0,
                  unit="ms", pairs=0.0),
        iteration("hash_grid/memcpy/uniform/n:2000/real_time", 1.0,
                  unit="ms", pairs=1.0)])
    figure = engine.BarFigure(name="t", family="hash_grid", y="pairs",
                              ylabel="", title="", size_arg="n",
                              per_time=True, y_scale=1e-6)
    groups = values_and_ticks(engine.bar_values(figure, run))
    # 3e6 pairs in 1.5 ms: 2e9 per second, 2000 M; 3e6 in 3e6 ns = 3 ms:
    # 1000 M. The scene with no pair has no rate; the copy is no bar.
    assert groups.keys() == {("uniform", CPU)}
    assert groups[("uniform", CPU)] == {
        "cell_sorted": (pytest.approx(2000.0), None),
        "muller": (pytest.approx(1000.0), None)}


def test_bar_values_of_real_time_are_microseconds_per_group(tmp_path):
    def time(scene, scheduler, triplets, real_time, unit):
        return iteration(f"tc/serial/{scene}/scheduler:{scheduler}/"
                         f"triplets:{triplets}/real_time", real_time,
                         unit=unit)
    run = load(tmp_path, [
        time("grid", "a", 100, 2.5, "ms"), time("grid", "a", 50, 5.0, "ms"),
        time("grid", "b", 100, 1.5e6, "ns"),
        time("ring", "a", 100, 9.0, "ms"),
        iteration("tc/serial/grid/triplets:100/real_time", 1.0)])
    figure = engine.BarFigure(name="t", family="tc", y="real_time",
                              ylabel="", title="", size_arg="triplets",
                              group_arg="scheduler", scene="grid")
    # One group per scheduler in the scene "grid", at 100 triplets:
    # 2.5 ms = 2500 us, 1.5e6 ns = 1500 us.
    assert values_and_ticks(engine.bar_values(figure, run)) == {
        ("a", CPU): {"serial": (pytest.approx(2500.0), None)},
        ("b", CPU): {"serial": (pytest.approx(1500.0), None)}}


WARP_CONTEXT = {"adj_table/ts/warp": table(
    "nvcloth_warp", ("nvcloth_warp", "faithful", ""), ("bfs_warp", "ours", ""),
    ("bfs_warp_openmp", "ours", "bfs_warp"), ("greedy", "baseline", ""))}
WARP_FIGURE = engine.BarFigure(
    name="t", family="ts", y="replays", per="ideal_replays", ylabel="",
    title="", size_arg="triplets", table="warp", leave_twins_out=True,
    origins=("faithful", "ours"), tick="max_adj")


def warp_rows():
    def row(variant, scene, replays, ideal, max_adj):
        return iteration(f"ts/{variant}/{scene}/triplets:100/real_time", 1.0,
                         replays=replays, ideal_replays=ideal,
                         max_adj=max_adj)
    return [row("nvcloth_warp", "grid", 300.0, 100.0, 7.0),
            row("bfs_warp", "grid", 150.0, 100.0, 5.0),
            row("bfs_warp_openmp", "grid", 150.0, 100.0, 5.0),  # a twin
            row("greedy", "grid", 100.0, 100.0, 3.0),  # origin baseline
            row("serial", "grid", 100.0, 100.0, 3.0),  # not in the table
            row("bfs_warp", "empty", 0.0, 0.0, 0.0),  # nothing to divide
            row("nvcloth_warp", "ring", 250.0, 100.0, 4.0)]


def test_bar_values_divide_by_a_counter_within_the_table(tmp_path):
    groups = values_and_ticks(engine.bar_values(
        WARP_FIGURE, load(tmp_path, warp_rows(), **WARP_CONTEXT)))
    # replays / ideal_replays: 300/100 = 3, 150/100 = 1.5, 250/100 = 2.5.
    assert groups == {
        ("grid", CPU): {"nvcloth_warp": (3.0, 7.0), "bfs_warp": (1.5, 5.0)},
        ("ring", CPU): {"nvcloth_warp": (2.5, 4.0)}}


def test_bar_table_writes_each_groups_values_and_tick(tmp_path):
    lines = engine.bar_table(WARP_FIGURE,
                             load(tmp_path, warp_rows(), **WARP_CONTEXT))
    assert lines[0] == ("replays / ideal_replays at each scene's largest "
                        "triplets (max_adj in brackets):")
    assert cells(lines[2]) == ["scene", "device", "bfs_warp", "nvcloth_warp"]
    # Trailing zeros dropped (1.50 -> 1.5, 3.00 -> 3); the largest tick.
    assert [cells(line) for line in lines[4:]] == [
        ["grid [7]", CPU, "1.5", "3"], ["ring [4]", CPU, "-", "2.5"]]


def copies():
    def copy(variant, size, real_time, unit, label=CPU_LABEL, **counters):
        return iteration(f"tc/{variant}/grid/triplets:{size}/real_time",
                         real_time, unit=unit, label=label, **counters)
    return [
        copy("serial", 100, 2.5, "ms"),
        copy("memcpy", 100, 3000.0, "ns"),
        copy("memcpy_openmp", 100, 0.0015, "ms"),
        copy("memcpy", 50, 0.5, "us"),  # a smaller size
        copy("memcpy_cuda", 100, 9.0, "us", GPU_LABEL, kernel_us=0.8),
        copy("memcpy_cuda_one_block", 100, 12.0, "us", GPU_LABEL,
             kernel_us=2.4),
        copy("memcpy_cuda_host", 100, 20.0, "us", GPU_LABEL)]


def test_bar_limits_are_the_fastest_copy_of_the_largest_size(tmp_path):
    rows = load(tmp_path, copies()).rows
    def figure(y, scene="grid"):
        return engine.BarFigure(name="t", family="tc", y=y, ylabel="",
                                title="", size_arg="triplets", scene=scene)
    # real_time: the fastest of 3000 ns = 3 us and 0.0015 ms = 1.5 us on
    # the CPU; on the GPU the copy through the host alone (those with
    # kernel_us are timed on the device).
    # Each limit comes with the row it was read from (the manifest's
    # sources).
    limits = engine.bar_limits(figure("real_time"), rows)
    assert [(label, value) for label, value, _ in limits] == [
        (f"memcpy of the same bytes (limit) [{CPU}]", pytest.approx(1.5)),
        (f"memcpy of the same bytes (limit) [{GPU}]", pytest.approx(20.0))]
    assert [row.variant for _, _, row in limits] == [
        "memcpy_openmp", "memcpy_cuda_host"]
    # kernel_us: each copy that reports it, one device.
    limits = engine.bar_limits(figure("kernel_us"), rows)
    assert [(label, value) for label, value, _ in limits] == [
        ("memcpy_cuda of the same bytes (limit)", 0.8),
        ("memcpy_cuda_one_block of the same bytes (limit)", 2.4)]
    assert [row.variant for _, _, row in limits] == [
        "memcpy_cuda", "memcpy_cuda_one_block"]
    assert engine.bar_limits(figure("replays"), rows) == []
    assert engine.bar_limits(figure("real_time", scene=None), rows) == []


def test_bar_table_of_a_time_adds_the_copy_limit(tmp_path):
    run = load(tmp_path, copies()[:4])
    figure = engine.BarFigure(name="t", family="tc", y="real_time",
                              ylabel="", title="", size_arg="triplets",
                              scene="grid")
    assert engine.bar_table(figure, run) == [
        "microseconds per run on grid at each scene's largest triplets:", "",
        "| scene | device | serial |", "| --- | --- | ---: |",
        f"| grid | {CPU} | 2500 |",  # 2.5 ms
        "", "memcpy of the same bytes (limit), same run: 1.50 microseconds."]


# The check, the kernel alone and the device-resident tables.

def test_check_cost_table_sets_the_check_against_kernel_and_shipped(
        tmp_path):
    def timed(variant, n, real_time, unit, extra=""):
        return iteration(f"hash_grid/{variant}/uniform/n:{n}{extra}/"
                         "min_time:0.100/real_time", real_time, unit=unit)
    run = load(tmp_path, [
        timed("check", 1000, 2.0, "ms"),
        timed("cell_sorted", 1000, 2500.0, "us"),
        timed("cell_sorted", 1000, 5e5, "ns", "/trusted:1"),
        timed("muller", 1000, 4.0, "ms"),
        timed("muller", 1000, 1.0, "ms", "/trusted:1"),
        timed("memcpy", 1000, 0.1, "ms"),  # a copy is no variant
        timed("check", 2000, 1.0, "ms"),
        timed("muller", 2000, 5.0, "ms"),
        timed("check", 4000, 1.0, "ms")])  # nothing shipped: no line
    lines = engine.check_cost_table(run, "hash_grid", "n")
    assert lines[1] == "## hash_grid: the input check's cost"
    # n = 1000: check 2 ms; fastest kernel cell_sorted 0.5 ms, 2 / 0.5 = 4;
    # fastest as shipped cell_sorted 2.5 ms, 2 / 2.5 = 0.8. n = 2000: no
    # kernel alone; muller 5 ms, 1 / 5 = 0.2.
    assert [cells(line) for line in lines[7:9]] == [
        [CPU, "uniform", "1000", "2.000", "cell_sorted", "0.500", "4.000",
         "cell_sorted 2.500", "0.800"],
        [CPU, "uniform", "2000", "1.000", "-", "-", "-", "muller 5.000",
         "0.200"]]
    # Then each variant as shipped / alone where both ran (n = 1000 only).
    assert cells(lines[12]) == ["device", "scene", "n", "cell_sorted",
                                "muller"]
    assert [cells(line) for line in lines[14:]] == [
        [CPU, "uniform", "1000", "2.500 / 0.500", "4.000 / 1.000"]]
    assert engine.check_cost_table(run, "hash_grid", "n",
                                   check="missing") == []


def test_check_cost_table_names_a_variant_per_other_argument(tmp_path):
    def timed(variant, extra, real_time):
        return iteration(f"ts/{variant}/grid/triplets:10{extra}/real_time",
                         real_time, unit="ms")
    run = load(tmp_path, [
        timed("check", "", 1.0),
        timed("bfs", "/scheduler:a", 4.0), timed("bfs", "/scheduler:b", 2.0),
        timed("bfs", "/scheduler:b/trusted:1", 0.5)])
    lines = engine.check_cost_table(run, "ts", "triplets")
    # Scheduler b is its own column: 1 / 0.5 = 2; 1 / 2 = 0.5.
    assert cells(lines[7]) == [CPU, "grid", "10", "1.000", "bfs scheduler=b",
                               "0.500", "2.000", "bfs scheduler=b 2.000",
                               "0.500"]
    assert cells(lines[-1]) == [CPU, "grid", "10", "2.000 / 0.500"]


def test_shipped_over_kernel_lines_pair_by_variant():
    keys = [(CPU, "grid", 10), (CPU, "grid", 20)]
    kernels = {keys[0]: {"a": 0.25, "b": 1.0}, keys[1]: {"a": 0.5}}
    shipped = {keys[0]: {"a": 1.0}, keys[1]: {"a": 2.0, "b": 3.0}}
    lines = engine.shipped_over_kernel_lines(keys, kernels, shipped,
                                             "scene | n", digits=2)
    assert cells(lines[3]) == ["device", "scene", "n", "a", "b"]
    # "-" where the kernel alone or the shipped variant is missing.
    assert [cells(line) for line in lines[5:]] == [
        [CPU, "grid", "10", "1.00 / 0.25", "-"],
        [CPU, "grid", "20", "2.00 / 0.50", "-"]]
    assert engine.shipped_over_kernel_lines(
        keys, {keys[0]: {}, keys[1]: {}}, shipped, "scene | n", 2) == []


def test_device_resident_table_divides_the_copy_by_the_kernel(tmp_path):
    def gpu(variant, scene, real_time, unit, extra=""):
        return iteration(f"compaction/{variant}/{scene}/n:1000{extra}/"
                         "manual_time", real_time, unit=unit,
                         label=GPU_LABEL)
    run = load(tmp_path, [
        gpu("cuda", "keep90", 10000.0, "ns", "/device:1"),
        gpu("cuda_cub", "keep90", 20.0, "us", "/device:1"),
        gpu("memcpy_cuda", "keep90", 0.03, "ms"),
        gpu("cuda", "keep50", 10.0, "us", "/device:1"),  # no copy
        gpu("cuda", "keep90", 50.0, "us")])  # as shipped: not listed
    lines = engine.device_resident_table(run)
    # The copy's 30 us over 10 us and 20 us: 3.00 and 1.50; times in ms.
    assert [cells(line) for line in lines[7:]] == [
        [GPU, "compaction", "cuda", "keep50", "n=1000", "0.010", "-", "-"],
        [GPU, "compaction", "cuda", "keep90", "n=1000", "0.010", "0.030",
         "3.00"],
        [GPU, "compaction", "cuda_cub", "keep90", "n=1000", "0.020",
         "0.030", "1.50"]]
    other = tmp_path / "other"
    other.mkdir()
    assert engine.device_resident_table(load(other, [
        gpu("cuda", "keep90", 50.0, "us")])) == []


def test_machine_lines_group_files_and_count_each_cache_per_cpu_sharing():
    lines = engine.machine_lines({"run.json": CONTEXT, "bare.json": {},
                                  "run2.json": CONTEXT})
    # The file with no context first (sorted by path), every field "?".
    assert lines[0] == "- 1 file: `bare.json` (?)"
    assert lines[1].startswith("    - CPU: ?, ? CPUs at ? MHz; caches: ; ")
    # The two files of one machine and build share its line.
    assert lines[2].startswith("- 2 files: `run.json` (")
    assert "`run2.json` (" in lines[2]
    # 32768 B = 32 KiB, one per CPU (4 / 1); 8 MiB = 8192 KiB, shared by 4.
    assert lines[3].startswith("    - CPU: Test CPU, 4 CPUs at 3000 MHz; "
                               "caches: L1 D 32 KiB x4, L3 U 8192 KiB x1; ")
    assert lines[3].endswith("build: Release (GNU 13.3.0), revision abc123, "
                             "sweep quick")
    assert len(lines) == 4


# The line figure: which series it draws and their values.

class CapturingGallery:
    """A gallery that keeps the figure instead of writing it."""

    def __init__(self):
        self.drawn = {}

    def save_figure(self, fig, name, caption, rows, family, columns=1):
        self.drawn = {"fig": fig, "caption": caption, "rows": rows}
        return [name]


def test_draw_scales_each_series_and_keeps_the_limit_scene(tmp_path):
    gallery = CapturingGallery()
    name = "compaction/serial/keep90/n:4096/real_time"
    rows = load(tmp_path, [
        iteration("compaction/serial/keep90/n:1024/real_time", 1.0,
                  bytes_per_second=2e9),
        iteration(name, 1.0, bytes_per_second=4e9),
        iteration(name, 0.8, bytes_per_second=5e9),
        iteration(name, 1.25, bytes_per_second=3.2e9),
        iteration("compaction/serial/keep50/n:4096/real_time", 1.0,
                  bytes_per_second=3e9),
        iteration("compaction/memcpy/keep90/n:4096/real_time", 1.0,
                  bytes_per_second=8e9),
        iteration("compaction/memcpy/keep50/n:4096/real_time", 1.0,
                  bytes_per_second=8e9)]).rows
    figure = engine.Figure(name="compaction_throughput", family="compaction",
                           x="n", y="bytes_per_second", y_scale=1e-9,
                           xlabel="", ylabel="", limit_scene="keep90",
                           caption="Which is fastest?")
    assert engine.draw(figure, rows, gallery) == ["compaction_throughput"]
    ax = gallery.drawn["fig"].axes[0]
    series = {c.get_label(): c for c in ax.containers}
    # GB/s; the copy of keep50 is not drawn (same limit as keep90's).
    assert {label: list(c.lines[0].get_ydata())
            for label, c in series.items()} == {
        "serial / keep50": [pytest.approx(3.0)],
        "serial / keep90": [pytest.approx(2.0), pytest.approx(4.0)],
        "memcpy (limit)": [pytest.approx(8.0)]}
    # The three repetitions' spread as the error bar: the median rate 4
    # scaled by the median time over each repetition's: 3.2 to 5 (none at
    # 1024, a single run).
    (bars,) = series["serial / keep90"].lines[2]
    assert [list(segment[:, 1]) for segment in bars.get_segments()][-1] == [
        pytest.approx(3.2), pytest.approx(5.0)]
    caption = gallery.drawn["caption"]
    assert caption.startswith("Which is fastest? Grey dashes")
    assert "medians of 3 interleaved repetitions" in caption
    assert caption.endswith(f"Measured on {CPU}.")
    assert engine.draw(engine.Figure(name="none", family="missing", x="n",
                                     y="bytes_per_second", xlabel="",
                                     ylabel=""), rows, gallery) == []
