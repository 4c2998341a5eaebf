"""The bundled suite (``evals/``): its recorded replies, and the README's offline eval.

The replies in ``evals/recorded`` come from a scripted stand-in for the two models (below),
recorded by running the suite against it on 127.0.0.1: ``WINK_UPDATE_GOLDEN=1`` records them
again (after an edit of the prompt, say); otherwise the test checks that a recording made now
is the one kept, so the README's ``--replay`` run stays true to the prompt as it is.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from golden import updating_golden
from openai_replies import completion
from provider_server import ProviderServer, RecordedRequest, Reply

from wink_decl.cli import main

REPO = Path(__file__).resolve().parents[2]
SUITE = "evals/code-review.wink-eval.yaml"
RECORDED = REPO / "evals" / "recorded"

_ANSWERS = {
    ("add-bug", "gpt-4.1-mini"): "calc.py, line 2: `add` returns `a - b`, so `add(2, 3)` is -1, "
    "not 5. Return `a + b`.",
    ("add-bug", "gpt-4.1"): "In calc.py, line 2 subtracts: `add` must return `a + b`, not "
    "`a - b`. Add a test that adds two positive numbers.",
    ("off-by-one", "gpt-4.1-mini"): "Line 1 loops one step too far: use range(len(items)).",
    ("off-by-one", "gpt-4.1"): "Line 1: range(len(items) + 1) reads past the end, so the last "
    "pass raises IndexError. Loop over range(len(items)), or over the items themselves.",
    ("strict-errors", "gpt-4.1-mini"): "Line 3: `except Exception: pass` hides every failure of "
    "save(record). Catch the narrowest exception save can raise, such as except OSError, and "
    "log it.",
    ("strict-errors", "gpt-4.1"): "Line 3 swallows every exception, so a failed save goes "
    "unnoticed. Catch the narrowest exception (except OSError) and report it.",
}
_CASES = {
    "return a - b": "add-bug",
    "range(len(items) + 1)": "off-by-one",
    "except Exception": "strict-errors",
}


def stand_in(request: RecordedRequest) -> Reply:
    """The scripted models: a review by case and model, and a judge that rates it good."""
    body = request.json
    system = body["messages"][0]["content"]
    if system.startswith("## 1. Task (task)\n\nYou are judging"):
        rating = {"rating": "good", "reason": "It names the hidden failure and a narrower catch."}
        return Reply(json=completion(json.dumps(rating), usage=(180, 20), model=body["model"]))
    case = next(name for marker, name in _CASES.items() if marker in system)
    text = _ANSWERS[case, body["model"]]
    return Reply(json=completion(text, usage=(900, 40), model=body["model"]))


def _pack_lines(folder: Path) -> list[str]:
    """The entries of every pack in ``folder``, by key (a run appends them as cases finish)."""
    lines = [
        line for pack in folder.glob("replies-*.jsonl") for line in pack.read_text().splitlines()
    ]
    return sorted(lines, key=lambda line: json.loads(line)["key"])


def test_the_recorded_replies_are_the_stand_in_models(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with ProviderServer(responder=stand_in) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", f"{server.url}/v1")
        monkeypatch.setenv("OPENAI_API_KEY", "sk-stand-in")
        status = main(["eval", SUITE, "--out", "out", "--concurrency", "2"])
    capsys.readouterr()
    recorded = _pack_lines(project / "out" / "cache")
    if updating_golden():
        shutil.rmtree(RECORDED, ignore_errors=True)
        RECORDED.mkdir()
        (RECORDED / "replies-recorded.jsonl").write_text("".join(f"{line}\n" for line in recorded))
    assert (status, len(server.requests), recorded) == (0, 8, _pack_lines(RECORDED))
    assert [path.name for path in RECORDED.iterdir()] == ["replies-recorded.jsonl"]


def _masked(text: str) -> str:
    """The table with its spacing made single and its latencies (which vary) as ``~``."""
    rows = [" ".join(line.split()) for line in text.splitlines()]
    latency = re.compile(r"^(baseline|bigger) (\S+) (\S+ \d+ \d+ \d+ \S+) \d+ \d+ (\d+ \d+)$")
    return "\n".join(latency.sub(r"\1 \2 \3 ~ ~ \4", row) for row in rows)


def test_the_readme_eval_runs_offline_from_the_recording(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["eval", SUITE, "--replay", str(RECORDED)])
    out, err = capsys.readouterr()
    assert (status, err) == (
        0,
        f"{SUITE}: 6 runs (0 from the journal), 0 model requests, 8 replies from the cache; "
        "kept in evals/.wink-eval/code-review\n",
    )
    assert _masked(out) == "\n".join(
        [
            f"{SUITE}: 6 runs, 5 passed, 1 failed, 0 errors",
            "",
            "experiment model pass rate passed failed errors score p50 ms p95 ms tokens in "
            "tokens out",
            "baseline openai:gpt-4.1-mini 0.67 2 1 0 0.85 ~ ~ 2700 120",
            "bigger openai:gpt-4.1 1.00 3 0 0 0.98 ~ ~ 2700 120",
            "",
            "Against the baseline, on the same cases (b: passed on the baseline only; c: passed "
            "on the experiment only)",
            "experiment model pairs errored unpaired change 95% interval b c McNemar p",
            "bigger openai:gpt-4.1 vs openai:gpt-4.1-mini 3 0 0 +0.33 [-0.29, +0.79] 0 1 1.000",
            "",
            "Runs that failed or errored",
            "off-by-one baseline x openai:gpt-4.1-mini score 0.60",
            "- contains: IndexError, weight: 2 -- the answer does not contain 'IndexError'",
            "",
            "PASS",
        ]
    )
    assert (project / "evals" / ".wink-eval" / "code-review" / "results.jsonl").exists()
