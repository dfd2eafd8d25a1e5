"""hash_grid: neighbour-list build time, Müller's duplicate entries, pairs
found per second per scene, and the input check's cost."""

from engine import BarFigure, Figure, check_cost_table

FIGURES = [
    Figure(
        name="hash_grid_time",
        family="hash_grid",
        x="n",
        y="real_time",
        y_scale=1e-6,
        xlabel="particles n (uniform cloud, ~30 neighbours each)",
        ylabel="ms per neighbour-list build",
        title="Fixed-radius neighbour lists: time vs n; copy of the "
              "positions and a full list as limit",
        scene="uniform",
        logy=True,
        lower_is_better=True,
        compare_with_baseline=True,
        leave_out=lambda row: row.variant == "check",
        device="CPU",
        contenders=6,
        of_limit=True,
        caption="Which neighbour-list builder is fastest as the cloud "
                "grows? ms per full build on a uniform cloud with about 30 "
                "neighbours a point: the fastest variants, the faithful "
                "baseline and the best peer.",
    ),
    Figure(
        name="hash_grid_muller_duplicates",
        family="hash_grid",
        x="table_factor",
        y="duplicate_fraction",
        y_scale=100.0,
        xlabel="Müller's table size / particles",
        ylabel="duplicate entries, % of distinct pairs",
        title="Müller's dense hash: repeated entries vs table size and "
              "query radius (radius_cells x spacing)",
        series_arg="radius_cells",
        quality=True,
        ticks_at_values=True,
        caption="How many repeated entries does Müller's dense hash make, "
                "and does a larger table help? Duplicates in % of the "
                "distinct pairs against the table's size, per query "
                "radius.",
    ),
    BarFigure(
        name="hash_grid_pairs_per_second",
        family="hash_grid",
        y="pairs",
        per_time=True,
        y_scale=1e-6,
        size_arg="n",
        ylabel="M pairs found per second",
        title="Neighbour lists: pairs found per second, per scene "
              "(its largest n)",
        device="CPU",
        caption="Which builder finds pairs fastest on each kind of "
                "cloud? Pairs found per second per scene at its largest "
                "n.",
        columns=2,
    ),
]


def tables(run):
    return check_cost_table(run, "hash_grid", "n")
