"""triplet_collide: the collision pass per schedule, on the CPU and as CUDA
kernels, the CUDA kernels' time against the schedule's bank replays, and
the input check's cost."""

import sys
from collections import defaultdict

import style
from engine import (BarFigure, check_cost_table, counter_range, is_kernel_only,
                    measured_on, spread_words)

FAMILY = "triplet_collide"
# The CUDA variants whose kernel time is set against the schedule's replays
# (each in its colour of every figure).
CUDA_VARIANTS = ("cuda_global", "cuda_shared", "cuda_shared_tiled")
REPLAYS_QUESTION = ("Does a warp schedule with fewer shared-memory bank "
                    "replays make the collision kernel faster?")

FIGURES = [
    BarFigure(
        name="triplet_collide_time_permuted",
        family="triplet_collide",
        y="real_time",
        group_arg="scheduler",
        scene="grid250-permuted",
        size_arg="triplets",
        leave_out=lambda row: row.variant == "check",
        ylabel="microseconds per collision pass",
        title="Collision pass per schedule (250^2 grid, permuted)",
        caption="Which collision pass and schedule is fastest on a "
                "permuted cloth? Time per pass per scheduler on the 250^2 "
                "grid with its triplets permuted.",
        device="CPU",
        columns=2,
    ),
    BarFigure(
        name="triplet_collide_time_natural",
        family="triplet_collide",
        y="real_time",
        group_arg="scheduler",
        scene="grid250-natural",
        size_arg="triplets",
        leave_out=lambda row: row.variant == "check",
        ylabel="microseconds per collision pass",
        title="Collision pass per schedule (250^2 grid, natural order)",
        caption="Which collision pass and schedule is fastest on a cloth "
                "in natural order? Time per pass per scheduler on the "
                "250^2 grid.",
        device="CPU",
        columns=2,
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
        caption="Which warp schedule makes the CUDA collision kernel "
                "fastest in natural order? Kernel time (CUDA events) per "
                "scheduler on the 64^2 grid.",
        columns=2,
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
        caption="Which warp schedule makes the CUDA collision kernel "
                "fastest on a permuted cloth? Kernel time (CUDA events) per "
                "scheduler on the 64^2 grid, triplets permuted.",
        columns=2,
    ),
]


def replay_rows(run):
    """The CUDA rows as shipped that carry both the kernel time and the
    bank model's replays of their schedule (benchmark JSON from before the
    replay counters has none)."""
    return [r for r in run.rows
            if r.family == FAMILY and r.variant in CUDA_VARIANTS
            and not is_kernel_only(r) and "scheduler" in r.args
            and "kernel_us" in r.values and "replays" in r.values
            and r.values.get("ideal_replays")]


def replays_per_ideal(row):
    return row.values["replays"] / row.values["ideal_replays"]


def draw_kernel_against_replays(run, gallery):
    """Kernel time (CUDA events) against the schedule's replays / ideal, one
    point per warp scheduler, a panel per scene and device, a colour per
    CUDA variant; points: medians, bars: the repetitions' minimum to
    maximum where the run was repeated."""
    rows = replay_rows(run)
    if not rows:
        print("triplet_collide_kernel_replays: no CUDA rows with replays in "
              "the JSON, figure not drawn", file=sys.stderr)
        return [], []
    if not gallery.wanted("triplet_collide_kernel_replays"):
        return [], []
    panels = defaultdict(list)
    for r in rows:
        panels[(r.scene, r.device)].append(r)
    keys = sorted(panels)
    columns = min(2, len(keys))
    lines_of_panels = (len(keys) + columns - 1) // columns
    fig, axes = style.figure(columns, height_in=2.6 * lines_of_panels,
                             rows=lines_of_panels, cols=columns,
                             squeeze=False)
    for ax, key in zip(axes.flat, keys):
        for variant in CUDA_VARIANTS:
            points = sorted((r for r in panels[key] if r.variant == variant),
                            key=replays_per_ideal)
            if not points:
                continue
            medians = [p.values["kernel_us"] for p in points]
            ranges = [counter_range(p, "kernel_us") or (m, m)
                      for p, m in zip(points, medians)]
            errors = [[m - low for m, (low, _) in zip(medians, ranges)],
                      [high - m for m, (_, high) in zip(medians, ranges)]]
            look = style.series_style(FAMILY, variant)
            look["linestyle"] = "none"
            ax.errorbar([replays_per_ideal(p) for p in points], medians,
                        yerr=errors if any(map(any, errors)) else None,
                        capsize=1.5, label=variant, **look)
        ax.set_title(f"{key[0]} ({key[1]})")
        ax.set_xlabel("bank-model replays / ideal (3 per warp)")
        ax.set_ylabel("kernel us (CUDA events)")
        ax.set_ylim(bottom=0)
    for ax in list(axes.flat)[len(keys):]:
        ax.set_visible(False)
    style.legend_below(fig, axes.flat[0])
    devices = sorted({r.device for r in rows})
    written = gallery.save_figure(
        fig, "triplet_collide_kernel_replays",
        REPLAYS_QUESTION + " Kernel time against the schedule's bank "
        "replays, one point per warp scheduler, a panel per scene and "
        "device. " + spread_words(rows) + " " + measured_on(devices), rows,
        FAMILY, columns=columns)
    table = ["", f"{REPLAYS_QUESTION} Kernel time (kernel_us) per warp "
             "schedule, by the schedule's bank-model replays:", "",
             "| scene | device | variant | scheduler | replays / ideal | "
             "kernel us |", "| --- | --- | --- | --- | ---: | ---: |"]
    for r in sorted(rows, key=lambda r: (r.scene, r.device, r.variant,
                                         replays_per_ideal(r))):
        table.append(f"| {r.scene} | {r.device} | {r.variant} | "
                     f"{r.args['scheduler']} | {replays_per_ideal(r):.3f} | "
                     f"{r.values['kernel_us']:.1f} |")
    return written, table


def draw(run, gallery):
    written, table = draw_kernel_against_replays(run, gallery)
    for path in written:
        print(f"wrote {path}")
    if not written:
        return []
    return (["", "## triplet_collide: CUDA kernel time against bank replays"]
            + gallery.report_lines(written) + table)


def tables(run):
    return check_cost_table(run, "triplet_collide", "triplets")
