"""The runner: every case run through the real runtime and a real SDK, kept, cached, resumed."""
# pyright: reportPrivateUsage=false

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from openai_replies import completion
from provider_server import ProviderServer, RecordedRequest, Reply

from wink_decl.adapters.openai_chat import OpenAIAdapter
from wink_decl.adapters.scripted import ScriptedAdapter, ScriptedTurn
from wink_decl.compiler import CompiledPrompt
from wink_decl.evals._checks import Check
from wink_decl.evals._driver import Driven, DriverOptions, drive
from wink_decl.evals._eval_types import CaseResult, Outcome, Sample, Score, ToolCall
from wink_decl.evals._execute import (
    AdapterFactory,
    _arguments,
)
from wink_decl.evals._matrix import plan
from wink_decl.evals._suite_types import BASELINE, Experiment, ModelSpec, SuiteCase
from wink_decl.prompt.template import Prompt
from wink_decl.runtime.adapter import PromptResponse, ProviderAdapter
from wink_decl.runtime.budget import Budget, BudgetTracker
from wink_decl.runtime.deadline import Deadline
from wink_decl.runtime.provider import ProviderToolCall, TokenUsage
from wink_decl.runtime.session import SessionProtocol

KEY = "sk-test-key-0123456789"
BASELINE_ONLY = (Experiment(BASELINE),)


def _score(
    checks: tuple[Check, ...], outcome: Outcome, sample: Sample
) -> tuple[bool, float, tuple[tuple[str, Score], ...]]:
    del checks
    passed = outcome.text == f"Hello, {sample.id}!"
    score = Score(1.0 if passed else 0.0, passed, "" if passed else "not a greeting")
    return passed, score.value, (("greets", score),)


def _drive(
    greet: CompiledPrompt,
    server: ProviderServer,
    out: Path,
    names: tuple[str, ...],
    **options: object,
) -> Driven:
    model = ModelSpec("openai", "gpt-test", base_url=f"{server.url}/v1")
    cases = [SuiteCase(Sample(name, {"name": name}), ()) for name in names]
    runs = plan(cases, [model], BASELINE_ONLY)

    def make(choice: ModelSpec) -> ProviderAdapter:
        return OpenAIAdapter(choice.model, api_key=KEY, base_url=choice.base_url, max_retries=0)

    settings = DriverOptions(out=out, concurrency=2, **options)  # type: ignore[arg-type]
    return drive(
        runs,
        {None: greet},
        {None: "digest"},
        options=settings,
        make_adapter=make,
        score=lambda _m: _score,
    )


def _results(driven: Driven) -> list[tuple[str, bool, str | None, str | None]]:
    return [
        (r.case_id, r.passed, None if r.outcome is None else r.outcome.text, r.error)
        for r in driven.results
    ]


def test_every_run_is_checked_and_kept_in_the_journal(
    greet: CompiledPrompt, server: ProviderServer, tmp_path: Path
) -> None:
    driven = _drive(greet, server, tmp_path / "out", ("Ann", "Bob", "Eve"))
    assert _results(driven) == [
        ("Ann", True, "Hello, Ann!", None),
        ("Bob", True, "Hello, Bob!", None),
        ("Eve", False, None, "The provider rejected the request (400): Eve is not allowed."),
    ]
    assert (driven.requests, driven.hits, driven.resumed, len(server.requests)) == (2, 0, 0, 3)
    lines = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["case"] for line in lines) == ["Ann", "Bob", "Eve"]


def test_a_run_records_its_tool_calls_turns_and_tokens(
    greet: CompiledPrompt, server: ProviderServer, tmp_path: Path
) -> None:
    (result,) = _drive(greet, server, tmp_path / "out", ("Dee",)).results
    assert result.outcome is not None
    assert result.outcome.tool_calls == (
        ToolCall(
            "read_section",
            {"section_key": "manners"},
            success=True,
            message="Content of section 'manners':\n\n## 2. Manners (manners)\n\nGreet warmly.",
        ),
    )
    outcome = result.outcome
    assert (outcome.text, outcome.turns, outcome.input_tokens, outcome.output_tokens) == (
        "Hello, Dee!",
        2,
        50,
        7,
    )
    assert (result.passed, result.checks) == (True, (("greets", Score(1.0, True, "")),))


def test_a_rerun_is_answered_from_the_cache(
    greet: CompiledPrompt, server: ProviderServer, tmp_path: Path
) -> None:
    first = _drive(greet, server, tmp_path / "out", ("Ann", "Dee"))
    asked = len(server.requests)
    again = _drive(greet, server, tmp_path / "out", ("Ann", "Dee"))
    assert (asked, len(server.requests), again.requests, again.hits) == (3, 3, 0, 3)
    assert _results(again) == _results(first)
    assert (tmp_path / "out" / "results.jsonl.previous").exists()


def test_a_rerun_after_runs_of_other_cases_is_compacted_and_answered_from_the_cache(
    greet: CompiledPrompt, server: ProviderServer, tmp_path: Path
) -> None:
    _drive(greet, server, tmp_path / "out", ("Ann",))
    _drive(greet, server, tmp_path / "out", ("Dee",))
    packs = len(list((tmp_path / "out" / "cache").iterdir()))
    asked = len(server.requests)
    again = _drive(greet, server, tmp_path / "out", ("Ann", "Dee"))
    compacted = len(list((tmp_path / "out" / "cache").iterdir()))
    assert (packs, asked, len(server.requests), again.requests, again.hits) == (2, 3, 3, 0, 3)
    assert (compacted, again.cache_notes) == (1, ())


def test_no_cache_asks_the_model_again(
    greet: CompiledPrompt, server: ProviderServer, tmp_path: Path
) -> None:
    _drive(greet, server, tmp_path / "out", ("Ann",))
    again = _drive(greet, server, tmp_path / "out", ("Ann",), no_cache=True)
    assert (len(server.requests), again.requests, again.hits) == (2, 1, 0)


def test_resume_runs_only_what_the_journal_lacks(
    greet: CompiledPrompt, server: ProviderServer, tmp_path: Path
) -> None:
    first = _drive(greet, server, tmp_path / "out", ("Ann", "Bob", "Cy"), no_cache=True)
    journal = tmp_path / "out" / "results.jsonl"
    lines = journal.read_text().splitlines(keepends=True)
    cut = next(line for line in lines if json.loads(line)["case"] == "Cy")
    kept = [line for line in lines if line is not cut]
    journal.write_text("".join(kept) + cut[: len(cut) // 2])  # killed while writing Cy's line
    server.requests.clear()
    resumed = _drive(
        greet, server, tmp_path / "out", ("Ann", "Bob", "Cy"), resume=True, no_cache=True
    )
    assert (resumed.resumed, resumed.skipped, len(server.requests)) == (2, 1, 1)
    assert _results(resumed) == _results(first)


def test_a_timeout_is_the_cases_error(greet: CompiledPrompt, tmp_path: Path) -> None:
    def slow(_request: RecordedRequest) -> Reply:
        return Reply(json=completion("Hello, Ann!"), delay=5)

    with ProviderServer(responder=slow) as server:
        driven = _drive(greet, server, tmp_path / "out", ("Ann",), timeout=0.3)
    (result,) = driven.results
    assert (result.passed, result.outcome) == (False, None)
    assert re.fullmatch(r"The request timed out after 0\.\d+ seconds\.", result.error or "")


def test_an_interruption_keeps_the_runs_in_flight(
    greet: CompiledPrompt, server: ProviderServer, tmp_path: Path
) -> None:
    kept: list[CaseResult] = []
    stopping: list[int] = []

    def interrupt_first(result: CaseResult) -> None:
        kept.append(result)
        if len(kept) == 1:
            raise KeyboardInterrupt

    model = ModelSpec("openai", "gpt-test", base_url=f"{server.url}/v1")
    runs = plan(
        [SuiteCase(Sample(n, {"name": n}), ()) for n in ("Ann", "Bob", "Cy", "Dee")],
        [model],
        BASELINE_ONLY,
    )
    with pytest.raises(KeyboardInterrupt):
        drive(
            runs,
            {None: greet},
            {None: "digest"},
            options=DriverOptions(out=tmp_path / "out", concurrency=2),
            make_adapter=lambda c: OpenAIAdapter(c.model, api_key=KEY, base_url=c.base_url),
            score=lambda _m: _score,
            on_finished=interrupt_first,
            on_stopping=stopping.append,
        )
    journal = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert (stopping, len(kept), len(journal), len(server.requests)) == ([1], 2, 2, 2)
    assert sorted(r.case_id for r in kept) == ["Ann", "Bob"]


class _OwnLoop(ScriptedAdapter):
    """An adapter that runs its own loop (as the Claude Agent SDK's does): never cached."""

    def evaluate(
        self,
        prompt: Prompt[Any],
        *,
        session: SessionProtocol,
        deadline: Deadline | None = None,
        budget: Budget | BudgetTracker | None = None,
    ) -> PromptResponse:
        return super().evaluate(prompt, session=session, deadline=deadline, budget=budget)


def _drive_with(
    greet: CompiledPrompt, tmp_path: Path, samples: list[Sample], make: AdapterFactory
) -> Driven:
    runs = plan([SuiteCase(s, ()) for s in samples], [ModelSpec("scripted", "own")], BASELINE_ONLY)
    options = DriverOptions(out=tmp_path / "out", concurrency=1, secrets=(KEY,))
    return drive(
        runs,
        {None: greet},
        {None: "d"},
        options=options,
        make_adapter=make,
        score=lambda _m: _score,
    )


def test_an_adapter_with_a_loop_of_its_own_is_run_without_the_cache(
    greet: CompiledPrompt, tmp_path: Path
) -> None:
    turns = [
        ScriptedTurn(tool_calls=(ProviderToolCall("c1", "read_section", '{"section_key": '),)),
        ScriptedTurn(tool_calls=(ProviderToolCall("c2", "read_section", "[1]"),)),
        ScriptedTurn.answer("Hello, Ann!", usage=TokenUsage(4, 1)),
    ]
    (result,) = _drive_with(
        greet, tmp_path, [Sample("Ann", {"name": "Ann"})], lambda _m: _OwnLoop(turns)
    ).results
    assert result.outcome is not None
    assert [(c.name, c.arguments, c.success) for c in result.outcome.tool_calls] == [
        ("read_section", {}, False),
        ("read_section", {}, False),
    ]
    assert (result.passed, result.outcome.total_tokens, result.outcome.turns) == (True, 5, 3)
    assert not (tmp_path / "out" / "cache").exists()


def test_a_case_that_cannot_be_run_is_an_error_without_secrets(
    greet: CompiledPrompt, tmp_path: Path
) -> None:
    def refuse(model: ModelSpec) -> ProviderAdapter:
        raise ValueError(f"no adapter takes {model.name} with key {KEY}")

    driven = _drive_with(
        greet, tmp_path, [Sample("Ann", {}), Sample("Bob", {"name": "Bob"})], refuse
    )
    assert _results(driven) == [
        ("Ann", False, None, "Param 'name' has no value and no default."),
        ("Bob", False, None, "ValueError: no adapter takes scripted:own with key [redacted]"),
    ]


def test_a_call_the_model_did_not_send_has_no_arguments() -> None:
    assert _arguments(None) == {}


def test_a_replay_answers_from_recorded_replies_and_asks_no_model(
    greet: CompiledPrompt, server: ProviderServer, tmp_path: Path
) -> None:
    recorded = _drive(greet, server, tmp_path / "first", ("Ann", "Dee"))
    asked = len(server.requests)
    replayed = _drive(
        greet,
        server,
        tmp_path / "second",
        ("Ann", "Dee", "Bob"),
        replay=tmp_path / "first" / "cache",
    )
    assert (asked, len(server.requests), replayed.hits, replayed.requests) == (3, 3, 3, 0)
    assert _results(replayed) == [
        *_results(recorded),
        (
            "Bob",
            False,
            None,
            "No recorded reply of openai:gpt-test for this request: the prompt, the case or the "
            "conversation differs from the recorded run; record it again by running without "
            "--replay.",
        ),
    ]
    assert not (tmp_path / "second" / "cache").exists()
