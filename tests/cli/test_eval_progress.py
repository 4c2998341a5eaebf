"""``wink-decl eval``'s progress line, drawn in place on a terminal."""

from __future__ import annotations

import io

from wink_decl.cli._eval_progress import EvalProgress, time_left
from wink_decl.evals import CaseResult


def _result(passed: bool, error: str | None = None) -> CaseResult:
    return CaseResult(
        "c", "baseline", "openai:m", 0, passed=passed, score=float(passed), error=error
    )


def test_the_line_shows_done_pass_rate_errors_and_time_left() -> None:
    stream = io.StringIO()
    ticks = iter([0.0, 10.0, 20.0, 30.0, 40.0])
    progress = EvalProgress(stream, 4, clock=lambda: next(ticks))
    progress.finished(_result(True))
    progress.finished(_result(False, error="refused"))
    progress.finished(_result(False))
    progress.finished(_result(True))
    progress.close()
    progress.close()
    assert stream.getvalue().split("\r") == [
        "",
        "[#####...............] 1/4  pass 100.0%  30s left",
        "[##########..........] 2/4  pass 100.0%  errors 1  20s left",
        "[###############.....] 3/4  pass 50.0%  errors 1  10s left ",
        "[####################] 4/4  pass 66.7%  errors 1" + " " * 10,
        " " * 48,
        "",
    ]


def test_nothing_is_drawn_without_a_terminal() -> None:
    progress = EvalProgress(None, 0)
    progress.finished(_result(False, error="refused"))
    progress.close()


def test_only_errors_so_far_have_no_pass_rate() -> None:
    stream = io.StringIO()
    progress = EvalProgress(stream, 0, clock=lambda: 0.0)
    progress.finished(_result(False, error="refused"))
    assert stream.getvalue() == "\r[####################] 1/0  pass -  errors 1"


def test_time_left_is_short() -> None:
    assert [time_left(s) for s in (-3, 0.4, 59.6, 61, 3599, 3600, 7260)] == [
        "0s",
        "0s",
        "1m00s",
        "1m01s",
        "59m59s",
        "1h00m",
        "2h01m",
    ]
