"""fracture: where a frame's time goes (stacked stage bars), time per frame
against particles with the memcpy limit of the frame's bytes, and the
belong lists' memory and the live clusters over 1000 frames of steady
damage."""

from collections import defaultdict

import style
from engine import is_limit, measured_on, real_time_us

FAMILY = "fracture"
FIGURES = []

STAGES = ["damage", "nodes", "influenced", "remove", "components", "delete",
          "merge_search", "merge", "insert", "expand", "belong_maintenance"]


def cut_rows(run):
    return [r for r in run.rows if r.family == FAMILY
            and r.scene == "blade_block" and "particles" in r.args
            and "real_time" in r.values]


def churn_rows(run):
    return [r for r in run.rows if r.family == FAMILY
            and r.scene == "churn_block" and not is_limit(r.variant)
            and "belong_mb_at_0000" in r.values]


def churn_label(row):
    return f"{row.variant} / {row.args.get('belong', '?')}"


def series_over_frames(row, prefix):
    points = sorted((int(key[len(prefix):]), value)
                    for key, value in row.values.items()
                    if key.startswith(prefix))
    return [f for f, _ in points], [v for _, v in points]


# A stage's colour, the same in every figure (stages are not variants):
# the palette, then greys.
STAGE_COLOURS = dict(zip(STAGES, style.PALETTE[:7] + (
    "0.15", "0.35", "0.55", "0.75")))

# The published system's block: the stages are drawn at the size nearest
# to it on each device.
PUBLISHED_PARTICLES = 91_000



def draw_stages(rows, gallery):
    """Stacked bars per variant at the block nearest the published 91k on
    each device, a panel per device (CPU, GPU): where a frame's time
    goes."""
    selected = [r for r in rows if not is_limit(r.variant)]
    if not selected or not gallery.wanted("fracture_stages"):
        return [], []
    devices = sorted({r.device for r in selected})
    bars_of = {}
    for device in devices:
        on_device = [r for r in selected if r.device == device]
        size = min({r.args["particles"] for r in on_device},
                   key=lambda n: abs(n - PUBLISHED_PARTICLES))
        bars_of[device] = sorted((r for r in on_device
                                  if r.args["particles"] == size),
                                 key=lambda r: r.variant)
    fig, axes = style.figure(2 if len(devices) > 1 else 1,
                             cols=len(devices), squeeze=False)
    for ax, device in zip(axes[0], devices):
        bars = bars_of[device]
        labels = [r.variant for r in bars]
        bottoms = [0.0] * len(bars)
        for stage in STAGES:
            heights = [r.values.get(f"stage_ms_{stage}", 0.0) for r in bars]
            if not any(h > 0 for h in heights):
                continue
            ax.bar(labels, heights, bottom=bottoms, label=stage,
                   color=STAGE_COLOURS[stage], gid=f"{FAMILY}/stage:{stage}")
            bottoms = [b + h for b, h in zip(bottoms, heights)]
        ax.set_ylabel("ms per frame")
        ax.set_title(f"{device.split(' ')[0]}: "
                     f"{bars[0].args['particles']:,} particles")
        ax.tick_params(axis="x", labelrotation=90)
        ax.grid(False, axis="x")
    style.legend_below(fig, axes[0][0])
    shown = [r for bars in bars_of.values() for r in bars]
    table = ["", "| variant | device | particles | ms per frame | "
             + " | ".join(STAGES) + " |",
             "| --- | --- | ---: | ---: | "
             + " | ".join("---:" for _ in STAGES) + " |"]
    for r in shown:
        table.append(f"| {r.variant} | {r.device} | {r.args['particles']} | "
                     f"{real_time_us(r.values) / 1e3:.3f} | "
                     + " | ".join(f"{r.values.get(f'stage_ms_{s}', 0.0):.3f}"
                                  for s in STAGES) + " |")
    written = gallery.save_figure(
        fig, "fracture_stages",
        "Where does a frame's time go? Each variant's frame split into its "
        "stages (mean ms over the blade cut's frames) at the block nearest "
        "the published 91k particles, one panel per device. One run each. "
        + measured_on(devices), shown, FAMILY,
        columns=2 if len(devices) > 1 else 1)
    return written, table


def draw_time(rows, gallery, run):
    """ms per frame against particles, log-log, the memcpy limits dashed
    and the goals as dotted lines."""
    if (not any(not is_limit(r.variant) for r in rows)
            or not gallery.wanted("fracture_time")):
        return [], []
    series = defaultdict(list)
    for r in rows:
        series[(r.variant, r.device)].append(r)
    devices = sorted({r.device for r in rows})
    fig, ax = style.figure(1)
    for key in sorted(series, key=lambda k: (is_limit(k[0]), k[1], k[0])):
        variant, device = key
        points = sorted(series[key], key=lambda r: r.args["particles"])
        label = variant if len(devices) == 1 else f"{variant} [{device}]"
        ax.plot([p.args["particles"] for p in points],
                [real_time_us(p.values) / 1e3 for p in points],
                label=label + (" (limit)" if is_limit(variant) else ""),
                **style.series_style(FAMILY, variant,
                                     gpu=device.startswith("GPU")))
    ax.set_xscale("log")
    ax.set_yscale("log")
    goals = [("serial_ms_90k", "goal serial at 90k"),
             ("best_cpu_ms_90k", "goal best CPU at 90k")]
    if any(d.startswith("GPU") for d in devices):
        goals += [("cuda_ms_90k", "goal GPU at 90k"),
                  ("cuda_ms_1m", "goal GPU at 1M")]
    for dash, (name, text) in zip(("-", "--", "-.", ":"), goals):
        goal = run.goal(FAMILY, name)
        if goal is not None:
            ax.axhline(goal, color="black", linestyle=dash, linewidth=0.6,
                       label=f"{text}: {goal:g} ms")
    ax.set_xlabel("particles (blade cut through a block)")
    ax.set_ylabel("ms per frame")
    style.legend_below(fig, ax)
    return gallery.save_figure(
        fig, "fracture_time",
        "How does a frame's time grow with the block, against the goals? "
        "ms per frame of the blade cut per variant, the copy of a frame's "
        "bytes as the limit. One run each. " + measured_on(devices),
        rows, FAMILY), []


def draw_over_frames(rows, gallery, prefix, name, ylabel, caption):
    if not rows or not gallery.wanted(name):
        return []
    devices = sorted({r.device for r in rows})
    fig, ax = style.figure(1)
    lists = sorted({r.args.get("belong", "?") for r in rows})
    dashes = dict(zip(lists, ("-", "--", "-.", ":")))
    for r in sorted(rows, key=churn_label):
        xs, ys = series_over_frames(r, prefix)
        look = style.series_style(FAMILY, r.variant)
        look["linestyle"] = dashes.get(r.args.get("belong", "?"), "-")
        look["markevery"] = max(1, len(xs) // 10)
        ax.plot(xs, ys, label=churn_label(r), **look)
    ax.set_xlabel("frame")
    ax.set_ylabel(ylabel)
    style.legend_below(fig, ax)
    return gallery.save_figure(fig, name,
                               caption + " " + measured_on(devices),
                               rows, FAMILY)


def draw(run, gallery):
    lines = []
    cut = cut_rows(run)
    written, table = draw_stages(cut, gallery)
    time_written, _ = draw_time(cut, gallery, run)
    churn = churn_rows(run)
    memory = draw_over_frames(
        churn, gallery, "belong_mb_at_", "fracture_belong_memory",
        "belong lists, MB",
        "Do the belong lists' memory stay bounded under steady damage? "
        "Their MB over 1000 frames per variant and belong-list layout.")
    clusters = draw_over_frames(
        churn, gallery, "clusters_at_", "fracture_clusters",
        "live clusters",
        "How many clusters live as the damage goes on? Live clusters over "
        "1000 frames per variant and belong-list layout.")
    for path in written + time_written + memory + clusters:
        print(f"wrote {path}")
    if written or time_written:
        lines += ["", "## fracture: time per frame and where it goes"]
        lines += gallery.report_lines(written + time_written)
        lines += ["", "Stage columns: ms per frame (mean over the cut's "
                  "frames), at the block nearest 91k particles."] + table
    if churn:
        lines += ["", "## fracture: belong-list memory and clusters over "
                  "1000 frames"] + gallery.report_lines(memory + clusters)
        lines += ["",
                  "| variant / belong lists | device | MB at frame 0 | "
                  "MB at frame 1000 | peak MB | clusters at 0 | clusters "
                  "at 1000 | removed % | ms per frame |",
                  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | "
                  "---: |"]
        for r in sorted(churn, key=churn_label):
            v = r.values
            lines.append(
                f"| {churn_label(r)} | {r.device} | "
                f"{v['belong_mb_at_0000']:.3f} | "
                f"{v.get('belong_mb_at_1000', float('nan')):.3f} | "
                f"{v.get('belong_mb_peak', float('nan')):.3f} | "
                f"{v.get('clusters_at_0000', 0):.0f} | "
                f"{v.get('clusters_at_1000', 0):.0f} | "
                f"{v.get('removed_percent', 0):.1f} | "
                f"{real_time_us(v) / 1e3:.3f} |")
    return lines
