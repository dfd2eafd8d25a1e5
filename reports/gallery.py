"""Every figure and table the report writes, with its caption and where its
numbers came from: reports/out/figures.json (the manifest).

A figure is saved through `Gallery.save_figure`, which reads back the
colour each variant got, checks its layout (style.layout_problems) and
writes PDF, SVG and PNG (both in a forked child, beside the drawing of the
next figure; `Gallery.write` waits for them), and records an entry: the
caption (the question the figure answers and its answer's look), the
files, and the sources: each JSON file its rows came from with that file's
machine, commit, date and command, and the rows' names. Tables written
beside the figures (LaTeX, CSV) are recorded the same way by
`Gallery.add_table`.
"""

import json
import os
import pathlib
import sys
import traceback

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


class FileWriters:
    """Checks and writes figures in forked children while the parent draws
    the next figure: the layout check's draw and the three files are most
    of a figure's time, and the parent is single-threaded. At most `limit`
    children at once; `finish` waits for them all and raises when one
    failed. Without fork (or with limit 0), the work runs in the caller."""

    def __init__(self, limit=None):
        if limit is None:
            # A child per CPU, not one fewer: the parent spends much of
            # its time waiting for a free slot, so one more child keeps
            # the CPUs busy (docs/reports.md has the timings).
            limit = max(1, os.cpu_count() or 1)
        self.limit = limit if hasattr(os, "fork") else 0
        self.children = {}  # pid -> what it writes
        self.failed = []

    def start(self, what, work):
        if self.limit == 0:
            work()
            return
        while len(self.children) >= self.limit:
            self._reap(os.wait())
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            status = 0
            try:
                work()
            except BaseException:
                traceback.print_exc()
                status = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(status)
        self.children[pid] = what

    def _reap(self, waited):
        pid, status = waited
        what = self.children.pop(pid, None)
        if what is not None and os.waitstatus_to_exitcode(status) != 0:
            self.failed.append(what)

    def finish(self):
        while self.children:
            self._reap(os.wait())
        if self.failed:
            failed, self.failed = self.failed, []
            raise RuntimeError(f"writing {', '.join(failed)} failed "
                               "(the traceback is above)")


class Gallery:
    def __init__(self, out_dir, contexts, only=None):
        self.out_dir = pathlib.Path(out_dir)
        self.contexts = contexts  # path -> the file's JSON context
        self.only = only  # a figure's name: draw that one alone
        self.entries = []
        self.writers = FileWriters()
        self.checking = []  # (entry, its layout check's findings file)

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
        caption says what the figure shows; `rows` are those drawn. The
        layout check and the files happen in a child (FileWriters): the
        entry's layout problems are filled in by `files_written`."""
        colours = style.variant_colours(fig)
        written = [self.out_dir / f"{name}.{suffix}"
                   for suffix in ("pdf", "svg", "png")]
        problems_path = self.out_dir / f".{name}.layout.json"

        def check_and_write():
            style.plain_log_labels(fig)
            problems = style.layout_problems(fig)
            # The check's draw has laid the figure out; keeping that
            # layout spares each of the three files laying it out again
            # (the layout is in figure fractions, the same at every
            # resolution).
            fig.set_layout_engine("none")
            for path in written:
                fig.savefig(path)
            problems_path.write_text(json.dumps(problems))

        self.writers.start(name, check_and_write)
        plt.close(fig)
        entry = {
            "kind": "figure",
            "name": name,
            "family": family,
            "caption": caption,
            "columns": columns,
            "files": [p.name for p in written],
            "colours": colours,
            "layout_problems": None,
            "sources": self.sources(rows),
        }
        self.entries.append(entry)
        self.checking.append((entry, problems_path))
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

    def files_written(self):
        """Waits until every figure saved so far is on disk, and takes in
        their layout checks' findings."""
        self.writers.finish()
        for entry, path in self.checking:
            entry["layout_problems"] = json.loads(path.read_text())
            path.unlink()
            for problem in entry["layout_problems"]:
                print(f"{entry['name']}: layout: {problem}")
        self.checking = []

    def write(self):
        """figures.json, once every figure's files are written; with ONLY,
        the redrawn entry replaces its old one in the manifest already
        there."""
        self.files_written()
        path = self.out_dir / "figures.json"
        entries = self.entries
        if self.only is not None and path.exists():
            old = json.loads(path.read_text()).get("entries", [])
            names = {e["name"] for e in entries}
            entries = [e for e in old if e["name"] not in names] + entries
        path.write_text(json.dumps({"entries": entries}, indent=1) + "\n")
        return path
