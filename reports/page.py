"""reports/out/index.html: the report as one static page, its PNG figures
beside it. It opens with report.md's "Which variant to use" (computed
from this run: engine.which_to_use), then a verification matrix (family x
variant), every cell read from an output:
the benchmarks' `verified` counters of this run, the ctest JUnit files
`make test` wrote (one column per preset that ran), and the GPU rows kept
under reports/data/ (nothing in it is typed), then the figures with their
captions (the manifest's), then every other section of report.md, and
the machines folded at the end.

The page checks itself as it loads: an inline script counts the figures
that loaded and failed and any script error, and writes the counts into
the title ("adjacent report: 12/12 figures, 0 errors"), which the
Chromium test (reports/tests/test_index_page.py) reads."""

import html
import pathlib
import re
import xml.etree.ElementTree as ET

import markdown

from engine import verified_flags


SELF_CHECK = """
<script>
(function () {
  var errors = 0;
  window.addEventListener("error", function () { errors += 1; }, true);
  function report() {
    var images = Array.prototype.slice.call(document.images);
    var loaded = images.filter(function (i) {
      return i.complete && i.naturalWidth > 0; }).length;
    document.title = "adjacent report: " + loaded + "/" + images.length +
                     " figures, " + errors + " errors";
  }
  window.addEventListener("load", report);
})();
</script>
"""

STYLE = """
<style>
body { font-family: sans-serif; max-width: 75em; margin: 1em auto;
       padding: 0 1em; line-height: 1.4; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; }
th { background: #f3f3f3; }
td.agrees, td.passed { background: #e6f4e6; }
td.differs, td.failed { background: #f8d7d7; }
img { max-width: 100%; border: 1px solid #eee; }
.gallery { display: grid; gap: 1em;
           grid-template-columns: repeat(auto-fill, minmax(22em, 1fr)); }
figure { margin: 0; }
figcaption { font-size: 0.85em; }
code { background: #f5f5f5; }
nav a { margin-right: 0.8em; }
</style>
"""


def split_answers(report_md):
    """(report.md's "Which variant to use" section, the rest of it)."""
    match = re.search(r"^## Which variant to use\n.*?(?=^## |\Z)", report_md,
                      re.S | re.M)
    if not match:
        return "", report_md
    return (match.group(0),
            report_md[:match.start()] + report_md[match.end():])


def junit_cases(path):
    """{test name: 'passed' | 'failed' | 'skipped'} of a ctest JUnit file."""
    cases = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        status = "passed"
        if case.find("failure") is not None or case.find("error") is not None:
            status = "failed"
        elif (case.find("skipped") is not None
              or case.get("status") in ("notrun", "disabled")):
            status = "skipped"
        cases[case.get("name", "")] = status
    return cases


def snake(name):
    """'ThreadedConnectedComponents' -> 'threaded_connected_components'."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def family_and_variant(test):
    """(suite in snake case, variant) of a parameterised test
    ('Variants/TwinSph.Gives/sorted_simd_AVX3' -> ('twin_sph',
    'sorted_simd_AVX3')); None for a test without a parameter."""
    parts = test.split(" ")[0].split("/")
    if len(parts) < 3:
        return None
    return snake(parts[1].split(".")[0]), parts[-1]


def test_cell(cases, family, variant):
    """'passed 12' / 'failed 1 of 12' / 'skipped 9' for the tests of one
    family's variant (a SIMD row's per-target instances included): tests
    whose suite names the family (HashGrid, TwinSph, ...)."""
    statuses = []
    for name, status in cases.items():
        parsed = family_and_variant(name)
        if parsed is None or family not in parsed[0]:
            continue
        v = parsed[1]
        if v == variant or (v.startswith(variant + "_")
                            and v[len(variant) + 1:].isupper()):
            statuses.append(status)
    if not statuses:
        return "", ""
    failed = statuses.count("failed")
    passed = statuses.count("passed")
    skipped = statuses.count("skipped")
    if failed:
        return "failed", f"failed {failed} of {len(statuses)}"
    if passed:
        extra = f", {skipped} skipped" if skipped else ""
        return "passed", f"passed {passed}{extra}"
    return "skipped", f"skipped {skipped}"


def matrix(run, junit_paths):
    """The verification matrix's HTML table."""
    presets = [(p.stem.removeprefix("tests-"), junit_cases(p))
               for p in junit_paths]
    verified = verified_flags(run)
    head = ["family", "variant", "origin", "backend",
            "benchmarks: oracle agreement (device)"]
    head += [f"tests ({name})" for name, _ in presets]
    out = ["<table>", "<tr>" + "".join(f"<th>{html.escape(h)}</th>"
                                       for h in head) + "</tr>"]
    for family in sorted(run.tables):
        for variant, info in run.variants(family).items():
            cells = [family, variant, info.get("origin", ""),
                     info.get("backend", "")]
            runs = []
            state = ""
            for (f, v, device), flags in sorted(verified.items()):
                if f != family or v != variant:
                    continue
                bad = flags.count(0)
                runs.append(f"{'differs' if bad else 'agrees'} "
                            f"({len(flags) - bad}/{len(flags)} rows, "
                            f"{device})")
                state = "differs" if bad or state == "differs" else "agrees"
            # A row that gave no timing (a peer refusing an input under its
            # documented convention, one the build did not find) says why.
            # (A CUDA row without a GPU here is the usual case: not listed.)
            if info.get("backend") != "cuda":
                runs += sorted({f"no timing on {scene}: {message}"
                                for f, v, scene, _, message in run.errors
                                if f == family and v == variant})
            row_html = "".join(f"<td>{html.escape(str(c))}</td>"
                               for c in cells)
            row_html += (f'<td class="{state}">'
                         + "<br>".join(html.escape(r) for r in runs)
                         + "</td>")
            for _, cases in presets:
                cls, text = test_cell(cases, family, variant)
                row_html += f'<td class="{cls}">{html.escape(text)}</td>'
            out.append(f"<tr>{row_html}</tr>")
    out.append("</table>")
    return "\n".join(out)


IMAGE = re.compile(r"!\[[^\]]*\]\(([^)]+\.png)\) ?")


def split_machines(report_md):
    """(report.md's "Machines" section, the rest of it)."""
    match = re.search(r"^## Machines\n.*?(?=^## |\Z)", report_md,
                      re.S | re.M)
    if not match:
        return "", report_md
    return (match.group(0),
            report_md[:match.start()] + report_md[match.end():])


def gallery_html(entries):
    """Every figure of the manifest with its caption, grouped by family."""
    figures = [e for e in entries if e["kind"] == "figure"]
    if not figures:
        return ""
    out = ['<h2 id="figures">Figures</h2>', '<div class="gallery">']
    for entry in figures:
        png = next((f for f in entry["files"] if f.endswith(".png")), None)
        if png is None:
            continue
        others = " ".join(f'<a href="{html.escape(f)}">{f.rsplit(".", 1)[1]}'
                          '</a>' for f in entry["files"]
                          if not f.endswith(".png"))
        out.append(
            f'<figure id="{html.escape(entry["name"])}">'
            f'<img src="{html.escape(png)}" alt="{html.escape(entry["name"])}">'
            f'<figcaption><b>{html.escape(entry["name"])}</b> ({others}): '
            f'{html.escape(entry["caption"])}</figcaption></figure>')
    out.append("</div>")
    return "\n".join(out)


def write(out_dir, report_md, run, junit_paths, entries=()):
    """Writes out_dir/index.html; returns its path. `entries`: the
    manifest's (gallery.Gallery), drawn as the figure gallery."""
    # report.md's own title is the page's.
    report_md = re.sub(r"\A# [^\n]*\n", "", report_md)
    answers, report_md = split_answers(report_md)
    # report.md's short verification section: the matrix below says more.
    report_md = re.sub(r"^## Verification\n.*?(?=^## |\Z)", "", report_md,
                       flags=re.S | re.M)
    machines, report_md = split_machines(report_md)
    if entries:
        # The figures are in the gallery; the sections keep their links.
        report_md = IMAGE.sub(
            lambda m: f"Figure [{m.group(1)[:-4]}](#{m.group(1)[:-4]}): ",
            report_md)
    body = markdown.markdown(report_md, extensions=["tables"])
    families = sorted(run.tables)
    page = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>",
        '<meta charset="utf-8">', "<title>adjacent report</title>", STYLE,
        SELF_CHECK, "</head>", "<body>", "<h1>adjacent: benchmark report</h1>",
        "<nav>" + "".join(f'<a href="#{f}">{f}</a>' for f in families)
        + '<a href="#verification">verification</a>'
        + '<a href="#figures">figures</a></nav>',
        markdown.markdown(answers, extensions=["tables"]),
        '<h2 id="verification">Verification matrix</h2>',
        "<p>Per variant: the oracle's verdict on every benchmark row of this "
        "run and of the GPU runs kept under reports/data/ (the benchmark's "
        "<code>verified</code> counter), and the tests of each preset whose "
        "ctest JUnit file <code>make test</code> left in reports/out/. "
        "Read from those files; nothing here is typed.</p>",
        matrix(run, junit_paths),
    ]
    # Anchor each family's first section of the report.
    seen = set()

    def anchor(match):
        family = match.group(1)
        if family in seen:
            return match.group(0)
        seen.add(family)
        return f'<h2 id="{family}">{family}:'

    page.append(gallery_html(entries))
    page.append(re.sub(r"<h2>([a-z_]+):", anchor, body))
    if machines:
        page += ["<details><summary>Machines (every JSON file read)"
                 "</summary>",
                 markdown.markdown(re.sub(r"\A## Machines\n", "", machines)),
                 "</details>"]
    page += ["</body>", "</html>"]
    path = pathlib.Path(out_dir) / "index.html"
    path.write_text("\n".join(page) + "\n")
    return path
