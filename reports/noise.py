"""Whether two sets of repetitions differ by more than the noise: a
two-sided Mann-Whitney U test over the repetitions (scipy), the one test
behind `compare.py`'s flags and the reports' "~" (within noise) marks.

Mann-Whitney compares ranks, so it needs no assumption about the shape of
a host's timing noise (often skewed by a slow outlier). Its smallest
possible p-value depends on the repetitions alone: 0.1 for 3 against 3,
0.0079 for 5 against 5, so fewer than 5 repetitions a side cannot show a
difference at alpha = 0.05 after a few comparisons.
"""

import statistics

from scipy.stats import mannwhitneyu

ALPHA = 0.05


def p_value(a, b):
    """Two-sided Mann-Whitney U p-value of samples a and b; None when either
    has fewer than two values (no test possible)."""
    if len(a) < 2 or len(b) < 2:
        return None
    return float(mannwhitneyu(a, b, alternative="two-sided").pvalue)


def within_noise(a, b, alpha=ALPHA):
    """True when the test cannot tell a from b at `alpha` (or cannot run)."""
    p = p_value(a, b)
    return p is None or p >= alpha


def ratio_of_medians(a, b):
    """median(b) / median(a)."""
    return statistics.median(b) / statistics.median(a)
