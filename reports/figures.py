#!/usr/bin/env python3
"""Benchmark JSON -> figures (PDF + PNG) and reports/out/report.md.

Every module in reports/families/ is one family's report: FIGURES (its
Figure and BarFigure declarations, drawn by reports/engine.py) and,
optionally, draw(run, out_dir) for figures of its own kind and tables(run),
both returning report.md lines. Adding a
family's report is adding its module; nothing here names a family.
"""

import argparse
import importlib
import pathlib
import pkgutil
import sys

import engine
import page
import families
import style
from gallery import Gallery


def family_modules():
    """The families' report modules, in name order."""
    return [importlib.import_module(f"families.{info.name}")
            for info in sorted(pkgutil.iter_modules(families.__path__),
                               key=lambda info: info.name)]


def figure_sections(figure, run, gallery):
    """One figure's report.md section, after drawing it."""
    run = engine.shown(figure, run)
    if not gallery.wanted(figure.name):
        return []
    if isinstance(figure, engine.BarFigure):
        written = engine.draw_bars(figure, run, gallery)
        title = figure.title
    else:
        written = engine.draw(figure, run.rows, gallery)
        title = figure.title or figure.name
    lines = ["", f"## {figure.family}: {title}"]
    lines += gallery.report_lines(written)
    lines.append("")
    if isinstance(figure, engine.BarFigure):
        lines += engine.bar_table(figure, run)
    elif figure.quality:
        lines += engine.value_table(figure, run.rows)
    else:
        lines += [f"At the largest {figure.x} each variant ran:", ""]
        lines += engine.ratio_table(figure, run.rows)
        lines += engine.baseline_table(figure, run)
    for path in written:
        print(f"wrote {path}")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", required=True, type=pathlib.Path,
                        help="this run's JSON (one file per family)")
    parser.add_argument("--data", type=pathlib.Path, default=None,
                        help="runs kept from other machines "
                             "(<machine>/*.json); their GPU rows are drawn")
    parser.add_argument("--tables-from", type=pathlib.Path, default=None,
                        help="JSON whose context gives the variant tables "
                             "and goals a run predating them lacks (e.g. "
                             "reports/out/json for a kept run)")
    parser.add_argument("--out", required=True, type=pathlib.Path)
    parser.add_argument("--only", default=None,
                        help="redraw this one figure (its name, e.g. "
                             "prefix_sum_throughput) from the JSON, and "
                             "its manifest entry; the report is left as it "
                             "is")
    args = parser.parse_args()

    paths = sorted(args.json.glob("*.json")) + sorted(
        args.json.glob("*.json.gz"))
    if not paths:
        sys.exit(f"no benchmark JSON in {args.json}: run the benchmarks first")
    kept = []
    if args.data and args.data.is_dir():
        kept = sorted(args.data.rglob("*.json")) + sorted(
            args.data.rglob("*.json.gz"))
    context_paths = []
    if args.tables_from and args.tables_from.is_dir():
        context_paths = sorted(args.tables_from.glob("*.json"))
    run = engine.load_run(paths, kept, context_paths)
    args.out.mkdir(parents=True, exist_ok=True)
    style.LOOKS.assign(run.tables)
    gallery = Gallery(args.out, run.contexts, only=args.only)

    report = ["# adjacent: benchmark report", "",
              "Every number below was read from the benchmark JSON listed "
              "under Machines; ratios divide a variant's rate by the best "
              "copy of the same bytes on the same device, measured in the "
              "same run."]
    report += engine.which_to_use(run)
    report += ["", "## Machines", ""]
    report += engine.machine_lines(run.contexts)
    for module in family_modules():
        for figure in module.FIGURES:
            report += figure_sections(figure, run, gallery)
        if hasattr(module, "draw"):
            report += module.draw(run, gallery)
        if hasattr(module, "tables"):
            report += module.tables(run)
        report += engine.peers_table(run, module.__name__.split(".")[-1])
    report += engine.device_resident_table(run)
    manifest = gallery.write()
    print(f"wrote {manifest}")
    if args.only is not None:
        if not gallery.entries:
            sys.exit(f"no figure named {args.only!r} was drawn from "
                     f"{args.json}")
        return
    report_md = "\n".join(report) + "\n"
    (args.out / "report.md").write_text(report_md)
    print(f"wrote {args.out / 'report.md'}")
    junit = sorted(args.out.glob("tests-*.xml"))
    print(f"wrote {page.write(args.out, report_md, run, junit)}")


if __name__ == "__main__":
    main()
