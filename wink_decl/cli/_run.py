"""``wink-decl run``: a prompt file against a real model, its tools executed, to an answer."""

from __future__ import annotations

import argparse
import json
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass

from wink_decl._nouns import noun_for
from wink_decl.adapters.adapter_support import redact
from wink_decl.adapters.providers import make_adapter
from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._inputs import add_render_options, prepared_from_args
from wink_decl.cli._model_option import model_from_text
from wink_decl.cli._prompt import report
from wink_decl.cli._run_log import showing_warnings
from wink_decl.cli._run_progress import Progress
from wink_decl.cli._secrets import secrets_from_environment
from wink_decl.cli._transcript import Transcript, usage_record
from wink_decl.cli._usage import UsageError
from wink_decl.errors import EvaluationPhase, PromptEvaluationError, ProviderError
from wink_decl.inputs import Prepared
from wink_decl.plugins import PluginCallError
from wink_decl.prompt.serde import dump
from wink_decl.prompt.template import Prompt
from wink_decl.runtime.adapter import PromptResponse, ProviderAdapter
from wink_decl.runtime.budget import Budget
from wink_decl.runtime.deadline import Deadline
from wink_decl.runtime.filesystem import (
    Filesystem,
    FilesystemError,
    HostFilesystem,
    InMemoryFilesystem,
    ReadOnlyFilesystem,
)
from wink_decl.runtime.loop import DEFAULT_MAX_TURNS, MainLoop
from wink_decl.runtime.provider import TokenUsage
from wink_decl.runtime.session import ModelResponded, Session, SetVisibilityOverride

__all__ = ["COMMAND", "add_workspace_options", "workspace_filesystem"]

_HINTS = {
    EvaluationPhase.DEADLINE: "allow more time with --timeout",
    EvaluationPhase.BUDGET: "allow more model turns with --max-turns",
    EvaluationPhase.LOOP: "allow more model turns with --max-turns",
}


_MAX_TIMEOUT = 7 * 24 * 60 * 60
"""The longest --timeout, in seconds: a week, far longer than a run, and far inside what the
wait for the run's thread (``threading.TIMEOUT_MAX``) and the clock (``time_t``) can hold."""


def _configure(parser: argparse.ArgumentParser) -> None:
    add_render_options(parser)
    parser.add_argument(
        "--model",
        required=True,
        metavar="PROVIDER:MODEL",
        help="the provider and the model, such as openai:gpt-4.1-mini, "
        "anthropic:claude-sonnet-4-5, litellm:openai/gpt-4.1-mini or "
        "claude-agent:claude-sonnet-4-5",
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="the provider's API address, for a compatible server (vLLM, llama.cpp, Ollama) "
        "(default: the provider's own, or OPENAI_BASE_URL / ANTHROPIC_BASE_URL)",
    )
    parser.add_argument("--transcript", metavar="PATH", help="write the run as JSON Lines to PATH")
    parser.add_argument(
        "--max-turns",
        type=_turns,
        metavar="N",
        help=f"stop after N model turns (without it, a conversation stops at {DEFAULT_MAX_TURNS})",
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        metavar="SECONDS",
        help="stop when the run has taken this long, at most "
        f"{_MAX_TIMEOUT} (a week); every provider call gets the time left",
    )
    add_workspace_options(parser)


def _turns(text: str) -> int:
    """``--max-turns``: a whole number of at least 1 (the run's turn guard rises to meet it)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"'{text}' must be more than 0")
    return value


def _seconds(text: str) -> float:
    """``--timeout``: a number of seconds above 0 and at most ``_MAX_TIMEOUT``.

    ``float`` reads ``inf`` and ``nan`` too: neither bounds a run, and both used to reach the
    thread wait, which raised.
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if math.isnan(value):
        raise argparse.ArgumentTypeError(f"'{text}' is not a number")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"'{text}' must be more than 0")
    if value > _MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"'{text}' must be at most {_MAX_TIMEOUT} (a week)")
    return value


def _run(args: argparse.Namespace, console: Console) -> int:
    provider, model = model_from_text(args.model, command="run")
    filesystem, host = workspace_filesystem(args.workspace, allow_writes=args.allow_writes)
    secrets = secrets_from_environment()
    verbose, progress = bool(args.verbose), console.interactive
    try:
        with showing_warnings(console.err, verbose=verbose, progress=progress, secrets=secrets):
            return _run_with(args, console, (provider, model), filesystem, secrets)
    finally:
        if host is not None:  # its root descriptor and journal file go now, not at exit
            host.close()


def _run_with(
    args: argparse.Namespace,
    console: Console,
    chosen: tuple[str, str],
    filesystem: Filesystem,
    secrets: tuple[str, ...],
) -> int:
    provider, model = chosen
    prepared = prepared_from_args(args, console, plugins="all")
    if prepared is None:
        return 1
    try:
        adapter = make_adapter(provider, model, base_url=args.base_url, workspace=args.workspace)
    except ProviderError as error:
        return _failed(console, error, secrets)
    with adapter:
        return _answer_or_fail(adapter, _Run(prepared, filesystem, args, secrets), console)


@dataclass(frozen=True)
class _Run:
    """What one run is made of, besides the adapter."""

    prepared: Prepared
    filesystem: Filesystem
    args: argparse.Namespace
    secrets: tuple[str, ...]


def _answer_or_fail(adapter: ProviderAdapter, run: _Run, console: Console) -> int:
    session = Session()
    transcript = _transcript(run.args.transcript, run.secrets)
    listeners = [] if transcript is None else [transcript.listen]
    if console.interactive:
        listeners.append(Progress(console.err, run.secrets).listen)
    unsubscribe = [session.subscribe(listener) for listener in listeners]
    try:
        response = _within(run.args.timeout, lambda: _evaluate(adapter, run, session))
    except PromptEvaluationError as error:
        for stop in unsubscribe:  # a run abandoned at its timeout may still be talking
            stop()
        _close(transcript, session, _error_record(error))
        return _failed(console, error, run.secrets)
    except PluginCallError as error:  # a predicate raised: the plugin is at fault, not the run
        _close(transcript, session, {"event": "error", "kind": "plugin", "message": error.message})
        prepared = run.prepared
        report(console, [error.to_diagnostic(path=prepared.source)], prepared.result.sources)
        return 1
    _close(transcript, session, _answer_record(response))
    console.out.write(_answer(response) + "\n")
    return 0


_GRACE = 1.0
"""Seconds a run may take past --timeout to stop by itself (a provider call times out at the
deadline, but an SDK may retry it) before the command stops waiting for it."""


def _within(seconds: float | None, work: Callable[[], PromptResponse]) -> PromptResponse:
    """``work()``, given up on when it outlives ``seconds``: --timeout is a hard limit.

    The run goes on in a daemon thread nobody waits for; the command ends, and with it the
    process. Without a timeout, the work runs here.
    """
    if seconds is None:
        return work()
    outcome: list[PromptResponse | BaseException] = []

    def target() -> None:
        try:
            outcome.append(work())
        except BaseException as error:  # noqa: BLE001  # handed to the waiting thread as it is
            outcome.append(error)

    worker = threading.Thread(target=target, name="wink-decl run", daemon=True)
    worker.start()
    worker.join(seconds + _GRACE)
    if not outcome:
        raise PromptEvaluationError(
            f"The run did not finish within --timeout {seconds:g} {noun_for(seconds, 'second')}; "
            "it was stopped.",
            phase=EvaluationPhase.DEADLINE,
        )
    result = outcome[0]
    if isinstance(result, BaseException):
        raise result
    return result


def add_workspace_options(parser: argparse.ArgumentParser) -> None:
    """``--workspace`` and ``--allow-writes``: where file tools work, for ``run`` and ``mcp``."""
    parser.add_argument(
        "--workspace",
        metavar="DIR",
        help="the folder file tools work in, read-only unless --allow-writes "
        "(default: an empty folder in memory)",
    )
    parser.add_argument(
        "--allow-writes",
        action="store_true",
        help="let tools create, change and delete files in --workspace",
    )


def workspace_filesystem(
    workspace: str | None, *, allow_writes: bool, command: str = "run"
) -> tuple[Filesystem, HostFilesystem | None]:
    """What file tools work on, and the host filesystem to close afterwards (if any).

    ``--workspace`` read-only unless ``--allow-writes``; without it, an empty folder in memory.
    """
    if workspace is None:
        if allow_writes:
            raise UsageError(
                "--allow-writes needs --workspace",
                hint="name the folder tools may change with --workspace DIR",
                command=command,
            )
        return InMemoryFilesystem(), None
    try:
        host = HostFilesystem(workspace)
    except FilesystemError as error:
        raise UsageError(f"--workspace {workspace}: {error.message}", command=command) from None
    return (host if allow_writes else ReadOnlyFilesystem(host)), host


def _transcript(path: str | None, secrets: tuple[str, ...]) -> Transcript | None:
    if path is None:
        return None
    try:
        return Transcript(path, secrets)
    except OSError as error:
        raise UsageError(
            f"--transcript {path}: cannot write there ({error.strerror})", command="run"
        ) from None


def _close(transcript: Transcript | None, session: Session, record: dict[str, object]) -> None:
    """End the transcript with the answer (or the error) and the run's token totals."""
    if transcript is None:
        return
    total = sum(
        (event.usage for event in session.query(ModelResponded) if event.usage is not None),
        TokenUsage(),
    )
    transcript.write([record, {"event": "usage", **usage_record(total)}])
    transcript.close()


def _answer_record(response: PromptResponse) -> dict[str, object]:
    output = None if response.output is None else dump(response.output)
    return {"event": "answer", "text": response.text, "output": output}


def _error_record(error: PromptEvaluationError) -> dict[str, object]:
    kind = error.kind if isinstance(error, ProviderError) else error.phase
    return {"event": "error", "kind": kind, "message": error.message}


def _evaluate(adapter: ProviderAdapter, run: _Run, session: Session) -> PromptResponse:
    prepared, args = run.prepared, run.args
    template = prepared.template
    prompt = Prompt(template, resources=[run.filesystem]).bind(*prepared.params)
    for path, visibility in prepared.visibility.items():  # --open: as if read before the run
        session.dispatch(SetVisibilityOverride(path, visibility))
    deadline = None if args.timeout is None else Deadline.after(args.timeout)
    budget = Budget(max_turns=args.max_turns)
    return MainLoop(adapter=adapter).execute(
        prompt, session=session, deadline=deadline, budget=budget
    )


def _answer(response: PromptResponse) -> str:
    if response.output is None:
        return response.text
    return json.dumps(dump(response.output), ensure_ascii=False)


def _failed(console: Console, error: PromptEvaluationError, secrets: tuple[str, ...]) -> int:
    hint = error.hint if isinstance(error, ProviderError) else _HINTS.get(error.phase)
    lines = [f"wink-decl: error: {redact(error.message, secrets)}"]
    if hint:
        lines.append(f"  hint: {redact(hint, secrets)}")
    console.err.write("\n".join(lines) + "\n")
    return 1


COMMAND = implemented("run", configure=_configure, run=_run)
