"""The report's key tables for a paper: a Markdown table of report.md as
CSV and as a LaTeX table (booktabs rules, `\\input`-able: a `table`
float with the caption and a label), written beside the figures.

The Markdown is the one source: the CSV carries its cells whole, with
Markdown's emphasis and code marks dropped. The LaTeX table is made to be
read on a page: a column with the same value in every row moves into the
caption, measured decimals keep three significant digits (to the unit
above 100), headings of a wide table stand upright, LaTeX's special
characters are escaped, long text cells wrap, a table wider than a page
is printed in parts that each repeat the columns naming its rows, and a
`table*` float shrinks the tabular to the text width where it is still
wider (graphicx's \\resizebox; the including document loads booktabs and
graphicx).
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


def for_print(cell):
    """A cell as a paper prints it: a decimal to three significant digits
    (to the unit at 100 and above); anything else as it is."""
    if not re.fullmatch(r"-?\d+\.\d+", cell):
        return cell
    value = float(cell)
    if abs(value) >= 100:
        return f"{value:.0f}"
    return f"{value:.3g}" if "e" not in f"{value:.3g}" else cell


def without_constant_columns(header, alignments, rows):
    """(header, alignments, rows, constants): the columns whose cells are
    the same non-empty text in every one of two or more rows taken out, as
    (heading, value) pairs."""
    if len(rows) < 2:
        return header, alignments, rows, []
    width = len(header)
    padded = [(row + [""] * width)[:width] for row in rows]
    constant = [c for c in range(width)
                if padded[0][c] and all(r[c] == padded[0][c] for r in padded)]
    if len(constant) == width:
        constant = []
    keep = [c for c in range(width) if c not in constant]
    return ([header[c] for c in keep], [alignments[c] for c in keep],
            [[row[c] for c in keep] for row in padded],
            [(header[c], padded[0][c]) for c in constant])


# A table of more columns than this has its headings upright, so that a
# column is as wide as its values rather than its variant's name.
ROTATED_HEADINGS_PAST = 8
# About what a page's text width holds at \small, in characters of the
# cells, column gaps included (how it was estimated: docs/reports.md). A
# wider table is printed in parts of at most this width, each repeating
# the columns that name its rows; a part still wider is shrunk to the text
# width.
PRINT_WIDTH = 120
# A text cell longer than this wraps, in a column this many characters wide.
WRAPPED_CELL = 24


def print_widths(header, rows, wrapped, headings_upright):
    """Each column's width in characters as printed: its longest cell (its
    heading's too when headings stand upright), a wrapped column's at most
    WRAPPED_CELL, plus the gap between columns."""
    widths = []
    for c, heading in enumerate(header):
        longest = max([len(for_print(plain(row[c]))) for row in rows]
                      + [len(plain(heading)) if headings_upright else 0])
        widths.append((min(longest, WRAPPED_CELL) if wrapped[c] else longest)
                      + 2)
    return widths


def column_parts(widths, keys):
    """The columns of each printed part: the key columns first, then as
    many of the others, in order, as fit PRINT_WIDTH (at least one)."""
    parts, part, width = [], [], sum(widths[k] for k in keys)
    for c in (c for c in range(len(widths)) if c not in keys):
        if part and width + widths[c] > PRINT_WIDTH:
            parts.append(part)
            part, width = [], sum(widths[k] for k in keys)
        part.append(c)
        width += widths[c]
    parts.append(part)
    return [list(keys) + part for part in parts]


def latex_cell(cell, wrapped):
    text = latex_escaped(for_print(plain(cell)))
    if not wrapped:
        return text
    # A paragraph cell without the array package: \raggedright inside a
    # parbox leaves the row's \\ alone.
    return (rf"\parbox[t]{{{WRAPPED_CELL / 2:g}em}}"
            rf"{{\raggedright {text}}}")


def table_float(header, alignments, rows, columns, style, caption, label):
    """One booktabs `table*` of `columns` of the rows; `style` says whether
    headings stand upright and which columns wrap."""
    upright, wrapped = style
    headings = [latex_escaped(plain(header[c])) for c in columns]
    if not upright:
        headings = [rf"\rotatebox{{90}}{{{h}}}" for h in headings]
    spec = "".join(alignments[c] for c in columns)
    lines = [r"\begin{table*}[t]", r"\centering", r"\small",
             rf"\caption{{{latex_escaped(caption)}}}",
             rf"\label{{tab:{label}}}",
             r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}"
             r"{!}{%",
             rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
             " & ".join(headings) + r" \\", r"\midrule"]
    for row in rows:
        lines.append(" & ".join(latex_cell(row[c], wrapped[c])
                                for c in columns) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}}", r"\end{table*}", ""]
    return "\n".join(lines)


def latex(header, alignments, rows, caption, label, keys=()):
    """Booktabs table floats, each at most the text's width: one, or a
    part per PRINT_WIDTH of columns, each repeating the columns headed by
    `keys` (else the first), captioned "Part k of n"."""
    header, alignments, rows, constants = without_constant_columns(
        header, alignments, rows)
    if constants:
        caption = (caption.rstrip() + " Every row: " + "; ".join(
            f"{plain(heading)} {plain(value)}" for heading, value in constants)
            + ".")
    rows = [(row + [""] * len(header))[:len(header)] for row in rows]
    # Only a list of words wraps: a name has nowhere to break.
    wrapped = [alignments[c] == "l" and any(
        len(for_print(plain(row[c]))) > WRAPPED_CELL and " " in row[c]
        for row in rows) for c in range(len(header))]
    upright = len(header) <= ROTATED_HEADINGS_PAST
    if sum(print_widths(header, rows, wrapped, upright)) <= PRINT_WIDTH:
        return table_float(header, alignments, rows, range(len(header)),
                           (upright, wrapped), caption, label)
    key_columns = ([c for c, h in enumerate(header) if plain(h) in keys]
                   or [0])
    parts = column_parts(print_widths(header, rows, wrapped, True),
                         key_columns)
    return "\n".join(
        table_float(header, alignments, rows, columns,
                    (len(columns) <= ROTATED_HEADINGS_PAST, wrapped),
                    caption.rstrip() + f" Part {k} of {len(parts)}.",
                    label if k == 1 else f"{label}-{k}")
        for k, columns in enumerate(parts, start=1))


def write(out_dir, name, caption, markdown_lines, keys=()):
    """<name>.csv and <name>.tex from the first table of `markdown_lines`
    (`keys`: the headings of the columns that name a row, which every part
    of a wide table repeats); returns the paths (none when the lines hold
    no table)."""
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
                              name.replace("_", "-"), keys))
    return [csv_path, tex_path]
