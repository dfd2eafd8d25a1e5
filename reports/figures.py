#!/usr/bin/env python3
"""Benchmark JSON -> figures (PDF + PNG) and reports/out/report.md.

Every module in reports/families/ is one family's report: FIGURES (its
Figure and BarFigure declarations, drawn by reports/engine.py) and,
optionally, draw(run, out_dir) for figures of its own kind and tables(run),
both returning report.md lines. Adding a
family's report is adding its module; nothing here names a family.
"""

import argparse
import csv
import importlib
import pathlib
import pkgutil
import re
import shutil
import sys

import engine
import page
import paper_tables
import families
import style
from gallery import Gallery


def family_modules():
    """The families' report modules, in name order."""
    return [importlib.import_module(f"families.{info.name}")
            for info in sorted(pkgutil.iter_modules(families.__path__),
                               key=lambda info: info.name)]


def figure_sections(figure, run, gallery):
    """One figure's report.md section, after drawing it (when wanted: the
    section's table is written either way, since a paper table may be
    made of it)."""
    run = engine.shown(figure, run)
    if isinstance(figure, engine.BarFigure):
        written = (engine.draw_bars(figure, run, gallery)
                   if gallery.wanted(figure.name) else [])
        title = figure.title
    else:
        written = (engine.draw(figure, run.rows, gallery)
                   if gallery.wanted(figure.name) else [])
        if figure.of_limit:
            written += engine.draw_of_limit(figure, run.rows, gallery)
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


def rows_named_in(table_lines, rows):
    """The rows a table was made from, as far as its text tells: those
    whose variant it names (as a whole word) and, where it names scenes,
    whose scene is among them."""
    table = paper_tables.markdown_table(table_lines)
    if table is None:
        return []
    header, _, cells = table
    text = "\n".join("\t".join(line) for line in [header, *cells])

    def named(word):
        return re.search(rf"(?<![\w.]){re.escape(word)}(?![\w.])",
                         text) is not None

    by_variant = [r for r in rows if named(r.variant)]
    scenes = {r.scene for r in by_variant if r.scene and named(r.scene)}
    return [r for r in by_variant if not scenes or r.scene in scenes]


def write_paper_table(gallery, lines, table, rows, family):
    """The first table under the section of `lines` whose heading starts
    with the heading of `table` (heading, name, caption[, the headings of
    the columns that name a row]), as <name>.csv and <name>.tex
    (paper_tables), in the manifest; nothing when the run has no such
    section."""
    heading, name, caption, *keys = table
    start = next((i for i, line in enumerate(lines)
                  if line.startswith(f"## {heading}")), None)
    if start is None:
        return
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].startswith("## ")), len(lines))
    written = paper_tables.write(gallery.out_dir, name, caption,
                                 lines[start + 1:end],
                                 keys[0] if keys else ())
    if written:
        gallery.add_table(name, caption, written,
                          rows_named_in(lines[start + 1:end], rows), family)
        for path in written:
            print(f"wrote {path}")


# A table of more rows than this moves from report.md to a CSV beside it,
# except in the sections that open the report: the answers and the
# verification summary.
LONGEST_TABLE = 5
KEPT_WHOLE = ("which_variant_to_use", "verification")


def long_tables_to_csv(lines, out_dir):
    """report.md's lines with every table longer than LONGEST_TABLE rows
    written to tables/<section>[-k].csv and replaced by a link to it and
    its row count; the sections of KEPT_WHOLE are left as they are."""
    out, section, count = [], "report", {}
    tables_dir = out_dir / "tables"
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            section = re.sub(r"[^a-z0-9]+", "_",
                             line[3:].lower()).strip("_")[:48].rstrip("_")
        if not line.lstrip().startswith("|"):
            out.append(line)
            i += 1
            continue
        end = i
        while end < len(lines) and lines[end].lstrip().startswith("|"):
            end += 1
        block = lines[i:end]
        if len(block) - 2 <= LONGEST_TABLE or section in KEPT_WHOLE:
            out += block
        else:
            count[section] = count.get(section, 0) + 1
            name = section + (f"-{count[section]}" if count[section] > 1
                              else "")
            tables_dir.mkdir(parents=True, exist_ok=True)
            header, _, rows = paper_tables.markdown_table(block)
            with open(tables_dir / f"{name}.csv", "w", newline="") as f:
                writer = csv.writer(f)
                writer.writerow([paper_tables.plain(c) for c in header])
                writer.writerows([[paper_tables.plain(c) for c in row]
                                  for row in rows])
            link = f"[tables/{name}.csv](tables/{name}.csv), {len(rows)} rows"
            # The sentence introducing the table takes its link.
            while out and not out[-1].strip():
                out.pop()
            if out and out[-1].rstrip().endswith(":"):
                out[-1] = out[-1].rstrip() + f" {link}."
            else:
                out += ["", f"Table: {link}."]
        i = end
    return out


def without_blanks_around_headings(lines):
    """The lines without the blank lines after a heading and before one
    (Markdown needs none there; a table keeps its blank line), and no two
    blank lines in a row."""
    out = []
    for line in lines:
        blank = not line.strip()
        if blank and (not out or out[-1].startswith("#")
                      or not out[-1].strip()):
            continue
        # Python-Markdown's tables run on to the next blank line: a
        # heading right after a table would become one of its rows.
        if (line.startswith("#") and len(out) > 1 and not out[-1].strip()
                and not out[-2].lstrip().startswith("|")):
            out.pop()
        out.append(line)
    return out


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
    report += engine.verification_summary(run)
    for module in family_modules():
        family = module.__name__.split(".")[-1]
        lines = []
        for figure in module.FIGURES:
            lines += figure_sections(figure, run, gallery)
        if hasattr(module, "draw"):
            lines += module.draw(run, gallery)
        if hasattr(module, "tables"):
            lines += module.tables(run)
        peers = engine.peers_table(run, family)
        peers_figure = engine.draw_peers(run, family, gallery)
        if peers:
            # The figure under the table's heading, before the table.
            lines += peers[:2] + gallery.report_lines(peers_figure) + peers[2:]
        wanted = list(getattr(module, "PAPER_TABLES", [])) + [(
            f"{family}: ours against the peers", f"{family}_peers",
            f"{family}: the fastest of ours against the fastest peer per "
            "scene and size, from the same run.")]
        for table in wanted:
            if gallery.wanted(table[1]):
                write_paper_table(gallery, lines, table,
                                  [r for r in run.rows if r.family == family],
                                  family)
        report += lines
    report += engine.device_resident_table(run)
    if args.only is None:
        # A table of the last run is not this run's.
        shutil.rmtree(args.out / "tables", ignore_errors=True)
        report = long_tables_to_csv(report, args.out)
    report += ["", "## Machines", ""]
    report += engine.machine_lines(run.contexts)
    report = without_blanks_around_headings(report)
    manifest = gallery.write()
    print(f"wrote {manifest}")
    if args.only is not None:
        if not gallery.entries:
            # An unknown name is a bad option: exit 2 (docs/verification.md).
            print(f"no figure named {args.only!r} was drawn from "
                  f"{args.json}", file=sys.stderr)
            sys.exit(2)
        return
    report_md = "\n".join(report) + "\n"
    (args.out / "report.md").write_text(report_md)
    print(f"wrote {args.out / 'report.md'}")
    junit = sorted(args.out.glob("tests-*.xml"))
    index = page.write(args.out, report_md, run, junit, gallery.entries)
    print(f"wrote {index}")


if __name__ == "__main__":
    main()
