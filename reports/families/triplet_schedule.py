"""triplet_schedule: scheduling speed, the warp schedules' sets and bank
replays, and the goal table per scene."""

from collections import defaultdict

import noise

from engine import (BarFigure, Figure, check_cost_table, is_kernel_only,
                    is_limit, real_time_us)

FAMILY = "triplet_schedule"
# As sph.PAPER_TABLES: the goal table as CSV and LaTeX, printed in parts
# of a few schedulers each, every part naming its rows by scene, size and
# bound.
PAPER_TABLES = [
    ("triplet_schedule: the goal per scene", "triplet_schedule_goal",
     "Our warp and SIMD schedulers against the goal per scene and size: "
     "sets, padding, replays and time against the faithful baseline.",
     ("scene", "triplets", "bound")),
]

FIGURES = [
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
        leave_out=lambda row: row.variant == "check",
        device="CPU",
        contenders=6,
        of_limit=True,
        caption="Which scheduler is fastest as the cloth grows? Triplets "
                "scheduled per second on the permuted grid (simd lanes of "
                "4, warps of 32), the fastest variants and the faithful "
                "baseline.",
    ),
    BarFigure(
        name="triplet_schedule_sets",
        family="triplet_schedule",
        y="sets",
        tick="max_adj",
        size_arg="triplets",
        table="warp",
        leave_twins_out=True,
        origins=("faithful", "ours"),
        ylabel="sets (block barriers per pass)",
        title="Warp schedules: sets per scene; black tick: maxAdj, the "
              "lower bound (each *_warp_openmp lays out its *_warp "
              "twin's schedule)",
        caption="How close does each warp scheduler come to the fewest "
                "sets possible? Sets (block barriers per pass) per scene "
                "at its largest size; the black tick is maxAdj, the lower "
                "bound no schedule beats.",
        columns=2,
    ),
    BarFigure(
        name="triplet_schedule_replays",
        family="triplet_schedule",
        y="replays",
        per="ideal_replays",
        size_arg="triplets",
        table="warp",
        leave_twins_out=True,
        origins=("faithful", "ours"),
        hline_goal="warp_replays_per_ideal",
        ylabel="bank replays / ideal (3 per warp)",
        title="Warp schedules: shared-memory bank replays on the final "
              "order (each *_warp_openmp lays out its *_warp twin's "
              "schedule)",
        caption="Which warp schedule costs the fewest shared-memory bank "
                "replays? Replays over the ideal (3 per warp) per scene at "
                "its largest size; the dashed line is our schedulers' "
                "goal.",
        columns=2,
    ),
]


# The goal for our schedulers, checked per scene and size against each
# table's baseline (NvCloth's) in the same run: a warp schedule with at most
# maxAdj + 1 sets, at most the JSON's warp_replays_per_ideal goal, and no
# slower than the baseline; a simd schedule with no more padding than the
# baseline's and no slower.
# The time criterion is judged on medians; where both rows were repeated
# and a two-sided Mann-Whitney U test over their repetitions cannot tell
# them apart at alpha = 0.05 (reports/noise.py, the test `make compare`
# flags with), the verdict is marked, since another run may reverse it.
NOISE_NOTE = ("A time marked ~: a two-sided Mann-Whitney U test over the "
              "two rows' repetitions cannot tell them apart (p >= 0.05), "
              "so another run may reverse the verdict.")


def times_within_noise(a, b):
    """Whether both rows were repeated and the test cannot tell their
    repetition times apart."""
    return bool(a.times and b.times) and noise.within_noise(a.times, b.times)


def tables(run):
    """Per device, scene and size: which of our schedulers meet the goal,
    and by how much each criterion holds or misses."""
    selected = [r for r in run.rows if r.family == FAMILY
                and "triplets" in r.args and not is_limit(r.variant)
                and not is_kernel_only(r)]
    by_key = {(r.device, r.scene, r.args["triplets"], r.variant): r
              for r in selected}
    replay_goal = run.goal(FAMILY, "warp_replays_per_ideal")
    lines = []
    for kind in ("warp", "simd"):
        baseline = run.baseline(FAMILY, kind)
        table = run.variants(FAMILY, kind)
        if baseline is None or (kind == "warp" and replay_goal is None):
            continue
        ours = sorted({r.variant for r in selected
                       if table.get(r.variant, {}).get("origin") == "ours"})
        bases = sorted((k for k in by_key if k[3] == baseline),
                       key=lambda k: (k[0], k[2], k[1]))
        if not ours or not bases:
            continue
        if kind == "warp":
            lines += ["", f"### Warp goal: sets <= maxAdj + 1, replays <= "
                      f"{replay_goal:g} x ideal, time <= "
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
                if bound is not None and bound > replay_goal:
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
                    checks.append((ratio <= replay_goal, f"{ratio:.2f}"))
                else:
                    padding = row.values["padding"]
                    base_padding = base.values["padding"]
                    checks.append((padding <= base_padding,
                                   f"{padding:.0f} ({base_padding:.0f})"))
                noisy = times_within_noise(base, row)
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
    return (lines + colpack_goal_table(run, selected)
            + check_cost_table(run, FAMILY, "triplets"))


# Against ColPack: our schedules should use no more sets than ColPack's
# best ordering (the fewest colours of its orderings; on a tie, the faster)
# on every scene, in at most this fraction of that ordering's time.
COLPACK_TIME_GOAL = 0.5


def colpack_goal_table(run, selected):
    """Per table, device, scene and size: ColPack's best ordering (its
    sets and time), the fewest sets of ours, and which of ours meet both
    parts of the goal."""
    by_group = defaultdict(dict)
    for row in selected:
        by_group[(row.device, row.scene, row.args["triplets"])][
            row.variant] = row
    lines = []
    for kind in ("warp", "simd"):
        table = run.variants(FAMILY, kind)
        ours = {v for v, info in table.items() if info.get("origin") == "ours"}
        colpack = {v for v, info in table.items()
                   if info.get("origin") == "peer" and v.startswith("colpack_")}
        if not ours or not colpack:
            continue
        body, met_everywhere, groups = [], None, 0
        for (device, scene, triplets), rows in sorted(by_group.items()):
            peers = [rows[v] for v in colpack if v in rows
                     and rows[v].values.get("real_time")]
            mine = [rows[v] for v in ours if v in rows
                    and rows[v].values.get("real_time")]
            if not peers or not mine:
                continue
            groups += 1
            best = min(peers, key=lambda r: (r.values["sets"],
                                             real_time_us(r.values)))
            sets, ms = best.values["sets"], real_time_us(best.values) / 1e3
            meeting = sorted(
                r.variant for r in mine if r.values["sets"] <= sets
                and real_time_us(r.values) / 1e3 <= COLPACK_TIME_GOAL * ms)
            fewest = min(mine, key=lambda r: (r.values["sets"],
                                              real_time_us(r.values)))
            ratio = real_time_us(fewest.values) / real_time_us(best.values)
            met_everywhere = (set(meeting) if met_everywhere is None
                              else met_everywhere & set(meeting))
            body.append(
                f"| {device} | {scene} | {triplets} "
                f"| `{best.variant}` {sets:.0f}, {ms:.3g} ms "
                f"| `{fewest.variant}` {fewest.values['sets']:.0f}, "
                f"{ratio:.3f}x "
                f"| {', '.join(f'`{v}`' for v in meeting) or '**none**'} |")
        if not body:
            continue
        lines += ["", f"### {kind}: ours against ColPack's best ordering", "",
                  "ColPack's best ordering: the fewest sets of its "
                  "orderings (on a tie the faster), with its time. Fewest "
                  "sets of ours: the row (on a tie the faster), its sets "
                  "and its time over ColPack's. The goal: no more sets "
                  f"than ColPack's best, in at most {COLPACK_TIME_GOAL:g}x "
                  "its time; the last column names the rows of ours that "
                  "meet both. Times are medians where repeated.", "",
                  "| device | scene | triplets | ColPack's best: sets, "
                  "time | fewest sets of ours: sets, time ratio "
                  "| ours meeting the goal |",
                  "| --- | --- | ---: | --- | --- | --- |"] + body
        lines += ["", f"Meeting it on all {groups} scene sizes: "
                  + (", ".join(f"`{v}`" for v in sorted(met_everywhere))
                     or "none") + "."]
    return lines
