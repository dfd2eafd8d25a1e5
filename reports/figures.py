#!/usr/bin/env python3
"""Benchmark JSON -> figures (PDF + PNG) and reports/out/report.md.

Reads only JSON that the benchmark binaries wrote: this run's files in
--json (reports/out/json/<family>.json) and results kept from other machines
in --data (reports/data/**/*.json, e.g. a GPU run), drawn beside them and
marked by device. No number is typed into this script.

Benchmark names are the suite's schema:
    <family>/<variant>/<scene>/<arg>:<value>/.../<timer>
Rows whose variant starts with "memcpy" are the machine's limit: drawn as
dashed lines, and the denominator of every ratio in the report (on the CPU
the fastest of memcpy, memcpy_openmp and memcpy_stream at the same size, on
a GPU the fastest of memcpy_cuda, a device-to-device copy,
memcpy_cuda_one_block, the same by one block, and memcpy_cuda_host, the
bytes across the bus once, half each way). A CUDA row's kernel_us (its kernel alone) is drawn beside
the device copies' kernel_us.

A family adds a figure by appending a Figure to FIGURES.
"""

import argparse
import dataclasses
import gzip
import json
import pathlib
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


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
    # A variant every other is compared with, per scene, in the report.
    baseline: str | None = None
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


FIGURES = [
    Figure(
        name="prefix_sum_throughput",
        family="prefix_sum",
        x="n",
        y="bytes_per_second",
        y_scale=1e-9,
        xlabel="elements n (uint32)",
        ylabel="GB/s (bytes read + written)",
        title="Inclusive prefix sum vs memcpy of the same bytes",
    ),
    Figure(
        name="triangle_adjacency_throughput",
        family="triangle_adjacency",
        x="triangles",
        y="items_per_second",
        y_scale=1e-6,
        xlabel="triangles",
        ylabel="M triangles/s",
        title="Particle -> triangle adjacency (CSR) build; "
              "copy of the same bytes as limit",
        marked_scenes="cgal-",
        limit_scene="grid",
        baseline="nvcloth",
        logy=True,
    ),
    Figure(
        name="hash_grid_time",
        family="hash_grid",
        x="n",
        y="real_time",
        y_scale=1e-6,
        xlabel="particles n (uniform cloud, ~30 neighbours each)",
        ylabel="ms per neighbour-list build",
        title="Fixed-radius neighbour lists: time vs n; copy of the "
              "positions and a full list as limit",
        scene="uniform",
        logy=True,
        lower_is_better=True,
        baseline="muller",
    ),
    Figure(
        name="hash_grid_muller_duplicates",
        family="hash_grid",
        x="table_factor",
        y="duplicate_fraction",
        y_scale=100.0,
        xlabel="Müller's table size / particles",
        ylabel="duplicate entries, % of distinct pairs",
        title="Müller's dense hash: repeated entries vs table size and "
              "query radius (radius_cells x spacing)",
        series_arg="radius_cells",
        quality=True,
        ticks_at_values=True,
    ),
    Figure(
        name="compaction_throughput",
        family="compaction",
        x="n",
        y="bytes_per_second",
        y_scale=1e-9,
        xlabel="items n (uint32 + 1-byte flag)",
        ylabel="GB/s (bytes read + written)",
        title="Stable compaction (90/50/10 % kept) vs memcpy of the same "
              "bytes",
        limit_scene="keep90",
    ),
    Figure(
        name="hash_set_throughput",
        family="hash_set",
        x="load",
        y="items_per_second",
        y_scale=1e-6,
        xlabel="load (percent of the 2^23 slots filled)",
        ylabel="M keys/s",
        title="Hash set: inserts and lookups per second vs load",
        logx=False,
        limit_scene="none",
    ),
    Figure(
        name="triplet_schedule_time",
        family="triplet_schedule",
        x="triplets",
        y="items_per_second",
        y_scale=1e-6,
        xlabel="triplets (one per triangle)",
        ylabel="M triplets scheduled/s",
        title="Triplet scheduling speed (simd W=4, warp W=32); "
              "copy of the triplets as limit",
        scene="grid-permuted",
        logy=True,
    ),
]


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
    variant_suffix: str | None = None  # only variants ending so
    tick: str | None = None  # counter drawn as a black tick per group
    hline: float | None = None  # a goal drawn across (with its label)
    hline_label: str = ""
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


BAR_FIGURES = [
    BarFigure(
        name="connected_components_time",
        family="connected_components",
        y="real_time",
        size_arg="vertices",
        logy=True,
        ylabel="microseconds per labelling",
        title="Connected components per graph (check_graph: symmetry "
              "check alone)",
    ),
    BarFigure(
        name="hash_grid_pairs_per_second",
        family="hash_grid",
        y="pairs",
        per_time=True,
        y_scale=1e-6,
        size_arg="n",
        ylabel="M pairs found per second",
        title="Neighbour lists: pairs found per second, per scene "
              "(its largest n)",
    ),
    BarFigure(
        name="triplet_collide_time_permuted",
        family="triplet_collide",
        y="real_time",
        group_arg="scheduler",
        scene="grid250-permuted",
        size_arg="triplets",
        ylabel="microseconds per collision pass",
        title="Collision pass per schedule (250^2 grid, permuted)",
    ),
    BarFigure(
        name="triplet_collide_time_natural",
        family="triplet_collide",
        y="real_time",
        group_arg="scheduler",
        scene="grid250-natural",
        size_arg="triplets",
        ylabel="microseconds per collision pass",
        title="Collision pass per schedule (250^2 grid, natural order)",
    ),
    BarFigure(
        name="triplet_collide_kernel_natural",
        family="triplet_collide",
        y="kernel_us",
        group_arg="scheduler",
        scene="grid64-natural",
        size_arg="triplets",
        ylabel="microseconds of kernel (CUDA events)",
        title="CUDA collision kernel per warp schedule (64^2 grid, natural)",
    ),
    BarFigure(
        name="triplet_collide_kernel_permuted",
        family="triplet_collide",
        y="kernel_us",
        group_arg="scheduler",
        scene="grid64-permuted",
        size_arg="triplets",
        ylabel="microseconds of kernel (CUDA events)",
        title="CUDA collision kernel per warp schedule (64^2 grid, permuted)",
    ),
    BarFigure(
        name="triplet_schedule_sets",
        family="triplet_schedule",
        y="sets",
        tick="max_adj",
        size_arg="triplets",
        variant_suffix="_warp",
        ylabel="sets (block barriers per pass)",
        title="Warp schedules: sets per scene; black tick: maxAdj, the "
              "lower bound (each *_warp_openmp lays out its *_warp "
              "twin's schedule)",
    ),
    BarFigure(
        name="triplet_schedule_replays",
        family="triplet_schedule",
        y="replays",
        per="ideal_replays",
        size_arg="triplets",
        variant_suffix="_warp",
        hline=1.3,
        hline_label="goal 1.3",
        ylabel="bank replays / ideal (3 per warp)",
        title="Warp schedules: shared-memory bank replays on the final "
              "order (each *_warp_openmp lays out its *_warp twin's "
              "schedule)",
    ),
]


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


# Each copy its own line style and shade, so that the limits stay apart.
LIMIT_STYLES = {
    "memcpy": ("--", "0.2"),
    "memcpy_openmp": (":", "0.35"),
    "memcpy_stream": ("-.", "0.5"),
    "memcpy_cuda": ("--", "0.65"),
    "memcpy_cuda_host": ("-.", "0.65"),
}


def is_limit(variant):
    return variant.startswith("memcpy")


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


def load_rows(paths):
    """Rows of every file, one per (run_name, device): the median aggregate
    when the run was repeated, else the median of the repetitions."""
    rows = []
    contexts = {}
    for path in paths:
        try:
            # Kept runs with repetitions are large, so they may be gzipped.
            text = (gzip.decompress(path.read_bytes()).decode()
                    if path.suffix == ".gz" else path.read_text())
            document = json.loads(text)
        except (OSError, json.JSONDecodeError) as error:
            print(f"skipping {path}: {error}", file=sys.stderr)
            continue
        context = document.get("context", {})
        contexts[str(path)] = context
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
            rows.append(Row(family, variant, scene, args, chosen,
                            device_of(chosen, context), spread_row,
                            str(path), times))
    return rows, contexts


def series_label(row, devices):
    if len(devices) == 1:
        return row.variant
    return f"{row.variant} [{row.device}]"


def save(fig, devices, out_dir, name):
    """Writes <name>.pdf and .png, the devices named in the corner."""
    fig.text(0.01, 0.01, "; ".join(devices), fontsize=6, color="0.4")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    written = []
    for suffix in ("pdf", "png"):
        path = out_dir / f"{name}.{suffix}"
        fig.savefig(path, dpi=150)
        written.append(path)
    plt.close(fig)
    return written


def draw(figure, rows, out_dir):
    selected = [r for r in rows
                if r.family == figure.family and figure.x in r.args
                and figure.y in r.values
                and (figure.scene is None or r.scene == figure.scene)]
    if not selected:
        print(f"{figure.name}: no rows in the JSON, figure not drawn",
              file=sys.stderr)
        return []
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

    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    markers = "osD^v<>p*hX"
    ordered = sorted(series, key=lambda k: (is_limit(k[0]), k[1], k[0]))
    for index, key in enumerate(ordered):
        variant, device, scene, series_value = key
        points = sorted(series[key], key=lambda r: r.args[figure.x])
        xs = [p.args[figure.x] for p in points]
        ys = [p.values[figure.y] * figure.y_scale for p in points]
        errors = [
            (p.spread_row or {}).get(figure.y, 0.0) * figure.y_scale
            for p in points
        ]
        label = series_label(points[0], devices)
        if len(scenes) > 1:
            label += f" / {scene}"
        if figure.series_arg:
            label += f" / {figure.series_arg}={series_value}"
        gpu = device.startswith("GPU")
        if marked(scene):
            ax.plot(xs, ys, marker=markers[index % len(markers)],
                    markersize=5, linestyle="none", alpha=0.8,
                    label=label + f" ({len(points)} meshes)")
        elif is_limit(variant):
            style, color = LIMIT_STYLES.get(variant, ("--", "0.5"))
            ax.errorbar(xs, ys, yerr=errors if any(errors) else None,
                        linestyle=style, color=color, linewidth=1.4,
                        label=label + " (limit)")
        else:
            ax.errorbar(xs, ys, yerr=errors if any(errors) else None,
                        marker=markers[index % len(markers)], markersize=4,
                        linestyle=":" if gpu else "-", linewidth=1.2,
                        label=label)
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
    ax.set_title(figure.title or figure.name, fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    return save(fig, devices, out_dir, figure.name)


TIME_UNITS_IN_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def real_time_us(values):
    """A JSON row's real_time in microseconds, whatever its time_unit."""
    return values["real_time"] * TIME_UNITS_IN_US.get(
        values.get("time_unit", "ns"), 1e-3)


def bar_values(figure, rows):
    """{(group, device): {variant: (value, tick)}} at each group's largest
    size; a group is a scene, or a value of figure.group_arg in
    figure.scene. Times (real_time) in microseconds."""
    largest = {}
    for row in rows:
        if (row.family != figure.family or is_limit(row.variant)
                or row.args.get("trusted")
                or row.variant == "check_graph_openmp"
                or figure.size_arg not in row.args
                or figure.y not in row.values
                or (figure.scene is not None and row.scene != figure.scene)
                or (figure.group_arg is not None
                    and figure.group_arg not in row.args)
                or (figure.variant_suffix
                    and not row.variant.endswith(figure.variant_suffix))):
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
        groups[(scene, device)][variant] = (value, tick)
    return groups


def bar_limits(figure, rows):
    """For a time figure in one scene: [(label, microseconds)], the copies of
    the same bytes at the scene's largest size, measured in the same run,
    per device. For real_time the fastest copy that includes what the row's
    time does (a copy that reports kernel_us is timed alone on the device,
    so it is left out); for kernel_us (a CUDA kernel timed alone) each copy
    that reports kernel_us (memcpy_cuda: the whole GPU; memcpy_cuda_one_block:
    one block, the launch shape of a kernel that runs one block)."""
    if figure.y not in ("real_time", "kernel_us") or figure.scene is None:
        return []
    kernel = figure.y == "kernel_us"
    copies = [r for r in rows if r.family == figure.family
              and is_limit(r.variant) and r.scene == figure.scene
              and figure.size_arg in r.args and figure.y in r.values
              and kernel == ("kernel_us" in r.values)]
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
                               f"{where}", row.values["kernel_us"]))
        else:
            limits.append((f"memcpy of the same bytes (limit){where}",
                           min(real_time_us(r.values) for r in at_size)))
    return limits


def draw_bars(figure, rows, out_dir):
    groups = bar_values(figure, rows)
    if not groups:
        print(f"{figure.name}: no rows in the JSON, figure not drawn",
              file=sys.stderr)
        return []
    keys = sorted(groups)
    devices = sorted({device for _, device in keys})
    variants = sorted({v for g in groups.values() for v in g})
    width = 0.8 / max(1, len(variants))
    fig, ax = plt.subplots(figsize=(max(7.0, 0.45 * len(keys) + 2), 4.4))
    for index, variant in enumerate(variants):
        xs = [i + (index - (len(variants) - 1) / 2) * width
              for i, key in enumerate(keys) if variant in groups[key]]
        ys = [groups[key][variant][0] for key in keys if variant in groups[key]]
        ax.bar(xs, ys, width=width, label=variant)
    if figure.tick:
        for i, key in enumerate(keys):
            ticks = [t for _, t in groups[key].values() if t is not None]
            if ticks:
                ax.hlines(max(ticks), i - 0.45, i + 0.45, colors="black",
                          linewidth=1.5)
    if figure.hline is not None:
        ax.axhline(figure.hline, color="0.3", linestyle="--", linewidth=1,
                   label=figure.hline_label)
    for index, (label, limit) in enumerate(bar_limits(figure, rows)):
        ax.axhline(limit, color="0.2", linestyle=(":", "-.", "--")[index % 3],
                   linewidth=1.2, label=label)
    labels = [scene if len(devices) == 1 else f"{scene} [{device}]"
              for scene, device in keys]
    if figure.logy:
        ax.set_yscale("log")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel(figure.ylabel)
    ax.set_title(figure.title, fontsize=10)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    return save(fig, devices, out_dir, figure.name)


def bar_table(figure, rows):
    groups = bar_values(figure, rows)
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
        ticks = [t for _, t in group.values() if t is not None]
        cells = [f"{group[v][0]:.2f}".rstrip("0").rstrip(".") if v in group
                 else "-" for v in variants]
        tick = f" [{int(max(ticks))}]" if ticks else ""
        lines.append(f"| {scene}{tick} | {device} | " + " | ".join(cells)
                     + " |")
    limits = bar_limits(figure, rows)
    if limits:
        lines.append("")
    for label, limit in limits:
        lines.append(f"{label}, same run: {limit:.2f} microseconds.")
    return lines


def limit_for(row, rows, x, field, best=max):
    """The best copy of the same bytes on the same device at the same x
    (best=min for a time)."""
    candidates = [r.values[field] for r in rows
                  if r.family == row.family and r.device == row.device
                  and r.scene == row.scene and is_limit(r.variant)
                  and r.args.get(x) == row.args.get(x) and field in r.values]
    return best(candidates) if candidates else None


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


def baseline_table(figure, rows):
    """Each variant's rate over the baseline's, per scene and size, on the
    same device: the speedups a note may quote."""
    if figure.baseline is None:
        return []
    selected = [r for r in rows
                if r.family == figure.family and figure.x in r.args
                and figure.y in r.values and not is_limit(r.variant)]
    base = {(r.device, r.scene, r.args[figure.x]): r.values[figure.y]
            for r in selected if r.variant == figure.baseline}
    others = sorted({r.variant for r in selected} - {figure.baseline})
    if not base or not others:
        return []
    by_key = {(r.variant, r.device, r.scene, r.args[figure.x]): r.values[
        figure.y] for r in selected}
    lines = ["", f"Speedup over `{figure.baseline}` (same device, scene and "
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


def check_cost_table(rows):
    """connected_components: per graph and device, the input check alone
    (check_graph on one thread, check_graph_openmp on every thread) against
    the fastest kernel alone (the .../trusted:1 rows: run_trusted on a
    checked graph), and each variant as shipped (check included) beside its
    kernel alone. Times in ms."""
    family = "connected_components"
    selected = [r for r in rows if r.family == family
                and not is_limit(r.variant) and "real_time" in r.values
                and "vertices" in r.args]
    check_variants = ("check_graph", "check_graph_openmp")
    checks = defaultdict(dict)
    kernels = defaultdict(dict)
    shipped = defaultdict(dict)
    for r in selected:
        key = (r.device, r.scene, r.args["vertices"])
        ms = real_time_us(r.values) / 1e3
        if r.variant in check_variants:
            checks[key][r.variant] = (ms, int(r.values.get("threads", 1)))
            continue
        target = kernels if r.args.get("trusted") else shipped
        target[key][r.variant] = ms
    keys = sorted(k for k in checks if "check_graph" in checks[k]
                  and kernels.get(k))
    if not keys:
        return []
    lines = ["", "## connected_components: the input check's cost", "",
             "check_graph (offsets, ids, symmetry fingerprint) on one "
             "thread and on every thread (what the OpenMP variants run) "
             "against the fastest kernel alone (`trusted:1` rows: the "
             "variant's kernel on a graph checked before timing); the goal "
             "is a check of at most 0.20 of that kernel. Times in ms, from "
             "the same run.", "",
             "| device | graph | vertices | check, 1 thread | check, threads "
             "| fastest kernel | kernel | check / kernel (1 thread) | "
             "check / kernel (threads) | fastest as shipped |",
             "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: "
             "| --- |"]
    for key in keys:
        device, scene, vertices = key
        check, _ = checks[key]["check_graph"]
        threaded = checks[key].get("check_graph_openmp")
        best, best_ms = min(kernels[key].items(), key=lambda kv: kv[1])
        as_shipped = shipped.get(key, {})
        shipped_text = "-"
        if as_shipped:
            name, ms = min(as_shipped.items(), key=lambda kv: kv[1])
            shipped_text = f"{name} {ms:.2f}"
        threaded_text = (f"{threaded[0]:.2f} ({threaded[1]})"
                         if threaded else "-")
        threaded_ratio = (f"{threaded[0] / best_ms:.2f}" if threaded
                          else "-")
        lines.append(f"| {device} | {scene} | {vertices} | {check:.2f} | "
                     f"{threaded_text} | {best} | "
                     f"{best_ms:.2f} | {check / best_ms:.2f} | "
                     f"{threaded_ratio} | {shipped_text} |")
    variants = sorted({v for k in keys for v in kernels[k]})
    lines += ["", "Each variant as shipped / its kernel alone (ms):", "",
              "| device | graph | vertices | " + " | ".join(variants) + " |",
              "| --- | --- | ---: | " + " | ".join("---" for _ in variants)
              + " |"]
    for key in keys:
        cells = []
        for variant in variants:
            kernel = kernels[key].get(variant)
            full = shipped.get(key, {}).get(variant)
            cells.append(f"{full:.2f} / {kernel:.2f}"
                         if kernel is not None and full is not None else "-")
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | "
                     + " | ".join(cells) + " |")
    return lines


# Issue 4's goal for our schedulers, checked per scene and size against
# NvCloth's in the same run: a warp schedule with at most maxAdj + 1 sets,
# at most this many replays per ideal one, and no slower than
# nvcloth_warp; a simd schedule with no more padding than nvcloth_simd's
# and no slower.
WARP_REPLAY_GOAL = 1.3
# The time criterion is judged on medians; where both rows were repeated and
# their repetitions' times overlap, the verdict is marked, since on a noisy
# host another run may reverse it.
NOISE_NOTE = ("A time marked ~: the repetitions of the two rows overlap in "
              "time, so another run may reverse the verdict.")


def times_overlap(a, b):
    """Whether two rows' repetitions overlap in time (both repeated): then
    another run may reverse which is faster."""
    return bool(a.times and b.times) and (min(a.times) <= max(b.times)
                                          and min(b.times) <= max(a.times))


def schedule_goal_tables(rows):
    """Per device, scene and size: which of our schedulers meet the goal,
    and by how much each criterion holds or misses."""
    selected = [r for r in rows if r.family == "triplet_schedule"
                and "triplets" in r.args and not is_limit(r.variant)]
    by_key = {(r.device, r.scene, r.args["triplets"], r.variant): r
              for r in selected}
    lines = []
    for kind, baseline in (("warp", "nvcloth_warp"),
                           ("simd", "nvcloth_simd")):
        # By name: "<ours>_warp" or "<ours>_warp_openmp".
        ours = sorted({r.variant for r in selected
                       if kind in r.variant.split("_")
                       and not r.variant.startswith("nvcloth_")})
        bases = sorted((k for k in by_key if k[3] == baseline),
                       key=lambda k: (k[0], k[2], k[1]))
        if not ours or not bases:
            continue
        if kind == "warp":
            lines += ["", f"### Warp goal: sets <= maxAdj + 1, replays <= "
                      f"{WARP_REPLAY_GOAL:g} x ideal, time <= "
                      f"`{baseline}`'s", "",
                      "Each cell: sets / maxAdj, replays / ideal, "
                      f"`{baseline}`'s time / its time (above 1: faster); "
                      "a criterion missed is in bold. " + NOISE_NOTE
                      + " \"bound\": the "
                      "replays / ideal no schedule of at most maxAdj + 1 "
                      "sets can go below (reference::ReplayRatioLowerBound:"
                      " the most loads on one bank over the most chunks "
                      "such sets can make); above the goal, no scheduler "
                      "can meet it there.", ""]
        else:
            lines += ["", f"### SIMD goal: padding <= `{baseline}`'s, time "
                      f"<= `{baseline}`'s", "",
                      f"Each cell: padding (`{baseline}`'s), "
                      f"`{baseline}`'s time / its time; a criterion missed "
                      "is in bold. " + NOISE_NOTE, ""]
        bound_column = kind == "warp"
        lines += ["| device | scene | triplets | "
                  + ("bound | " if bound_column else "") + " | ".join(
                      f"`{v}`" for v in ours) + " | meets all |",
                  "| --- | --- | ---: | "
                  + ("---: | " if bound_column else "")
                  + " | ".join("---" for _ in ours) + " | --- |"]
        met_by = defaultdict(int)
        noise_only = defaultdict(int)  # missed only on time, within noise
        repeated = False
        unreachable = 0
        for device, scene, triplets, _ in bases:
            base = by_key[(device, scene, triplets, baseline)]
            bound = base.values.get("replay_ratio_bound")
            bound_cell = ""
            if bound_column:
                bound_cell = "-" if bound is None else f"{bound:.3f}"
                if bound is not None and bound > WARP_REPLAY_GOAL:
                    unreachable += 1
                    bound_cell = f"**{bound_cell}**"
                bound_cell += " | "
            cells, meeting = [], []
            for variant in ours:
                row = by_key.get((device, scene, triplets, variant))
                if row is None or not row.values.get("real_time"):
                    cells.append("-")
                    continue
                speed = real_time_us(base.values) / real_time_us(row.values)
                checks = []
                if kind == "warp":
                    sets, max_adj = row.values["sets"], row.values["max_adj"]
                    ratio = row.values["replays"] / row.values["ideal_replays"]
                    checks.append((sets <= max_adj + 1,
                                   f"{sets:.0f}/{max_adj:.0f}"))
                    checks.append((ratio <= WARP_REPLAY_GOAL, f"{ratio:.2f}"))
                else:
                    padding = row.values["padding"]
                    base_padding = base.values["padding"]
                    checks.append((padding <= base_padding,
                                   f"{padding:.0f} ({base_padding:.0f})"))
                noisy = times_overlap(base, row)
                repeated |= bool(base.times and row.times)
                checks.append((speed >= 1,
                               f"{speed:.2f}x" + ("~" if noisy else "")))
                cells.append(" ".join(text if ok else f"**{text}**"
                                      for ok, text in checks))
                if all(ok for ok, _ in checks):
                    meeting.append(variant)
                    met_by[variant] += 1
                elif noisy and all(ok for ok, _ in checks[:-1]):
                    noise_only[variant] += 1
            lines.append(f"| {device} | {scene} | {triplets} | "
                         + bound_cell + " | ".join(cells) + " | "
                         + (", ".join(f"`{v}`" for v in meeting) or "none")
                         + " |")
        lines += ["", f"Of {len(bases)} scene sizes, each met all: "
                  + ", ".join(f"`{v}` {met_by[v]}" for v in ours) + "."]
        if repeated:
            lines += ["", "Missed only on time, and there within the "
                      "repetitions' spread (~): "
                      + ", ".join(f"`{v}` {noise_only[v]}" for v in ours)
                      + "."]
        if bound_column:
            lines += ["", f"On {unreachable} of them the bound rules the "
                      "replay goal out for every scheduler."]
    if lines:
        lines = ["", "## triplet_schedule: the goal per scene", "",
                 "From the same rows as the figures above; times are one "
                 "run's unless the run was repeated (then medians)."] + lines
    return lines


def machine_lines(contexts):
    lines = []
    for path, context in sorted(contexts.items()):
        caches = ", ".join(
            f"L{c['level']} {c['type'][0]} {c['size'] // 1024} KiB"
            f" x{max(1, context.get('num_cpus', 1) // max(1, c.get('num_sharing', 1)))}"
            for c in context.get("caches", []))
        lines += [
            f"- `{path}`: {context.get('date', '?')}, host "
            f"{context.get('host_name', '?')}",
            f"  - CPU: {context.get('cpu_model', '?')}, "
            f"{context.get('num_cpus', '?')} CPUs at "
            f"{context.get('mhz_per_cpu', '?')} MHz; caches: {caches}",
            f"  - OpenMP: {context.get('omp_max_threads', '?')} threads, "
            f"OMP_PROC_BIND={context.get('omp_proc_bind', '?')}, "
            f"OMP_PLACES={context.get('omp_places', '?')}; Highway target "
            f"{context.get('hwy_target', '?')}",
            f"  - GPU: {context.get('gpu', '?')}",
            f"  - build: {context.get('adj_build_type', '?')} "
            f"({context.get('adj_compiler', '?')}), revision "
            f"{context.get('adj_git_revision', '?')}, sweep "
            f"{context.get('adj_sweep', '?')}",
        ]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", required=True, type=pathlib.Path)
    parser.add_argument("--data", type=pathlib.Path, default=None)
    parser.add_argument("--out", required=True, type=pathlib.Path)
    args = parser.parse_args()

    paths = sorted(args.json.glob("*.json")) + sorted(
        args.json.glob("*.json.gz"))
    if not paths:
        sys.exit(f"no benchmark JSON in {args.json}: run the benchmarks first")
    if args.data and args.data.is_dir():
        paths += sorted(args.data.rglob("*.json")) + sorted(
            args.data.rglob("*.json.gz"))
    rows, contexts = load_rows(paths)
    args.out.mkdir(parents=True, exist_ok=True)

    report = ["# adjacent: benchmark report", "",
              "Every number below was read from the benchmark JSON listed "
              "under Machines; ratios divide a variant's rate by the best "
              "copy of the same bytes on the same device, measured in the "
              "same run.", "", "## Machines", ""]
    report += machine_lines(contexts)
    for figure in FIGURES:
        written = draw(figure, rows, args.out)
        report += ["", f"## {figure.family}: {figure.title or figure.name}",
                   ""]
        if written:
            report += ["Figures: " + ", ".join(
                f"[{p.name}]({p.name})" for p in written), ""]
        if figure.quality:
            report += value_table(figure, rows)
        else:
            report += [f"At the largest {figure.x} each variant ran:", ""]
            report += ratio_table(figure, rows)
            report += baseline_table(figure, rows)
        for path in written:
            print(f"wrote {path}")
    for figure in BAR_FIGURES:
        written = draw_bars(figure, rows, args.out)
        report += ["", f"## {figure.family}: {figure.title}", ""]
        if written:
            report += ["Figures: " + ", ".join(
                f"[{p.name}]({p.name})" for p in written), ""]
        report += bar_table(figure, rows)
        for path in written:
            print(f"wrote {path}")
    report += check_cost_table(rows)
    report += schedule_goal_tables(rows)
    (args.out / "report.md").write_text("\n".join(report) + "\n")
    print(f"wrote {args.out / 'report.md'}")


if __name__ == "__main__":
    main()
