"""The report as one self-contained HTML page: verdict, charts, comparisons, every run.

The page loads nothing from anywhere: its style and script are inline and its
Content-Security-Policy allows only those two. Everything a run wrote is escaped and cut to a
bound (``_html_text``), so the page's size grows with the number of runs only.
docs/evals.md ("The HTML report") describes the page.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable, Sequence

from wink_decl.evals._eval_report import EvalReport, Summary
from wink_decl.evals._eval_types import CaseResult, Outcome, Score, ToolCall
from wink_decl.evals._html_assets import SCRIPT, STYLE
from wink_decl.evals._html_charts import NAME, latency_bins, latency_histograms, pass_rate_chart
from wink_decl.evals._html_text import block, cut_marker, line
from wink_decl.evals._table import (
    COMPARISON_HEADER,
    SUMMARY_HEADER,
    comparison_cells,
    headline,
    summary_cells,
    threshold_text,
    verdict,
)

__all__ = ["ANSWER_SHOWN", "FIELD_SHOWN", "ITEMS_SHOWN", "render_html"]

ANSWER_SHOWN = 20_000
"""Characters of a run's answer, and of its structured output's JSON, shown at most."""
FIELD_SHOWN = 2_000
"""Characters shown at most of each other text of a run: a check's label and reason, a tool
call's arguments and message, the error."""
ITEMS_SHOWN = 50
"""Checks, and tool calls, shown at most under one run."""
_NONE = "-"
_NUMBER_COLUMNS = 2
"""The first two columns of the summaries and comparisons are names; the rest are numbers."""
_NAME_CELL = ""
_NUMBER_CELL = ' class="number"'


def render_html(report: EvalReport, *, title: str) -> str:
    """The report as an HTML page titled ``title``, ending with a line break."""
    summaries = list(report.by_experiment().values())
    body = [
        _header(report, title, summaries),
        "<main>",
        _pass_rates(report, summaries),
        _latency(report),
        _comparisons(report),
        _runs(report.results),
        "</main>",
    ]
    return _page(title, "\n".join(body))


def _page(title: str, body: str) -> str:
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{_policy()}">',
            '<meta name="referrer" content="no-referrer">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{line(title, NAME)}</title>",
            f"<style>{STYLE}</style>",
            "</head>",
            "<body>",
            body,
            f"<script>{SCRIPT}</script>",
            "</body>",
            "</html>",
            "",
        ]
    )


def _policy() -> str:
    """Nothing may load; only the page's own style sheet and script run (by their hashes)."""
    return (
        f"default-src 'none'; script-src {_hash(SCRIPT)}; style-src {_hash(STYLE)}; "
        "base-uri 'none'; form-action 'none'"
    )


def _hash(text: str) -> str:
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"


def _header(report: EvalReport, title: str, summaries: Sequence[Summary]) -> str:
    said = verdict(report, summaries)
    status = "pass" if report.ok else "fail"
    return "\n".join(
        [
            "<header>",
            f"<h1>{line(title, NAME)}</h1>",
            f'<p class="headline">{line(headline(report), FIELD_SHOWN)}</p>',
            f'<p class="threshold">Threshold: {threshold_text(report.threshold)}, the pass rate '
            "every experiment and model must reach.</p>",
            f'<p id="verdict" class="verdict {status}">{line(said, FIELD_SHOWN)}</p>',
            "</header>",
        ]
    )


def _pass_rates(report: EvalReport, summaries: Sequence[Summary]) -> str:
    parts = ['<section id="summaries">', "<h2>Pass rate by experiment and model</h2>"]
    if not summaries:
        parts.append('<p class="empty">No runs.</p>')
    else:
        parts += [
            pass_rate_chart(summaries, report.threshold, threshold_text(report.threshold)),
            _table(SUMMARY_HEADER, [summary_cells(s) for s in summaries], "summary"),
        ]
    return "\n".join([*parts, "</section>"])


def _latency(report: EvalReport) -> str:
    latencies: dict[tuple[str, str], list[float]] = {}
    for result in report.results:
        values = latencies.setdefault((result.experiment, result.model), [])
        if result.outcome is not None:
            values.append(result.outcome.latency_ms)
    bins = latency_bins([value for values in latencies.values() for value in values])
    parts = ['<section id="latency">', "<h2>Latency</h2>"]
    if bins is None:
        parts.append('<p class="empty">No run produced an answer: no latency to show.</p>')
    else:
        parts += [
            f"<p>The runs that produced an answer, in bins of {bins.width:f} ms; the "
            "experiments and models share the bins and the scale.</p>",
            '<div class="histograms">',
            latency_histograms(bins, latencies),
            "</div>",
        ]
    return "\n".join([*parts, "</section>"])


def _comparisons(report: EvalReport) -> str:
    comparisons = report.comparisons()
    parts = ['<section id="comparisons">', "<h2>Against the baseline</h2>"]
    if not comparisons:
        parts.append('<p class="empty">No experiment to compare with the baseline.</p>')
    else:
        parts += [
            "<p>On the same cases. b: pairs that passed on the baseline only; c: pairs that "
            "passed on the experiment only; change: (c - b) / pairs, with its 95% interval; "
            "McNemar p: the chance of a difference this large if the experiment changed "
            "nothing.</p>",
            _table(COMPARISON_HEADER, [comparison_cells(c) for c in comparisons], "comparison"),
        ]
    return "\n".join([*parts, "</section>"])


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], kind: str) -> str:
    def cells(values: Sequence[str], tag: str) -> str:
        return "".join(
            f"<{tag}{_NAME_CELL if i < _NUMBER_COLUMNS else _NUMBER_CELL}>"
            f"{line(value, NAME)}</{tag}>"
            for i, value in enumerate(values)
        )

    lines = [f'<table class="{kind}">', f"<tr>{cells(header, 'th')}</tr>"]
    lines += [f"<tr>{cells(row, 'td')}</tr>" for row in rows]
    return "\n".join([*lines, "</table>"])


_RUN_COLUMNS = (
    ("", ""),
    ("case", ""),
    ("experiment", ""),
    ("model", ""),
    ("repeat", _NUMBER_CELL),
    ("result", ""),
    ("score", _NUMBER_CELL),
    ("latency ms", _NUMBER_CELL),
    ("tokens in", _NUMBER_CELL),
    ("tokens out", _NUMBER_CELL),
)
"""The runs' columns, and the class of each (the first is the open/closed mark's)."""


def _runs(results: Sequence[CaseResult]) -> str:
    statuses = [_status(r) for r in results]
    buttons = "".join(
        f'<button type="button" data-filter="{status}" aria-pressed="{str(pressed).lower()}">'
        f"{name} ({count})</button>"
        for status, name, count, pressed in (
            ("all", "All", len(results), True),
            ("failed", "Failed", statuses.count("failed"), False),
            ("error", "Errors", statuses.count("error"), False),
        )
    )
    head = "".join(f"<span{kind}>{name}</span>" for name, kind in _RUN_COLUMNS)
    parts = [
        '<section id="runs">',
        "<h2>Runs</h2>",
        "<p>Every run, in the order they ran; open one to see its answer, checks and tool "
        "calls.</p>",
        f'<div id="filters" hidden>{buttons}</div>',
        f'<div class="run-head">{head}</div>',
        *(
            _run(index, r, status)
            for index, (r, status) in enumerate(zip(results, statuses, strict=True))
        ),
    ]
    return "\n".join([*parts, "</section>"])


def _status(result: CaseResult) -> str:
    if result.error is not None:
        return "error"
    return "passed" if result.passed else "failed"


def _run(index: int, result: CaseResult, status: str) -> str:
    outcome = result.outcome
    numbers = (
        [_NONE] * 4
        if outcome is None
        else [
            f"{result.score:.2f}",
            f"{outcome.latency_ms:.0f}",
            str(outcome.input_tokens),
            str(outcome.output_tokens),
        ]
    )
    summary = "".join(
        [
            f'<span class="case">{line(result.case_id, NAME)}</span>',
            f"<span>{line(result.experiment, NAME)}</span>",
            f"<span>{line(result.model, NAME)}</span>",
            f'<span class="number">{result.repeat + 1}</span>',
            f'<span class="status {status}">{status}</span>',
            *(f'<span class="number">{number}</span>' for number in numbers),
        ]
    )
    return "\n".join(
        [
            f'<details class="run" id="run-{index}" data-status="{status}">',
            f"<summary>{summary}</summary>",
            '<div class="detail">',
            *_detail(result),
            "</div>",
            "</details>",
        ]
    )


def _detail(result: CaseResult) -> list[str]:
    """What the run produced and its checks; for a run that errored, the error (no check ran)."""
    if result.error is not None:
        return ["<h3>Error</h3>", f'<pre class="error">\n{block(result.error, FIELD_SHOWN)}</pre>']
    outcome = result.outcome
    checks = ["<h3>Checks</h3>", *_checks(result.checks)]
    if outcome is None:
        return checks
    return [*_answer(outcome), *checks, "<h3>Tool calls</h3>", *_tool_calls(outcome.tool_calls)]


def _answer(outcome: Outcome) -> list[str]:
    parts = [
        "<h3>Answer</h3>",
        f'<pre class="answer">\n{block(outcome.text, ANSWER_SHOWN)}</pre>'
        if outcome.text
        else '<p class="empty">The answer is empty.</p>',
    ]
    if outcome.output is not None:
        parts += [
            "<h3>Structured output</h3>",
            f'<pre class="output">\n{block(_json(outcome.output), ANSWER_SHOWN)}</pre>',
        ]
    parts.append(
        f'<p class="facts">{_count(outcome.turns, "turn")}, {outcome.input_tokens} tokens in, '
        f"{outcome.output_tokens} out, {outcome.latency_ms:.0f} ms</p>"
    )
    return parts


def _checks(checks: Sequence[tuple[str, Score]]) -> list[str]:
    if not checks:
        return ['<p class="empty">No checks.</p>']
    rows = [
        f'<tr class="check {"passed" if score.passed else "failed"}">'
        f"<td>{block(label, FIELD_SHOWN)}</td>"
        f'<td class="passed-cell">{"passed" if score.passed else "failed"}</td>'
        f'<td class="number">{score.value:.2f}</td>'
        f"<td>{block(score.reason, FIELD_SHOWN)}</td></tr>"
        for label, score in checks[:ITEMS_SHOWN]
    ]
    return [
        '<table class="checks">',
        '<tr><th>check</th><th>result</th><th class="number">value</th><th>reason</th></tr>',
        *rows,
        "</table>",
        *_more(len(checks), "check"),
    ]


def _tool_calls(calls: Sequence[ToolCall]) -> list[str]:
    if not calls:
        return ['<p class="empty">No tool calls.</p>']
    rows = [
        f'<tr class="call {"ok" if call.success else "failed"}">'
        f"<td>{line(call.name, NAME)}</td>"
        f"<td><pre>\n{block(_json(dict(call.arguments)), FIELD_SHOWN)}</pre></td>"
        f'<td class="success">{"succeeded" if call.success else "failed"}</td>'
        f"<td><pre>\n{block(call.message, FIELD_SHOWN)}</pre></td></tr>"
        for call in calls[:ITEMS_SHOWN]
    ]
    return [
        '<table class="tool-calls">',
        "<tr><th>tool</th><th>arguments</th><th>result</th><th>message</th></tr>",
        *rows,
        "</table>",
        *_more(len(calls), "tool call"),
    ]


def _more(count: int, noun: str) -> list[str]:
    """The line saying how many of ``count`` items were not shown (none when all were)."""
    return [f"<p>{cut_marker(count - ITEMS_SHOWN, noun)}</p>"] if count > ITEMS_SHOWN else []


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _json(value: object) -> str:
    """JSON data, indented; whatever is not JSON (in an output built in Python) as its repr."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=repr)
