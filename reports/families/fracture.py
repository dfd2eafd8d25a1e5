"""fracture: where a frame's time goes (stacked stage bars), time per frame
against particles with the memcpy limit of the frame's bytes, and the
belong lists' memory and the live clusters over 1000 frames of steady
damage."""

from collections import defaultdict

import matplotlib.pyplot as plt

from engine import is_limit, real_time_us, save

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


def draw_stages(rows, out_dir):
    """Stacked bars at each device's largest block: one bar per variant."""
    selected = [r for r in rows if not is_limit(r.variant)]
    if not selected:
        return [], []
    largest = max(r.args["particles"] for r in selected)
    bars = sorted((r for r in selected if r.args["particles"] == largest),
                  key=lambda r: (r.device, r.variant))
    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    labels = [r.variant if len({b.device for b in bars}) == 1
              else f"{r.variant} [{r.device}]" for r in bars]
    bottoms = [0.0] * len(bars)
    colors = plt.get_cmap("tab20").colors
    for index, stage in enumerate(STAGES):
        heights = [r.values.get(f"stage_ms_{stage}", 0.0) for r in bars]
        if not any(h > 0 for h in heights):
            continue
        ax.bar(labels, heights, bottom=bottoms, label=stage,
               color=colors[index % len(colors)])
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    ax.set_ylabel("ms per frame")
    ax.set_yscale("log" if max(bottoms) / max(min(bottoms), 1e-9) > 20
                  else "linear")
    ax.set_title(f"fracture: where a frame's time goes (blade cut, "
                 f"{largest} particles)", fontsize=10)
    ax.legend(fontsize=7, loc="best")
    ax.tick_params(axis="x", labelsize=8)
    devices = sorted({r.device for r in bars})
    table = ["", "| variant | device | ms per frame | "
             + " | ".join(STAGES) + " |",
             "| --- | --- | ---: | " + " | ".join("---:" for _ in STAGES)
             + " |"]
    for r in bars:
        table.append(f"| {r.variant} | {r.device} | "
                     f"{real_time_us(r.values) / 1e3:.3f} | "
                     + " | ".join(f"{r.values.get(f'stage_ms_{s}', 0.0):.3f}"
                                  for s in STAGES) + " |")
    return save(fig, devices, out_dir, "fracture_stages"), table


def draw_time(rows, out_dir, run):
    """ms per frame against particles, log-log, the memcpy limits dashed."""
    if not any(not is_limit(r.variant) for r in rows):
        return [], []
    series = defaultdict(list)
    for r in rows:
        series[(r.variant, r.device)].append(r)
    devices = sorted({r.device for r in rows})
    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    markers = "osD^v<>p*hX"
    for index, key in enumerate(sorted(series, key=lambda k: (
            is_limit(k[0]), k[1], k[0]))):
        variant, device = key
        points = sorted(series[key], key=lambda r: r.args["particles"])
        xs = [p.args["particles"] for p in points]
        ys = [real_time_us(p.values) / 1e3 for p in points]
        label = variant if len(devices) == 1 else f"{variant} [{device}]"
        if is_limit(variant):
            ax.plot(xs, ys, linestyle="--", color="0.5", linewidth=1.0,
                    label=label + " (limit)")
        else:
            ax.plot(xs, ys, marker=markers[index % len(markers)],
                    markersize=4, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    goals = [("serial_ms_90k", "goal serial at 90k"),
             ("best_cpu_ms_90k", "goal best CPU at 90k")]
    if any(d.startswith("GPU") for d in devices):
        goals += [("cuda_ms_90k", "goal GPU at 90k"),
                  ("cuda_ms_1m", "goal GPU at 1M")]
    for name, text in goals:
        goal = run.goal(FAMILY, name)
        if goal is not None:
            ax.axhline(goal, color="0.3", linestyle=":", linewidth=0.8)
            ax.text(ax.get_xlim()[0], goal, f" {text}: {goal:g} ms",
                    fontsize=6, va="bottom", color="0.3")
    ax.set_xlabel("particles (blade cut through a block)")
    ax.set_ylabel("ms per frame")
    ax.set_title("fracture: time per frame against particles", fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    return save(fig, devices, out_dir, "fracture_time"), []


def draw_over_frames(rows, out_dir, prefix, name, ylabel, title):
    if not rows:
        return []
    devices = sorted({r.device for r in rows})
    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    for r in sorted(rows, key=churn_label):
        xs, ys = series_over_frames(r, prefix)
        ax.plot(xs, ys, marker="o", markersize=3, label=churn_label(r))
    ax.set_xlabel("frame")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    return save(fig, devices, out_dir, name)


def draw(run, out_dir):
    lines = []
    cut = cut_rows(run)
    written, table = draw_stages(cut, out_dir)
    time_written, _ = draw_time(cut, out_dir, run)
    churn = churn_rows(run)
    memory = draw_over_frames(
        churn, out_dir, "belong_mb_at_", "fracture_belong_memory",
        "belong lists, MB",
        "fracture: belong-list memory over 1000 frames of steady damage")
    clusters = draw_over_frames(
        churn, out_dir, "clusters_at_", "fracture_clusters",
        "live clusters",
        "fracture: live clusters over 1000 frames of steady damage")
    for path in written + time_written + memory + clusters:
        print(f"wrote {path}")
    if written or time_written:
        lines += ["", "## fracture: time per frame and where it goes", "",
                  "Figures: " + ", ".join(
                      f"[{p.name}]({p.name})"
                      for p in written + time_written), ""]
        lines += ["Stage columns: ms per frame (mean over the cut's "
                  "frames), at the largest block measured."] + table
    if churn:
        lines += ["", "## fracture: belong-list memory and clusters over "
                  "1000 frames", "",
                  "Figures: " + ", ".join(f"[{p.name}]({p.name})"
                                          for p in memory + clusters), "",
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
