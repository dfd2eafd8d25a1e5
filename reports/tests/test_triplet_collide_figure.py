"""The triplet_collide figure of CUDA kernel time against bank replays: drawn
from a small synthetic benchmark JSON (three CUDA variants, two schedulers,
repeated with a stddev aggregate), and skipped without error where the JSON
predates the replay counters."""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from families import triplet_collide  # noqa: E402
from gallery import Gallery  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
LABEL = "gpu:NVIDIA Test (host memory in and out)"


def row(variant, scheduler, kernel_us, replays, aggregate=None):
    name = (f"triplet_collide/{variant}/grid250-permuted/"
            f"scheduler:{scheduler}/triplets:125000/manual_time")
    values = {"name": name + (f"_{aggregate}" if aggregate else ""),
              "run_name": name, "real_time": 1000.0, "time_unit": "us",
              "kernel_us": kernel_us, "label": LABEL, "verified": 1.0}
    if replays is not None:
        values.update(replays=replays, ideal_replays=11730.0,
                      replays_floor=11700.0)
    if aggregate:
        values.update(run_type="aggregate", aggregate_name=aggregate)
    else:
        values.update(run_type="iteration")
    return values


def write_run(tmp_path, with_replays):
    benchmarks = []
    for variant, base in (("cuda_global", 330.0), ("cuda_shared", 30.0),
                          ("cuda_shared_tiled", 50.0)):
        for scheduler, replays in (("nvcloth_warp", 33621.0),
                                   ("bfs_walk_warp", 12115.0)):
            kernel = base * replays / 12115.0
            benchmarks += [
                row(variant, scheduler, kernel,
                    replays if with_replays else None, "median"),
                row(variant, scheduler, 0.02 * kernel,
                    replays if with_replays else None, "stddev")]
    path = tmp_path / "triplet_collide.json"
    path.write_text(json.dumps({"context": {"gpu": "NVIDIA Test"},
                                "benchmarks": benchmarks}))
    return path


def test_the_figure_draws_every_variant_and_tables_each_point(tmp_path):
    run = engine.load_run([write_run(tmp_path, with_replays=True)])
    gallery = Gallery(tmp_path, run.contexts)
    lines = triplet_collide.draw(run, gallery)
    gallery.files_written()
    assert (tmp_path / "triplet_collide_kernel_replays.png").exists()
    assert (tmp_path / "triplet_collide_kernel_replays.pdf").exists()
    points = [line for line in lines if line.startswith("| grid250")]
    assert len(points) == 6  # 3 variants x 2 schedulers
    assert any("cuda_shared_tiled | bfs_walk_warp | 1.033 |" in line
               for line in points)
    assert triplet_collide.REPLAYS_QUESTION in "\n".join(lines)


def test_json_without_replays_draws_nothing(tmp_path):
    run = engine.load_run([write_run(tmp_path, with_replays=False)])
    gallery = Gallery(tmp_path, run.contexts)
    assert triplet_collide.draw(run, gallery) == []
    gallery.files_written()
    assert not list(tmp_path.glob("*.png"))


def test_the_kept_h200_run_is_drawn_or_skipped_without_error(tmp_path):
    kept = ROOT / "reports" / "data" / "h200" / "triplet_collide.json"
    run = engine.load_run([kept])
    gallery = Gallery(tmp_path, run.contexts)
    lines = triplet_collide.draw(run, gallery)
    gallery.files_written()
    drawn = (tmp_path / "triplet_collide_kernel_replays.png").exists()
    assert drawn == bool(lines)
    assert drawn == bool(triplet_collide.replay_rows(run))
