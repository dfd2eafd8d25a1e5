"""triangle_adjacency: CSR build throughput per mesh, against the copy of
the same bytes and against NvCloth's (the table's baseline), and what a
separate input check would cost."""

from engine import Figure, check_cost_table

FIGURES = [
    Figure(
        name="triangle_adjacency_throughput",
        family="triangle_adjacency",
        x="triangles",
        y="items_per_second",
        y_scale=1e-6,
        xlabel="triangles",
        ylabel="M triangles/s",
        title="Particle -> triangle adjacency (CSR) build; "
              "copy of the same bytes as limit",
        marked_scenes="cgal-",
        limit_scene="grid",
        compare_with_baseline=True,
        logy=True,
        leave_out=lambda row: row.variant == "check",
    ),
]


def tables(run):
    return check_cost_table(run, "triangle_adjacency", "triangles")

