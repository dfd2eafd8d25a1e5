#!/usr/bin/env python3
"""Rewrites the generated variant tables of docs/<family>.md.

Each doc holds, between the lines
    <!-- BEGIN generated: adjacent variants --markdown --family F -->
    <!-- END generated -->
what `adjacent variants --markdown --family F` prints (a test fails when a
doc is stale). Run from the project root after changing a variant table:
    tools/update-docs.py [--adjacent build/default/tools/adjacent]
Build with CUDA (the default preset where nvcc is found) so that the cuda
rows are written too.
"""

import argparse
import pathlib
import re
import subprocess
import sys

BEGIN = re.compile(
    r"(<!-- BEGIN generated: adjacent variants --markdown --family (\w+) -->\n)"
    r"(.*?)(<!-- END generated -->)", re.S)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--adjacent", default="build/default/tools/adjacent")
    parser.add_argument("--docs", default="docs", type=pathlib.Path)
    args = parser.parse_args()
    for doc in sorted(args.docs.glob("*.md")):
        text = doc.read_text()

        def table(match):
            family = match.group(2)
            printed = subprocess.run(
                [args.adjacent, "variants", "--markdown", "--family", family],
                check=True, capture_output=True, text=True).stdout
            return match.group(1) + printed + match.group(4)

        updated = BEGIN.sub(table, text)
        if updated != text:
            doc.write_text(updated)
            print(f"updated {doc}")


if __name__ == "__main__":
    sys.exit(main())
