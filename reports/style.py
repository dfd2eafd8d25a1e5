"""The one style of every figure the report draws: sizes for a paper's
single (3.3 in) and double (7 in) column, fonts embedded in the vector files
(PDF: TrueType, type 42; SVG: glyphs as paths), a colour-blind-safe palette
(Okabe and Ito's eight colours) with one fixed colour and marker per
variant across all figures, legends outside the axes, and a check of each
figure's layout before it is written (`layout_problems`).

A variant's colour and marker follow from its place in its family's
variant tables, which the benchmarks write into the JSON's context
(`assign`): the same variant has the same look in every figure of a run,
and in every run made from the same tables. The copy limits are greys with
their own dashes, never a palette colour.

Each drawn series carries its identity as the artist's gid
("<family>/<variant>"), so that the manifest and the tests read back
which colour each variant got.
"""

import itertools
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import Collection  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from matplotlib.ticker import LogFormatterSciNotation  # noqa: E402

SINGLE_COLUMN_IN = 3.3
DOUBLE_COLUMN_IN = 7.0

# Okabe & Ito (2008), "Color Universal Design": distinguishable under the
# common colour-vision deficiencies. Their black is kept for goals, bounds
# and ticks; greys for the copy limits.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7",
           "#56B4E9", "#F0E442")
# A family with more variants than colours repeats a colour with another
# marker (lines) and hatch (bars): (colour, marker, hatch) never repeats
# within a family.
MARKERS = ("o", "s", "D", "^", "v", "P", "X", "<", ">", "h")
HATCHES = ("", "////", "....", "xxxx", "\\\\", "++++", "oooo", "----",
           "||||", "****")

# Each copy its own dash and grey, so that the limits stay apart from each
# other and from the variants.
LIMIT_STYLES = {
    "memcpy": ("--", "0.25"),
    "memcpy_openmp": (":", "0.35"),
    "memcpy_stream": ("-.", "0.5"),
    "memcpy_cuda": ("--", "0.6"),
    "memcpy_cuda_one_block": (":", "0.6"),
    "memcpy_cuda_host": ("-.", "0.6"),
}

RC = {
    "font.size": 7,
    "axes.titlesize": 7,
    "axes.labelsize": 7,
    "xtick.labelsize": 6,
    "ytick.labelsize": 6,
    "legend.fontsize": 6,
    "legend.frameon": False,
    "lines.linewidth": 1.0,
    "lines.markersize": 3.5,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.5,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "svg.fonttype": "path",
    "savefig.dpi": 200,
    "hatch.linewidth": 0.6,
    "figure.constrained_layout.use": True,
}

matplotlib.rcParams.update(RC)


class Looks:
    """(family, variant) -> (colour, marker), fixed for a run."""

    def __init__(self):
        self._looks = {}
        self._next = {}

    def assign(self, tables):
        """Gives every variant of `tables` (family -> table -> {"variants":
        {name: ...}}, in the JSON's order) its look, tables in name order
        with "variants" first."""
        for family in sorted(tables):
            by_table = tables[family]
            for table in sorted(by_table, key=lambda t: (t != "variants", t)):
                for name in by_table[table].get("variants", {}):
                    self.of(family, name)

    def of(self, family, variant):
        """The variant's (colour, marker); a variant no table named gets
        the family's next free pair."""
        key = (family, variant)
        if key not in self._looks:
            index = self._next.get(family, 0)
            self._next[family] = index + 1
            self._looks[key] = (PALETTE[index % len(PALETTE)],
                                MARKERS[(index // len(PALETTE))
                                        % len(MARKERS)])
        return self._looks[key]


LOOKS = Looks()


_SUPERSCRIPT = str.maketrans("-0123456789", "\u207b\u2070\u00b9\u00b2\u00b3"
                             "\u2074\u2075\u2076\u2077\u2078\u2079")
_MATH_POWER = re.compile(r"\^\{(?:\\minus|-|\u2212)?(\d+)\}")


class PowerLabels(LogFormatterSciNotation):
    """Log-axis labels as plain text ("10\u00b3", "2\u00d710\u2076") where
    matplotlib writes mathtext: the same look, without running the
    mathtext parser at every draw (docs/reports.md)."""

    def __call__(self, x, pos=None):
        text = super().__call__(x, pos)
        if not text.startswith("$"):
            return text
        body = text.strip("$").replace(r"\mathdefault{", "", 1)[:-1]

        def power(match):
            sign = "-" if "{-" in match.group(0) or "minus" in match.group(0) \
                or "\u2212" in match.group(0) else ""
            return (sign + match.group(1)).translate(_SUPERSCRIPT)

        body = _MATH_POWER.sub(power, body)
        return body.replace(r"\times", "\u00d7").replace("-", "\u2212")


def plain_log_labels(fig):
    """Gives every log axis of `fig` PowerLabels (major and minor ticks
    alike, keeping which ticks are labelled)."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if axis.get_scale() != "log":
                continue
            for setter, getter in ((axis.set_major_formatter,
                                    axis.get_major_formatter),
                                   (axis.set_minor_formatter,
                                    axis.get_minor_formatter)):
                old = getter()
                if isinstance(old, LogFormatterSciNotation) and not \
                        isinstance(old, PowerLabels):
                    # Its settings (base, which ticks get labels) carried
                    # over as they are.
                    new = PowerLabels.__new__(PowerLabels)
                    new.__dict__.update(old.__dict__)
                    setter(new)


def is_limit(variant):
    return variant.startswith("memcpy")


def series_style(family, variant, gpu=False):
    """Keyword arguments of ax.plot / ax.errorbar for one variant's series
    (a limit: its grey dash, no marker); GPU rows dotted."""
    if is_limit(variant):
        dash, grey = LIMIT_STYLES.get(variant, ("--", "0.5"))
        return {"color": grey, "linestyle": dash, "marker": None,
                "gid": f"{family}/{variant}"}
    colour, marker = LOOKS.of(family, variant)
    return {"color": colour, "marker": marker,
            "linestyle": ":" if gpu else "-", "gid": f"{family}/{variant}"}


def bar_style(family, variant):
    colour, marker = LOOKS.of(family, variant)
    hatch = HATCHES[MARKERS.index(marker) % len(HATCHES)]
    return {"color": colour, "hatch": hatch or None, "edgecolor": "white",
            "linewidth": 0, "gid": f"{family}/{variant}"}


def figure(columns=1, height_in=None, rows=1, cols=1, **kwargs):
    """A figure one (3.3 in) or two (7 in) columns wide; height by default
    three quarters of the width for one column, 0.45 for two."""
    width = SINGLE_COLUMN_IN if columns == 1 else DOUBLE_COLUMN_IN
    if height_in is None:
        height_in = width * (0.75 if columns == 1 else 0.45)
    return plt.subplots(rows, cols, figsize=(width, height_in), **kwargs)


def legend_below(fig, ax, ncols=None):
    """The axes' legend below every axes of the figure, outside the data;
    None when nothing is labelled."""
    handles, labels = [], []
    for each in fig.axes:
        for handle, label in zip(*each.get_legend_handles_labels()):
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    if not labels:
        return None
    if ncols is None:
        # About 16 characters of the legend's font per inch, with room
        # for the handle.
        longest = max(len(label) for label in labels) + 5
        ncols = max(1, min(len(labels),
                           int(fig.get_figwidth() * 16 / longest)))
    # The legend's rows are added to the figure's height, so that the axes
    # keep theirs.
    rows = -(-len(labels) // ncols)
    line_in = matplotlib.rcParams["legend.fontsize"] * 1.45 / 72
    fig.set_figheight(fig.get_figheight() + rows * line_in + 0.1)
    return fig.legend(handles, labels, loc="outside lower center",
                      ncols=ncols)


def colour_hex(artist):
    """An artist's colour as #rrggbb (a line's, a patch's face, a
    collection's first)."""
    if isinstance(artist, Line2D):
        colour = artist.get_color()
    elif isinstance(artist, Rectangle):
        colour = artist.get_facecolor()  # the hatch is drawn in the edge
    elif isinstance(artist, Collection):
        colours = artist.get_edgecolor()
        if len(colours) == 0:
            colours = artist.get_facecolor()
        if len(colours) == 0:
            return None
        colour = colours[0]
    else:
        return None
    return mcolors.to_hex(colour)


def variant_colours(fig):
    """{"<family>/<variant>": #rrggbb} of every series drawn with a gid;
    a gid drawn in two colours maps to a set of both."""
    seen = {}
    for artist in fig.findobj(lambda a: bool(a.get_gid())):
        colour = colour_hex(artist)
        if colour is not None:
            seen.setdefault(artist.get_gid(), set()).add(colour)
    return {gid: (next(iter(c)) if len(c) == 1 else sorted(c))
            for gid, c in seen.items()}


def _text_boxes(fig, renderer):
    """(what, bbox) of every visible, non-empty text of the figure: titles,
    axis labels, tick labels, annotations, the figure's own texts, and
    each legend whole."""
    # Tick labels are judged only where a tick is drawn: an axis keeps
    # labels for ticks outside its view, which are never drawn
    # (Axis._update_ticks is what matplotlib's own layout asks).
    drawn_ticks = set()
    tick_labels = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                tick_labels.update((tick.label1, tick.label2))
            for tick in axis._update_ticks():
                drawn_ticks.update((tick.label1, tick.label2))
    boxes = []
    for text in fig.findobj(matplotlib.text.Text):
        if (not text.get_visible() or not text.get_text().strip()
                or text.axes is None and text.figure is None
                or (text in tick_labels and text not in drawn_ticks)):
            continue
        # A legend's texts are judged as the legend's box.
        if any(text in legend.get_texts() or text is legend.get_title()
               for legend in fig.legends + [
                   a.get_legend() for a in fig.axes if a.get_legend()]):
            continue
        boxes.append((f"text {text.get_text()!r}",
                      text.get_window_extent(renderer)))
    for legend in fig.legends + [a.get_legend() for a in fig.axes
                                 if a.get_legend() is not None]:
        boxes.append(("legend", legend.get_window_extent(renderer)))
    return boxes


def _data_points(ax):
    """The display coordinates of every data point and bar of the axes."""
    points = []
    for line in ax.get_lines():
        if not line.get_visible():
            continue
        xy = line.get_xydata()
        if len(xy):
            points.extend(line.get_transform().transform(xy))
    for patch in ax.patches:
        if isinstance(patch, Rectangle) and patch.get_visible():
            corners = patch.get_bbox().get_points()
            points.extend(patch.get_transform().transform(corners))
    return points


def _overlap(a, b, slack=0.5):
    """Whether two display boxes share more than `slack` pixels each way."""
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > slack
            and min(a.y1, b.y1) - max(a.y0, b.y0) > slack)


def layout_problems(fig):
    """What a reader would trip over, in words: a legend over an axes' data
    area, a text over another text or over a data point, or anything
    outside the figure. Empty when the layout is clean."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    canvas = fig.bbox
    problems = []
    boxes = _text_boxes(fig, renderer)
    for (what, box), (other, other_box) in itertools.combinations(boxes, 2):
        if _overlap(box, other_box):
            problems.append(f"{what} overlaps {other}")
    for what, box in boxes:
        if (box.x0 < canvas.x0 - 1 or box.y0 < canvas.y0 - 1
                or box.x1 > canvas.x1 + 1 or box.y1 > canvas.y1 + 1):
            problems.append(f"{what} is outside the figure")
    for ax in fig.axes:
        area = ax.get_window_extent(renderer)
        points = _data_points(ax)
        for what, box in boxes:
            if what == "legend" and _overlap(box, area):
                problems.append("legend overlaps the axes' data area")
                continue
            if what.startswith("text") and any(
                    box.x0 < x < box.x1 and box.y0 < y < box.y1
                    for x, y in points if area.contains(x, y)):
                problems.append(f"{what} covers a data point")
    return sorted(set(problems))
