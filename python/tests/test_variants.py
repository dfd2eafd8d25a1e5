import adjacent

FAMILIES = {"hash_grid", "triangle_adjacency", "connected_components",
            "triplet_schedule", "prefix_sum", "compaction", "hash_set",
            "triplet_collide", "fracture", "sph"}


def test_every_family_lists_its_variants_with_origin_and_whether_they_run():
    rows = adjacent.variants()
    assert FAMILIES <= {row["family"] for row in rows}
    for row in rows:
        assert row["origin"] in {"faithful", "fixed", "ours", "baseline"}
        assert row["backend"] in {"serial", "simd", "openmp", "cuda"}
        assert isinstance(row["runs_here"], bool)
        assert row["runs_here"] or row["why_not"]
    names = [(row["family"], row["name"]) for row in rows]
    assert len(names) == len(set(names))


def test_the_cpu_rows_run_here():
    for row in adjacent.variants():
        if row["backend"] != "cuda":
            assert row["runs_here"], row


def test_every_family_of_the_table_has_its_module():
    families = {row["family"] for row in adjacent.variants()}
    assert families == FAMILIES
    for family in families:
        assert family in adjacent.__all__
        assert getattr(adjacent, family).__doc__
