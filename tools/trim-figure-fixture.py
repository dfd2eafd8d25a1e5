#!/usr/bin/env python3
"""Writes the small kept run the figure tests draw from
(reports/tests/data/figures) out of a quick `make figures` run's JSON:
every file gzipped, without the mean and cv aggregates (the report reads
the repetitions, the median and the stddev), and triplet_schedule's rows
cut to a few scenes (its full quick run is 14 MB).

    tools/trim-figure-fixture.py reports/out/json reports/tests/data/figures
"""

import gzip
import json
import pathlib
import sys

# triplet_schedule scenes kept: the grid and the disc in both orders, one
# real mesh.
KEPT_SCENES = ("grid-", "disc64-", "cgal-elephant-")


def kept(row, family):
    if row.get("aggregate_name") in ("mean", "cv"):
        return False
    if family != "triplet_schedule":
        return True
    scene = row.get("run_name", row.get("name", "")).split("/")[2:3]
    return bool(scene) and scene[0].startswith(KEPT_SCENES)


def main():
    source, target = map(pathlib.Path, sys.argv[1:3])
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.glob("*.json")):
        document = json.loads(path.read_text())
        family = path.stem
        if "benchmarks" in document:
            document["benchmarks"] = [r for r in document["benchmarks"]
                                      if kept(r, family)]
        out = target / f"{path.name}.gz"
        out.write_bytes(gzip.compress(
            json.dumps(document, separators=(",", ":")).encode(), mtime=0))
        print(f"wrote {out} ({out.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
