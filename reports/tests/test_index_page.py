"""The report page renders: reports/figures.py draws a page from a run kept
under reports/data/ (the H200's JSON), and headless Chromium loads it. The
page's own script counts the figures that loaded and the script errors
into its title (reports/page.py); every figure must load, none may fail,
and no error may occur."""

import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
KEPT = ROOT / "reports" / "data" / "h200"


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def test_the_page_renders_every_figure_without_errors(tmp_path):
    browser = chromium()
    if browser is None:
        pytest.skip("Chromium is not installed: tools/install-deps.sh "
                    "installs Debian's chromium when run as root")
    subprocess.run([sys.executable, str(ROOT / "reports" / "figures.py"),
                    "--json", str(KEPT), "--out", str(tmp_path)],
                   check=True, capture_output=True)
    page = tmp_path / "index.html"
    images = re.findall(r'<img [^>]*src="([^"]+)"', page.read_text())
    pngs = sorted(p.name for p in tmp_path.glob("*.png"))
    assert images and sorted(images) == pngs
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu",
         "--virtual-time-budget=20000", "--dump-dom", page.as_uri()],
        check=True, capture_output=True, text=True, timeout=120).stdout
    title = re.search(r"<title>([^<]*)</title>", dom).group(1)
    assert title == (f"adjacent report: {len(images)}/{len(images)} figures, "
                     "0 errors"), title
