"""triplet_collide: the collision pass per schedule, on the CPU and as CUDA
kernels, the CUDA kernels' time against the schedule's bank replays, and
the input check's cost."""

import sys
from collections import defaultdict

import matplotlib.pyplot as plt

from engine import BarFigure, check_cost_table, is_kernel_only, save

FAMILY = "triplet_collide"
# The CUDA variants whose kernel time is set against the schedule's replays,
# each in its own colour on every panel.
CUDA_VARIANTS = {
    "cuda_global": "tab:blue",
    "cuda_shared": "tab:orange",
    "cuda_shared_tiled": "tab:green",
}
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


def draw_kernel_against_replays(run, out_dir):
    """Kernel time (CUDA events) against the schedule's replays / ideal, one
    point per warp scheduler, a panel per scene and device, a colour per
    CUDA variant; error bars: the repetitions' standard deviation where the
    run was repeated."""
    rows = replay_rows(run)
    if not rows:
        print("triplet_collide_kernel_replays: no CUDA rows with replays in "
              "the JSON, figure not drawn", file=sys.stderr)
        return [], []
    panels = defaultdict(list)
    for r in rows:
        panels[(r.scene, r.device)].append(r)
    keys = sorted(panels)
    columns = min(2, len(keys))
    lines_of_panels = (len(keys) + columns - 1) // columns
    fig, axes = plt.subplots(lines_of_panels, columns, squeeze=False,
                             figsize=(5.2 * columns, 3.6 * lines_of_panels))
    for ax, key in zip(axes.flat, keys):
        for variant, colour in CUDA_VARIANTS.items():
            points = sorted((r for r in panels[key] if r.variant == variant),
                            key=replays_per_ideal)
            if not points:
                continue
            errors = [(p.spread_row or {}).get("kernel_us", 0.0)
                      for p in points]
            ax.errorbar([replays_per_ideal(p) for p in points],
                        [p.values["kernel_us"] for p in points],
                        yerr=errors if any(errors) else None, color=colour,
                        marker="o", markersize=4, linestyle="none",
                        capsize=2, label=variant)
        ax.set_title(f"{key[0]} ({key[1]})", fontsize=9)
        ax.set_xlabel("bank-model replays / ideal (3 per warp)", fontsize=8)
        ax.set_ylabel("kernel us (CUDA events)", fontsize=8)
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(keys):]:
        ax.set_visible(False)
    fig.suptitle(REPLAYS_QUESTION + " One point per warp scheduler.",
                 fontsize=9)
    devices = sorted({r.device for r in rows})
    written = save(fig, devices, out_dir, "triplet_collide_kernel_replays")
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


def draw(run, out_dir):
    written, table = draw_kernel_against_replays(run, out_dir)
    for path in written:
        print(f"wrote {path}")
    if not written:
        return []
    return (["", "## triplet_collide: CUDA kernel time against bank replays",
             "", "Figures: " + ", ".join(f"[{p.name}]({p.name})"
                                         for p in written)] + table)


def tables(run):
    return check_cost_table(run, "triplet_collide", "triplets")
