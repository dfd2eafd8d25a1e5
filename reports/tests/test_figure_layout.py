"""The report's figures and paper tables as a reader gets them: every
figure drawn from a small kept run (reports/tests/data/figures, with the
GPU runs of reports/data) has a caption, a manifest entry with its sources,
a layout with no legend or text over the data or another text, and each
variant one colour in every figure; the layout check itself catches what
it should; `--only` redraws one figure alone; the LaTeX tables are well
formed (and compile, where pdflatex is installed)."""

import json
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "reports"))

import style  # noqa: E402
import paper_tables  # noqa: E402
import figures  # noqa: E402
import gallery  # noqa: E402

FIXTURE = ROOT / "reports" / "tests" / "data" / "figures"

# The figures the modules draw themselves (draw()), beside FIGURES.
DRAWN_BY_MODULES = {
    "sph_time", "sph_accuracy_glass", "sph_error_glass",
    "sph_accuracy_dam_break", "sph_error_dam_break", "sph_stability",
    "sph_hydrostatic", "sph_surge_front", "fracture_stages",
    "fracture_time", "fracture_belong_memory", "fracture_clusters",
    "triplet_collide_kernel_replays"}


def draw_all(out):
    result = subprocess.run(
        [sys.executable, str(ROOT / "reports" / "figures.py"), "--json",
         str(FIXTURE), "--data", str(ROOT / "reports" / "data"), "--out",
         str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads((out / "figures.json").read_text())["entries"]


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    out = tmp_path_factory.mktemp("figures")
    return out, draw_all(out)


def test_every_declared_figure_is_drawn_from_the_kept_run(drawn):
    _, entries = drawn
    declared = {f.name for m in figures.family_modules() for f in m.FIGURES}
    names = {e["name"] for e in entries if e["kind"] == "figure"}
    assert declared | DRAWN_BY_MODULES <= names


def test_every_figure_has_a_caption_files_and_sources(drawn):
    out, entries = drawn
    for entry in entries:
        assert entry["caption"].strip().endswith("."), entry["name"]
        assert entry["sources"], entry["name"]
        for source in entry["sources"]:
            assert source["rows"], entry["name"]
            assert source["commit"] != "?", (entry["name"], source["file"])
            assert source["machine"] != "?", (entry["name"], source["file"])
        for name in entry["files"]:
            assert (out / name).stat().st_size > 0, name


def test_no_figure_has_a_layout_problem(drawn):
    _, entries = drawn
    problems = {e["name"]: e["layout_problems"] for e in entries
                if e["kind"] == "figure" and e["layout_problems"]}
    assert problems == {}


def test_each_variant_has_one_colour_in_every_figure(drawn):
    _, entries = drawn
    colours = {}
    for entry in entries:
        for gid, colour in entry.get("colours", {}).items():
            assert isinstance(colour, str), (entry["name"], gid, colour)
            colours.setdefault(gid, {})[entry["name"]] = colour
    mixed = {gid: by_figure for gid, by_figure in colours.items()
             if len(set(by_figure.values())) > 1}
    assert mixed == {}
    # And the palette is the colour-blind-safe one (limits grey).
    for gid, by_figure in colours.items():
        colour = next(iter(by_figure.values()))
        variant = gid.split("/", 1)[1]
        if style.is_limit(variant) or variant.startswith("stage:"):
            continue
        assert colour.upper() in style.PALETTE, gid


def test_the_vector_files_embed_their_fonts(drawn):
    out, entries = drawn
    name = next(e["name"] for e in entries if e["kind"] == "figure")
    pdf = (out / f"{name}.pdf").read_bytes()
    assert b"/FontFile2" in pdf  # TrueType embedded (type 42)
    svg = (out / f"{name}.svg").read_text()
    assert "<text" not in svg  # glyphs as paths


def figure_with_points():
    fig, ax = style.figure(1)
    ax.plot([1, 2, 3], [1, 2, 3], label="a", gid="f/a")
    ax.plot([1, 2, 3], [3, 2, 1], label="b", gid="f/b")
    return fig, ax


def test_a_clean_figure_has_no_problem():
    fig, ax = figure_with_points()
    style.legend_below(fig, ax)
    assert style.layout_problems(fig) == []


def test_a_legend_over_the_data_is_a_problem():
    fig, ax = figure_with_points()
    ax.legend(loc="center")
    assert "legend overlaps the axes' data area" in style.layout_problems(fig)


def test_texts_over_each_other_or_over_a_point_are_problems():
    fig, ax = figure_with_points()
    ax.text(2, 2, "a note", ha="center", va="center")
    ax.text(2, 2, "another note", ha="center", va="center")
    problems = style.layout_problems(fig)
    assert "text 'a note' overlaps text 'another note'" in problems
    assert "text 'a note' covers a data point" in problems


def test_a_text_outside_the_figure_is_a_problem():
    fig, ax = figure_with_points()
    fig.text(1.2, 0.5, "far right")
    assert "text 'far right' is outside the figure" in (
        style.layout_problems(fig))


def test_two_colours_for_one_variant_are_read_back():
    fig, ax = figure_with_points()
    ax.plot([1], [1], color="#ff0000", gid="f/a")
    colours = style.variant_colours(fig)
    assert isinstance(colours["f/a"], list) and len(colours["f/a"]) == 2


def test_only_redraws_one_figure_and_keeps_the_other_entries(drawn,
                                                             tmp_path):
    out, entries = drawn
    shutil.copy(out / "figures.json", tmp_path / "figures.json")
    result = subprocess.run(
        [sys.executable, str(ROOT / "reports" / "figures.py"), "--json",
         str(FIXTURE), "--out", str(tmp_path), "--only", "sph_time"],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["sph_time.png"]
    assert not (tmp_path / "report.md").exists()
    after = json.loads((tmp_path / "figures.json").read_text())["entries"]
    assert sorted(e["name"] for e in after) == sorted(
        e["name"] for e in entries)
    # One entry for the redrawn figure, naming the files just written.
    (redrawn,) = [e for e in after if e["name"] == "sph_time"]
    assert all((tmp_path / f).exists() for f in redrawn["files"])


def test_only_with_an_unknown_name_fails_naming_it(tmp_path):
    result = subprocess.run(
        [sys.executable, str(ROOT / "reports" / "figures.py"), "--json",
         str(FIXTURE), "--out", str(tmp_path), "--only", "no_such_figure"],
        capture_output=True, text=True)
    assert result.returncode == 2
    assert "no_such_figure" in result.stderr


def latex_problems(text):
    """What would stop the tables compiling: unbalanced braces or
    environments, a row with another number of cells than the header, a
    missing booktabs rule, in any of the floats of `text`."""
    floats = re.split(r"(?=\\begin\{table\*\})", text.strip())
    return [problem for table in floats if table
            for problem in float_problems(table)]


def float_problems(text):
    problems = []
    unescaped = re.sub(r"\\[{}&%$#_]", "", text)
    if unescaped.count("{") != unescaped.count("}"):
        problems.append("unbalanced braces")
    begins = re.findall(r"\\begin\{([\w*]+)\}", text)
    ends = re.findall(r"\\end\{([\w*]+)\}", text)
    if begins != list(reversed(ends)):
        problems.append(f"environments {begins} closed as {ends}")
    for rule in ("toprule", "midrule", "bottomrule"):
        if f"\\{rule}" not in text:
            problems.append(f"no \\{rule}")
    spec = re.search(r"\\begin\{tabular\}\{([lrc]+)\}", text)
    if spec is None:
        return problems + ["no tabular column spec"]
    columns = len(spec.group(1))
    body = text[spec.end():text.index("\\end{tabular}")]
    for line in body.splitlines():
        if line.endswith(r"\\"):
            cells = len(re.split(r"(?<!\\)&", line))
            if cells != columns:
                problems.append(f"{cells} cells, {columns} columns: {line}")
    return problems


def test_the_paper_tables_are_well_formed_latex_and_csv(drawn):
    out, entries = drawn
    tables = [e for e in entries if e["kind"] == "table"]
    names = {e["name"] for e in tables}
    assert {"sph_table_6_3", "triplet_schedule_goal",
            "connected_components_graphs", "hash_grid_peers"} <= names
    for entry in tables:
        tex = next(f for f in entry["files"] if f.endswith(".tex"))
        assert latex_problems((out / tex).read_text()) == [], tex
        csv_name = next(f for f in entry["files"] if f.endswith(".csv"))
        lines = (out / csv_name).read_text().splitlines()
        assert len(lines) >= 2, csv_name


def source_rows(entry):
    return {row for source in entry["sources"] for row in source["rows"]}


def test_limit_figures_cite_the_copies_they_compare_with(drawn):
    _, entries = drawn
    by_name = {e["name"]: e for e in entries}
    # A bar figure with its limit lines, and a fraction-of-the-limit figure.
    for name in ("triplet_collide_time_permuted",
                 "prefix_sum_throughput_of_limit"):
        rows = source_rows(by_name[name])
        assert any("/memcpy" in row for row in rows), name
        assert any("/memcpy" not in row for row in rows), name


def test_a_paper_table_cites_the_rows_it_names_alone(drawn):
    out, entries = drawn
    entry = next(e for e in entries if e["name"] == "hash_grid_peers")
    csv_text = (out / f"{entry['name']}.csv").read_text()
    rows = source_rows(entry)
    assert rows
    for row in rows:
        variant = row.split("/")[1]
        assert variant in csv_text, row


def test_log_axes_are_labelled_without_mathtext():
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    ax.plot([1e3, 1e6], [1e-3, 1e2])
    ax.set_xscale("log")
    ax.set_yscale("log")
    style.plain_log_labels(fig)
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()
              if t.get_text()]
    plt.close(fig)
    assert labels and not any("$" in label for label in labels)
    assert "10\u2076" in labels and "10\u207b\u00b3" in labels


def test_report_md_summarises_verification_after_the_answers(drawn):
    out, _ = drawn
    report = (out / "report.md").read_text()
    answers = report.index("## Which variant to use")
    summary = report.index("## Verification")
    assert answers < summary < report.index("## Machines")
    section = report[summary:report.index("\n## ", summary + 1)]
    for family in ("compaction", "hash_grid", "triplet_schedule"):
        assert f"| {family} |" in section
    # Not repeated in index.html, whose matrix says more.
    html = (out / "index.html").read_text()
    assert html.count(">Verification") == 1


def test_the_latex_check_finds_a_row_with_a_cell_too_many():
    good = paper_tables.latex(["a", "b"], ["l", "r"], [["x_1", "50%"]],
                              "A caption & more.", "t")
    assert latex_problems(good) == []
    bad = good.replace(r"x\_1 & 50\% \\", r"x\_1 & 50\% & 7 \\")
    assert latex_problems(bad) != []


@pytest.mark.skipif(shutil.which("pdflatex") is None,
                    reason="pdflatex is not installed: the syntax check "
                           "above stands in")
def test_the_paper_tables_compile(drawn, tmp_path):
    out, entries = drawn
    inputs = "\n".join(
        rf"\input{{{out / f}}}" for e in entries if e["kind"] == "table"
        for f in e["files"] if f.endswith(".tex"))
    (tmp_path / "tables.tex").write_text(
        "\\documentclass{article}\n\\usepackage{booktabs,graphicx}\n"
        "\\usepackage[margin=2cm]{geometry}\n"
        "\\begin{document}\n" + inputs + "\n\\end{document}\n")
    result = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
         "tables.tex"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]
    # Every table fits the text width of a portrait page.
    assert "Overfull \\hbox" not in result.stdout, result.stdout[-3000:]


def test_a_paper_table_prints_decimals_short_and_constants_once():
    header, alignments, rows, constants = (
        paper_tables.without_constant_columns(
            ["device", "scene", "ms"], ["l", "l", "r"],
            [["CPU", "a", "5719316.86"], ["CPU", "b", "0.000277"]]))
    assert header == ["scene", "ms"] and alignments == ["l", "r"]
    assert constants == [("device", "CPU")]
    assert [paper_tables.for_print(r[1]) for r in rows] == [
        "5719317", "0.000277"]
    assert paper_tables.for_print("1.9644") == "1.96"
    assert paper_tables.for_print("n:1048576") == "n:1048576"
    assert paper_tables.for_print("699868") == "699868"
    text = paper_tables.latex(["device", "scene"], ["l", "l"],
                              [["CPU", "a"], ["CPU", "b"]], "Times.", "t")
    assert "Every row: device CPU." in text
    assert latex_problems(text) == []


def test_a_table_wider_than_a_page_prints_in_parts_naming_their_rows():
    schedulers = [f"scheduler_{k}" for k in range(8)]
    header = ["scene", "triplets", *schedulers, "meets all"]
    rows = [[f"grid-{n}", str(512 * n)]
            + [f"{n}/6 1.9{k} 0.4{k}x" for k in range(8)]
            + [", ".join(schedulers[:n])] for n in range(1, 5)]
    text = paper_tables.latex(header, ["l", "r"] + ["l"] * 9, rows,
                              "Goals.", "goal", ("scene", "triplets"))
    assert latex_problems(text) == []
    parts = text.split(r"\end{table*}")[:-1]
    assert len(parts) >= 2
    for k, part in enumerate(parts, start=1):
        assert f"Part {k} of {len(parts)}." in part
        assert "scene & triplets &" in part
        assert "grid-4 & 2048 &" in part
    assert r"\label{tab:goal}" in parts[0]
    assert r"\label{tab:goal-2}" in parts[1]
    # Every scheduler printed once; the list of names wraps.
    printed = " ".join(parts)
    for name in schedulers:
        assert printed.count(paper_tables.latex_escaped(name) + " ") == 1
    assert r"\parbox[t]" in printed
    # A table that fits stays one float, its names unwrapped.
    narrow = paper_tables.latex(header[:4], ["l"] * 4,
                                [row[:4] for row in rows], "Goals.", "goal")
    assert "Part" not in narrow and r"\parbox" not in narrow


def test_the_paper_tables_module_reads_the_first_markdown_table():
    lines = ["text", "| a | b |", "| --- | ---: |", "| `x` | **1** |", "",
             "| other |"]
    assert paper_tables.markdown_table(lines) == (
        ["a", "b"], ["l", "r"], [["`x`", "**1**"]])
    assert paper_tables.plain("`x` **1** *y*") == "x 1 y"
    assert paper_tables.markdown_table(["no table"]) is None


def test_files_written_in_children_are_all_there_and_a_failure_is_raised(
        tmp_path):
    writers = gallery.FileWriters(limit=2)
    for k in range(5):
        writers.start(f"file{k}", lambda k=k: (tmp_path / f"{k}.txt")
                      .write_text(str(k)))
    writers.finish()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"{k}.txt" for k in range(5)]

    def fail():
        raise OSError("disk full")

    writers.start("broken", fail)
    with pytest.raises(RuntimeError, match="broken"):
        writers.finish()
    writers.finish()  # reported once
