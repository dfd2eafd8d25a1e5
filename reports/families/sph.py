"""sph: the chapter's Table 6.3 on the glass (time per step, 1 thread, each
row's ratio to naive beside the published one), time per step against
particles, accuracy against speed (one point per variant), and the density
error against the three-pass reference over the run's steps; and the
physics studies the experiment runner wrote (experiments/sph_studies.h:
hydrostatics, stability, the dam break's surge), read from Run.studies."""

import csv
import pathlib

from matplotlib.ticker import NullFormatter

import style
from engine import is_limit, measured_on, real_time_us

FAMILY = "sph"
FIGURES = []
# (the section's heading, the table's name, its caption[, the headings of
# the columns that name a row, repeated in each part of a table printed in
# parts]): written as CSV and LaTeX beside the figures (figures.py).
PAPER_TABLES = [
    ("sph: the chapter's Table 6.3", "sph_table_6_3",
     "The chapter's Table 6.3 reproduced on the glass (8,000 particles, "
     "one thread): time per step of each variant and its ratio to naive "
     "beside the published ratio."),
]


def step_rows(run, scene):
    return [r for r in run.rows if r.family == FAMILY and r.scene == scene
            and not is_limit(r.variant) and "real_time" in r.values
            and "steps_per_second" in r.values]


def scene_rows(run, scene, counter):
    """The rows (not limits) of `scene` that carry `counter`."""
    return [r for r in run.rows if r.family == FAMILY and r.scene == scene
            and not is_limit(r.variant) and counter in r.values]


def accuracy_rows(run, scene):
    return scene_rows(run, f"{scene}_accuracy", "density_rms_percent")


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


def line_per_variant(ax, rows, point, label=lambda variant: variant,
                     linestyle=None):
    """One line per variant through point(row) = (x, y) of its rows, in
    the variant's colour and marker."""
    for variant in sorted({r.variant for r in rows}):
        points = sorted(point(r) for r in rows if r.variant == variant)
        look = style.series_style(FAMILY, variant)
        if linestyle is not None:
            look["linestyle"] = linestyle
        ax.plot([x for x, _ in points], [y for _, y in points],
                label=label(variant), **look)


def finish(fig, ax, xlabel, ylabel):
    """Labels, grid on both tick levels, the legend below the axes."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)
    style.legend_below(fig, ax)



def draw_accuracy(run, gallery, scene):
    rows = accuracy_rows(run, scene)
    if not rows:
        return []
    # The longest run of the scene, so that every point covers as many steps.
    longest = max(int(r.args.get("steps", 0)) for r in rows)
    rows = [r for r in rows if int(r.args.get("steps", 0)) == longest]
    devices = {r.device for r in rows}
    written = []
    name = f"sph_accuracy_{scene}"
    if gallery.wanted(name):
        fig, ax = style.figure(1)
        for r in sorted(rows, key=lambda r: r.variant):
            look = style.series_style(FAMILY, r.variant)
            ax.plot([real_time_us(r.values) / 1e3],
                    [max(r.values.get("density_rms_max_percent", 0), 1e-6)],
                    linestyle="none", label=r.variant,
                    **{k: v for k, v in look.items() if k != "linestyle"})
        goal = run.goals.get(FAMILY, {}).get("density_rms_percent")
        if goal:
            ax.axhline(goal, color="black", linestyle="--", linewidth=0.8,
                       label=f"goal {goal:g} %")
        ax.set_xscale("log")
        ax.set_yscale("log")
        # A narrow decade labels its minor ticks, which then collide.
        ax.xaxis.set_minor_formatter(NullFormatter())
        finish(fig, ax, "ms per step (1 thread)",
               "density RMS error, % of rest")
        written += gallery.save_figure(
            fig, name,
            f"Which variant is both fast and accurate on the {scene} over "
            f"{longest} steps? Each point is a variant's time per step on "
            "one thread against its worst density RMS error against the "
            "three-pass reference (an error of 0 drawn at 1e-6 %); lower "
            "left is better. One run each. " + measured_on(devices),
            rows, FAMILY)
    name = f"sph_error_{scene}"
    if gallery.wanted(name):
        fig, ax = style.figure(1)
        for r in sorted(rows, key=lambda r: r.variant):
            points = sorted(
                (int(k[len("density_rms_percent_at_"):]), value)
                for k, value in r.values.items()
                if k.startswith("density_rms_percent_at_"))
            if points:
                ax.plot([p for p, _ in points],
                        [max(value, 1e-6) for _, value in points],
                        label=r.variant, **style.series_style(FAMILY,
                                                              r.variant))
        ax.set_yscale("log")
        finish(fig, ax, "step", "density RMS error, % of rest")
        written += gallery.save_figure(
            fig, name,
            f"Does a variant's density drift from the three-pass "
            f"reference's as the {scene} runs? The RMS difference per "
            f"step over {longest} steps (0 drawn at 1e-6 %). "
            + measured_on(devices), rows, FAMILY)
    return written


def draw_time(run, gallery):
    """Time per step against particles, a panel per device that timed at
    least two sizes (a device timed at one size is a point, not a
    growth: the chapter's table has it)."""
    rows = step_rows(run, "glass")
    ordered = step_rows(run, "glass_cell_ordered")
    devices = sorted(d for d in {r.device for r in rows}
                     if len({r.args.get("particles") for r in rows
                             if r.device == d}) >= 2)
    if not devices or not gallery.wanted("sph_time"):
        return []
    fig, axes = style.figure(2 if len(devices) > 1 else 1,
                             cols=len(devices), squeeze=False)
    shown = []
    for ax, device in zip(axes[0], devices):
        on_device = [r for r in rows if r.device == device]
        ordered_here = [r for r in ordered if r.device == device]
        line_per_variant(
            ax, on_device,
            lambda r: (r.args["particles"], real_time_us(r.values) / 1e3))
        line_per_variant(
            ax, ordered_here,
            lambda r: (r.args["particles"], real_time_us(r.values) / 1e3),
            label=lambda variant: f"{variant}, state in cell order",
            linestyle="--")
        ax.set_xscale("log")
        ax.set_yscale("log")
        if len(devices) > 1:
            ax.set_title(device)
        ax.set_xlabel("particles")
        ax.set_ylabel("ms per step")
        shown += on_device + ordered_here
    style.legend_below(fig, axes[0][0])
    return gallery.save_figure(
        fig, "sph_time",
        "How does a step's time grow with the particles, per variant? "
        "Time per step on the glass (dashed: the state kept in cell "
        "order), a panel per device that timed several sizes. One run "
        "each. " + measured_on(devices), shown, FAMILY,
        columns=2 if len(devices) > 1 else 1)


MARTIN_MOYCE = (pathlib.Path(__file__).resolve().parent.parent
                / "reference_data" / "martin_moyce_1952.csv")


def martin_moyce():
    """{a in inches: [(T, Z)]}: Martin and Moyce's surge fronts for the n^2
    = 2 column (the file's header cites them and the digitisation)."""
    series = {}
    with open(MARTIN_MOYCE) as f:
        for row in csv.DictReader(line for line in f
                                  if not line.startswith("#")):
            series.setdefault(float(row["a_inches"]), []).append(
                (float(row["T"]), float(row["Z"])))
    return {a: sorted(points) for a, points in series.items()}


def interpolated(points, t):
    """Z at T = t, linear between the measured points; None outside them."""
    for (t0, z0), (t1, z1) in zip(points, points[1:]):
        if t0 <= t <= t1:
            return z0 + (z1 - z0) * (t - t0) / (t1 - t0)
    return None


def study_runs(run, study):
    """The sph studies of one kind (experiments/sph_studies.h) that ran to
    the end on a verified variant."""
    return [s for s in run.studies if s.family == FAMILY
            and s.study == study and s.verified and not s.error]


def stopped_lines(run, study):
    """A line per study of that kind that stopped with an error (a fluid
    that blew up is a result, said beside the table)."""
    return [f"- {s.variant} ({', '.join(f'{k} {v:g}' for k, v in s.parameters.items())}) "
            f"stopped: {s.error}"
            for s in run.studies if s.family == FAMILY and s.study == study
            and s.error]


def draw_surge(run, gallery):
    """The dam break's surge front Z = x / a against T = t sqrt(2 g / a),
    one line per variant, particles and viscosity, beside Martin and
    Moyce's measurements (their n^2 = 2 columns) and Ritter's inviscid
    shallow-water front Z = 1 + T sqrt(2 H / a)."""
    runs = study_runs(run, "surge")
    if not runs or not gallery.wanted("sph_surge_front"):
        return []
    devices = {s.device for s in runs}
    fig, ax = style.figure(1, height_in=3.0)
    t_max = 0
    for s in sorted(runs, key=lambda s: (s.variant,
                                         s.parameters.get("particles", 0),
                                         -s.parameters.get("viscosity_alpha",
                                                           0))):
        t, z = s.series.get("t", []), s.series.get("z", [])
        if not t:
            continue
        t_max = max(t_max, t[-1])
        look = style.series_style(FAMILY, s.variant)
        if s.parameters.get("viscosity_alpha", 0):
            look["linestyle"] = "--"
        ax.plot([0] + t, [1] + z,
                label=f"{s.variant}, {s.parameters.get('particles', 0):.0f}"
                      f", alpha {s.parameters.get('viscosity_alpha', 0):g}",
                **look)
    ratio = runs[0].results["column_height"] / runs[0].results["column_width"]
    ts = [0, t_max]
    ax.plot(ts, [1 + t * (2 * ratio) ** 0.5 for t in ts], color="0.3",
            linestyle="--", linewidth=1,
            label="Ritter (inviscid shallow water)")
    for (a, points), marker in zip(sorted(martin_moyce().items()), "sD"):
        shown = [(t, z) for t, z in points if t <= 1.1 * t_max]
        ax.scatter([t for t, _ in shown], [z for _, z in shown],
                   marker=marker, s=18, color="black", zorder=3,
                   label=f"Martin & Moyce 1952, a = {a:g} in")
    ax.set_ylim(0.8, 5.2)
    finish(fig, ax, "T = t sqrt(2 g / a)", "surge front Z = x / a")
    return gallery.save_figure(
        fig, "sph_surge_front",
        "How far does the dam break's front run, against experiment? The "
        "front Z = x / a of a column 2a tall and a wide against "
        "dimensionless time, per variant, particles and viscosity, beside "
        "Martin and Moyce's 1952 measurements and Ritter's inviscid "
        "shallow-water front. " + measured_on(devices), runs, FAMILY)


def draw_hydrostatic(run, gallery):
    """Each hydrostatic study's pressure per depth bin, and half of it
    (the pressure whose gradient the contract's force exerts), beside
    rho_0 g depth."""
    runs = study_runs(run, "hydrostatic")
    if not runs or not gallery.wanted("sph_hydrostatic"):
        return []
    devices = {s.device for s in runs}
    fig, ax = style.figure(1, height_in=3.0)
    deepest = 0
    for s in sorted(runs, key=lambda s: (s.variant,
                                         s.parameters.get("particles", 0))):
        depth, pressure = s.series.get("depth", []), s.series.get("pressure",
                                                                  [])
        if not depth:
            continue
        deepest = max(deepest, depth[-1])
        name = f"{s.variant} ({s.parameters.get('particles', 0):,.0f})"
        look = style.series_style(FAMILY, s.variant)
        ax.plot(depth, pressure, label=f"{name}: k (rho - rho_0)", **look)
        look["linestyle"] = ":"
        ax.plot(depth, [p / 2 for p in pressure], label=f"{name}: half",
                **look)
    with_analytic = [s for s in runs if s.series.get("analytic")]
    if with_analytic:
        s = with_analytic[0]
        slope = max(a / d for d, a in zip(s.series["depth"],
                                          s.series["analytic"]) if d > 0)
        ax.plot([0, deepest], [0, slope * deepest], color="0.3",
                linestyle="--", linewidth=1, label="rho_0 g depth")
    finish(fig, ax, "depth below the free surface, m", "pressure, Pa")
    return gallery.save_figure(
        fig, "sph_hydrostatic",
        "Is the glass at rest hydrostatic? Pressure per depth bin (and "
        "half of it, the pressure whose gradient the contract's force "
        "exerts) beside rho_0 g depth. " + measured_on(devices), runs,
        FAMILY)


def draw_stability(run, gallery):
    """The stability map: the largest stable stiffness (over k_0) at each
    time step (in % of h / c_0), one line per variant."""
    runs = study_runs(run, "stability")
    if not runs or not gallery.wanted("sph_stability"):
        return []
    devices = {s.device for s in runs}
    fig, ax = style.figure(1)
    line_per_variant(
        ax, runs,
        lambda s: (s.parameters.get("cfl_percent", 0),
                   s.results["largest_stable_k_over_k0"]))
    ax.set_yscale("log")
    finish(fig, ax, "dt, % of h / c_0", "largest stable k / k_0")
    return gallery.save_figure(
        fig, "sph_stability",
        "How stiff may the glass be at a given time step? The largest "
        "stable stiffness over k_0 per time step, per variant; above a "
        "line the fluid blows up. " + measured_on(devices), runs,
        FAMILY)


def draw(run, gallery):
    written = draw_time(run, gallery)
    for scene in ("glass", "dam_break"):
        written += draw_accuracy(run, gallery, scene)
    written += draw_stability(run, gallery)
    written += draw_hydrostatic(run, gallery)
    written += draw_surge(run, gallery)
    for path in written:
        print(f"wrote {path}")
    if not written:
        return []
    return ["", "## sph: figures"] + gallery.report_lines(written)


def stability_table(run):
    runs = study_runs(run, "stability")
    if not runs:
        return []
    lines = ["", "## sph: stability sweep (largest stable k at a fixed dt, "
             "glass)", "",
             "| variant | device | particles | dt (% of h / c_0) | dt s | "
             "largest stable k | over k_0 |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for s in sorted(runs, key=lambda s: (s.device, s.variant,
                                         s.parameters.get("cfl_percent", 0))):
        v = s.results
        lines.append(
            f"| {s.variant} | {s.device} | "
            f"{s.parameters.get('particles', 0):.0f} | "
            f"{s.parameters.get('cfl_percent', 0):.0f} | {v['dt']:.3g} | "
            f"{v['largest_stable_k']:.4g} | "
            f"{v['largest_stable_k_over_k0']:.3g} |")
    return lines + [""] + stopped_lines(run, "stability")


def hydrostatic_table(run):
    runs = study_runs(run, "hydrostatic")
    if not runs:
        return []
    goal = run.goals.get(FAMILY, {}).get("hydrostatic_error_percent")
    lines = ["", "## sph: the glass at rest against hydrostatics", "",
             f"Goal: within {goal} % of rho_0 g H." if goal else "",
             "", "Slope: of p / 2 against height in the deep interior, "
             "in units of rho_0 g; gradient: the kernel's discrete gradient "
             "of height there (1 in the continuum), and the slope times it "
             "(the slope with the kernel's own error divided out); on "
             "walls: the particles the clamp holds on the floor or a wall; "
             "height: the column's "
             "against what its mass fills at rest density (docs/sph.md, "
             "Hydrostatics).",
             "", "| variant | device | particles | steps | "
             "k (rho - rho_0) error % | half of it, error % | slope | "
             "gradient | slope x gradient | on walls % | "
             "height / volume height | kinetic energy | max speed |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
             "| ---: | ---: | ---: | ---: |"]
    nan = float("nan")
    for s in sorted(runs, key=lambda s: (s.device, s.variant,
                                         s.parameters.get("particles", 0))):
        v = s.results
        volume = v.get("volume_height", 0)
        height = v.get("column_height", nan) / volume if volume else nan
        corrected = (v.get("slope_ratio", nan)
                     * v.get("gradient_normalisation", nan))
        lines.append(
            f"| {s.variant} | {s.device} | "
            f"{s.parameters.get('particles', 0):.0f} | "
            f"{s.parameters.get('steps', 0):.0f} | "
            f"{v['error_percent']:.2f} | "
            f"{v.get('half_error_percent', nan):.2f} | "
            f"{v.get('slope_ratio', nan):.3f} | "
            f"{v.get('gradient_normalisation', nan):.3f} | "
            f"{corrected:.3f} | "
            f"{100 * v.get('boundary_fraction', nan):.1f} | "
            f"{height:.3f} | "
            f"{v.get('kinetic_energy', 0):.3g} | "
            f"{v.get('max_speed', 0):.3g} |")
    return lines + [""] + stopped_lines(run, "hydrostatic")


def surge_table(run):
    runs = study_runs(run, "surge")
    if not runs:
        return []
    lines = ["", "## sph: dam break surge front", "",
             "Z = x / a at T = t sqrt(2 g / a), beside Martin and Moyce "
             "1952's measured fronts of the same column (n^2 = 2; linear "
             "between their points, reports/reference_data/"
             "martin_moyce_1952.csv cites the source) and Ritter's "
             "inviscid front Z = 1 + T sqrt(2 H / a).", "",
             "| variant | device | particles | alpha | Z at T = 1 | "
             "Z at T = 2 | Z at T = 3 | steps |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for s in sorted(runs, key=lambda s: (s.device, s.variant,
                                         s.parameters.get("particles", 0),
                                         -s.parameters.get("viscosity_alpha",
                                                           0))):
        at = {round(t, 6): z for t, z in zip(s.series.get("t", []),
                                             s.series.get("z", []))}
        cells = [f"{at[T]:.2f}" if T in at else "" for T in (1.0, 2.0, 3.0)]
        lines.append(
            f"| {s.variant} | {s.device} | "
            f"{s.parameters.get('particles', 0):.0f} | "
            f"{s.parameters.get('viscosity_alpha', 0):g} | "
            + " | ".join(cells) + f" | {s.results.get('steps', 0):.0f} |")
    ratio = runs[0].results["column_height"] / runs[0].results["column_width"]
    for a, points in sorted(martin_moyce().items()):
        cells = [interpolated(points, T) for T in (1.0, 2.0, 3.0)]
        lines.append(f"| Martin & Moyce 1952, a = {a:g} in | experiment | "
                     "| | " + " | ".join("" if z is None else f"{z:.2f}"
                                         for z in cells) + " | |")
    lines.append(f"| Ritter | | | 0 | {1 + (2 * ratio) ** 0.5:.2f} | "
                 f"{1 + 2 * (2 * ratio) ** 0.5:.2f} | "
                 f"{1 + 3 * (2 * ratio) ** 0.5:.2f} | |")
    return lines + [""] + stopped_lines(run, "surge")


def cell_order_table(run):
    """The glass kept in cell order (ReorderByCell, timed apart) beside the
    same variant on the glass in its own order; the cell-ordered step with
    one reorder every reorder_every steps added."""
    ordered = step_rows(run, "glass_cell_ordered")
    if not ordered:
        return []
    goal = run.goals.get(FAMILY, {}).get(
        "interactions_per_second_1m_2_threads")
    lines = ["", "## sph: the glass kept in cell order", "",
             f"Goal at 1M particles on 2 threads: {goal:.3g} "
             "interactions/s." if goal else "",
             "", "| variant | device | particles | ms per step, own order | "
             "ms per step, cell order | reorder ms | with a reorder every "
             "N steps, ms | interactions/s, with the reorders |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    own = {(r.variant, r.device, r.args.get("particles")): r
           for r in step_rows(run, "glass")}
    for r in sorted(ordered, key=lambda r: (r.device, r.variant,
                                            r.args.get("particles", 0))):
        n = r.args.get("particles")
        mate = own.get((r.variant, r.device, n))
        mate_ms = f"{real_time_us(mate.values) / 1e3:.2f}" if mate else "-"
        step_ms = real_time_us(r.values) / 1e3
        reorder_ms = r.values.get("reorder_ms", 0)
        every = r.values.get("reorder_every", 1) or 1
        total_ms = step_ms + reorder_ms / every
        pairs = (r.values.get("interactions_per_particle", 0)
                 * r.values.get("particles", 0))
        lines.append(
            f"| {r.variant} | {r.device} | {n:,.0f} | {mate_ms} | "
            f"{step_ms:.2f} | {reorder_ms:.2f} | "
            f"{total_ms:.2f} (N = {every:.0f}) | "
            f"{pairs / (total_ms / 1e3):.3g} |")
    return lines


def tables(run):
    return (chapter_table(run) + accuracy_table(run) + stability_table(run)
            + hydrostatic_table(run) + surge_table(run)
            + cell_order_table(run))
