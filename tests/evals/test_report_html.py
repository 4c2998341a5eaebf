"""The report as one HTML page: the whole page, escaping, bounds, the charts' numbers.

``WINK_UPDATE_GOLDEN=1`` rewrites ``tests/evals/golden/report.html``; read the difference
before committing it. tests/evals/test_report_html_in_chromium.py opens the page in a browser.
"""

from __future__ import annotations

import base64
import hashlib
import math
import os
import re
from decimal import Decimal
from pathlib import Path

import pytest
from eval_pages import HOSTILE, review, with_hostile_answer
from eval_results import run

import wink_decl.evals
from wink_decl.evals import CaseResult, EvalReport, Score, ToolCall, render_html
from wink_decl.evals._html_charts import latency_bins, latency_histograms
from wink_decl.evals._html_text import block, line

GOLDEN = Path(__file__).parent / "golden" / "report.html"


def body(page: str) -> str:
    """The page between ``<body>`` and its script."""
    return page.split("<body>\n", 1)[1].split("\n<script>", 1)[0]


def run_html(page: str, index: int) -> str:
    """The ``<details>`` element of run ``index``, whole."""
    start = page.index(f'<details class="run" id="run-{index}"')
    return page[start : page.index("</details>", start) + len("</details>")]


def test_the_whole_page() -> None:
    page = render_html(review(), title="Code review")
    if os.environ.get("WINK_UPDATE_GOLDEN"):
        GOLDEN.write_text(page, encoding="utf-8")
    assert page == GOLDEN.read_text(encoding="utf-8")


def test_the_policy_lets_only_the_pages_own_style_and_script_run() -> None:
    page = render_html(review(), title="Code review")
    style = page.split("<style>", 1)[1].split("</style>", 1)[0]
    script = page.split("<script>", 1)[1].split("</script>", 1)[0]

    def digest(text: str) -> str:
        return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()

    policy = (
        f"default-src 'none'; script-src 'sha256-{digest(script)}'; "
        f"style-src 'sha256-{digest(style)}'; base-uri 'none'; form-action 'none'"
    )
    assert f'<meta http-equiv="Content-Security-Policy" content="{policy}">' in page
    # Nothing else could load: no address, no attribute that fetches, no inline style or handler.
    assert re.findall(r"https?:|src=|href=|url\(|style=|\son\w+=", page) == []


def test_a_line_escapes_markup_quotes_and_every_control() -> None:
    text = "<a href=\"x\">'&'</a>\x00\x1b\x7f\x85\n\t\r\u061c\u200f\u2028\u202e\u2066\ud800"
    assert line(text, 100) == (
        "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;"
        "\\x00\\x1b\\x7f\\x85\\n\\t\\r\\u061c\\u200f\\u2028\\u202e\\u2066\\ud800"
    )


def test_a_block_keeps_its_lines_and_tabs() -> None:
    assert block("</pre>\r\n\ta\x1bb\udfff", 100) == "&lt;/pre&gt;\\r\n\ta\\x1bb\\udfff"


def test_long_texts_are_cut_with_a_marker() -> None:
    assert line("abcdef", 4) == "abcd\u2026 (2 more characters)"
    assert line("abcd<", 4) == "abcd\u2026 (1 more characters)"
    assert block("abcde", 4) == 'abcd<span class="cut">\u2026 1 more character not shown</span>'
    assert (
        block("a<cdef", 4) == 'a&lt;cd<span class="cut">\u2026 2 more characters not shown</span>'
    )
    assert line("abcd", 4) == "abcd"
    assert block("abcd", 4) == "abcd"


HOSTILE_IN_HTML = (
    "&lt;/script&gt;&lt;script&gt;window.pwned = 1&lt;/script&gt;&lt;img src=&quot;x&quot; "
    "onerror=&quot;window.pwned = 2&quot;&gt;&lt;!-- \\x1b[31mred\\x1b[0m &quot;double&quot; "
    "&amp; &#x27;single&#x27; \\u202eevil\\u202c\ttab\\r\nnext line"
)
HOSTILE_ON_A_LINE = HOSTILE_IN_HTML.replace("\t", "\\t").replace("\n", "\\n")


def test_a_hostile_run_is_only_text() -> None:
    page = render_html(with_hostile_answer(), title="</title><script>")
    assert run_html(page, 6) == "\n".join(
        [
            '<details class="run" id="run-6" data-status="failed">',
            '<summary><span class="case">&lt;b&gt;x&lt;/b&gt;</span><span>baseline</span>'
            '<span>openai:gpt-4.1-mini</span><span class="number">1</span>'
            '<span class="status failed">failed</span><span class="number">0.00</span>'
            '<span class="number">100</span><span class="number">10</span>'
            '<span class="number">5</span></summary>',
            '<div class="detail">',
            "<h3>Answer</h3>",
            f'<pre class="answer">\n{HOSTILE_IN_HTML}</pre>',
            "<h3>Structured output</h3>",
            '<pre class="output">\n{\n  &quot;&lt;/script&gt;&quot;: &quot;&lt;/script&gt;'
            "&lt;script&gt;window.pwned = 1&lt;/script&gt;&lt;img src=\\&quot;x\\&quot; "
            "onerror=\\&quot;window.pwned = 2\\&quot;&gt;&lt;!-- \\u001b[31mred\\u001b[0m "
            "\\&quot;double\\&quot; &amp; &#x27;single&#x27; \\u202eevil\\u202c\\ttab\\r\\nnext "
            "line&quot;\n}</pre>",
            '<p class="facts">1 turn, 10 tokens in, 5 out, 100 ms</p>',
            "<h3>Checks</h3>",
            '<table class="checks">',
            '<tr><th>check</th><th>result</th><th class="number">value</th><th>reason</th></tr>',
            '<tr class="check failed"><td>contains: &quot;&lt;/script&gt;&quot;</td>'
            '<td class="passed-cell">failed</td><td class="number">0.00</td>'
            f"<td>{HOSTILE_IN_HTML}</td></tr>",
            "</table>",
            "<h3>Tool calls</h3>",
            '<table class="tool-calls">',
            "<tr><th>tool</th><th>arguments</th><th>result</th><th>message</th></tr>",
            '<tr class="call failed"><td>&lt;i&gt;tool&lt;/i&gt;</td><td><pre>\n{\n  '
            "&quot;html&quot;: &quot;&lt;/script&gt;&lt;script&gt;window.pwned = 1"
            "&lt;/script&gt;&lt;img src=\\&quot;x\\&quot; onerror=\\&quot;window.pwned = "
            "2\\&quot;&gt;&lt;!-- \\u001b[31mred\\u001b[0m \\&quot;double\\&quot; &amp; "
            "&#x27;single&#x27; \\u202eevil\\u202c\\ttab\\r\\nnext line&quot;\n}</pre></td>"
            '<td class="success">failed</td>'
            f"<td><pre>\n{HOSTILE_IN_HTML}</pre></td></tr>",
            "</table>",
            "</div>",
            "</details>",
        ]
    )
    assert "<title>&lt;/title&gt;&lt;script&gt;</title>" in page
    assert "<h1>&lt;/title&gt;&lt;script&gt;</h1>" in page
    assert (page.count("<script"), page.count("</script"), page.count("<!--")) == (1, 1, 0)
    assert page.count("<img") == page.count("<b>") == page.count("<i>") == 0
    assert re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e\ud800-\udfff]", page) is None
    page.encode("utf-8")  # no lone surrogate left: the page can be written


def test_hostile_names_are_escaped_in_the_charts_and_tables() -> None:
    name = '"><script>x</script>\x1b'
    page = render_html(EvalReport([run("c", experiment=name, model=HOSTILE)]), title="t")
    escaped = "&quot;&gt;&lt;script&gt;x&lt;/script&gt;\\x1b"
    group = f"{escaped} x {HOSTILE_ON_A_LINE}"
    short = "&quot;&gt;&lt;script&gt;x&lt;/script&gt;\\x1b x &lt;/script&gt;&lt;scrip\u2026"
    assert re.findall('<g class="group".*</g>', page) == [
        f'<g class="group" data-experiment="{escaped}" data-model="{HOSTILE_ON_A_LINE}">'
        f"<title>{group}: 1 passed, 0 failed, 0 errors</title>"
        f'<text class="label" x="282" y="44" text-anchor="end">{short}</text>'
        '<rect class="bar met" x="290" y="31" width="400" height="18"/>'
        '<text class="value" x="696" y="44">1.00 (1 of 1)</text></g>'
    ]
    assert f"<figcaption>{group}: 1 run</figcaption>" in page
    assert f"<tr><td>{escaped}</td><td>{HOSTILE_ON_A_LINE}</td>" in page
    assert f"<span>{escaped}</span><span>{HOSTILE_ON_A_LINE}</span>" in page
    assert '<p class="headline">1 run, 1 passed, 0 failed, 0 errors</p>' in page


def test_what_a_run_shows_is_bounded() -> None:
    huge = "x" * 1_000_000
    checks = tuple((huge, Score(0.0, False, huge)) for _ in range(53))
    calls = tuple(ToolCall(huge, {"a": huge}, success=True, message=huge) for _ in range(51))
    result = run("big", passed=False, text=huge, output=[huge], checks=checks, tool_calls=calls)
    page = render_html(EvalReport([result, run("big", repeat=1, error=huge)]), title="t")
    assert len(page) < 700_000  # from 215 million characters of text
    shown = run_html(page, 0)
    assert shown.count("x" * 20_000) == 1  # the answer
    assert f'<pre class="answer">\n{"x" * 20_000}<span class="cut">\u2026 980,000 more ' in shown
    assert '<pre class="output">\n[\n  &quot;' + "x" * 19_995 + '<span class="cut">' in shown
    assert '<p><span class="cut">\u2026 3 more checks not shown</span></p>' in shown
    assert '<p><span class="cut">\u2026 1 more tool call not shown</span></p>' in shown
    assert shown.count('<tr class="check failed">') == shown.count('<tr class="call ok">') == 50
    assert f"<td>{'x' * 200}\u2026 (999,800 more characters)</td>" in shown
    assert run_html(page, 1).endswith(
        '<h3>Error</h3>\n<pre class="error">\n'
        f'{"x" * 2_000}<span class="cut">\u2026 998,000 more characters not shown</span></pre>\n'
        "</div>\n</details>"
    )


def test_the_page_grows_with_the_runs_only() -> None:
    def size(runs: int) -> int:
        results = [run("case", repeat=i, text="y" * 100_000) for i in range(runs)]
        return len(render_html(EvalReport(results), title="t"))

    # Each run adds the same (the digits of its index and the counts aside).
    assert size(3) - size(2) == size(4) - size(3)


def test_an_empty_report() -> None:
    assert body(render_html(EvalReport([]), title="Nothing")).split("\n") == (
        [
            "<header>",
            "<h1>Nothing</h1>",
            '<p class="headline">0 runs, 0 passed, 0 failed, 0 errors</p>',
            '<p class="threshold">Threshold: 1.00, the pass rate every experiment and model '
            "must reach.</p>",
            '<p id="verdict" class="verdict fail">FAIL: no runs</p>',
            "</header>",
            "<main>",
            '<section id="summaries">',
            "<h2>Pass rate by experiment and model</h2>",
            '<p class="empty">No runs.</p>',
            "</section>",
            '<section id="latency">',
            "<h2>Latency</h2>",
            '<p class="empty">No run produced an answer: no latency to show.</p>',
            "</section>",
            '<section id="comparisons">',
            "<h2>Against the baseline</h2>",
            '<p class="empty">No experiment to compare with the baseline.</p>',
            "</section>",
            '<section id="runs">',
            "<h2>Runs</h2>",
            "<p>Every run, in the order they ran; open one to see its answer, checks and tool "
            "calls.</p>",
            '<div id="filters" hidden><button type="button" data-filter="all" '
            'aria-pressed="true">All (0)</button><button type="button" data-filter="failed" '
            'aria-pressed="false">Failed (0)</button><button type="button" data-filter="error" '
            'aria-pressed="false">Errors (0)</button></div>',
            '<div class="run-head"><span></span><span>case</span><span>experiment</span>'
            '<span>model</span><span class="number">repeat</span><span>result</span>'
            '<span class="number">score</span><span class="number">latency ms</span>'
            '<span class="number">tokens in</span><span class="number">tokens out</span></div>',
            "</section>",
            "</main>",
        ]
    )


def test_a_group_whose_every_run_errored_has_no_bar_and_no_latency() -> None:
    page = render_html(EvalReport([run("a", error="timed out after 60 s")]), title="t")
    assert re.findall('<g class="group".*</g>', page) == [
        '<g class="group" data-experiment="baseline" data-model="openai:gpt-4.1-mini">'
        "<title>baseline x openai:gpt-4.1-mini: 0 passed, 0 failed, 1 error</title>"
        '<text class="label" x="282" y="44" text-anchor="end">'
        "baseline x openai:gpt-4.1-mini</text>"
        '<text class="value" x="296" y="44">no pass rate: every run errored</text></g>'
    ]
    assert '<p class="empty">No run produced an answer: no latency to show.</p>' in page
    assert '<p id="verdict" class="verdict fail">FAIL: threshold 1.00 not met by ' in page
    assert run_html(page, 0).endswith(
        '<h3>Error</h3>\n<pre class="error">\ntimed out after 60 s</pre>\n</div>\n</details>'
    )


def test_a_passing_report_says_pass() -> None:
    page = render_html(EvalReport([run("a")], threshold=0.5), title="t")
    assert '<p id="verdict" class="verdict pass">PASS</p>' in page
    assert '<text x="490" y="16" text-anchor="middle">threshold 0.50</text>' in page


def test_a_run_without_an_outcome_shows_its_checks_only() -> None:
    check = ("contains: a", Score(0.0, False, "no answer"))
    result = CaseResult("a", "baseline", "m", 0, passed=False, score=0.0, checks=(check,))
    assert run_html(render_html(EvalReport([result]), title="t"), 0).split("\n")[3:] == [
        "<h3>Checks</h3>",
        '<table class="checks">',
        '<tr><th>check</th><th>result</th><th class="number">value</th><th>reason</th></tr>',
        '<tr class="check failed"><td>contains: a</td><td class="passed-cell">failed</td>'
        '<td class="number">0.00</td><td>no answer</td></tr>',
        "</table>",
        "</div>",
        "</details>",
    ]


def test_an_output_built_in_python_shows_what_is_not_json_as_its_repr() -> None:
    page = render_html(EvalReport([run("a", output={"when": {1}})]), title="t")
    assert '<pre class="output">\n{\n  &quot;when&quot;: &quot;{1}&quot;\n}</pre>' in page


def edges(latencies: list[float]) -> list[str]:
    bins = latency_bins(latencies)
    assert bins is not None
    return [f"{edge:f}" for edge in bins.edges]


@pytest.mark.parametrize(
    ("latencies", "expected"),
    [
        ([812.4, 1530.0, 640.0, 700.0, 2100.0], ["500", "1000", "1500", "2000", "2500"]),
        ([100.0], ["100", "110"]),
        ([100.0, 100.0], ["100", "110"]),
        ([0.0], ["0", "1"]),
        ([0.1, 0.2, 0.3], ["0.1", "0.2", "0.3", "0.4"]),
        ([0.0, 3.0], ["0", "2", "4"]),
        ([0.0, 8.0], ["0", "5", "10"]),
        ([0.0, 15.0], ["0", "10", "20"]),
        ([float(ms) for ms in range(1000)], [str(e) for e in range(0, 1001, 100)]),
        ([0.0, 20.0], ["0", "10", "20", "30"]),
        ([float(i % 21_001) for i in range(2**19 + 1)], [str(e) for e in range(0, 22_001, 2000)]),
        ([5.0, float("nan"), float("inf"), -1.0, 7.0], ["5", "6", "7", "8"]),
    ],
    ids=[
        "the-review",
        "one-latency",
        "equal-latencies",
        "zero",
        "decimals-as-written",
        "width-2",
        "width-5",
        "width-10",
        "the-largest-on-an-edge-adds-a-bin",
        "sturges-11",
        "at-most-20-wanted",
        "what-is-not-a-latency-is-left-out",
    ],
)
def test_latency_bins_are_round_and_few(latencies: list[float], expected: list[str]) -> None:
    assert edges(latencies) == expected


def test_no_latency_gives_no_bins() -> None:
    assert latency_bins([]) is None
    assert latency_bins([math.nan, -5.0, math.inf]) is None


def test_a_latency_on_an_edge_is_in_the_bin_above() -> None:
    bins = latency_bins([0.1, 0.2, 0.3])
    assert bins is not None
    assert [bins.index(v) for v in (0.1, 0.2, 0.3, 0.39)] == [0, 1, 2, 2]
    assert bins.width == Decimal("0.1")


def ticks(svg: str) -> list[str]:
    return re.findall(r'<text class="tick edge" x="[\d.]+" y="\d+" [^>]*>([^<]*)<', svg)


def test_the_edges_labelled_are_spread_and_never_crowded() -> None:
    values = [float(ms) for ms in range(1000)]
    bins = latency_bins(values)
    assert bins is not None
    svg = latency_histograms(bins, {("baseline", "m"): values})
    assert ticks(svg) == ["0", "200", "400", "600", "800", "1000"]
    assert re.findall(r'data-count="(\d+)"', svg) == ["100"] * 10


def test_huge_latencies_are_labelled_in_powers_of_ten() -> None:
    bins = latency_bins([1e300])
    assert bins is not None
    assert ticks(latency_histograms(bins, {("baseline", "m"): [1e300]})) == [
        "1.00e+300",
        "1.10e+300",
    ]


def test_render_html_is_part_of_the_public_api() -> None:
    assert wink_decl.evals.render_html is render_html


def test_a_latency_that_is_not_a_time_is_left_out_of_the_histogram() -> None:
    results = [run("a", latency_ms=5.0), run("b", latency_ms=math.nan), run("c", latency_ms=-1.0)]
    page = render_html(EvalReport(results), title="t")
    assert re.findall(r'data-count="(\d+)"', page) == ["1"]
    assert "<figcaption>baseline x openai:gpt-4.1-mini: 1 run</figcaption>" in page
    assert '<span class="number">nan</span>' in run_html(page, 1)
