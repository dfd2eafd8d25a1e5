"""hash_set: inserts and lookups per second against load."""

from engine import Figure

FIGURES = [
    Figure(
        name="hash_set_throughput",
        family="hash_set",
        x="load",
        y="items_per_second",
        y_scale=1e-6,
        xlabel="load (percent of the 2^23 slots filled)",
        ylabel="M keys/s",
        title="Hash set: inserts and lookups per second vs load",
        logx=False,
        limit_scene="none",
        device="CPU",
        caption="Which set inserts and looks up fastest as it fills? Keys "
                "per second against the load, per operation.",
        columns=2,
    ),
]
