"""sph: the chapter's Table 6.3 on the glass (time per step, 1 thread, each
row's ratio to naive beside the published one), time per step against
particles, accuracy against speed (one point per variant), and the density
error against the three-pass reference over the run's steps."""

import matplotlib.pyplot as plt

from engine import is_limit, real_time_us, save

FAMILY = "sph"
FIGURES = []


def step_rows(run, scene):
    return [r for r in run.rows if r.family == FAMILY and r.scene == scene
            and not is_limit(r.variant) and "real_time" in r.values
            and "steps_per_second" in r.values]


def accuracy_rows(run, scene):
    return [r for r in run.rows if r.family == FAMILY
            and r.scene == f"{scene}_accuracy" and not is_limit(r.variant)
            and "density_rms_percent" in r.values]


def limit_us(run, scene, particles, device):
    copies = [real_time_us(r.values) for r in run.rows
              if r.family == FAMILY and r.scene == scene and r.device == device
              and is_limit(r.variant) and r.args.get("particles") == particles]
    return min(copies) if copies else None


def chapter_table(run):
    rows = [r for r in step_rows(run, "glass")
            if r.args.get("particles") == 8000]
    if not rows:
        return []
    baseline = run.baseline(FAMILY) or "naive"
    lines = ["", "## sph: the chapter's Table 6.3 on the glass (8,000 "
             "particles, 1 thread)", "",
             "| variant | device | ms per step | steps/s | ratio to "
             f"{baseline} | published ratio | interactions/s | step over "
             "memcpy |", "| --- | --- | ---: | ---: | ---: | ---: | ---: | "
             "---: |"]
    order = list(run.variants(FAMILY))
    rank = {name: k for k, name in enumerate(order)}
    for device in sorted({r.device for r in rows}):
        on_device = sorted((r for r in rows if r.device == device),
                           key=lambda r: rank.get(r.variant, len(rank)))
        base = [r for r in on_device if r.variant == baseline]
        base_us = real_time_us(base[0].values) if base else None
        limit = limit_us(run, "glass", 8000, device)
        for r in on_device:
            us = real_time_us(r.values)
            published = run.goals.get(FAMILY, {}).get(
                f"published_ratio_{r.variant}")
            if r.variant == baseline:
                published = 1.0
            lines.append(
                f"| {r.variant} | {device} | {us / 1e3:.2f} | "
                f"{1e6 / us:.0f} | "
                f"{base_us / us if base_us else float('nan'):.2f} | "
                f"{'-' if published is None else f'{published:.2f}'} | "
                f"{r.values.get('items_per_second', 0):.3g} | "
                f"{f'{us / limit:.0f}x' if limit else '-'} |")
    return lines


def accuracy_table(run):
    lines = []
    groups = []
    for scene in ("glass", "dam_break"):
        rows = accuracy_rows(run, scene)
        for steps in sorted({int(r.args.get("steps", 0)) for r in rows}):
            groups.append((scene, steps, [
                r for r in rows if int(r.args.get("steps", 0)) == steps]))
    for scene, steps, rows in groups:
        lines += ["", f"## sph: accuracy against speed, {scene} "
                  f"({steps} steps against naive's)", "",
                  "| variant | device | ms per step | density RMS % (last) "
                  "| density RMS % (worst sample) | density max % | "
                  "position RMS / h | kinetic energy | max speed | blew up "
                  "at step |",
                  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | "
                  "---: | ---: |"]
        for r in sorted(rows, key=lambda r: (r.device, r.variant)):
            v = r.values
            blew = int(v.get("blew_up_at_step", 0))
            lines.append(
                f"| {r.variant} | {r.device} | "
                f"{real_time_us(v) / 1e3:.2f} | "
                f"{v['density_rms_percent']:.4f} | "
                f"{v.get('density_rms_max_percent', 0):.4f} | "
                f"{v.get('density_max_percent', 0):.3f} | "
                f"{v.get('position_rms_h', 0):.2e} | "
                f"{v.get('kinetic_energy', 0):.4g} | "
                f"{v.get('max_speed', 0):.3g} | {blew if blew else '-'} |")
    return lines


def draw_accuracy(run, out_dir, scene):
    rows = accuracy_rows(run, scene)
    if not rows:
        return []
    # The longest run of the scene, so that every point covers as many steps.
    longest = max(int(r.args.get("steps", 0)) for r in rows)
    rows = [r for r in rows if int(r.args.get("steps", 0)) == longest]
    devices = sorted({r.device for r in rows})
    written = []
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for r in rows:
        x = real_time_us(r.values) / 1e3
        y = max(r.values.get("density_rms_max_percent", 0), 1e-6)
        ax.scatter([x], [y])
        ax.annotate(r.variant, (x, y), fontsize=7, xytext=(3, 3),
                    textcoords="offset points")
    goal = run.goals.get(FAMILY, {}).get("density_rms_percent")
    if goal:
        ax.axhline(goal, color="0.4", linestyle="--", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("ms per step (1 thread)")
    ax.set_ylabel("density RMS error, % of rest (worst sample; 0 at 1e-6)")
    ax.set_title(f"sph: accuracy against speed, {scene}, {longest} steps",
                 fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    written += save(fig, devices, out_dir, f"sph_accuracy_{scene}")
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for r in sorted(rows, key=lambda r: r.variant):
        points = sorted(
            (int(k[len("density_rms_percent_at_"):]), value)
            for k, value in r.values.items()
            if k.startswith("density_rms_percent_at_"))
        if points:
            ax.plot([p for p, _ in points],
                    [max(value, 1e-6) for _, value in points],
                    marker="o", markersize=3, label=r.variant)
    ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("density RMS error against naive, % of rest")
    ax.set_title(f"sph: density error over {longest} steps, {scene}",
                 fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    written += save(fig, devices, out_dir, f"sph_error_{scene}")
    return written


def draw_time(run, out_dir):
    rows = step_rows(run, "glass")
    sizes = {r.args.get("particles") for r in rows}
    if len(sizes) < 2:
        return []
    devices = sorted({r.device for r in rows})
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for variant in sorted({r.variant for r in rows}):
        points = sorted((r.args["particles"], real_time_us(r.values) / 1e3)
                        for r in rows if r.variant == variant)
        ax.plot([p for p, _ in points], [t for _, t in points], marker="o",
                markersize=3, label=variant)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("particles")
    ax.set_ylabel("ms per step")
    ax.set_title("sph: time per step against particles, glass", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    return save(fig, devices, out_dir, "sph_time")


def draw(run, out_dir):
    written = draw_time(run, out_dir)
    for scene in ("glass", "dam_break"):
        written += draw_accuracy(run, out_dir, scene)
    for path in written:
        print(f"wrote {path}")
    if not written:
        return []
    return ["", "## sph: figures", "",
            "Figures: " + ", ".join(f"[{p.name}]({p.name})"
                                    for p in written)]


def stability_table(run):
    rows = [r for r in run.rows if r.family == FAMILY
            and r.scene == "glass_stability"
            and "largest_stable_k" in r.values]
    if not rows:
        return []
    lines = ["", "## sph: stability sweep (largest stable k at a fixed dt, "
             "glass)", "",
             "| variant | device | particles | dt (% of h / c_0) | dt s | "
             "largest stable k | over k_0 |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in sorted(rows, key=lambda r: (r.device, r.variant,
                                         r.args.get("cfl_percent", 0))):
        v = r.values
        lines.append(
            f"| {r.variant} | {r.device} | {r.args.get('particles', 0):.0f}"
            f" | {r.args.get('cfl_percent', 0):.0f} | {v['dt']:.3g} | "
            f"{v['largest_stable_k']:.4g} | "
            f"{v['largest_stable_k_over_k0']:.3g} |")
    return lines


def hydrostatic_table(run):
    rows = [r for r in run.rows if r.family == FAMILY
            and r.scene == "glass_hydrostatic"
            and "hydrostatic_error_percent" in r.values]
    if not rows:
        return []
    goal = run.goals.get(FAMILY, {}).get("hydrostatic_error_percent")
    lines = ["", "## sph: the glass at rest against hydrostatics", "",
             f"Goal: within {goal} % of rho_0 g H." if goal else "",
             "", "| variant | device | steps | k (rho - rho_0) error % | "
             "half of it, error % | kinetic energy | max speed |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in sorted(rows, key=lambda r: (r.device, r.variant)):
        v = r.values
        lines.append(
            f"| {r.variant} | {r.device} | {r.args.get('steps', 0):.0f} | "
            f"{v['hydrostatic_error_percent']:.2f} | "
            f"{v.get('hydrostatic_half_error_percent', float('nan')):.2f} | "
            f"{v.get('kinetic_energy', 0):.3g} | "
            f"{v.get('max_speed', 0):.3g} |")
    return lines


def tables(run):
    return (chapter_table(run) + accuracy_table(run) + stability_table(run)
            + hydrostatic_table(run))
