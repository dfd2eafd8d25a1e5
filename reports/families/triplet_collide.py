"""triplet_collide: the collision pass per schedule, on the CPU and as CUDA
kernels, and the input check's cost."""

from engine import BarFigure, check_cost_table

FIGURES = [
    BarFigure(
        name="triplet_collide_time_permuted",
        family="triplet_collide",
        y="real_time",
        group_arg="scheduler",
        scene="grid250-permuted",
        size_arg="triplets",
        leave_out=lambda row: row.variant == "check",
        ylabel="microseconds per collision pass",
        title="Collision pass per schedule (250^2 grid, permuted)",
    ),
    BarFigure(
        name="triplet_collide_time_natural",
        family="triplet_collide",
        y="real_time",
        group_arg="scheduler",
        scene="grid250-natural",
        size_arg="triplets",
        leave_out=lambda row: row.variant == "check",
        ylabel="microseconds per collision pass",
        title="Collision pass per schedule (250^2 grid, natural order)",
    ),
    BarFigure(
        name="triplet_collide_kernel_natural",
        family="triplet_collide",
        y="kernel_us",
        group_arg="scheduler",
        scene="grid64-natural",
        size_arg="triplets",
        ylabel="microseconds of kernel (CUDA events)",
        title="CUDA collision kernel per warp schedule (64^2 grid, natural)",
    ),
    BarFigure(
        name="triplet_collide_kernel_permuted",
        family="triplet_collide",
        y="kernel_us",
        group_arg="scheduler",
        scene="grid64-permuted",
        size_arg="triplets",
        ylabel="microseconds of kernel (CUDA events)",
        title="CUDA collision kernel per warp schedule (64^2 grid, permuted)",
    ),
]


def tables(run):
    return check_cost_table(run, "triplet_collide", "triplets")
