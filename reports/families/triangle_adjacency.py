"""triangle_adjacency: CSR build throughput per mesh, against the copy of
the same bytes and against NvCloth's (the table's baseline), and what a
separate input check would cost."""

import dataclasses

from engine import Figure, check_cost_table

CPU_FIGURE = Figure(
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
)
# The same question on the GPU (kept runs), every variant that ran there.
GPU_FIGURE = dataclasses.replace(
    CPU_FIGURE, name="triangle_adjacency_gpu",
    title="Particle -> triangle adjacency on the GPU", device="GPU",
    contenders=None, of_limit=False, compare_with_baseline=False,
    marked_scenes=None, limit_scene=None,
    caption="Which builder is fastest on the GPU as the mesh grows? "
            "Triangles per second on grid meshes, host to host.")
FIGURES = [CPU_FIGURE, GPU_FIGURE]


def tables(run):
    return check_cost_table(run, "triangle_adjacency", "triangles")

