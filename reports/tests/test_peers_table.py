"""The "ours against the peers" table (engine.peers_table): drawn from a
small synthetic JSON with a variant table naming one peer, the best of
ours and the best peer chosen per scene and size, their ratio and the
Mann-Whitney verdict over the repetitions; kernel-only rows and copies
left out, and no table for a family without peers."""

import dataclasses
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import engine  # noqa: E402

TABLE = {"baseline": "serial", "variants": [
    {"name": "serial", "backend": "serial", "origin": "baseline",
     "twin": "", "library": ""},
    {"name": "fast", "backend": "openmp", "origin": "ours", "twin": "",
     "library": ""},
    {"name": "lib_peer", "backend": "serial", "origin": "peer", "twin": "",
     "library": "Lib 1.0"}]}


def rows(variant, times_us, suffix=""):
    name = f"fam/{variant}/uniform/n:1000{suffix}/real_time"
    return [{"name": name, "run_name": name, "run_type": "iteration",
             "repetition_index": k, "repetitions": len(times_us),
             "iterations": 1, "real_time": t, "time_unit": "us"}
            for k, t in enumerate(times_us)]


def run_of(tmp_path, tables):
    document = {"context": {"cpu_model": "Test CPU",
                            **{f"adj_table/fam/{name}": json.dumps(table)
                               for name, table in tables.items()}},
                "benchmarks": rows("serial", [9000, 9100, 9200, 9300, 9400])
                + rows("fast", [1000, 1100, 1200, 1300, 1400])
                + rows("fast", [10, 10, 10, 10, 10], "/trusted:1")
                + rows("lib_peer", [2000, 2100, 2200, 2300, 2400])
                + rows("memcpy", [1, 1, 1, 1, 1])}
    path = tmp_path / "fam.json"
    path.write_text(json.dumps(document))
    return engine.load_run([path])


def test_best_of_ours_against_the_best_peer(tmp_path):
    lines = engine.peers_table(run_of(tmp_path, {"variants": TABLE}), "fam")
    body = [line for line in lines if line.startswith("| variants | CPU")]
    assert len(body) == 1
    # The kernel-only row (10 us) is not "ours as shipped".
    assert "| `fast` | 1.2 | `lib_peer` | Lib 1.0 | 2.2 | 0.545 |" in body[0]
    assert body[0].endswith("| ours faster |")


def test_a_peer_the_oracle_refused_is_shown_as_differing(tmp_path):
    name = "fam/lib_peer/shuffled/n:1000/real_time"
    document = {"context": {"adj_table/fam/variants": json.dumps(TABLE)},
                "benchmarks": [{"name": name, "run_name": name,
                                "run_type": "iteration",
                                "error_occurred": True,
                                "error_message": "output differs from the "
                                                 "oracle: row 3"}]}
    path = tmp_path / "refused.json"
    path.write_text(json.dumps(document))
    run = engine.load_run([path])
    run.rows = run_of(tmp_path, {"variants": TABLE}).rows
    lines = engine.peers_table(run, "fam")
    assert ("- `lib_peer` on shuffled: **differs** from the oracle: output "
            "differs from the oracle: row 3") in lines


def test_no_peers_no_table(tmp_path):
    table = dict(TABLE, variants=TABLE["variants"][:2])
    assert engine.peers_table(run_of(tmp_path, {"variants": table}),
                              "fam") == []


def test_which_to_use_names_the_fastest_row_and_a_winning_peer(tmp_path):
    run = run_of(tmp_path, {"variants": TABLE})
    lines = engine.which_to_use(run)
    body = [line for line in lines if line.startswith("| fam |")]
    # ours (1.2 ms) beats the peer (2.2 ms); the kernel-only row is not a
    # candidate; the copy is not a variant.
    assert body == ["| fam | variants | CPU Test CPU | `fast` "
                    "| uniform (n:1000) | 1.83x | `lib_peer` | faster |"]
    slow = [r for r in run.rows if r.variant != "fast"]
    run.rows = slow
    body = [line for line in engine.which_to_use(run)
            if line.startswith("| fam |")]
    assert body == ["| fam | variants | CPU Test CPU "
                    "| `lib_peer` (peer: Lib 1.0) | uniform (n:1000) "
                    "| 4.18x | `serial` | faster |"]


def test_which_to_use_takes_the_largest_size(tmp_path):
    run = run_of(tmp_path, {"variants": TABLE})
    small = [dataclasses.replace(r, args={"n": 10}) for r in run.rows
             if r.variant in ("serial", "lib_peer")]
    # At n:10 the baseline wins, but n:1000 is the size that answers.
    for r in small:
        if r.variant == "serial":
            r.values = dict(r.values, real_time=1.0)
    run.rows += small
    body = [line for line in engine.which_to_use(run)
            if line.startswith("| fam |")]
    assert len(body) == 1 and "| `fast` | uniform (n:1000) |" in body[0]


def test_which_to_use_joins_the_scenes_one_row_wins_and_skips_kept_runs(
        tmp_path):
    run = run_of(tmp_path, {"variants": TABLE})
    other = [dataclasses.replace(r, scene="shuffled") for r in run.rows]
    for r in other:
        if r.variant == "fast":
            r.times = [t * 1.5 for t in r.times]
            r.values = dict(r.values, real_time=r.values["real_time"] * 1.5)
    kept = [dataclasses.replace(r, scene="elsewhere", kept=True)
            for r in run.rows]
    run.rows += other + kept
    body = [line for line in engine.which_to_use(run)
            if line.startswith("| fam |")]
    # 2.2 / 1.2 and 2.2 / 1.8; the kept run's scene is not an answer here.
    assert body == ["| fam | variants | CPU Test CPU | `fast` "
                    "| shuffled (n:1000), uniform (n:1000) | 1.22-1.83x "
                    "| `lib_peer` | faster |"]
