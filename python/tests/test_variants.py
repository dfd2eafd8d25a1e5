import pathlib

import adjacent

# Every folder of algorithms/ that makes a family (its CMakeLists.txt calls
# adj_add_family): what the registry must list.
ALGORITHMS = pathlib.Path(__file__).resolve().parents[2] / "algorithms"
FAMILIES = {folder.parent.name
            for folder in ALGORITHMS.glob("*/CMakeLists.txt")
            if "adj_add_family(" in folder.read_text()}


def test_the_registry_lists_every_family_folder():
    assert FAMILIES
    assert adjacent.families() == sorted(FAMILIES)


def test_every_family_lists_its_variants_with_origin_and_whether_they_run():
    rows = adjacent.variants()
    assert FAMILIES <= {row["family"] for row in rows}
    for row in rows:
        assert row["origin"] in {"faithful", "fixed", "ours", "baseline",
                                 "peer"}
        # A peer row, and only a peer row, names the library it calls.
        assert (row["origin"] == "peer") == (row["library"] != "")
        assert row["backend"] in {"serial", "simd", "openmp", "cuda", "tbb"}
        assert isinstance(row["runs_here"], bool)
        assert row["runs_here"] or row["why_not"]
    names = [(row["family"], row["name"]) for row in rows]
    assert len(names) == len(set(names))


def test_the_cpu_rows_run_here():
    for row in adjacent.variants():
        if row["backend"] != "cuda" and row["origin"] != "peer":
            assert row["runs_here"], row
        # A CPU peer stays out only when its library was not found; a GPU
        # peer (Thrust) also without a usable device, as every cuda row.
        if (row["origin"] == "peer" and not row["runs_here"]
                and row["backend"] != "cuda"):
            assert "was not found when the suite was built" in row["why_not"]


def test_every_family_of_the_table_has_its_module():
    families = {row["family"] for row in adjacent.variants()}
    assert families == FAMILIES
    for family in families:
        assert family in adjacent.__all__
        assert getattr(adjacent, family).__doc__
