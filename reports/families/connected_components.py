"""connected_components: time per graph, and the input check's cost against
the fastest kernel."""

import dataclasses
from collections import defaultdict

from engine import (BarFigure, is_kernel_only, is_limit, real_time_us,
                    shipped_over_kernel_lines)

FAMILY = "connected_components"
# As sph.PAPER_TABLES: the time per graph as CSV and LaTeX.
PAPER_TABLES = [
    ("connected_components: Connected components per graph",
     "connected_components_graphs",
     "Time per labelling (microseconds, input check included) of every "
     "variant on each graph at its largest size."),
]

CPU_FIGURE = BarFigure(
    name="connected_components_time",
    family="connected_components",
    y="real_time",
    size_arg="vertices",
    # The variants as shipped; the input check's own cost is the
    # check-cost table's.
    leave_out=lambda row: (is_kernel_only(row)
                           or row.variant.startswith("check_graph")),
    device="CPU",
    caption="Which labelling is fastest on each graph? Time per "
            "labelling as shipped (input check included) per graph at "
            "its largest size; the input check's own cost is in the "
            "table below.",
    columns=2,
    logy=True,
    ylabel="microseconds per labelling",
    title="Connected components per graph",
)
# The same question on the GPU (kept runs).
GPU_FIGURE = dataclasses.replace(
    CPU_FIGURE, name="connected_components_gpu", device="GPU",
    title="Connected components per graph on the GPU",
    caption="Which labelling is fastest on each graph on the GPU? Time "
            "per labelling host to host per graph at its largest size.")
FIGURES = [CPU_FIGURE, GPU_FIGURE]


def tables(run):
    """connected_components: per graph and device, the input check alone
    (check_graph on one thread, check_graph_openmp on every thread) against
    the fastest kernel alone (the .../trusted:1 rows: run_trusted on a
    checked graph), and each variant as shipped (check included) beside its
    kernel alone. Times in ms."""
    selected = [r for r in run.rows if r.family == FAMILY
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
        if r.args.get("device"):
            continue  # kernels on device-resident data: another measure
        target = kernels if is_kernel_only(r) else shipped
        target[key][r.variant] = ms
    keys = sorted(k for k in checks if "check_graph" in checks[k]
                  and kernels.get(k))
    if not keys:
        return []
    goal = run.goal(FAMILY, "check_over_kernel")
    goal_text = (f"at most {goal:.2f} of that kernel" if goal is not None
                 else "a share of that kernel this JSON does not record")
    lines = ["", "## connected_components: the input check's cost", "",
             "check_graph (offsets, ids, symmetry fingerprint) on one "
             "thread and on every thread (what the OpenMP variants run) "
             "against the fastest kernel alone (`trusted:1` rows: the "
             "variant's kernel on a graph checked before timing); the goal "
             f"is a check of {goal_text}. Times in ms, "
             "from the same run.", "",
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
    return lines + shipped_over_kernel_lines(keys, kernels, shipped,
                                             "graph | vertices", digits=2)
