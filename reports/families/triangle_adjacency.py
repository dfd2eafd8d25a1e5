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
        scene="grid",
        device="CPU",
        contenders=6,
        of_limit=True,
        caption="Which adjacency builder is fastest as the mesh grows? "
                "Triangles per second on grid meshes: the fastest "
                "variants, NvCloth's faithful baseline and the best "
                "peer.",
    ),
    Figure(
        name="triangle_adjacency_gpu",
        family="triangle_adjacency",
        x="triangles",
        y="items_per_second",
        y_scale=1e-6,
        xlabel="triangles",
        ylabel="M triangles/s",
        title="Particle -> triangle adjacency on the GPU",
        scene="grid",
        device="GPU",
        logy=True,
        leave_out=lambda row: row.variant == "check",
        caption="Which builder is fastest on the GPU as the mesh grows? "
                "Triangles per second on grid meshes, host to host.",
    ),
]


def tables(run):
    return check_cost_table(run, "triangle_adjacency", "triangles")

