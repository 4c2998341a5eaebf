"""Reports the HTML page's tests render: a small review suite, and a run with a hostile answer."""

from __future__ import annotations

from eval_results import run

from wink_decl.evals import EvalReport, Score, ToolCall

HOSTILE = (
    '</script><script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2">'
    "<!-- \x1b[31mred\x1b[0m \"double\" & 'single' \u202eevil\u202c\ttab\r\nnext line"
)
"""An answer that tries to close the page's tags, run a script, load an image, drive a
terminal and reorder text."""
HOSTILE_SHOWN = (
    '</script><script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2">'
    "<!-- \\x1b[31mred\\x1b[0m \"double\" & 'single' \\u202eevil\\u202c\ttab\\r\nnext line"
)
"""The same answer as the page shows it: the text itself, controls written as escapes."""


def review() -> EvalReport:
    """Two cases (one repeated) on the baseline and a tag, one on a model of its own.

    It has a passing run, failing checks with a reason on two lines, tool calls (one failed),
    a structured output, an empty answer and a run that errored.
    """
    contains = ("contains: a + b", Score(1.0, True))
    regex = ("regex: line \\d+", Score(0.0, False, "no match for 'line \\d+' in the answer"))
    judge = (
        "judge: Names the bug and the fix.",
        Score(0.25, False, "poor: names the bug,\nnot the fix"),
    )
    read = ToolCall("read_file", {"path": "src/add.py"}, success=True, message="def add(a, b):")
    write = ToolCall("write_file", {"path": "/etc/passwd"}, success=False, message="not allowed")
    model = "openai:gpt-4.1"
    return EvalReport(
        [
            run(
                "add-bug",
                latency_ms=812.4,
                tokens=(1200, 340),
                checks=(contains,),
                text="Use a + b.",
                tool_calls=(read,),
            ),
            run(
                "add-bug",
                repeat=1,
                passed=False,
                score=0.5,
                latency_ms=1530.0,
                tokens=(1100, 420),
                checks=(contains, regex),
                text="Use a + b.\nSee the diff.",
                tool_calls=(read, write),
            ),
            run("add-bug", experiment="concise", latency_ms=640.0, tokens=(1150, 120)),
            run(
                "add-bug",
                experiment="concise",
                repeat=1,
                latency_ms=700.0,
                tokens=(1090, 130),
                output={"verdict": "reject", "findings": [{"line": 1, "text": "a + b"}]},
                text='{"verdict": "reject"}',
            ),
            run("add-bug", experiment="bigger", model=model, error="the provider refused: 429"),
            run(
                "add-bug",
                experiment="bigger",
                model=model,
                repeat=1,
                passed=False,
                score=0.25,
                latency_ms=2100.0,
                tokens=(1100, 500),
                checks=(judge,),
                text="",
            ),
        ],
        threshold=0.8,
        suite="evals/review.wink-eval.yaml",
    )


def with_hostile_answer() -> EvalReport:
    """``review()`` and one more run, of case ``<b>x</b>``, whose answer is ``HOSTILE``."""
    report = review()
    hostile = run(
        "<b>x</b>",
        passed=False,
        checks=(('contains: "</script>"', Score(0.0, False, HOSTILE)),),
        text=HOSTILE,
        tool_calls=(ToolCall("<i>tool</i>", {"html": HOSTILE}, success=False, message=HOSTILE),),
        output={"</script>": HOSTILE},
    )
    return EvalReport([*report.results, hostile], threshold=report.threshold, suite=report.suite)
