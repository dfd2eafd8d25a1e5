"""compaction: stable compaction throughput against the copy of the same
bytes."""

from engine import Figure

FIGURES = [
    Figure(
        name="compaction_throughput",
        family="compaction",
        x="n",
        y="bytes_per_second",
        y_scale=1e-9,
        xlabel="items n (uint32 + 1-byte flag)",
        ylabel="GB/s (bytes read + written)",
        title="Stable compaction (half kept) vs memcpy of the same bytes",
        scene="keep50",
        device="CPU",
        contenders=5,
        of_limit=True,
        caption="Which stable compaction is fastest as the array grows? "
                "GB/s (bytes read and written) with half the items kept, "
                "the fastest variants and the best peer against n.",
    ),
]
