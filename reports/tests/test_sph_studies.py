"""The sph report reads the experiment runner's JSON (experiments/
study_json.h): a hand-made document with one study of each kind, one that
blew up and one of a variant the oracle refused, through engine.load_run
into the tables and figures."""

import json
import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from families import sph  # noqa: E402
from gallery import Gallery  # noqa: E402


def record(study, variant, parameters, results, series=None, error=None,
           verified=True):
    made = {"family": "sph", "study": study, "variant": variant,
            "verified": verified, "parameters": parameters,
            "results": results, "series": series or {}}
    if error:
        made["error"] = error
    return made


DOCUMENT = {
    "context": {"cpu_model": "Hand CPU", "adj_git_revision": "abc",
                "adj_goal/sph/hydrostatic_error_percent": "2"},
    "studies": [
        record("hydrostatic", "sorted_pairs",
               {"particles": 8000, "steps": 4000},
               {"error_percent": 1.25, "half_error_percent": 40.5,
                "column_height": 0.2, "slope_ratio": 0.5,
                "gradient_normalisation": 0.98, "boundary_fraction": 0.1,
                "volume_height": 0.19, "kinetic_energy": 1e-5,
                "max_speed": 0.01, "seconds_per_step": 0.01},
               {"depth": [0.01, 0.03], "pressure": [100.0, 300.0],
                "analytic": [98.1, 294.3]}),
        record("stability", "collapse",
               {"particles": 4000, "cfl_percent": 10, "steps": 300},
               {"largest_stable_k": 2250.5, "smallest_unstable_k": 2300.0,
                "largest_stable_k_over_k0": 12.75, "k0": 176.5,
                "dt": 1.5e-4, "viscosity": 66.4, "trials": 8}),
        record("surge", "sorted_pairs_simd",
               {"particles": 8000, "viscosity_alpha": 0.05, "max_steps": 0},
               {"column_width": 0.16, "column_height": 0.32, "steps": 900,
                "seconds_per_step": 0.01},
               {"t": [0.2 * k for k in range(1, 16)],
                "z": [1 + 0.15 * k for k in range(1, 16)]}),
        record("surge", "collapse",
               {"particles": 8000, "viscosity_alpha": 0.02, "max_steps": 0},
               {"column_width": 0.16, "column_height": 0.32, "steps": 12},
               {"t": [], "z": []}, error="step 12: a particle left"),
        record("hydrostatic", "refused", {"particles": 8000, "steps": 4000},
               {}, error="differs from the oracle: density 3",
               verified=False),
        # A number the runner wrote as null (not finite).
        record("stability", "naive",
               {"particles": 4000, "cfl_percent": 40, "steps": 300},
               {"largest_stable_k": None, "smallest_unstable_k": 10.0,
                "largest_stable_k_over_k0": None, "k0": 176.5,
                "dt": 6e-4, "viscosity": 66.4, "trials": 0}),
    ],
}


def load(tmp_path):
    path = tmp_path / "sph_studies.json"
    path.write_text(json.dumps(DOCUMENT))
    return engine.load_run([path])


def test_every_record_is_read_with_its_machine(tmp_path):
    run = load(tmp_path)
    assert len(run.studies) == 6
    assert {s.device for s in run.studies} == {"CPU Hand CPU"}
    assert run.goals["sph"]["hydrostatic_error_percent"] == 2
    assert any("sph_studies.json" in path for path in run.contexts)
    naive = [s for s in run.studies if s.variant == "naive"][0]
    assert math.isnan(naive.results["largest_stable_k"])


def test_the_tables_quote_the_studies_and_name_what_stopped(tmp_path):
    text = "\n".join(sph.tables(load(tmp_path)))
    assert "| sorted_pairs | CPU Hand CPU | 8000 | 4000 | 1.25 | 40.50 |" in text
    assert "| collapse | CPU Hand CPU | 4000 | 10 | 0.00015 | 2250 | 12.8 |" in text
    # Z at T = 1, 2 and 3: samples 5, 10 and 15.
    assert "| sorted_pairs_simd | CPU Hand CPU | 8000 | 0.05 | 1.75 | 2.50 " \
           "| 3.25 | 900 |" in text
    assert "collapse (particles 8000, viscosity_alpha 0.02, max_steps 0) " \
           "stopped: step 12: a particle left" in text
    # A refused variant is never quoted as a result, only as stopped.
    assert "| refused |" not in text
    assert "refused (particles 8000, steps 4000) stopped: differs from " \
           "the oracle" in text


def test_the_figures_are_drawn(tmp_path):
    run = load(tmp_path)
    gallery = Gallery(tmp_path, run.contexts)
    written = (sph.draw_hydrostatic(run, gallery)
               + sph.draw_stability(run, gallery)
               + sph.draw_surge(run, gallery))
    gallery.files_written()
    names = {p.name for p in written}
    assert all(p.stat().st_size > 0 for p in written)
    assert {"sph_hydrostatic.png", "sph_stability.png",
            "sph_surge_front.png"} <= names


def test_a_kept_run_gives_no_studies(tmp_path):
    path = tmp_path / "sph_studies.json"
    path.write_text(json.dumps(DOCUMENT))
    assert engine.load_run([], kept_paths=[path]).studies == []
