"""The statistics of a report: percentiles, a paired 95% interval and McNemar's exact test.

Pure Python (``math`` only); docs/evals.md ("The report") says which method each is and why.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = [
    "EXACT_MCNEMAR_UP_TO",
    "Z_95",
    "mcnemar_exact",
    "nearest_rank",
    "paired_difference_interval",
    "wilson_interval",
]

Z_95 = 1.959963984540054
"""The standard normal distribution's 97.5th percentile: a two-sided 95% interval."""

EXACT_MCNEMAR_UP_TO = 10_000
"""Up to this many discordant pairs the p-value is summed in exact integers (a few ms);
past it, in floats from ``lgamma`` (relative error about 1e-9), since the exact sum grows
with the square of the count."""

_NEGLIGIBLE = 1e-17
"""A binomial term this small beside the sum so far no longer changes a float."""


def nearest_rank(values: Sequence[float], percent: int) -> float | None:
    """The ``percent``-th percentile of ``values`` by nearest rank (None when there are none).

    The smallest value with at least ``percent`` % of the values at or below it: always one of
    the values, so a latency shown is one a run really took.
    """
    if not values:
        return None
    rank = -(-percent * len(values) // 100)  # ceil in integers: no float rounding at the edge
    return sorted(values)[max(rank, 1) - 1]


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a proportion ``successes / trials`` (``trials`` > 0)."""
    z2 = Z_95 * Z_95
    centre = (successes + z2 / 2) / (trials + z2)
    spread = Z_95 * math.sqrt(successes * (trials - successes) / trials + z2 / 4) / (trials + z2)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def paired_difference_interval(
    both: int, treatment_only: int, baseline_only: int, neither: int
) -> tuple[float, float]:
    """The 95% interval of ``p_treatment - p_baseline`` from paired outcomes (Newcombe's method 10).

    The counts are of pairs passing on both sides, on the treatment only, on the baseline only
    and on neither (at least one pair). Each side's Wilson interval is combined with the
    correlation ``phi`` of the pairs, corrected toward 0 by ``n / 2`` when positive.
    """
    n = both + treatment_only + baseline_only + neither
    treatment, baseline = both + treatment_only, both + baseline_only
    p1, p2 = treatment / n, baseline / n
    low1, high1 = wilson_interval(treatment, n)
    low2, high2 = wilson_interval(baseline, n)
    phi = _phi(both, treatment_only, baseline_only, neither)
    below = _combined(p1 - low1, high2 - p2, phi)
    above = _combined(p2 - low2, high1 - p1, phi)
    difference = p1 - p2
    return max(-1.0, difference - below), min(1.0, difference + above)


def _phi(both: int, treatment_only: int, baseline_only: int, neither: int) -> float:
    """The pairs' correlation as Newcombe's method 10 uses it (0 when a margin is empty)."""
    n = both + treatment_only + baseline_only + neither
    margins = (
        (both + treatment_only)
        * (baseline_only + neither)
        * (both + baseline_only)
        * (treatment_only + neither)
    )
    if margins == 0:
        return 0.0
    cross = both * neither - treatment_only * baseline_only
    corrected = cross if cross < 0 else max(cross - n / 2, 0.0)
    return corrected / math.sqrt(margins)


def _combined(first: float, second: float, phi: float) -> float:
    # Never below 0: with |phi| <= 1 the sum is a square's, rounding aside.
    return math.sqrt(max(0.0, first * first - 2 * phi * first * second + second * second))


def mcnemar_exact(b: int, c: int) -> float:
    """McNemar's exact two-sided p-value for ``b`` and ``c`` discordant pairs.

    ``min(1, 2 * P(X <= min(b, c)))`` for ``X ~ Binomial(b + c, 1/2)``; 1 when ``b + c`` is 0.
    """
    n = b + c
    k = min(b, c)
    if n <= EXACT_MCNEMAR_UP_TO:
        return min(1.0, 2 * _lower_tail_count(n, k) / (1 << n))  # int / int rounds correctly
    return min(1.0, _lower_tail_in_floats(n, k) * 2)


def _lower_tail_count(n: int, k: int) -> int:
    """``sum(comb(n, i) for i in range(k + 1))``, one term from the last."""
    term = total = 1
    for i in range(k):
        term = term * (n - i) // (i + 1)
        total += term
    return total


def _lower_tail_in_floats(n: int, k: int) -> float:
    """``P(X <= k)`` for ``X ~ Binomial(n, 1/2)``: the last term in logs, then ratios down.

    Each term is the one above it times ``i / (n - i + 1)``; once they stop counting, stop.
    """
    log_last = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2)
    ratio = total = 1.0
    for i in range(k, 0, -1):
        ratio *= i / (n - i + 1)
        total += ratio
        if ratio < _NEGLIGIBLE * total:
            break
    return math.exp(log_last + math.log(total))
