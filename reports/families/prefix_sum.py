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
        device="CPU",
        contenders=5,
        of_limit=True,
        caption="Which scan is fastest as the array grows, and how close "
                "does it come to copying the same bytes? GB/s (bytes read "
                "and written) of the fastest variants and the best peer "
                "against n.",
    ),
]
