#!/usr/bin/env python3
"""The report engine: benchmark JSON -> figures (PDF + PNG) and report.md
sections. Each family's module in reports/families/ declares its figures
(Figure, BarFigure) and any tables of its own; reports/figures.py finds the
modules and assembles the report.

Reads only JSON that the benchmark binaries wrote: this run's files
(reports/out/json/<family>.json) and the GPU rows of runs kept from other
machines (reports/data/<machine>/*.json), drawn beside them and marked by
device. No number is typed into a report: the variant tables (origin,
backend, twin, baseline) and the goals come from the JSON's context, where
the benchmarks wrote them from the C++ tables.

Benchmark names are the suite's schema:
    <family>/<variant>/<scene>/<arg>:<value>/.../<timer>
Rows whose variant starts with "memcpy" are the machine's limit: drawn as
dashed lines, and the denominator of every ratio in the report (on the CPU
the fastest of memcpy, memcpy_openmp and memcpy_stream at the same size, on
a GPU the fastest of memcpy_cuda, a device-to-device copy,
memcpy_cuda_one_block, the same by one block, and memcpy_cuda_host, the
bytes across the bus once, half each way). A CUDA row's kernel_us (its
kernel alone) is drawn beside the device copies' kernel_us.
"""

import dataclasses
import gzip
import json
import pathlib
import re
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable

import style
from style import is_limit  # noqa: F401 (the families import it here)


@dataclasses.dataclass(frozen=True)
class Figure:
    name: str  # output stem: <out>/<name>.{pdf,png}
    family: str
    x: str  # named benchmark argument on the x axis
    y: str  # JSON field of each row (a rate or a counter)
    xlabel: str
    ylabel: str
    y_scale: float = 1.0  # multiplies y for display (1e-9: per second -> G)
    title: str = ""
    scene: str | None = None  # restrict to one scene; None: one line per scene
    logx: bool = True
    logy: bool = False
    # Scenes whose name starts with this prefix (real meshes: one size each)
    # are drawn as marked points, one series per variant, not as lines.
    marked_scenes: str | None = None
    # Draw the copy limits of this scene only (scenes of the same sizes have
    # the same limits); None: every scene's.
    limit_scene: str | None = None
    # Compare every variant with the family's baseline (its table's first
    # row, named in the JSON), per scene, in the report.
    compare_with_baseline: bool = False
    # One line per value of this named argument (e.g. a query radius), within
    # each variant and scene.
    series_arg: str | None = None
    # y is a time (real_time): the limit is the fastest copy, and the
    # report's ratios and speedups are inverted (limit / time, baseline
    # time / time), so that above 1 still means faster.
    lower_is_better: bool = False
    # y is a quality counter, not a speed: the report lists its values (no
    # limit, no ratio).
    quality: bool = False
    # Ticks at the x values measured (a handful of factors), not at powers.
    ticks_at_values: bool = False
    # Rows the figure leaves out beyond the limits (e.g. an input check
    # timed alone).
    leave_out: Callable[["Row"], bool] | None = None
    # The question the figure answers and how its answer looks, one
    # sentence (the report and the manifest print it under the figure).
    caption: str = ""
    # Rows of devices whose name starts with this ("CPU", "GPU") only.
    device: str | None = None
    # The variants that answer the question, at most this many per scene
    # and device: the fastest at each size, then the baseline and the best
    # peer, then the fastest at the largest size (None: every variant).
    contenders: int | None = None
    columns: int = 1  # 1: a single column (3.3 in), 2: both (7 in)
    # Also draw <name>_of_limit: each contender's speed as a fraction of
    # the fastest copy of the same bytes at the same size.
    of_limit: bool = False


@dataclasses.dataclass(frozen=True)
class BarFigure:
    """Grouped bars: one group per scene (its largest run), one bar per
    variant, of a counter or of a counter over another (quality, not
    speed)."""
    name: str
    family: str
    y: str  # counter drawn
    ylabel: str
    title: str
    size_arg: str  # named argument whose largest value each scene shows
    per: str | None = None  # divide y by this counter (replays / ideal)
    # Only the rows of this variant table of the family (from the JSON).
    table: str | None = None
    # Leave out rows with a twin: they give their twin's output, so their
    # quality counters repeat the twin's.
    leave_twins_out: bool = False
    # Only rows of these origins (faithful, fixed, ours, baseline); None: all.
    origins: tuple | None = None
    tick: str | None = None  # counter drawn as a black tick per group
    # The family's goal (a name under the JSON's adj_goal/<family>/) drawn
    # across as a dashed line.
    hline_goal: str | None = None
    # Rows a figure leaves out beyond the limits (e.g. bench-only rows).
    leave_out: Callable[["Row"], bool] | None = None
    # Group by this named argument (e.g. the scheduler) within `scene`,
    # instead of by scene.
    group_arg: str | None = None
    scene: str | None = None
    # Divide y by the row's time per run (seconds): a counter per second
    # (pairs found per second). Rows whose counter is 0 are left out (a
    # scene where nothing was found has no rate to compare).
    per_time: bool = False
    y_scale: float = 1.0  # multiplies the value drawn and tabled
    logy: bool = False
    caption: str = ""  # as Figure's
    device: str | None = None  # as Figure's
    columns: int = 1


@dataclasses.dataclass
class Row:
    family: str
    variant: str
    scene: str
    args: dict
    values: dict  # the JSON row itself
    device: str  # "CPU <model>" or "GPU <name>"
    spread_row: dict | None  # the stddev aggregate, when repeated
    source: str
    # Each repetition's real_time in microseconds, when repeated (empty
    # otherwise).
    times: list = dataclasses.field(default_factory=list)
    # Each repetition's JSON row, when repeated (empty otherwise): the
    # spread of a counter (counter_range).
    repetitions: list = dataclasses.field(default_factory=list)
    # The variant's origin in its table ("peer": a library's row), set by
    # load_run once the tables are read.
    origin: str = ""
    # Read from a run kept from another machine (reports/data), not this
    # run's JSON.
    kept: bool = False


@dataclasses.dataclass
class Study:
    """One record of an experiment runner's JSON (experiments/study_json.h):
    a study of one variant, judged against physics, not timed."""
    family: str
    study: str
    variant: str
    device: str  # "CPU <model>"
    parameters: dict
    results: dict
    series: dict
    error: str  # "": it ran to the end
    verified: bool
    source: str


def studies_of(document, path):
    """The Study records of an experiment runner's document (none for a
    benchmark's); a null (not finite) number becomes NaN."""
    context = document.get("context", {})
    device = "CPU " + context.get("cpu_model", context.get("host_name", "?"))

    def numbers(values):
        return {k: float("nan") if v is None else v
                for k, v in (values or {}).items()}

    return [Study(r.get("family", "?"), r.get("study", "?"),
                  r.get("variant", "?"), device,
                  numbers(r.get("parameters")), numbers(r.get("results")),
                  {k: [float("nan") if x is None else x for x in v]
                   for k, v in (r.get("series") or {}).items()},
                  r.get("error", ""), bool(r.get("verified")), str(path))
            for r in document.get("studies", [])]


# Google Benchmark's own options, which it writes into a row's name like
# arguments.
BENCHMARK_OPTIONS = ("min_time", "min_warmup_time", "iterations", "repeats")


def is_kernel_only(row):
    """A `trusted:1` row (a variant's kernel on input checked before timing),
    a `device:1` row (a CUDA variant's kernels on data already on the
    device, timed by CUDA events) or a `query:1` row (a peer's queries on
    its index built before timing). Figures draw variants as shipped; the
    check-cost tables and the docs read these."""
    return bool(row.args.get("trusted") or row.args.get("device")
                or row.args.get("query"))


def shown(figure, run):
    """The run a figure draws: rows as shipped, without those the figure
    leaves out."""
    return dataclasses.replace(run, rows=[
        r for r in run.rows if not is_kernel_only(r)
        and not (figure.leave_out is not None and figure.leave_out(r))])


def parse_name(run_name):
    parts = run_name.split("/")
    if len(parts) < 3:
        return None
    family, variant, scene = parts[:3]
    args = {}
    for part in parts[3:]:
        if ":" in part:
            key, value = part.split(":", 1)
            try:
                args[key] = int(value)
            except ValueError:
                args[key] = value
    return family, variant, scene, args


def device_of(row, context):
    """"GPU <name>" for a row labelled "gpu:<name> (<what the time
    includes>)", else "CPU <model>"."""
    label = row.get("label", "")
    if label.startswith("gpu:"):
        return "GPU " + label[4:].split(" (")[0].split(",")[0]
    return "CPU " + context.get("cpu_model", context.get("host_name", "?"))


@dataclasses.dataclass
class Run:
    """What a report is drawn from: the rows, the context of each file that
    gave rows, and the variant tables and goals the benchmarks wrote into
    the JSON's context."""
    rows: list
    contexts: dict  # path -> the file's context
    # family -> table -> {"baseline": name, "variants": {name: {"backend",
    # "origin", "twin"}}}
    tables: dict
    goals: dict  # family -> goal name -> value
    # The experiment runners' records (this run's only: a kept run's
    # studies are another machine's CPU, as its CPU rows are).
    studies: list = dataclasses.field(default_factory=list)
    # This run's rows that did not run or were dropped: (family, variant,
    # scene, args, the benchmark's error message), e.g. a row whose output
    # differed from the oracle, or a peer the build did not find.
    errors: list = dataclasses.field(default_factory=list)

    def baseline(self, family, table="variants"):
        return self.tables.get(family, {}).get(table, {}).get("baseline")

    def variants(self, family, table="variants"):
        """{name: {"backend", "origin", "twin"}} of one table."""
        return self.tables.get(family, {}).get(table, {}).get("variants", {})

    def goal(self, family, name):
        value = self.goals.get(family, {}).get(name)
        if value is None:
            print(f"no goal {family}/{name} in the JSON's context",
                  file=sys.stderr)
        return value


def read_document(path):
    try:
        # Kept runs with repetitions are large, so they may be gzipped.
        text = (gzip.decompress(path.read_bytes()).decode()
                if path.suffix == ".gz" else path.read_text())
        return json.loads(text)
    except (OSError, json.JSONDecodeError) as error:
        print(f"skipping {path}: {error}", file=sys.stderr)
        return None


def in_ns(values):
    """A copy of a JSON row with its real_time and cpu_time in ns (and
    time_unit "ns"): rows written in different units (a variant in ms, its
    copy limit in ns) then compare as they stand, and a Figure's y_scale
    always scales ns."""
    factor = TIME_UNITS_IN_US.get(values.get("time_unit", "ns"), 1e-3) * 1e3
    converted = dict(values)
    for key in ("real_time", "cpu_time"):
        if isinstance(converted.get(key), (int, float)):
            converted[key] = converted[key] * factor
    converted["time_unit"] = "ns"
    return converted


def rows_of(document, path):
    """A file's rows, one per (run_name, device): the median aggregate when
    the run was repeated, else the median of the repetitions."""
    rows = []
    context = document.get("context", {})
    grouped = defaultdict(list)
    for row in document.get("benchmarks", []):
        if row.get("error_occurred"):
            continue
        grouped[row.get("run_name", row["name"])].append(row)
    for run_name, group in grouped.items():
        parsed = parse_name(run_name)
        if parsed is None:
            continue
        family, variant, scene, args = parsed
        medians = [r for r in group if r.get("aggregate_name") == "median"]
        stddevs = [r for r in group if r.get("aggregate_name") == "stddev"]
        iterations = [r for r in group if r.get("run_type") != "aggregate"]
        if medians:
            chosen = dict(medians[0])
            spread_row = stddevs[0] if stddevs else None
        elif iterations:
            chosen = dict(iterations[0])
            spread_row = None
            if len(iterations) > 1:
                for key, value in iterations[0].items():
                    if isinstance(value, (int, float)):
                        chosen[key] = statistics.median(
                            r.get(key, value) for r in iterations)
        else:
            continue
        times = [real_time_us(r) for r in iterations
                 if "real_time" in r] if len(iterations) > 1 else []
        chosen = in_ns(chosen)
        spread_row = in_ns(spread_row) if spread_row else None
        rows.append(Row(family, variant, scene, args, chosen,
                        device_of(chosen, context), spread_row,
                        str(path), times,
                        iterations if len(iterations) > 1 else []))
    return rows


def errors_of(document):
    """A file's rows that report an error, once per run_name: (family,
    variant, scene, args, message)."""
    seen, errors = set(), []
    for row in document.get("benchmarks", []):
        run_name = row.get("run_name", row.get("name", ""))
        if not row.get("error_occurred") or run_name in seen:
            continue
        seen.add(run_name)
        parsed = parse_name(run_name)
        if parsed is not None:
            errors.append((*parsed, row.get("error_message", "")))
    return errors


def load_run(run_paths, kept_paths=(), context_paths=()):
    """This run's rows and studies, and the GPU rows of runs kept from
    other machines
    (a kept CPU run is another machine's CPU: the docs quote it, and
    `figures.py --json <its folder>` draws it alone). Tables and goals come
    from every file's context, this run's taking precedence, then the kept
    runs', then those of context_paths (files read for their context
    alone: a newer run's tables for a run that predates them)."""
    rows, contexts, tables, goals, studies, errors = [], {}, {}, {}, [], []
    for path, kind in ([(p, "run") for p in run_paths]
                       + [(p, "kept") for p in kept_paths]
                       + [(p, "context") for p in context_paths]):
        document = read_document(path)
        if document is None:
            continue
        context = document.get("context", {})
        file_rows = [] if kind == "context" else rows_of(document, path)
        if kind == "kept":
            file_rows = [r for r in file_rows if r.device.startswith("GPU")]
            for row in file_rows:
                row.kept = True
        file_studies = studies_of(document, path) if kind == "run" else []
        if kind == "run":
            errors += errors_of(document)
        if file_rows or file_studies:
            rows += file_rows
            studies += file_studies
            contexts[str(path)] = context
        for key, value in context.items():
            parts = key.split("/")
            if len(parts) != 3:
                continue
            if parts[0] == "adj_table":
                table = json.loads(value)
                tables.setdefault(parts[1], {}).setdefault(parts[2], {
                    "baseline": table["baseline"],
                    "variants": {v["name"]: v for v in table["variants"]}})
            elif parts[0] == "adj_goal":
                goals.setdefault(parts[1], {}).setdefault(parts[2],
                                                          float(value))
    origins = {(family, name): variant.get("origin", "")
               for family, by_table in tables.items()
               for table in by_table.values()
               for name, variant in table["variants"].items()}
    for row in rows:
        row.origin = origins.get((row.family, row.variant), "")
    return Run(rows, contexts, tables, goals, studies, errors)


def series_label(row, devices):
    """A variant's legend entry: its name, "(peer)" for a library's row,
    and its device where the figure shows several."""
    label = row.variant + (" (peer)" if row.origin == "peer" else "")
    if len(devices) == 1:
        return label
    return f"{label} [{row.device}]"


RATE_SUFFIX = "_per_second"


def spread(row, field, scale=1.0):
    """(lowest, highest) of a row's `field` over its repetitions (times
    from each repetition's real_time; a rate as the median rate scaled by
    the median time over each repetition's), or None for a single run or
    a counter."""
    if len(row.times) < 2 or field not in row.values:
        return None
    if field == "real_time":
        values = [t * 1e3 * scale for t in row.times]  # us -> ns, scaled
    elif field.endswith(RATE_SUFFIX):
        median_us = real_time_us(row.values)
        values = [row.values[field] * scale * median_us / t
                  for t in row.times if t > 0]
    else:
        return None
    return (min(values), max(values)) if values else None


def counter_range(row, field):
    """(lowest, highest) of a counter over the row's repetitions, or None
    for a single run."""
    values = [r[field] for r in row.repetitions if field in r]
    return (min(values), max(values)) if len(values) > 1 else None


def spread_words(rows):
    """The caption's note on the error bars of `rows`."""
    counts = sorted({len(r.times) for r in rows if len(r.times) > 1})
    if not counts:
        return "One repetition each: no spread to show."
    many = (f"{counts[0]}" if len(counts) == 1
            else f"{counts[0]}-{counts[-1]}")
    return (f"Points: medians of {many} interleaved repetitions; bars: "
            "their minimum to maximum.")


def measured_on(devices):
    """A caption's last sentence: the devices its rows ran on."""
    return "Measured on " + "; ".join(sorted(devices)) + "."


def caption_of(figure, rows, devices, bar_limits_drawn=False):
    """A figure's caption: its question, what the grey lines are (when
    drawn), the spread note, the devices."""
    limits = sorted({r.variant for r in rows if is_limit(r.variant)})
    limit_words = ("Grey dashes: the machine's limit, a copy of the same "
                   "bytes (" + ", ".join(limits) + ") in the same run."
                   if limits else "")
    if bar_limits_drawn:
        limit_words = ("Grey lines: the machine's limit, the fastest copy of "
                       "the same bytes in the same run.")
    return " ".join(part for part in (
        figure.caption.strip(), limit_words, spread_words(rows),
        measured_on(devices)) if part)


def contenders(figure, candidates):
    """The variants a line figure keeps (figure.contenders): per scene and
    device the fastest at the largest size, the family's baseline, the
    best peer, the fastest at each smaller size, then the next fastest at
    the largest size, until the count is reached."""
    if figure.contenders is None:
        return {r.variant for r in candidates}
    better = min if figure.lower_is_better else max
    kept = set()
    by_place = defaultdict(list)
    for row in candidates:
        if not is_limit(row.variant):
            by_place[(row.scene, row.device)].append(row)
    for rows in by_place.values():
        chosen = []

        def add(variant):
            if variant not in chosen and len(chosen) < figure.contenders:
                chosen.append(variant)
        sizes = sorted({r.args[figure.x] for r in rows})
        largest = [r for r in rows if r.args[figure.x] == sizes[-1]]
        for size in reversed(sizes):
            at = [r for r in rows if r.args[figure.x] == size]
            add(better(at, key=lambda r: r.values[figure.y]).variant)
            if size == sizes[-1]:
                # After the fastest at the largest size, the baseline and
                # the best peer, which the captions promise.
                baseline = [r.variant for r in largest
                            if r.origin in ("faithful", "baseline")]
                for variant in baseline[:1]:
                    add(variant)
                peers = [r for r in largest if r.origin == "peer"]
                if peers:
                    add(better(peers,
                               key=lambda r: r.values[figure.y]).variant)
        for row in sorted(largest, key=lambda r: r.values[figure.y],
                          reverse=not figure.lower_is_better):
            add(row.variant)
        kept.update(chosen)
    return kept


def draw(figure, rows, gallery):
    """A line figure: figure.y against figure.x per variant (and scene,
    series value), the copy limits as grey dashes; returns the paths
    written."""
    selected = [r for r in rows
                if r.family == figure.family and figure.x in r.args
                and figure.y in r.values
                and (figure.scene is None or r.scene == figure.scene)
                and (figure.device is None
                     or r.device.startswith(figure.device))]
    if not selected:
        print(f"{figure.name}: no rows in the JSON, figure not drawn",
              file=sys.stderr)
        return []
    kept = contenders(figure, selected)
    selected = [r for r in selected if is_limit(r.variant)
                or r.variant in kept]
    scenes = sorted({r.scene for r in selected})
    devices = sorted({r.device for r in selected})

    def marked(scene):
        return figure.marked_scenes is not None and scene.startswith(
            figure.marked_scenes)

    selected = [r for r in selected
                if not (is_limit(r.variant) and (
                    marked(r.scene) or (figure.limit_scene is not None
                                        and r.scene != figure.limit_scene)))]
    series = defaultdict(list)
    for row in selected:
        scene = (figure.marked_scenes + "*") if marked(row.scene) else row.scene
        key = (row.variant, row.device, scene,
               row.args.get(figure.series_arg) if figure.series_arg else None)
        series[key].append(row)

    fig, ax = style.figure(figure.columns)
    ordered = sorted(series, key=lambda k: (is_limit(k[0]), k[1], k[0]))
    line_styles = ("-", "--", "-.", ":")
    scene_dash = {scene: line_styles[i % len(line_styles)]
                  for i, scene in enumerate(sorted(
                      {k[2] for k in ordered if not is_limit(k[0])}))}
    for key in ordered:
        variant, device, scene, series_value = key
        points = sorted(series[key], key=lambda r: r.args[figure.x])
        xs = [p.args[figure.x] for p in points]
        ys = [p.values[figure.y] * figure.y_scale for p in points]
        ranges = [spread(p, figure.y, figure.y_scale) for p in points]
        yerr = None
        if any(ranges):
            yerr = [[y - (r or (y, y))[0] for y, r in zip(ys, ranges)],
                    [(r or (y, y))[1] - y for y, r in zip(ys, ranges)]]
        label = series_label(points[0], devices)
        if len(scenes) > 1 and not is_limit(variant):
            label += f" / {scene}"
        if figure.series_arg:
            label += f" / {figure.series_arg}={series_value}"
        look = style.series_style(figure.family, variant,
                                  gpu=device.startswith("GPU"))
        if marked(scene):
            look["linestyle"] = "none"
            label += f" ({len(points)} meshes)"
        elif is_limit(variant):
            label += " (limit)"
        elif len(scene_dash) > 1:
            look["linestyle"] = scene_dash[scene]
        ax.errorbar(xs, ys, yerr=yerr, capsize=1.5, elinewidth=0.6,
                    label=label, **look)
    if figure.logx:
        ax.set_xscale("log", base=2)
    if figure.ticks_at_values:
        values = sorted({r.args[figure.x] for r in selected})
        ax.set_xticks(values)
        ax.set_xticklabels([str(v) for v in values])
    if figure.logy:
        ax.set_yscale("log")
    ax.set_xlabel(figure.xlabel)
    ax.set_ylabel(figure.ylabel)
    style.legend_below(fig, ax)
    return gallery.save_figure(fig, figure.name,
                               caption_of(figure, selected, devices),
                               selected, figure.family, figure.columns)


def draw_of_limit(figure, rows, gallery):
    """<figure.name>_of_limit: each contender's speed over the fastest copy
    of the same bytes on the same device at the same size (1: as fast as
    copying them), against figure.x; returns the paths written."""
    name = f"{figure.name}_of_limit"
    selected = [r for r in rows
                if r.family == figure.family and figure.x in r.args
                and figure.y in r.values and not is_limit(r.variant)
                and (figure.scene is None or r.scene == figure.scene)
                and (figure.device is None
                     or r.device.startswith(figure.device))]
    kept = contenders(figure, selected)
    best = min if figure.lower_is_better else max
    series = defaultdict(list)
    for row in selected:
        if row.variant not in kept or not row.values[figure.y]:
            continue
        limit_row = limit_row_for(row, rows, figure.x, figure.y, best)
        limit = limit_row.values[figure.y] if limit_row else None
        if not limit:
            continue
        fraction = (limit / row.values[figure.y] if figure.lower_is_better
                    else row.values[figure.y] / limit)
        series[(row.variant, row.device, row.scene)].append(
            (row.args[figure.x], fraction, row, limit_row))
    if not series or not gallery.wanted(name):
        return []
    devices = sorted({key[1] for key in series})
    scenes = sorted({key[2] for key in series})
    fig, ax = style.figure(figure.columns)
    drawn_rows = []
    for key in sorted(series):
        variant, device, scene = key
        points = sorted(series[key], key=lambda p: p[0])
        label = series_label(points[0][2], devices)
        if len(scenes) > 1:
            label += f" / {scene}"
        ax.plot([p[0] for p in points], [p[1] for p in points], label=label,
                **style.series_style(figure.family, variant,
                                     gpu=device.startswith("GPU")))
        drawn_rows += [p[2] for p in points] + [p[3] for p in points]
    ax.axhline(1.0, color="0.25", linestyle="--", linewidth=0.8,
               label="the fastest copy (1)")
    if figure.logx:
        ax.set_xscale("log", base=2)
    ax.set_ylim(bottom=0)
    ax.set_xlabel(figure.xlabel)
    ax.set_ylabel("fraction of the fastest copy")
    style.legend_below(fig, ax)
    limits = sorted({r.variant for r in rows if r.family == figure.family
                     and is_limit(r.variant) and r.device in devices
                     and (figure.scene is None or r.scene == figure.scene)})
    caption = (f"How close does each variant come to the machine's limit? "
               f"Its speed as a fraction of the fastest copy of the same "
               f"bytes ({', '.join(limits)}) at the same size and device, "
               f"in the same run; 1 is as fast as copying them. "
               + measured_on(devices))
    return gallery.save_figure(fig, name, caption, drawn_rows,
                               figure.family, figure.columns)


TIME_UNITS_IN_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def real_time_us(values):
    """A JSON row's real_time in microseconds, whatever its time_unit."""
    return values["real_time"] * TIME_UNITS_IN_US.get(
        values.get("time_unit", "ns"), 1e-3)


def bar_values(figure, run):
    """{(group, device): {variant: (value, tick, (low, high) or None,
    row)}} at each group's largest
    size; a group is a scene, or a value of figure.group_arg in
    figure.scene. Times (real_time) in microseconds."""
    table = (run.variants(figure.family, figure.table)
             if figure.table is not None else None)
    largest = {}
    for row in run.rows:
        if (row.family != figure.family or is_limit(row.variant)
                or (figure.device is not None
                    and not row.device.startswith(figure.device))
                or (figure.leave_out is not None and figure.leave_out(row))
                or figure.size_arg not in row.args
                or figure.y not in row.values
                or (figure.scene is not None and row.scene != figure.scene)
                or (figure.group_arg is not None
                    and figure.group_arg not in row.args)
                or (table is not None and row.variant not in table)
                or (figure.leave_twins_out and table is not None
                    and table[row.variant]["twin"])
                or (figure.origins is not None and table is not None
                    and table[row.variant]["origin"] not in figure.origins)):
            continue
        group = (row.scene if figure.group_arg is None
                 else row.args[figure.group_arg])
        key = (group, row.device, row.variant)
        if (key not in largest or row.args[figure.size_arg]
                > largest[key].args[figure.size_arg]):
            largest[key] = row
    groups = defaultdict(dict)
    for (scene, device, variant), row in largest.items():
        value = row.values[figure.y]
        if figure.y == "real_time":
            value = real_time_us(row.values)
        if figure.per_time:
            seconds = (real_time_us(row.values) * 1e-6
                       if "real_time" in row.values else 0)
            if not seconds or not value:
                continue
            value /= seconds
        value *= figure.y_scale
        if figure.per:
            denominator = row.values.get(figure.per, 0)
            if not denominator:
                continue
            value /= denominator
        tick = row.values.get(figure.tick) if figure.tick else None
        low_high = None
        if figure.y == "real_time" and not figure.per and not figure.per_time:
            low_high = spread(row, "real_time", 1e-3 * figure.y_scale)
        groups[(scene, device)][variant] = (value, tick, low_high, row)
    return groups


def bar_limits(figure, rows):
    """For a time figure in one scene: [(label, microseconds, row)], the
    copies of the same bytes at the scene's largest size, measured in the
    same run, per device. For real_time the fastest copy that includes
    what the row's time does (a copy that reports kernel_us is timed alone
    on the device, so it is left out); for kernel_us (a CUDA kernel timed
    alone) each copy that reports kernel_us (memcpy_cuda: the whole GPU;
    memcpy_cuda_one_block: one block, the launch shape of a kernel that
    runs one block)."""
    if figure.y not in ("real_time", "kernel_us") or figure.scene is None:
        return []
    kernel = figure.y == "kernel_us"
    copies = [r for r in rows if r.family == figure.family
              and is_limit(r.variant) and r.scene == figure.scene
              and figure.size_arg in r.args and figure.y in r.values
              and kernel == ("kernel_us" in r.values)
              and (figure.device is None
                   or r.device.startswith(figure.device))]
    if not copies:
        return []
    devices = sorted({r.device for r in copies})
    limits = []
    for device in devices:
        on_device = [r for r in copies if r.device == device]
        size = max(r.args[figure.size_arg] for r in on_device)
        at_size = [r for r in on_device if r.args[figure.size_arg] == size]
        where = f" [{device}]" if len(devices) > 1 else ""
        if kernel:
            for row in sorted(at_size, key=lambda r: r.variant):
                limits.append((f"{row.variant} of the same bytes (limit)"
                               f"{where}", row.values["kernel_us"], row))
        else:
            fastest = min(at_size, key=lambda r: real_time_us(r.values))
            limits.append((f"memcpy of the same bytes (limit){where}",
                           real_time_us(fastest.values), fastest))
    return limits


def draw_bars(figure, run, gallery):
    """Bars per group (a scene, or a value of figure.group_arg), one per
    variant that ran there, packed without empty slots, a panel per
    device; the copy limits and the goal as lines across; returns the
    paths written."""
    rows = run.rows
    groups = bar_values(figure, run)
    if not groups:
        print(f"{figure.name}: no rows in the JSON, figure not drawn",
              file=sys.stderr)
        return []
    devices = sorted({device for _, device in groups})
    variants = sorted({v for g in groups.values() for v in g})
    most = max(len(g) for g in groups.values())
    width = 0.8 / most
    longest = max(len(str(group)) for group, _ in groups)
    # Room under each panel for its group names, written upright.
    label_in = 0.06 * longest
    panel_in = 1.9 + label_in
    fig, axes = style.figure(figure.columns, height_in=panel_in * len(devices),
                             rows=len(devices), squeeze=False)
    drawn = set()
    limits_drawn = False
    limit_rows = []
    goal = (run.goal(figure.family, figure.hline_goal)
            if figure.hline_goal else None)
    for ax, device in zip(axes[:, 0], devices):
        keys = sorted(k for k in groups if k[1] == device)
        for i, key in enumerate(keys):
            present = [v for v in variants if v in groups[key]]
            for j, variant in enumerate(present):
                value, _, low_high, _ = groups[key][variant]
                x = i + (j - (len(present) - 1) / 2) * width
                yerr = None
                if low_high is not None:
                    yerr = [[value - low_high[0]], [low_high[1] - value]]
                ax.bar(x, value, width=width * 0.92, yerr=yerr, capsize=1.2,
                       error_kw={"elinewidth": 0.6},
                       label=None if variant in drawn else variant,
                       **style.bar_style(figure.family, variant))
                drawn.add(variant)
            ticks = [t[1] for t in groups[key].values() if t[1] is not None]
            if figure.tick and ticks:
                ax.hlines(max(ticks), i - 0.45, i + 0.45, colors="black",
                          linewidth=1.2,
                          label=None if "tick" in drawn else figure.tick)
                drawn.add("tick")
        if goal is not None:
            ax.axhline(goal, color="black", linestyle="--", linewidth=0.8,
                       label=f"goal {goal:g}")
        # This panel's device's copies alone.
        here = bar_limits(figure, [r for r in rows if r.device == device])
        for index, (label, limit, limit_row) in enumerate(here):
            ax.axhline(limit, color="0.3",
                       linestyle=(":", "-.", "--")[index % 3],
                       linewidth=0.9, label=label)
            limits_drawn = True
            limit_rows.append(limit_row)
        if figure.logy:
            ax.set_yscale("log")
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels([str(group) for group, _ in keys], rotation=90)
        ax.set_xlim(-0.6, len(keys) - 0.4)
        ax.set_ylabel(figure.ylabel)
        if len(devices) > 1:
            ax.set_title(device)
        ax.grid(False, axis="x")
    style.legend_below(fig, axes[0, 0])
    shown_rows = [t[3] for g in groups.values() for t in g.values()]
    return gallery.save_figure(fig, figure.name,
                               caption_of(figure, shown_rows, devices,
                                          bar_limits_drawn=limits_drawn),
                               shown_rows + limit_rows, figure.family,
                               figure.columns)


def bar_table(figure, run):
    rows = run.rows
    groups = bar_values(figure, run)
    variants = sorted({v for g in groups.values() for v in g})
    if not groups:
        return []
    quantity = ("microseconds per run" if figure.y == "real_time" else
                figure.y + (f" / {figure.per}" if figure.per else "")
                + (" per second" if figure.per_time else "")
                + (f" (x {figure.y_scale:g})" if figure.y_scale != 1.0
                   else ""))
    group = figure.group_arg or "scene"
    if figure.scene:
        quantity += f" on {figure.scene}"
    lines = [f"{quantity} at each {group}'s largest {figure.size_arg}"
             + (f" ({figure.tick} in brackets)" if figure.tick else "") + ":",
             "", f"| {group} | device | " + " | ".join(variants) + " |",
             "| --- | --- | " + " | ".join("---:" for _ in variants) + " |"]
    for (scene, device) in sorted(groups):
        group = groups[(scene, device)]
        ticks = [t[1] for t in group.values() if t[1] is not None]
        cells = [f"{group[v][0]:.2f}".rstrip("0").rstrip(".") if v in group
                 else "-" for v in variants]
        tick = f" [{int(max(ticks))}]" if ticks else ""
        lines.append(f"| {scene}{tick} | {device} | " + " | ".join(cells)
                     + " |")
    limits = bar_limits(figure, rows)
    if limits:
        lines.append("")
    for label, limit, _ in limits:
        lines.append(f"{label}, same run: {limit:.2f} microseconds.")
    return lines


def limit_row_for(row, rows, x, field, best=max):
    """The row of the best copy of the same bytes on the same device at the
    same x (best=min for a time); None when no copy was measured."""
    candidates = [r for r in rows
                  if r.family == row.family and r.device == row.device
                  and r.scene == row.scene and is_limit(r.variant)
                  and r.args.get(x) == row.args.get(x) and field in r.values]
    return best(candidates, key=lambda r: r.values[field], default=None)


def limit_for(row, rows, x, field, best=max):
    """limit_row_for's value."""
    limit = limit_row_for(row, rows, x, field, best)
    return limit.values[field] if limit is not None else None


def value_table(figure, rows):
    """A quality figure's values, one line per scene, series and x."""
    selected = [r for r in rows
                if r.family == figure.family and figure.x in r.args
                and figure.y in r.values and not is_limit(r.variant)
                and (figure.scene is None or r.scene == figure.scene)]
    series = figure.series_arg or "-"
    lines = [f"| variant | device | scene | {series} | {figure.x} | "
             f"{figure.y} (x {figure.y_scale:g}) |",
             "| --- | --- | --- | ---: | ---: | ---: |"]
    for row in sorted(selected, key=lambda r: (
            r.variant, r.device, r.scene,
            str(r.args.get(figure.series_arg, "")), r.args[figure.x])):
        lines.append(
            f"| {row.variant} | {row.device} | {row.scene} | "
            f"{row.args.get(figure.series_arg, '-')} | {row.args[figure.x]} | "
            f"{row.values[figure.y] * figure.y_scale:.3f} |")
    return lines


def ratio_table(figure, rows):
    selected = [r for r in rows
                if r.family == figure.family and figure.x in r.args
                and figure.y in r.values and not is_limit(r.variant)
                and (figure.scene is None or r.scene == figure.scene)]
    largest = {}
    for row in selected:
        key = (row.variant, row.device, row.scene)
        if key not in largest or row.args[figure.x] > largest[key].args[figure.x]:
            largest[key] = row
    ratio = "ratio (limit time / time)" if figure.lower_is_better else "ratio"
    lines = [
        f"| variant | device | scene | {figure.x} | {figure.y} | "
        f"limit (best memcpy, same device and bytes) | {ratio} |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for key in sorted(largest):
        row = largest[key]
        value = row.values[figure.y]
        limit = limit_for(row, rows, figure.x, figure.y,
                          min if figure.lower_is_better else max)
        if not limit:
            ratio = "no limit measured"
        elif figure.lower_is_better:
            ratio = f"{limit / value:.3f}" if value else "-"
        else:
            ratio = f"{value / limit:.2f}"
        limit_text = f"{limit * figure.y_scale:.2f}" if limit else "-"
        lines.append(
            f"| {row.variant} | {row.device} | {row.scene} | "
            f"{row.args[figure.x]} | {value * figure.y_scale:.2f} | "
            f"{limit_text} | {ratio} |")
    return lines


def baseline_table(figure, run):
    """Each variant's rate over the baseline's, per scene and size, on the
    same device: the speedups a note may quote."""
    if not figure.compare_with_baseline:
        return []
    baseline = run.baseline(figure.family)
    if baseline is None and any(r.family == figure.family for r in run.rows):
        print(f"{figure.name}: no variant table of {figure.family} in the "
              "JSON's context, so no baseline to compare with",
              file=sys.stderr)
    if baseline is None:
        return []
    selected = [r for r in run.rows
                if r.family == figure.family and figure.x in r.args
                and figure.y in r.values and not is_limit(r.variant)]
    base = {(r.device, r.scene, r.args[figure.x]): r.values[figure.y]
            for r in selected if r.variant == baseline}
    others = sorted({r.variant for r in selected} - {baseline})
    if not base or not others:
        return []
    by_key = {(r.variant, r.device, r.scene, r.args[figure.x]): r.values[
        figure.y] for r in selected}
    lines = ["", f"Speedup over `{baseline}` (same device, scene and "
             f"{figure.x}; from the same run):", "",
             f"| device | scene | {figure.x} | " + " | ".join(others) + " |",
             "| --- | --- | ---: | " + " | ".join("---:" for _ in others)
             + " |"]
    for (device, scene, x), value in sorted(base.items(),
                                            key=lambda kv: (kv[0][0],
                                                            kv[0][1] != "grid",
                                                            kv[0][1], kv[0][2])):
        cells = []
        for variant in others:
            other = by_key.get((variant, device, scene, x))
            if figure.lower_is_better:
                cells.append(f"{value / other:.2f}"
                             if other is not None and other > 0 else "-")
            else:
                cells.append(f"{other / value:.2f}"
                             if other is not None and value > 0 else "-")
        lines.append(f"| {device} | {scene} | {x} | " + " | ".join(cells)
                     + " |")
    return lines


def check_cost_table(run, family, size_arg, check="check"):
    """report.md lines: per device, scene and size, the family's input check
    timed alone (the `check` rows) against the fastest kernel alone
    (`trusted:1` rows, where the run has them) and the fastest variant as
    shipped (check included); then each variant as shipped / its kernel
    alone. Times in ms, from the same run."""
    checks, kernels, as_shipped = {}, defaultdict(dict), defaultdict(dict)
    for r in run.rows:
        if (r.family != family or is_limit(r.variant)
                or "real_time" not in r.values or size_arg not in r.args):
            continue
        key = (r.device, r.scene, r.args[size_arg])
        ms = real_time_us(r.values) / 1e3
        # A variant timed under several other arguments (a scheduler) is
        # one column per argument value.
        label = r.variant + "".join(
            f" {name}={value}" for name, value in sorted(r.args.items())
            if name not in (size_arg, "trusted") + BENCHMARK_OPTIONS)
        if r.variant == check:
            checks[key] = ms
        elif is_kernel_only(r):
            kernels[key][label] = ms
        else:
            as_shipped[key][label] = ms
    keys = sorted(k for k in checks if as_shipped.get(k))
    if not keys:
        return []
    lines = ["", f"## {family}: the input check's cost", "",
             f"`{family}::Check` timed alone against the fastest kernel "
             "alone (`trusted:1` rows: the variant's kernel on input checked "
             "before timing) and the fastest variant as shipped (check "
             "included). Times in ms, from the same run.", "",
             f"| device | scene | {size_arg} | check | fastest kernel | "
             "kernel | check / kernel | fastest as shipped | check / "
             "shipped |",
             "| --- | --- | ---: | ---: | --- | ---: | ---: | --- | ---: |"]
    for key in keys:
        device, scene, size = key
        check_ms = checks[key]
        kernel_text, kernel_ms_text, kernel_ratio = "-", "-", "-"
        if kernels.get(key):
            name, ms = min(kernels[key].items(), key=lambda kv: kv[1])
            kernel_text, kernel_ms_text = name, f"{ms:.3f}"
            kernel_ratio = f"{check_ms / ms:.3f}"
        name, ms = min(as_shipped[key].items(), key=lambda kv: kv[1])
        lines.append(f"| {device} | {scene} | {size} | {check_ms:.3f} | "
                     f"{kernel_text} | {kernel_ms_text} | {kernel_ratio} | "
                     f"{name} {ms:.3f} | {check_ms / ms:.3f} |")
    paired = sorted(k for k in keys if kernels.get(k))
    return lines + shipped_over_kernel_lines(
        paired, kernels, as_shipped, f"scene | {size_arg}", digits=3)


def shipped_over_kernel_lines(keys, kernels, as_shipped, columns, digits):
    """report.md lines: for each (device, scene, size) key, every variant's
    time as shipped / its kernel alone in ms (`digits` decimals), "-" where
    one of the two is missing; `columns` names the scene and size columns.
    No lines when no key has a kernel."""
    variants = sorted({v for k in keys for v in kernels[k]})
    if not variants:
        return []
    lines = ["", "Each variant as shipped / its kernel alone (ms):", "",
             f"| device | {columns} | " + " | ".join(variants) + " |",
             "| --- | --- | ---: | " + " | ".join("---" for _ in variants)
             + " |"]
    for key in keys:
        cells = []
        for variant in variants:
            kernel = kernels[key].get(variant)
            full = as_shipped.get(key, {}).get(variant)
            cells.append(f"{full:.{digits}f} / {kernel:.{digits}f}"
                         if kernel is not None and full is not None else "-")
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | "
                     + " | ".join(cells) + " |")
    return lines


def device_resident_table(run):
    """report.md lines: every `device:1` row (a CUDA variant's device entry
    on data already on the device, timed by CUDA events) against
    `memcpy_cuda` (the same bytes copied device to device) at the same
    family, scene, size and device, from the same run."""
    copies = {}
    kernels = []
    for r in run.rows:
        if "real_time" not in r.values:
            continue
        if r.variant == "memcpy_cuda":
            copies[(r.family, r.device, r.scene,
                    tuple(sorted(r.args.items())))] = real_time_us(r.values)
        elif r.args.get("device") and not is_limit(r.variant):
            kernels.append(r)
    lines = []
    for r in sorted(kernels, key=lambda r: (r.family, r.device, r.scene,
                                            r.variant,
                                            sorted(r.args.items()))):
        size = tuple(sorted((k, v) for k, v in r.args.items()
                            if k != "device"))
        copy_us = copies.get((r.family, r.device, r.scene, size))
        kernel_us = real_time_us(r.values)
        ratio = (f"{copy_us / kernel_us:.2f}"
                 if copy_us is not None and kernel_us > 0 else "-")
        copy_text = f"{copy_us / 1e3:.3f}" if copy_us is not None else "-"
        size_text = ", ".join(f"{k}={v}" for k, v in size)
        lines.append(f"| {r.device} | {r.family} | {r.variant} | {r.scene} "
                     f"| {size_text} | {kernel_us / 1e3:.3f} | {copy_text} "
                     f"| {ratio} |")
    if not lines:
        return []
    return ["", "## CUDA kernels alone on device-resident data", "",
            "Each `device:1` row times a CUDA variant's device entry on data "
            "already on the device (CUDA events); `memcpy_cuda` copies the "
            "same bytes device to device in the same run. Times in ms; "
            "copy / kernel is the fraction of that limit reached.", "",
            "| device | family | variant | scene | size | kernel | "
            "memcpy_cuda | copy / kernel |",
            "| --- | --- | --- | --- | --- | ---: | ---: | ---: |"] + lines


def machine_lines(contexts):
    """One block per distinct machine and build (CPU, caches, OpenMP,
    Highway target, GPU, build, revision, sweep), the JSON files that
    share it listed under it with their dates."""
    groups = {}
    for path, context in sorted(contexts.items()):
        caches = ", ".join(
            f"L{c['level']} {c['type'][0]} {c['size'] // 1024} KiB"
            f" x{max(1, context.get('num_cpus', 1) // max(1, c.get('num_sharing', 1)))}"
            for c in context.get("caches", []))
        block = (
            f"    - CPU: {context.get('cpu_model', '?')}, "
            f"{context.get('num_cpus', '?')} CPUs at "
            f"{context.get('mhz_per_cpu', '?')} MHz; caches: {caches}; "
            f"OpenMP: {context.get('omp_max_threads', '?')} threads, "
            f"OMP_PROC_BIND={context.get('omp_proc_bind', '?')}, "
            f"OMP_PLACES={context.get('omp_places', '?')}; Highway target "
            f"{context.get('hwy_target', '?')}; GPU: "
            f"{context.get('gpu', '?')}; build: "
            f"{context.get('adj_build_type', '?')} "
            f"({context.get('adj_compiler', '?')}), revision "
            f"{context.get('adj_git_revision', '?')}, sweep "
            f"{context.get('adj_sweep', '?')}",
        )
        groups.setdefault(block, []).append(
            f"`{path}` ({context.get('date', '?')})")
    lines = []
    for block, files in groups.items():
        lines.append(f"- {len(files)} file{'s' if len(files) > 1 else ''}: "
                     + ", ".join(files))
        lines += list(block)
    return lines


def milliseconds(value):
    """A time in ms for a table: three significant digits, never in
    exponent form."""
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def shipped_groups(run, family):
    """(table_of, groups) of a family's rows as shipped (no copies, no
    kernel-only rows): table_of maps a variant to (its table's name, its
    table row); groups maps (table, device, scene, size) to the rows timed
    there. A family with several tables (triplet_schedule's simd and warp
    schedulers) is grouped within each: their outputs are different
    things."""
    tables = run.tables.get(family, {})
    table_of = {name: (table_name, row)
                for table_name, table in tables.items()
                for name, row in table.get("variants", {}).items()}
    groups = defaultdict(list)
    for row in run.rows:
        if (row.family != family or row.variant not in table_of
                or is_limit(row.variant) or is_kernel_only(row)):
            continue
        size = ", ".join(f"{k}:{v}" for k, v in sorted(row.args.items())
                         if k not in BENCHMARK_OPTIONS)
        groups[(table_of[row.variant][0], row.device, row.scene,
                size)].append(row)
    return table_of, groups


def fastest(rows):
    """The row of the lowest median time."""
    return min(rows, key=lambda r: real_time_us(r.values))


def verdict_between(first, second, first_name="ours", second_name="peer"):
    """The Mann-Whitney verdict of two rows' repetitions (noise.py): "~"
    within noise, "<name> faster", or "one repetition"."""
    import noise  # scipy, only where a report draws

    if len(first.times) < 2 or len(second.times) < 2:
        return "one repetition"
    if noise.within_noise(first.times, second.times):
        return "~"
    faster = (first_name if real_time_us(first.values)
              < real_time_us(second.values) else second_name)
    return f"{faster} faster"


def size_key(size):
    """A group's size ("n:1048576, keep:50") as a sort key: its numbers,
    largest first, so that the largest problem sorts last."""
    numbers = sorted((int(v) for v in re.findall(r":(\d+)", size)),
                     reverse=True)
    return numbers, size


def verified_flags(run):
    """{(family, variant, device): [the `verified` counter of each of its
    benchmark rows]}, the copies left out: what the verification matrix
    and its summary are read from."""
    flags = defaultdict(list)
    for row in run.rows:
        if not is_limit(row.variant) and "verified" in row.values:
            flags[(row.family, row.variant, row.device)].append(
                row.values["verified"])
    return flags


def verification_summary(run):
    """report.md's short form of index.html's verification matrix: per
    family, how many of its variants' benchmark rows the oracle passed
    (the `verified` counter), and by name the variants with a row it
    failed or a row that gave no timing on this machine (a CUDA row without
    a GPU is not counted)."""
    lines = ["", "## Verification", "",
             "Per family, the oracle's verdict on every benchmark row of this "
             "run and of the kept GPU runs (the benchmarks' `verified` "
             "counter); the tests per variant are in index.html's matrix.",
             "", "| family | variants agreeing (rows) | differs | "
             "no timing here |", "| --- | ---: | --- | --- |"]
    by_device = verified_flags(run)
    for family in sorted(run.tables):
        flags = defaultdict(list)
        for (f, variant, _), verdicts in by_device.items():
            if f == family:
                flags[variant] += verdicts
        differs = sorted(v for v, f in flags.items() if 0 in f)
        agreeing = [v for v in flags if v not in differs]
        rows = sum(len(flags[v]) for v in agreeing)
        variants = run.variants(family)
        silent = sorted({v for f, v, *_ in run.errors if f == family
                         and variants.get(v, {}).get("backend") != "cuda"})
        lines.append(f"| {family} | {len(agreeing)} ({rows}) | "
                     f"{', '.join(differs) or '-'} | "
                     f"{', '.join(silent) or '-'} |")
    return lines


def which_to_use(run):
    """"Which variant to use", computed from this run (rows kept from other
    machines are theirs, not this machine's answer): per family, table,
    device and scene, at the largest size every row there ran, the
    fastest row as shipped (a peer named as such), its margin over the
    next fastest (the next one's median over its own) and the
    Mann-Whitney verdict between the two; the scenes where the same row
    wins share a line."""
    lines = ["", "## Which variant to use", "",
             "Computed from this run's JSON: per family, device and scene, at "
             "the largest size timed, the fastest row as shipped (input "
             "check and conversions included), its margin over the next "
             "fastest (the next one's median time over its own), and a "
             "two-sided Mann-Whitney test over their repetitions (~: the "
             "two are within noise, either will do); the scenes one row "
             "wins share a line. A peer is a library called as its "
             "documentation recommends.", "",
             "| family | table | device | use | where (scene, size) | margin "
             "| next fastest | verdict |",
             "| --- | --- | --- | --- | --- | ---: | --- | --- |"]
    here = dataclasses.replace(run, rows=[r for r in run.rows
                                          if not r.kept])
    for family in sorted(here.tables):
        table_of, groups = shipped_groups(here, family)
        largest = {}
        for (table_name, device, scene, size), rows in groups.items():
            key = (table_name, device, scene)
            if len({r.variant for r in rows}) < 2:
                continue
            if key not in largest or size_key(size) > size_key(largest[key]):
                largest[key] = size
        wins = defaultdict(list)
        for (table_name, device, scene), size in sorted(largest.items()):
            rows = groups[(table_name, device, scene, size)]
            ranked = sorted(rows, key=lambda r: real_time_us(r.values))
            first = ranked[0]
            second = next(r for r in ranked if r.variant != first.variant)
            margin = real_time_us(second.values) / real_time_us(first.values)
            verdict = verdict_between(first, second, "it", "next")
            wins[(table_name, device, first.variant)].append(
                (scene, size, margin, second.variant,
                 verdict.replace("it faster", "faster")))
        for (table_name, device, variant), won in sorted(wins.items()):
            row = table_of[variant][1]
            use = f"`{variant}`"
            if row.get("origin") == "peer":
                use += f" (peer: {row.get('library', '')})"
            where = ", ".join(f"{scene} ({size})"
                              for scene, size, *_ in won)
            margins = [m for _, _, m, _, _ in won]
            margin = (f"{margins[0]:.2f}x" if len(margins) == 1 else
                      f"{min(margins):.2f}-{max(margins):.2f}x")
            nexts = ", ".join(f"`{n}`" for n in
                              dict.fromkeys(n for *_, n, _ in won))
            verdicts = [v for *_, v in won]
            verdict = (verdicts[0] if len(set(verdicts)) == 1 else
                       ", ".join(f"{v} on {verdicts.count(v)}"
                                 for v in dict.fromkeys(verdicts)))
            lines.append(f"| {family} | {table_name} | {device} | {use} "
                         f"| {where} | {margin} | {nexts} | {verdict} |")
    return lines


def draw_peers(run, family, gallery):
    """<family>_vs_peers: per table, device and scene, at the largest size
    where both ran, the fastest of ours beside the fastest peer (median ms,
    bars min-max of the repetitions); returns the paths written."""
    name = f"{family}_vs_peers"
    table_of, shipped = shipped_groups(run, family)
    if (not gallery.wanted(name) or not any(
            row.get("origin") == "peer" for _, row in table_of.values())):
        return []
    largest = {}
    for (table_name, device, scene, size), rows in shipped.items():
        origins = {table_of[r.variant][1].get("origin") == "peer"
                   for r in rows}
        key = (table_name, device, scene)
        if origins == {True, False} and (
                key not in largest
                or size_key(size) > size_key(largest[key])):
            largest[key] = size
    if not largest:
        return []
    pairs = []
    for key, size in sorted(largest.items()):
        rows = shipped[(*key, size)]
        peers = [r for r in rows if table_of[r.variant][1].get("origin")
                 == "peer"]
        ours = [r for r in rows if r not in peers]
        pairs.append((key, size, fastest(ours), fastest(peers)))
    devices = sorted({key[1] for key, *_ in pairs})
    tables = {key[0] for key, *_ in pairs}
    labels = []
    for key, *_ in pairs:
        group = key[2] if len(tables) == 1 else f"{key[0]}: {key[2]}"
        labels.append(group if len(devices) == 1 else f"{group} [{key[1]}]")
    # Room under the axes for the group names, written upright.
    fig, ax = style.figure(2 if len(pairs) > 6 else 1,
                           height_in=1.9 + 0.06 * max(map(len, labels)))
    drawn = set()
    for i, (key, size, ours, peer) in enumerate(pairs):
        for offset, row, side in ((-0.2, ours, "ours"),
                                  (0.2, peer, "peer")):
            ms = real_time_us(row.values) / 1e3
            low_high = spread(row, "real_time", 1e-6)
            yerr = ([[ms - low_high[0]], [low_high[1] - ms]]
                    if low_high else None)
            label = row.variant + (" (peer)" if side == "peer" else "")
            ax.bar(i + offset, ms, width=0.38, yerr=yerr, capsize=1.2,
                   error_kw={"elinewidth": 0.6},
                   label=None if label in drawn else label,
                   **style.bar_style(family, row.variant))
            drawn.add(label)
    ax.set_yscale("log")
    ax.set_xticks(range(len(pairs)))
    ax.set_xticklabels(labels, rotation=90)
    ax.set_xlim(-0.6, len(pairs) - 0.4)
    ax.set_ylabel("ms per call, as a user calls it")
    ax.grid(False, axis="x")
    style.legend_below(fig, ax)
    ratios = [real_time_us(o.values) / real_time_us(p.values)
              for _, _, o, p in pairs]
    caption = (f"Is the best of ours faster than the library a user would "
               f"call instead? Per scene at the largest size both ran, the "
               f"fastest of the suite's rows (left bar) beside the fastest "
               f"peer (right bar), each as shipped (input check and "
               f"conversion to the family's output included); our time "
               f"over the peer's is {min(ratios):.3g} to {max(ratios):.3g}. "
               f"{spread_words([r for _, _, o, p in pairs for r in (o, p)])} "
               + measured_on(devices))
    return gallery.save_figure(fig, name, caption,
                               [r for _, _, o, p in pairs for r in (o, p)],
                               family, 2 if len(pairs) > 6 else 1)


def peers_table(run, family):
    """Ours against the peers, per device, scene and size: the best (lowest
    median time) of the suite's own rows as shipped beside the best peer's,
    the ratio of their medians, the Mann-Whitney verdict over their
    repetitions (noise.py), and the peer's verdict against the oracle (each
    benchmark checks a row before timing it and drops a row that differs,
    so a peer row in the JSON agreed). Kernel-only rows are left out: a
    peer is timed as a user calls it."""
    table_of, shipped = shipped_groups(run, family)
    if not any(row.get("origin") == "peer" for _, row in table_of.values()):
        return []
    groups = defaultdict(lambda: {"ours": [], "peer": []})
    for key, rows in shipped.items():
        for row in rows:
            side = ("peer" if table_of[row.variant][1].get("origin") == "peer"
                    else "ours")
            groups[key][side].append(row)

    lines = ["", f"## {family}: ours against the peers", "",
             "Per table, scene and size, the fastest of the suite's rows "
             "as shipped "
             "and the fastest peer (a library called as its documentation "
             "recommends, converted to the family's output), from the same "
             "run; ratio = our median time / the peer's (below 1: ours is "
             "faster); the verdict is a two-sided Mann-Whitney test over "
             "the repetitions (~: within noise). Every row was checked "
             "against the oracle before it was timed.", "",
             "| table | device | scene | size | best of ours | ms | best peer "
             "| library | ms | ratio | verdict |",
             "| --- | --- | --- | --- | --- | ---: | --- | --- | ---: | ---: "
             "| --- |"]
    for (table_name, device, scene, size), sides in sorted(
            groups.items(), key=lambda group: (*group[0][:3],
                                               size_key(group[0][3]))):
        if not sides["ours"] or not sides["peer"]:
            continue
        ours, peer = fastest(sides["ours"]), fastest(sides["peer"])
        ours_ms = real_time_us(ours.values) / 1e3
        peer_ms = real_time_us(peer.values) / 1e3
        verdict = verdict_between(ours, peer)
        library = table_of[peer.variant][1].get("library", "")
        lines.append(
            f"| {table_name} | {device} | {scene} | {size} | `{ours.variant}` "
            f"| {milliseconds(ours_ms)} | `{peer.variant}` | {library} "
            f"| {milliseconds(peer_ms)} | {ours_ms / peer_ms:.3f} "
            f"| {verdict} |")
    # A peer that did not run or whose output the oracle refused is shown,
    # never left out: "differs" with the benchmark's first difference.
    refused = sorted({(variant, scene, message)
                      for f, variant, scene, _, message in run.errors
                      if f == family and variant in table_of
                      and table_of[variant][1].get("origin") == "peer"})
    if refused:
        lines += ["", "Peer rows that did not give a timing:", ""]
        for variant, scene, message in refused:
            verdict = ("**differs** from the oracle" if "differs" in message
                       else "refused the input (its documented convention)"
                       if "refused" in message else "did not run")
            lines.append(f"- `{variant}` on {scene}: {verdict}: {message}")
    return lines
