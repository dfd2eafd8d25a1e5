"""Every figure and table the report writes, with its caption and where its
numbers came from: reports/out/figures.json (the manifest).

A figure is saved through `Gallery.save_figure`, which checks its layout
(style.layout_problems), reads back the colour each variant got, writes
PDF, SVG and PNG, and records an entry: the caption (the question the
figure answers and its answer's look), the files, and the sources: each
JSON file its rows came from with that file's machine, commit, date and
command, and the rows' names. Tables written beside the figures (LaTeX,
CSV) are recorded the same way by `Gallery.add_table`.
"""

import json
import pathlib

import matplotlib.pyplot as plt

import style


def _machine(context):
    cpu = context.get("cpu_model") or context.get("host_name", "?")
    gpu = context.get("gpu", "")
    return cpu + (f"; GPU {gpu}" if gpu and not gpu.startswith("none")
                  else "")


def _row_name(row):
    """A benchmark row's run name; a study's family/study/variant and
    parameters."""
    if hasattr(row, "values"):
        return row.values.get("run_name") or row.values.get("name", "")
    return "/".join([row.family, row.study, row.variant] + [
        f"{k}:{v:g}" for k, v in sorted(row.parameters.items())])


class Gallery:
    def __init__(self, out_dir, contexts, only=None):
        self.out_dir = pathlib.Path(out_dir)
        self.contexts = contexts  # path -> the file's JSON context
        self.only = only  # a figure's name: draw that one alone
        self.entries = []

    def wanted(self, name):
        """Whether `name` is to be drawn (all, unless ONLY names one)."""
        return self.only is None or self.only == name

    def sources(self, rows):
        """[{file, machine, commit, date, command, rows}] of `rows`, per
        source file."""
        by_file = {}
        for row in rows:
            by_file.setdefault(row.source, set()).add(_row_name(row))
        sources = []
        for path, names in sorted(by_file.items()):
            context = self.contexts.get(path, {})
            sources.append({
                "file": path,
                "machine": _machine(context),
                "commit": context.get("adj_git_revision", "?"),
                "date": context.get("date", "?"),
                "command": context.get("adj_command")
                or context.get("executable", "?"),
                "rows": sorted(names),
            })
        return sources

    def save_figure(self, fig, name, caption, rows, family, columns=1):
        """Writes <name>.pdf, .svg and .png; returns the paths. The
        caption says what the figure shows; `rows` are those drawn."""
        style.plain_log_labels(fig)
        problems = style.layout_problems(fig)
        colours = style.variant_colours(fig)
        # The check's draw has laid the figure out; keeping that layout
        # spares each of the three files laying it out again (the layout
        # is in figure fractions, the same at every resolution).
        fig.set_layout_engine("none")
        written = []
        for suffix in ("pdf", "svg", "png"):
            path = self.out_dir / f"{name}.{suffix}"
            fig.savefig(path)
            written.append(path)
        plt.close(fig)
        self.entries.append({
            "kind": "figure",
            "name": name,
            "family": family,
            "caption": caption,
            "columns": columns,
            "files": [p.name for p in written],
            "colours": colours,
            "layout_problems": problems,
            "sources": self.sources(rows),
        })
        for problem in problems:
            print(f"{name}: layout: {problem}")
        return written

    def report_lines(self, written):
        """report.md lines for figures just written: a list item per
        figure, its caption and its other files."""
        lines = [""]
        for name in dict.fromkeys(pathlib.Path(p).stem for p in written):
            entry = next(e for e in reversed(self.entries)
                         if e["name"] == name)
            others = ", ".join(f"[{f.rsplit('.', 1)[1]}]({f})"
                               for f in entry["files"]
                               if not f.endswith(".png"))
            lines.append(f"- ![{name}]({name}.png) *{entry['caption']}* "
                         f"({others})")
        return lines if len(lines) > 1 else []

    def add_table(self, name, caption, files, rows, family):
        self.entries.append({
            "kind": "table",
            "name": name,
            "family": family,
            "caption": caption,
            "files": [pathlib.Path(p).name for p in files],
            "sources": self.sources(rows),
        })

    def write(self):
        """figures.json; with ONLY, the redrawn entry replaces its old one
        in the manifest already there."""
        path = self.out_dir / "figures.json"
        entries = self.entries
        if self.only is not None and path.exists():
            old = json.loads(path.read_text()).get("entries", [])
            names = {e["name"] for e in entries}
            entries = [e for e in old if e["name"] not in names] + entries
        path.write_text(json.dumps({"entries": entries}, indent=1) + "\n")
        return path
