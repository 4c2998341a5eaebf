"""The report page's charts, drawn here as inline SVG: pass rates, and latency histograms.

Every bar has its value written beside it as text, so the charts read without a script, in
print, and in tests. How the latency bins are chosen is in docs/evals.md ("The HTML report").
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from wink_decl.evals._eval_report import Summary
from wink_decl.evals._html_text import line

__all__ = ["MAX_BINS", "LatencyBins", "latency_bins", "latency_histograms", "pass_rate_chart"]

MAX_BINS = 20
"""Bins wanted at most; rounding the width up may add one."""
LABEL = 40
"""Characters of a name shown beside a bar at most (its tooltip has more)."""
NAME = 200
"""Characters of a name in a tooltip at most."""

# The pass rate chart: names on the left, the bars, their values on the right.
_NAMES_WIDTH = 290
_PLOT_WIDTH = 400
_VALUES_WIDTH = 170
_ROW = 28
_BAR = 18
_TOP = 26
_AXIS = 44
_TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)

# A latency histogram: counts on the left, the bins, edges and the axis' name below.
_COUNTS_WIDTH = 44
_BINS_WIDTH = 360
_RIGHT = 16
_BINS_HEIGHT = 100
_ABOVE = 18
_BELOW = 40
_EDGE_LABELS = 5
"""Bin edges labelled at most under a histogram (every n-th, so that they never overlap)."""
_EDGE_CHARS = 10
"""Characters of an edge's label that fit under a bin; a longer one is written 1.23e+12."""


def pass_rate_chart(summaries: Sequence[Summary], threshold: float, shown: str) -> str:
    """A bar per experiment and model: its pass rate from 0 to 1, the threshold marked.

    ``shown`` is the threshold as the page writes it elsewhere.
    """
    height = _TOP + len(summaries) * _ROW + _AXIS
    width = _NAMES_WIDTH + _PLOT_WIDTH + _VALUES_WIDTH
    parts = [
        f'<svg id="pass-rates" class="chart" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="Pass rate by experiment and model">',
        *_grid_lines(len(summaries)),
        *(_bar(index, summary) for index, summary in enumerate(summaries)),
        _threshold_line(len(summaries), threshold, shown),
        "</svg>",
    ]
    return "\n".join(parts)


def _x(rate: float) -> float:
    return _NAMES_WIDTH + rate * _PLOT_WIDTH


def _grid_lines(rows: int) -> list[str]:
    bottom = _TOP + rows * _ROW
    lines = [
        f'<line class="axis" x1="{_NAMES_WIDTH}" y1="{bottom}" '
        f'x2="{_NAMES_WIDTH + _PLOT_WIDTH}" y2="{bottom}"/>'
    ]
    for tick in _TICKS:
        x = _number(_x(tick))
        lines += [
            f'<line class="grid" x1="{x}" y1="{_TOP}" x2="{x}" y2="{bottom}"/>',
            f'<text class="tick" x="{x}" y="{bottom + 16}" text-anchor="middle">{tick:g}</text>',
        ]
    centre = _NAMES_WIDTH + _PLOT_WIDTH // 2
    lines.append(
        f'<text class="axis-name" x="{centre}" y="{bottom + 36}" text-anchor="middle">'
        "pass rate (passed / runs that did not error)</text>"
    )
    return lines


def _bar(index: int, summary: Summary) -> str:
    group = f"{summary.experiment} x {summary.model}"
    top = _TOP + index * _ROW
    middle = top + _ROW // 2 + 4
    errors = "1 error" if summary.errors == 1 else f"{summary.errors} errors"
    counts = f"{summary.passed} passed, {summary.failed} failed, {errors}"
    rate = summary.pass_rate
    if rate is None:
        drawn, value = "", "no pass rate: every run errored"
    else:
        status = "met" if summary.threshold_met else "missed"
        bar_top = top + (_ROW - _BAR) // 2
        drawn = (
            f'<rect class="bar {status}" x="{_NAMES_WIDTH}" y="{bar_top}" '
            f'width="{_number(rate * _PLOT_WIDTH)}" height="{_BAR}"/>'
        )
        value = f"{rate:.2f} ({summary.passed} of {summary.passed + summary.failed})"
    return (
        f'<g class="group" data-experiment="{line(summary.experiment, NAME)}" '
        f'data-model="{line(summary.model, NAME)}">'
        f"<title>{line(group, NAME)}: {counts}</title>"
        f'<text class="label" x="{_NAMES_WIDTH - 8}" y="{middle}" text-anchor="end">'
        f"{_label(group)}</text>{drawn}"
        f'<text class="value" x="{_number(_x(rate or 0.0) + 6)}" y="{middle}">{value}</text></g>'
    )


def _threshold_line(rows: int, threshold: float, shown: str) -> str:
    x = _number(_x(threshold))
    return (
        f'<g class="threshold"><line x1="{x}" y1="{_TOP - 6}" x2="{x}" y2="{_TOP + rows * _ROW}"/>'
        f'<text x="{x}" y="{_TOP - 10}" text-anchor="middle">threshold {shown}</text></g>'
    )


def _label(text: str) -> str:
    """A name beside a bar: cut short, with an ellipsis (the tooltip has more of it)."""
    if len(text) <= LABEL:
        return line(text, LABEL)
    return line(text[: LABEL - 1] + "\u2026", LABEL)


@dataclass(frozen=True, slots=True)
class LatencyBins:
    """Equal bins of latency in ms, ``edges[i]`` to ``edges[i + 1]`` each, upper edge excluded."""

    edges: tuple[Decimal, ...]

    @property
    def width(self) -> Decimal:
        """The bins' width, in ms: 1, 2 or 5 times a power of ten."""
        return self.edges[1] - self.edges[0]

    def index(self, latency: float) -> int:
        """The bin of a latency from the first to the last edge, by its shortest decimal."""
        return int(Decimal(repr(latency)) // self.width) - int(self.edges[0] / self.width)


def latency_bins(latencies: Sequence[float]) -> LatencyBins | None:
    """Round, equal bins from the smallest latency to the largest (None: no latency to bin).

    About Sturges' number of bins (``ceil(log2 n) + 1``, at most ``MAX_BINS``); the width is
    rounded up to 1, 2 or 5 times a power of ten, and the first edge down to a multiple of
    it. Latencies that are not a finite number from 0 up are left out.
    """
    values = [v for v in latencies if _is_time(v)]
    if not values:
        return None
    low, high = Decimal(repr(min(values))), Decimal(repr(max(values)))
    wanted = min(MAX_BINS, math.ceil(math.log2(len(values))) + 1)
    # A single latency (or many equal ones) gets one bin a tenth of its size wide.
    width = _round_width((high - low) / wanted or low / 10 or Decimal(1))
    first, last = int(low // width), int(high // width)
    return LatencyBins(tuple((first + step) * width for step in range(last - first + 2)))


def _round_width(raw: Decimal) -> Decimal:
    """``raw`` (above 0) rounded up to 1, 2 or 5 times a power of ten."""
    power = raw.adjusted()
    leading = raw.scaleb(-power)
    step, more = next((s, p) for s, p in ((1, 0), (2, 0), (5, 0), (1, 1)) if leading <= s * 10**p)
    return Decimal(step).scaleb(power + more)


def latency_histograms(
    bins: LatencyBins, latencies: Mapping[tuple[str, str], Sequence[float]]
) -> str:
    """One histogram per experiment and model, all on the same bins and the same scale."""
    counts = {group: _counts(bins, values) for group, values in latencies.items()}
    tallest = max(max(c) for c in counts.values())
    figures = [
        _histogram(bins, group, group_counts, tallest) for group, group_counts in counts.items()
    ]
    return "\n".join(figures)


def _counts(bins: LatencyBins, values: Sequence[float]) -> list[int]:
    counts = [0] * (len(bins.edges) - 1)
    for value in values:
        if _is_time(value):
            counts[bins.index(value)] += 1
    return counts


def _is_time(latency: float) -> bool:
    """A latency the histograms show: a finite number of ms, from 0 up."""
    return math.isfinite(latency) and latency >= 0


def _histogram(
    bins: LatencyBins, group: tuple[str, str], counts: Sequence[int], tallest: int
) -> str:
    name = f"{group[0]} x {group[1]}"
    width = _COUNTS_WIDTH + _BINS_WIDTH + _RIGHT
    height = _ABOVE + _BINS_HEIGHT + _BELOW
    runs = sum(counts)
    parts = [
        f'<figure class="histogram" data-experiment="{line(group[0], NAME)}" '
        f'data-model="{line(group[1], NAME)}">',
        f"<figcaption>{line(name, NAME)}: {runs} {'run' if runs == 1 else 'runs'}</figcaption>",
        f'<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-label="Latency of {line(name, NAME)}">',
        *_histogram_axes(bins, tallest),
        *(_bin(bins, index, count, tallest) for index, count in enumerate(counts)),
        "</svg>",
        "</figure>",
    ]
    return "\n".join(parts)


def _histogram_axes(bins: LatencyBins, tallest: int) -> list[str]:
    bottom = _ABOVE + _BINS_HEIGHT
    parts = [
        f'<line class="axis" x1="{_COUNTS_WIDTH}" y1="{bottom}" '
        f'x2="{_COUNTS_WIDTH + _BINS_WIDTH}" y2="{bottom}"/>',
        f'<text class="tick" x="{_COUNTS_WIDTH - 6}" y="{_ABOVE + 4}" text-anchor="end">'
        f"{tallest}</text>",
        f'<text class="tick" x="{_COUNTS_WIDTH - 6}" y="{bottom}" text-anchor="end">0</text>',
    ]
    steps = len(bins.edges) - 1
    every = math.ceil(steps / _EDGE_LABELS)
    for index in range(0, steps + 1, every):
        x = _number(_bin_x(steps, index))
        parts.append(
            f'<text class="tick edge" x="{x}" y="{bottom + 16}" text-anchor="middle">'
            f"{_edge(bins.edges[index])}</text>"
        )
    parts.append(
        f'<text class="axis-name" x="{_COUNTS_WIDTH + _BINS_WIDTH // 2}" y="{bottom + 34}" '
        'text-anchor="middle">latency, ms</text>'
    )
    return parts


def _bin_x(steps: int, index: int) -> float:
    return _COUNTS_WIDTH + index * _BINS_WIDTH / steps


def _bin(bins: LatencyBins, index: int, count: int, tallest: int) -> str:
    steps = len(bins.edges) - 1
    left, right = _bin_x(steps, index), _bin_x(steps, index + 1)
    height = count * _BINS_HEIGHT / tallest
    top = _ABOVE + _BINS_HEIGHT - height
    low, high = _edge(bins.edges[index]), _edge(bins.edges[index + 1])
    shown = (
        f'<text class="count" x="{_number((left + right) / 2)}" y="{_number(top - 4)}" '
        f'text-anchor="middle">{count}</text>'
        if count
        else ""
    )
    return (
        f'<rect class="bin" data-count="{count}" x="{_number(left + 1)}" y="{_number(top)}" '
        f'width="{_number(right - left - 2)}" height="{_number(height)}">'
        f"<title>{low} to {high} ms: {count} {'run' if count == 1 else 'runs'}</title></rect>"
        f"{shown}"
    )


def _edge(value: Decimal) -> str:
    """A bin edge in ms, in plain decimals unless it would be long (then in powers of ten)."""
    text = f"{value:f}"
    return text if len(text) <= _EDGE_CHARS else f"{value:.2e}"


def _number(value: float) -> str:
    """A coordinate, to a tenth of a pixel (``12`` rather than ``12.0``)."""
    text = f"{value:.1f}"
    return text.removesuffix(".0")
