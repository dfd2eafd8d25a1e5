"""prefix_sum: inclusive scan throughput against the copy of the same bytes."""

from engine import Figure

FIGURES = [
    Figure(
        name="prefix_sum_throughput",
        family="prefix_sum",
        x="n",
        y="bytes_per_second",
        y_scale=1e-9,
        xlabel="elements n (uint32)",
        ylabel="GB/s (bytes read + written)",
        title="Inclusive prefix sum vs memcpy of the same bytes",
    ),
]
