"""The runner's parts: cache entries, journal lines, case records, the plan and the adapters."""
# pyright: reportPrivateUsage=false

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from wink_decl.evals._cache import ResponseCache, reply_from_json, reply_to_json, request_key
from wink_decl.evals._eval_types import CaseResult, Outcome, Sample, Score, ToolCall
from wink_decl.evals._execute import AdapterPool, ModelAdapters
from wink_decl.evals._matrix import CaseRun, Variant, model_key, plan, variants
from wink_decl.evals._records import result_from_json, result_to_json
from wink_decl.evals._results_journal import Journal, read_journal
from wink_decl.evals._run_suite import _judge_spec
from wink_decl.evals._suite_types import BASELINE, Experiment, ModelSpec, SuiteCase
from wink_decl.runtime.adapter import PromptResponse, ProviderAdapter
from wink_decl.runtime.provider import (
    OutputFormat,
    ProviderMessage,
    ProviderReply,
    ProviderRequest,
    ProviderToolCall,
    TokenUsage,
)

MODEL = ModelSpec("openai", "gpt-test", base_url="http://127.0.0.1:9/v1", options={"seed": 1})
REQUEST = ProviderRequest(
    (
        ProviderMessage("system", "Say hello."),
        ProviderMessage("assistant", "", (ProviderToolCall("c1", "look", {"at": "x"}),)),
        ProviderMessage("tool", "seen", tool_call_id="c1", is_error=True),
    ),
    ({"type": "function", "function": {"name": "look"}},),
    ("look",),
    OutputFormat("Answer", {"type": "object"}),
)
REPLY = ProviderReply(
    "Hi",
    (ProviderToolCall("c2", "look", '{"at": "y"}'),),
    TokenUsage(input_tokens=3, output_tokens=2),
)
RESULT = CaseResult(
    "ann",
    "concise",
    "openai:gpt-test",
    2,
    passed=False,
    score=0.5,
    outcome=Outcome(
        "Hi",
        {"verdict": "ok"},
        (ToolCall("look", {"at": "x"}, success=False, message="no"),),
        input_tokens=3,
        output_tokens=2,
        turns=2,
        latency_ms=12.5,
    ),
    checks=(("contains: Hi", Score(1.0, True)), ("equals: Ho", Score(0.0, False, "differs"))),
)


def test_a_key_covers_the_request_model_and_repetition_but_not_the_time_left() -> None:
    key = request_key(model_key(MODEL), REQUEST, 0)
    timed = ProviderRequest(
        REQUEST.messages, REQUEST.tools, REQUEST.tool_names, REQUEST.output, timeout=3
    )
    plain = ProviderRequest(REQUEST.messages, REQUEST.tools, REQUEST.tool_names)
    other = model_key(ModelSpec("openai", "gpt-test", base_url="http://127.0.0.1:9/v1"))
    assert request_key(model_key(MODEL), timed, 0) == key
    assert (
        len({key, request_key(model_key(MODEL), REQUEST, 1), request_key(other, REQUEST, 0)}) == 3
    )
    assert request_key(model_key(MODEL), plain, 0) != key
    assert len(key) == 64


def test_a_kept_reply_reads_back_equal(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache")
    cache.put("ab" + "0" * 62, REPLY)
    cache.put("cd" + "0" * 62, ProviderReply("plain"))
    assert cache.get("ab" + "0" * 62) == REPLY
    assert cache.get("cd" + "0" * 62) == ProviderReply("plain")
    assert cache.get("ef" + "0" * 62) is None
    assert reply_from_json(
        reply_to_json(ProviderReply("x", (ProviderToolCall("c", "n", {"a": 1}),)))
    ) == ProviderReply("x", (ProviderToolCall("c", "n", {"a": 1}),))


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"text": "x", "tool_calls": []},
        {"text": 1, "tool_calls": [], "usage": None},
        {"text": "x", "tool_calls": {}, "usage": None},
        {"text": "x", "tool_calls": [1], "usage": None},
        {"text": "x", "tool_calls": [{"call_id": "c", "name": "n"}], "usage": None},
        {
            "text": "x",
            "tool_calls": [{"call_id": 1, "name": "n", "arguments": "{}"}],
            "usage": None,
        },
        {"text": "x", "tool_calls": [{"call_id": "c", "name": "n", "arguments": 3}], "usage": None},
        {"text": "x", "tool_calls": [], "usage": []},
        {"text": "x", "tool_calls": [], "usage": {"input_tokens": 1}},
        {"text": "x", "tool_calls": [], "usage": {"input_tokens": -1, "output_tokens": 0}},
        {"text": "x", "tool_calls": [], "usage": {"input_tokens": True, "output_tokens": 0}},
    ],
    ids=lambda data: json.dumps(data)[:40],
)
def test_an_entry_not_written_by_the_cache_is_a_miss(data: object) -> None:
    assert reply_from_json(data) is None


def test_an_unreadable_entry_is_a_miss(tmp_path: Path) -> None:
    (tmp_path / "aa").mkdir()
    (tmp_path / "aa" / f"aa{'1' * 62}.json").write_text("not json")
    (tmp_path / "aa" / f"aa{'2' * 62}.json").write_text("[" * 100_000)
    os.mkfifo(tmp_path / "aa" / f"aa{'3' * 62}.json")  # a reader of a pipe would wait forever
    cache = ResponseCache(tmp_path)  # the folder is read once, when the cache is made
    assert [cache.get(f"aa{digit * 62}") for digit in "123"] == [None, None, None]


def test_a_result_reads_back_equal() -> None:
    errored = CaseResult(
        "bob", "baseline", "openai:gpt-test", 0, passed=False, score=0.0, error="refused"
    )
    assert [result_from_json(result_to_json(r)) for r in (RESULT, errored)] == [RESULT, errored]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"case": 1}, "'case' must be text"),
        ({"passed": "yes"}, "'passed' must be true or false"),
        ({"repeat": -1}, "'repeat' must be a whole number, 0 or more"),
        ({"score": float("nan")}, "'score' must be a number"),
        ({"score": True}, "'score' must be a number"),
        ({"checks": {}}, "'checks' must be a list"),
        ({"outcome": []}, "expected an object"),
    ],
)
def test_a_record_that_is_not_a_result_is_refused(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}$".replace("(", r"\(").replace(")", r"\)")):
        result_from_json({**result_to_json(RESULT), **change})


def test_a_journal_keeps_whole_lines_and_skips_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    journal = Journal(path)
    journal.append("k1", RESULT)
    journal.close()
    journal.close()  # idempotent
    with path.open("a") as file:
        file.write('\n[1]\n{"key": 2}\n{"key": "k3", "case": "x"}\n{"key": "k4", "ca')
    entries, skipped = read_journal(path, 1_000_000)
    assert (entries, skipped) == ([("k1", RESULT)], 4)
    assert read_journal(tmp_path / "missing.jsonl", 10) == ([], 0)
    with pytest.raises(OSError, match="the file is larger than the limit"):
        read_journal(path, 10)


def test_the_plan_runs_the_baseline_then_each_experiment_case_by_case() -> None:
    other = ModelSpec("anthropic", "claude-test")
    experiments = [
        Experiment(BASELINE),
        Experiment("short", tag="short"),
        Experiment("big", model=other),
    ]
    found = variants([MODEL], experiments)
    assert found == [
        Variant("baseline", None, MODEL),
        Variant("short", "short", MODEL),
        Variant("big", None, other),
    ]
    ann, bob = Sample("ann", {"x": 1}), Sample("bob")
    runs = plan([SuiteCase(ann, (), 2), SuiteCase(bob, ())], [MODEL], experiments[:2])
    assert [(r.variant.experiment, r.sample.id, r.repeat) for r in runs] == [
        ("baseline", "ann", 0),
        ("baseline", "ann", 1),
        ("baseline", "bob", 0),
        ("short", "ann", 0),
        ("short", "ann", 1),
        ("short", "bob", 0),
    ]
    once = plan([SuiteCase(ann, (), 2)], [MODEL], experiments[:1], repeat=1)
    assert [(r.sample.id, r.repeat) for r in once] == [("ann", 0)]
    assert (MODEL.name, other.name) == ("openai:gpt-test", "anthropic:claude-test")


def test_a_run_key_changes_with_what_makes_the_run() -> None:
    run = CaseRun(Variant("baseline", None, MODEL), Sample("ann", {"x": 1}), (), 0)
    keys = {
        run.key("p1"),
        run.key("p2"),
        CaseRun(run.variant, Sample("ann", {"x": 2}), (), 0).key("p1"),
        CaseRun(run.variant, run.sample, (), 1).key("p1"),
        CaseRun(Variant("short", "short", MODEL), run.sample, (), 0).key("p1"),
    }
    assert (len(keys), run.key("p1") == run.key("p1")) == (5, True)


class _Closing(ProviderAdapter):
    def __init__(self, closed: list[str], label: str) -> None:
        self.closed = closed
        self.label = label

    def complete(self, request: ProviderRequest) -> ProviderReply:
        raise AssertionError("not asked")

    def close(self) -> None:
        self.closed.append(self.label)


def test_each_thread_has_its_own_adapter_per_model_and_all_are_closed() -> None:
    closed: list[str] = []
    made: list[str] = []

    def make(model: ModelSpec) -> ProviderAdapter:
        made.append(f"{threading.current_thread().name}:{model.name}")
        return _Closing(closed, made[-1])

    pool = AdapterPool(make)
    here = pool.adapter(MODEL)
    assert pool.adapter(MODEL) is here
    elsewhere: list[ProviderAdapter] = []
    thread = threading.Thread(target=lambda: elsewhere.append(pool.adapter(MODEL)), name="t2")
    thread.start()
    thread.join()
    assert elsewhere[0] is not here
    pool.close()
    pool.close()
    assert sorted(closed) == sorted(made)
    assert len(made) == 2


class _OwnAgent(_Closing):
    """An adapter running an agent loop of its own (as the Claude Agent SDK's)."""

    def evaluate(self, *args: object, **kwargs: object) -> PromptResponse:
        raise AssertionError("not run")


def test_a_judge_reaches_an_agent_of_its_own_without_the_cache() -> None:
    closed: list[str] = []
    pool = AdapterPool(lambda _model: _OwnAgent(closed, "agent"))
    assert isinstance(ModelAdapters(pool).recording(MODEL), _OwnAgent)


def test_a_judge_model_is_the_suites_own_of_that_name_else_as_written() -> None:
    mine = ModelSpec("openai", "judge", base_url="http://127.0.0.1:9/v1")
    assert [
        _judge_spec(None, [MODEL, mine]),
        _judge_spec("openai:judge", [MODEL, mine]),
        _judge_spec("anthropic:other", [MODEL]),
    ] == [MODEL, mine, ModelSpec("anthropic", "other")]


class _Shared(_Closing):
    """An adapter that may serve every thread at once."""

    thread_safe = True


def test_a_thread_safe_adapter_is_made_once_per_model_for_every_thread() -> None:
    closed: list[str] = []
    made: list[str] = []

    def make(model: ModelSpec) -> ProviderAdapter:
        made.append(f"{threading.current_thread().name}:{model.name}")
        return _Shared(closed, made[-1])

    pool = AdapterPool(make)
    here = pool.adapter(MODEL)
    elsewhere: list[ProviderAdapter] = []
    thread = threading.Thread(target=lambda: elsewhere.append(pool.adapter(MODEL)), name="t2")
    thread.start()
    thread.join()
    pool.close()
    assert (elsewhere, made, closed) == ([here], ["MainThread:openai:gpt-test"], made)


def test_threads_asking_at_once_for_a_thread_safe_adapter_share_one() -> None:
    closed: list[str] = []
    made: list[str] = []

    def make(model: ModelSpec) -> ProviderAdapter:
        time.sleep(0.05)  # as importing the SDK takes a while: the other threads ask meanwhile
        made.append(f"{threading.current_thread().name}:{model.name}")
        return _Shared(closed, made[-1])

    pool = AdapterPool(make)
    ready = threading.Barrier(4)
    got: list[ProviderAdapter] = []

    def ask() -> None:
        ready.wait(timeout=10)
        got.append(pool.adapter(MODEL))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    pool.close()
    assert (len(made), len(got), len({id(adapter) for adapter in got})) == (1, 4, 1)
    assert closed == made


def test_entries_sharing_a_folder_are_both_kept(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache")
    cache.put("ab" + "0" * 62, REPLY)
    cache.put("ab" + "1" * 62, ProviderReply("plain"))
    cache.close()
    assert (cache.get("ab" + "0" * 62), cache.get("ab" + "1" * 62)) == (
        REPLY,
        ProviderReply("plain"),
    )
    (pack,) = (tmp_path / "cache").iterdir()
    assert [json.loads(line)["key"] for line in pack.read_text().splitlines()] == [
        "ab" + "0" * 62,
        "ab" + "1" * 62,
    ]
