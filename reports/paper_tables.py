"""The report's key tables for a paper: a Markdown table of report.md as
CSV and as a LaTeX table (booktabs rules, `\\input`-able: a `table`
float with the caption and a label), written beside the figures.

The Markdown is the one source: the CSV and LaTeX carry the same cells,
with Markdown's emphasis and code marks dropped and LaTeX's special
characters escaped.
"""

import csv
import re

LATEX_SPECIALS = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$",
    "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def cells_of(line):
    """A Markdown table line's cells, stripped."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def markdown_table(lines):
    """(header, alignments, rows) of the first Markdown table in `lines`
    (alignments "l" or "r" from the separator line); None when there is
    none."""
    table = []
    for line in lines:
        if line.lstrip().startswith("|"):
            table.append(line)
        elif table:
            break
    if len(table) < 2 or not re.fullmatch(r"[\s|:\-]+", table[1]):
        return None
    header = cells_of(table[0])
    alignments = ["r" if cell.endswith(":") else "l"
                  for cell in cells_of(table[1])]
    rows = [cells_of(line) for line in table[2:]]
    return header, alignments, rows


def plain(cell):
    """A cell without Markdown's marks (`code`, **bold**, *italic*)."""
    return re.sub(r"\*\*(.+?)\*\*|`(.+?)`|\*(.+?)\*",
                  lambda m: next(g for g in m.groups() if g is not None),
                  cell)


def latex_escaped(text):
    return "".join(LATEX_SPECIALS.get(c, c) for c in text)


def latex(header, alignments, rows, caption, label):
    """A booktabs table float."""
    spec = "".join(alignments)
    lines = [r"\begin{table}[t]", r"\centering", r"\small",
             rf"\caption{{{latex_escaped(caption)}}}",
             rf"\label{{tab:{label}}}",
             rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
             " & ".join(latex_escaped(plain(c)) for c in header) + r" \\",
             r"\midrule"]
    for row in rows:
        cells = (row + [""] * len(header))[:len(header)]
        lines.append(" & ".join(latex_escaped(plain(c)) for c in cells)
                     + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    return "\n".join(lines)


def write(out_dir, name, caption, markdown_lines):
    """<name>.csv and <name>.tex from the first table of `markdown_lines`;
    returns the paths (none when the lines hold no table)."""
    table = markdown_table(markdown_lines)
    if table is None:
        return []
    header, alignments, rows = table
    csv_path = out_dir / f"{name}.csv"
    with open(csv_path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow([plain(c) for c in header])
        writer.writerows([[plain(c) for c in row] for row in rows])
    tex_path = out_dir / f"{name}.tex"
    tex_path.write_text(latex(header, alignments, rows, caption,
                              name.replace("_", "-")))
    return [csv_path, tex_path]
