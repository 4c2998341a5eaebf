"""One case run: the prompt bound to the case's params, run against its model, then checked.

Whatever goes wrong in a run (a provider that refuses, a timeout, a plugin that raises) is the
case's error, recorded and counted apart from a failed check: it never stops the suite.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from wink_decl.diagnostics import DiagnosticError
from wink_decl.errors import PromptEvaluationError
from wink_decl.evals._eval_types import CaseResult, Outcome, Score, ToolCall
from wink_decl.evals._matrix import model_key
from wink_decl.evals._recording import RecordingAdapter, Tally, caches_requests
from wink_decl.prompt.serde import dump
from wink_decl.prompt.template import Prompt
from wink_decl.runtime.budget import Budget
from wink_decl.runtime.deadline import Deadline
from wink_decl.runtime.filesystem import InMemoryFilesystem
from wink_decl.runtime.loop import MainLoop
from wink_decl.runtime.redaction import redact
from wink_decl.runtime.session import ModelResponded, Session, ToolInvoked

if TYPE_CHECKING:
    from wink_decl.compiler import CompiledPrompt
    from wink_decl.evals._checks import Check
    from wink_decl.evals._eval_types import Sample
    from wink_decl.evals._matrix import CaseRun
    from wink_decl.evals._suite_types import ModelSpec
    from wink_decl.runtime.adapter import PromptResponse, ProviderAdapter
    from wink_decl.runtime.provider import ProviderReply

__all__ = [
    "RUN_TALLY",
    "AdapterPool",
    "Finished",
    "ModelAdapters",
    "RunSettings",
    "Scorer",
    "execute",
    "failed_result",
]

Scorer = Callable[
    ["tuple[Check, ...]", Outcome, "Sample"], "tuple[bool, float, tuple[tuple[str, Score], ...]]"
]
"""Checks a run's outcome: whether the case passed, its score, each check's score."""

AdapterFactory = Callable[["ModelSpec"], "ProviderAdapter"]

RUN_TALLY: ContextVar[Tally | None] = ContextVar("RUN_TALLY", default=None)
"""While a run's checks are scored: the run's tally, which a judge's requests count in."""


class AdapterPool:
    """One adapter per model and thread (an adapter serves one evaluation at a time).

    An adapter that is ``thread_safe`` is one per model, shared by every thread: building an
    SDK client can take tens of milliseconds, and sixteen threads would build sixteen.
    ``make`` builds one; every adapter made is closed by ``close``.
    """

    def __init__(self, make: AdapterFactory) -> None:
        """Make adapters with ``make`` as threads first need them."""
        self._make = make
        self._local = threading.local()
        self._made: list[ProviderAdapter] = []
        self._shared: dict[str, ProviderAdapter] = {}
        self._lock = threading.Lock()
        self._making = threading.Lock()

    def adapter(self, model: ModelSpec) -> ProviderAdapter:
        """This thread's adapter for ``model`` (every thread's, when it is thread-safe)."""
        key = json.dumps(model_key(model), sort_keys=True, default=repr)  # options: a mapping
        shared = self._shared.get(key)
        if shared is not None:
            return shared
        mine: dict[str, ProviderAdapter] | None = getattr(self._local, "adapters", None)
        if mine is None:
            mine = self._local.adapters = {}
        found = mine.get(key)
        if found is None:
            # One thread makes at a time: when the suite starts, every thread asks at once, and
            # each would otherwise make (and build an SDK client for) a thread-safe adapter.
            with self._making:
                shared = self._shared.get(key)
                if shared is not None:
                    return shared
                found = mine[key] = self._make(model)
                with self._lock:
                    self._made.append(found)
                    if found.thread_safe:
                        self._shared[key] = found
        return found

    def close(self) -> None:
        """Close every adapter made."""
        with self._lock:
            made, self._made = self._made, []
        for adapter in made:
            adapter.close()


@dataclass(frozen=True)
class ModelAdapters:
    """How the parts of a run reach a model: this thread's adapter, the cache before it.

    A judge asks its model through ``recording``: its replies are kept with the run's (they
    go to the cache and are replayed alike).
    """

    pool: AdapterPool
    lookup: Callable[[str], ProviderReply | None] | None = None

    def recording(self, model: ModelSpec, repeat: int = 0) -> ProviderAdapter:
        """``model``'s adapter for this thread, answering from the cache when it can."""
        inner = self.pool.adapter(model)
        if not caches_requests(inner):
            return inner
        return RecordingAdapter(
            inner,
            model=model_key(model),
            repeat=repeat,
            lookup=self.lookup,
            tally=RUN_TALLY.get(),
        )


@dataclass(frozen=True)
class RunSettings:
    """What every run of a suite shares: its prompts by tag, models, cache, limits, checker.

    ``prompts`` maps each tag (None: as written) to the compiled prompt with that tag
    applied; ``lookup`` answers requests from the response cache (None: ``--no-cache``);
    ``timeout`` bounds each run in seconds, ``max_turns`` its model turns.
    """

    prompts: Mapping[str | None, CompiledPrompt]
    adapters: AdapterPool
    score: Scorer
    lookup: Callable[[str], ProviderReply | None] | None = None
    timeout: float | None = None
    max_turns: int | None = None
    secrets: tuple[str, ...] = field(default=())
    """Credentials to take out of every error message a run records."""


@dataclass(frozen=True)
class Finished:
    """A run done: its result, and the replies it got from the model (for the cache)."""

    run: CaseRun
    result: CaseResult
    recorded: tuple[tuple[str, ProviderReply], ...] = ()
    hits: int = 0
    """Requests answered from the cache."""


def execute(run: CaseRun, settings: RunSettings) -> Finished:
    """Run ``run`` to its result; never raises for what the run itself does."""
    variant = run.variant
    recorder: RecordingAdapter | None = None
    started = time.perf_counter()
    try:
        compiled = settings.prompts[variant.tag]
        params = _params(compiled, run.sample.params)
        adapter = settings.adapters.adapter(variant.model)
        if caches_requests(adapter):
            recorder = RecordingAdapter(
                adapter,
                model=model_key(variant.model),
                repeat=run.repeat,
                lookup=settings.lookup,
            )
        session = Session()
        response = _evaluate(compiled, params, recorder or adapter, session, settings)
    except Exception as error:  # noqa: BLE001  # whatever a run meets is that run's error
        return _failed(run, recorder, _reason(error, settings.secrets))
    latency = (time.perf_counter() - started) * 1000
    outcome = _outcome(response, session, latency)
    # A judge's replies are kept with the run's (for the cache), and its hits counted alike.
    token = RUN_TALLY.set(Tally() if recorder is None else recorder.tally)
    try:
        passed, score, checks = settings.score(run.checks, outcome, run.sample)
    finally:
        RUN_TALLY.reset(token)
    result = CaseResult(
        run.sample.id,
        variant.experiment,
        variant.model.name,
        run.repeat,
        passed,
        score,
        outcome,
        checks,
    )
    return _finished(run, result, recorder)


def _params(compiled: CompiledPrompt, values: Mapping[str, object]) -> tuple[object, ...]:
    from wink_decl.compiler import make_params  # noqa: PLC0415  # the compiler's, on first run

    return make_params(compiled, values, missing_hint="give it in the case, or in defaults")


def _evaluate(
    compiled: CompiledPrompt,
    params: tuple[object, ...],
    adapter: ProviderAdapter,
    session: Session,
    settings: RunSettings,
) -> PromptResponse:
    prompt = Prompt(compiled.template, resources=[InMemoryFilesystem()]).bind(*params)
    deadline = None if settings.timeout is None else Deadline.after(settings.timeout)
    budget = Budget(max_turns=settings.max_turns)
    return MainLoop(adapter=adapter).execute(
        prompt, session=session, deadline=deadline, budget=budget
    )


def _outcome(response: PromptResponse, session: Session, latency_ms: float) -> Outcome:
    """What the run produced, from its answer and the session's events."""
    responded = session.query(ModelResponded)
    sent = {call.call_id: call for event in responded for call in event.tool_calls}
    calls: list[ToolCall] = []
    for invoked in session.query(ToolInvoked):
        call = sent.get(invoked.call_id)
        calls.append(
            ToolCall(
                invoked.tool_name,
                _arguments(None if call is None else call.decoded_arguments),
                invoked.result.success,
                invoked.rendered_output,
            )
        )
    output = None if response.output is None else dump(response.output)
    text = response.text if output is None else json.dumps(output, ensure_ascii=False)
    usage = response.usage
    return Outcome(
        text=text,
        output=output,
        tool_calls=tuple(calls),
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        turns=len(responded),
        latency_ms=round(latency_ms, 3),
    )


def _arguments(decode: Callable[[], object] | None) -> Mapping[str, object]:
    """The call's arguments as the model sent them; empty when they were not an object."""
    if decode is None:
        return {}
    try:
        value = decode()
    except ValueError:
        return {}
    return cast("dict[str, object]", value) if isinstance(value, dict) else {}


def _reason(error: Exception, secrets: tuple[str, ...]) -> str:
    if isinstance(error, DiagnosticError):
        message = "; ".join(d.message for d in error.diagnostics)
    elif isinstance(error, PromptEvaluationError):
        message = error.message
    else:
        message = f"{type(error).__name__}: {error}"
    return redact(message, secrets)


def _failed(run: CaseRun, recorder: RecordingAdapter | None, reason: str) -> Finished:
    return _finished(run, failed_result(run, reason), recorder)


def failed_result(run: CaseRun, reason: str) -> CaseResult:
    """``run``'s result when it could not be run to an answer: an error, not a failed check."""
    variant = run.variant
    return CaseResult(
        run.sample.id,
        variant.experiment,
        variant.model.name,
        run.repeat,
        passed=False,
        score=0.0,
        error=reason,
    )


def _finished(run: CaseRun, result: CaseResult, recorder: RecordingAdapter | None) -> Finished:
    if recorder is None:
        return Finished(run, result)
    tally = recorder.tally
    return Finished(run, result, tuple(tally.recorded), tally.hits)
