"""The report's statistics against values computed independently.

Unless a test says otherwise, the expected values were computed once with scipy 1.17.1,
statsmodels 0.15.0 and numpy 2.4.6 in a throwaway script (not part of the project) and pasted
here as literals:

- percentiles: ``numpy.percentile(values, q, method="inverted_cdf")`` (the nearest rank);
- Wilson intervals: ``statsmodels.stats.proportion.proportion_confint(x, n, 0.05, "wilson")``;
- Newcombe's method 10: the same Wilson intervals combined as Newcombe (1998, Statistics in
  Medicine 17:2635-2650) writes it, phi corrected by n/2 when positive;
- McNemar: ``scipy.stats.binomtest(min(b, c), b + c, 0.5).pvalue``, equal to statsmodels'
  ``mcnemar([[0, b], [c, 0]], exact=True).pvalue`` in every case below.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from eval_results import close

from wink_decl.evals._stats import (
    EXACT_MCNEMAR_UP_TO,
    Z_95,
    mcnemar_exact,
    nearest_rank,
    paired_difference_interval,
    wilson_interval,
)


def test_z_is_the_normal_distributions_97_5th_percentile() -> None:
    assert Z_95 == 1.959963984540054  # scipy.stats.norm.ppf(0.975)


@pytest.mark.parametrize(
    ("values", "p50", "p95"),
    [
        ([120.0], 120.0, 120.0),
        ([300.0, 100.0], 100.0, 300.0),
        ([5.0, 1.0, 4.0, 2.0, 3.0], 3.0, 5.0),
        ([float(v) for v in range(1, 21)], 10.0, 19.0),
        ([float(v) for v in range(1, 22)], 11.0, 20.0),
        ([7.0, 7.0, 1.0, 7.0], 7.0, 7.0),
    ],
    ids=["one", "two", "five-unsorted", "twenty", "twenty-one", "ties"],
)
def test_percentiles_are_the_nearest_rank(values: list[float], p50: float, p95: float) -> None:
    assert (nearest_rank(values, 50), nearest_rank(values, 95)) == (p50, p95)


def test_no_values_have_no_percentile() -> None:
    assert nearest_rank([], 50) is None


def test_the_0th_percentile_is_the_smallest_value() -> None:
    assert nearest_rank([3.0, 2.0], 0) == 2.0


@pytest.mark.parametrize(
    ("successes", "trials", "expected"),
    [
        (0, 5, (0.0, 0.43448246478317487)),
        (5, 5, (0.5655175352168252, 1.0)),
        (3, 7, (0.15821985525146964, 0.7495416354723428)),
        (35, 46, (0.6206486144237798, 0.8608782222272219)),
    ],
    ids=["none", "all", "some", "camis-active"],
)
def test_wilson_intervals(successes: int, trials: int, expected: tuple[float, float]) -> None:
    assert close(wilson_interval(successes, trials), expected, within=1e-15)


def test_the_paired_interval_of_a_published_example() -> None:
    # PSIAIMS CAMIS, "Confidence intervals for Paired Proportions in SAS" (SAS/ci_for_paired_prop
    # .qmd): r=20 s=15 t=6 u=5, Newcombe's interval 0.002602 to 0.369943.
    low, high = paired_difference_interval(20, 15, 6, 5)
    assert (round(low, 6), round(high, 6)) == (0.002602, 0.369943)


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        ((20, 15, 6, 5), (0.0026015430495116565, 0.3699430544700335)),
        ((14, 5, 0, 22), (0.011483241383033221, 0.2264926843512112)),
        ((5, 0, 0, 0), (-0.43448246478317476, 0.43448246478317476)),
        ((0, 0, 0, 5), (-0.43448246478317487, 0.43448246478317487)),
        ((10, 1, 2, 10), (-0.1978216782152787, 0.11603165084938083)),
        ((1, 5, 6, 1), (-0.49887228226545427, 0.3772882296070413)),
        ((3, 0, 4, 1), (-0.7593093042204071, -0.029294090542112794)),
    ],
    ids=[
        "camis",
        "altman-table-6-2",
        "all-pass-b-c-0",
        "all-fail-b-c-0",
        "phi-corrected",
        "phi-negative",
        "worse",
    ],
)
def test_paired_intervals(cells: tuple[int, int, int, int], expected: tuple[float, float]) -> None:
    assert close(paired_difference_interval(*cells), expected, within=1e-14)


@pytest.mark.parametrize(
    ("b", "c", "expected"),
    [
        (0, 0, 1.0),
        (1, 4, 0.375),
        (4, 1, 0.375),
        (0, 6, 0.03125),
        (3, 3, 1.0),
        (2, 9, 0.0654296875),
        (5000, 5000, 1.0),
    ],
    ids=["b-c-0", "one-four", "four-one", "zero-six", "tie", "two-nine", "large-tie"],
)
def test_mcnemar_exact_p_values(b: int, c: int, expected: float) -> None:
    assert mcnemar_exact(b, c) == expected


@pytest.mark.parametrize(
    ("b", "c", "expected"),
    [(40, 60, 0.05688793364098089), (4900, 5100, 0.04658552770494645)],
    ids=["hundred", "ten-thousand"],
)
def test_mcnemar_in_exact_integers_agrees_with_scipy(b: int, c: int, expected: float) -> None:
    assert close(mcnemar_exact(b, c), expected, rel=1e-12)


def exact_p(b: int, c: int) -> float:
    """The p-value as a fraction, rounded once: the definition, term by term."""
    n = b + c
    tail = Fraction(sum(comb(n, i) for i in range(min(b, c) + 1)), 2**n)
    return float(min(Fraction(1), 2 * tail))


@pytest.mark.parametrize(("b", "c"), [(40, 60), (300, 700), (1, 9999)])
def test_mcnemar_up_to_the_limit_is_the_exact_fraction_rounded(b: int, c: int) -> None:
    assert b + c <= EXACT_MCNEMAR_UP_TO
    assert mcnemar_exact(b, c) == exact_p(b, c)


@pytest.mark.parametrize(
    ("b", "c", "expected"),
    [
        (6000, 6400, 0.000339136401230149),
        (100_000, 101_000, 0.02586239243973295),
        (1000, 50_000, 0.0),
        (0, 12_000, 0.0),
    ],
    ids=["twelve-thousand", "two-hundred-thousand", "underflows", "none-on-one-side"],
)
def test_mcnemar_past_the_limit_in_floats(b: int, c: int, expected: float) -> None:
    assert b + c > EXACT_MCNEMAR_UP_TO
    assert close(mcnemar_exact(b, c), expected, rel=1e-9)


def test_mcnemar_in_floats_is_close_to_the_exact_fraction(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("wink_decl.evals._stats.EXACT_MCNEMAR_UP_TO", 1000)
    assert close(mcnemar_exact(480, 521), exact_p(480, 521), rel=1e-9)
    assert mcnemar_exact(480, 521) != exact_p(480, 521)  # the float path did answer


def test_mcnemar_of_a_huge_tie_is_one() -> None:
    assert mcnemar_exact(500_000, 500_000) == 1.0
