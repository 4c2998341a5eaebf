"""The runner under a hostile provider and a hostile user: 429 storms, hangs, kill -9, Ctrl-C.

Each test drives the real ``openai`` SDK (its own retries) against a server on 127.0.0.1, and
the ones about the command run ``wink-decl eval`` as a process of its own.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from queue import SimpleQueue
from typing import Any, ClassVar, cast

import pytest
from concurrency import run_threads
from openai_replies import completion
from provider_server import ProviderServer, RecordedRequest, Reply

from wink_decl.evals import RunOptions, load_suite, run_suite
from wink_decl.evals._cache import ResponseCache
from wink_decl.evals._local import run_locally
from wink_decl.evals._ray import _drive_pool  # pyright: ignore[reportPrivateUsage]

KEY = "sk-test-key-0123456789"
RESUME_KEY = "sk-test-key-resumed-9876"
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")
GREET = """\
key: greet
params:
  name: {type: string}
sections:
  - key: task
    title: Task
    template: Say hello to ${name}.
"""
LIMIT = 60
"""Seconds any command here may take before the test fails instead of hanging."""


def _who(request: RecordedRequest) -> str:
    found = re.search(r"Say hello to (\w+)\.", request.json["messages"][0]["content"])
    assert found is not None
    return found.group(1)


def _greeting(request: RecordedRequest, delay: float = 0.0) -> Reply:
    return Reply(json=completion(f"Hello, {_who(request)}!", usage=(20, 3)), delay=delay)


def _suite_folder(folder: Path, url: str, names: tuple[str, ...] = NAMES) -> Path:
    """An eval file of one case per name, greeting that name, its model at ``url``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "greet.wink.yaml").write_text(GREET)
    cases = "".join(f"  - id: {name}\n    params: {{name: {name}}}\n" for name in names)
    (folder / "greet.wink-eval.yaml").write_text(
        "prompt: greet.wink.yaml\n"
        f"models:\n  - model: openai:gpt-test\n    base_url: {url}/v1\n"
        "defaults:\n  assert:\n    - contains: Hello\n"
        f"cases:\n{cases}"
        "threshold: 1.0\n"
    )
    return folder / "greet.wink-eval.yaml"


@pytest.fixture
def with_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def _outcomes(eval_file: Path, out: Path, concurrency: int) -> list[tuple[str, bool, str | None]]:
    suite = load_suite(eval_file, root=eval_file.parent)
    done = run_suite(suite, RunOptions(out=out, concurrency=concurrency))
    return [(r.case_id, r.passed, r.error) for r in done.report.results]


def test_a_429_storm_is_waited_out_with_the_sdks_retries(tmp_path: Path, with_key: None) -> None:
    asked: Counter[str] = Counter()

    def storm(request: RecordedRequest) -> Reply:
        who = _who(request)
        asked[who] += 1
        if asked[who] <= 2:  # the SDK retries twice by default, as long as it is told to wait
            return Reply(status=429, json={"error": {"message": "slow down"}}, headers=_WAIT)
        return _greeting(request)

    with ProviderServer(responder=storm) as server:
        eval_file = _suite_folder(tmp_path / "s", server.url, NAMES[:4])
        outcomes = _outcomes(eval_file, tmp_path / "out", concurrency=4)
    assert outcomes == [(name, True, None) for name in NAMES[:4]]
    assert asked == dict.fromkeys(NAMES[:4], 3)


_WAIT = {"retry-after-ms": "1"}
"""What the server says to a client it turns away: come back in a millisecond."""


def test_a_429_storm_that_never_ends_is_each_cases_error(tmp_path: Path, with_key: None) -> None:
    def refuse(_request: RecordedRequest) -> Reply:
        return Reply(status=429, json={"error": {"message": "slow down"}}, headers=_WAIT)

    with ProviderServer(responder=refuse) as server:
        eval_file = _suite_folder(tmp_path / "s", server.url, NAMES[:3])
        outcomes = _outcomes(eval_file, tmp_path / "out", concurrency=2)
        asked = len(server.requests)
    refused = "The provider's rate limit was reached (429) after 3 attempts: slow down."
    assert outcomes == [(name, False, refused) for name in NAMES[:3]]
    assert asked == 9  # each case: its request and the SDK's two retries


def test_a_run_in_the_journal_has_its_replies_in_the_cache(
    tmp_path: Path, with_key: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(_cache: ResponseCache, _key: str, _reply: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ResponseCache, "put", disk_full)
    with ProviderServer(responder=_greeting) as server:
        eval_file = _suite_folder(tmp_path / "s", server.url, NAMES[:1])
        with pytest.raises(OSError, match="No space left on device"):
            _outcomes(eval_file, tmp_path / "out", concurrency=1)
    assert (tmp_path / "out" / "results.jsonl").read_text() == ""


def _command(eval_file: Path, *options: str) -> list[str]:
    return [sys.executable, "-m", "wink_decl", "eval", eval_file.name, "--out", "out", *options]


def _environment(key: str = KEY) -> dict[str, str]:
    return {**os.environ, "OPENAI_API_KEY": key}


def _run(eval_file: Path, *options: str, key: str = KEY) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        _command(eval_file, *options),
        cwd=eval_file.parent,
        env=_environment(key),
        capture_output=True,
        text=True,
        timeout=LIMIT,
        check=False,
    )


def test_a_provider_that_hangs_costs_only_that_cases_timeout(tmp_path: Path) -> None:
    def hang_for_bob(request: RecordedRequest) -> Reply:
        return _greeting(request, delay=LIMIT if _who(request) == "Bob" else 0.0)

    with ProviderServer(responder=hang_for_bob) as server:
        eval_file = _suite_folder(tmp_path / "s", server.url, NAMES[:4])
        started = time.monotonic()
        done = _run(eval_file, "--timeout", "1", "--concurrency", "2", "--format", "json")
        took = time.monotonic() - started
        asked = Counter(_who(request) for request in server.requests)
    report = json.loads(done.stdout)
    errors = {case["case"]: case["error"] for case in report["cases"]}
    # An error is counted apart from a failure: the others' pass rate meets the threshold.
    assert (done.returncode, took < LIMIT / 4, report["ok"]) == (0, True, True)
    # The SDK retries a request that timed out twice, each time given the time that was left.
    assert asked == {"Ann": 1, "Bob": 3, "Cy": 1, "Dee": 1}
    assert [(case["case"], case["passed"]) for case in report["cases"]] == [
        ("Ann", True),
        ("Bob", False),
        ("Cy", True),
        ("Dee", True),
    ]
    assert (errors["Ann"], errors["Cy"], errors["Dee"]) == (None, None, None)
    assert re.fullmatch(
        r"The request timed out after 3 attempts \(0\.\d+ seconds each\)\.", errors["Bob"]
    )


def _journal(eval_file: Path) -> list[str]:
    """The case of every whole line of the journal, in order."""
    path = eval_file.parent / "out" / "results.jsonl"
    if not path.exists():
        return []
    lines = path.read_text().split("\n")[:-1]  # a line cut short by a kill is not whole
    return [json.loads(line)["case"] for line in lines]


def _started(eval_file: Path, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        _command(eval_file, *options),
        cwd=eval_file.parent,
        env=_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@contextmanager
def _ended(process: subprocess.Popen[str]) -> Iterator[None]:
    """Kill ``process`` if it is still running when the block is left (a failed test)."""
    try:
        yield
    finally:
        if process.poll() is None:
            process.kill()


def _when(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + LIMIT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"not true within {LIMIT} s")
        time.sleep(0.01)


@pytest.fixture
def slow_server() -> Iterator[ProviderServer]:
    """Answers every greeting after 0.5 s: ten cases two at a time take about 2.5 s."""
    with ProviderServer(responder=lambda request: _greeting(request, delay=0.5)) as server:
        yield server


def _asked_with(server: ProviderServer, key: str) -> list[str]:
    """The names greeted in the requests that ``key`` signed, sorted."""
    mine = (r for r in server.requests if r.headers.get("authorization") == f"Bearer {key}")
    return sorted(map(_who, mine))


def _cached(eval_file: Path) -> list[str]:
    """The names greeted by the whole lines of the response cache's packs, sorted."""
    names: list[str] = []
    for pack in (eval_file.parent / "out" / "cache").glob("replies-*.jsonl"):
        for line in pack.read_text().split("\n")[:-1]:  # a line cut short is never read
            found = re.search(r"Hello, (\w+)!", json.dumps(json.loads(line)["reply"]))
            assert found is not None
            names.append(found.group(1))
    return sorted(names)


def _resumed(eval_file: Path, server: ProviderServer, kept: list[str], replied: list[str]) -> None:
    """``--resume`` runs what the journal lacks and nothing else; a re-run asks nothing.

    ``replied``: the runs not in the journal whose replies are in the cache (a kill between
    the two writes); the resume takes their replies from the cache instead of asking again.

    Both sign with a key of their own: a request of a killed process may reach the server's
    record after the resume has started, and is not the resume's.
    """
    done = _run(eval_file, "--resume", "--concurrency", "2", key=RESUME_KEY)
    asks = 10 - len(kept) - len(replied)
    assert (done.returncode, done.stderr) == (
        0,
        f"greet.wink-eval.yaml: 10 runs ({len(kept)} from the journal), {asks} model "
        f"request{'s' * (asks != 1)}, {len(replied)} repl{'y' if len(replied) == 1 else 'ies'} "
        "from the cache; kept in out\n",
    )
    lacking = sorted(name for name in NAMES if name not in kept and name not in replied)
    assert _asked_with(server, RESUME_KEY) == lacking
    journal = _journal(eval_file)
    assert (journal[: len(kept)], sorted(journal)) == (kept, sorted(NAMES))
    again = _run(eval_file, "--concurrency", "2", key=RESUME_KEY)
    assert (again.returncode, again.stderr, _asked_with(server, RESUME_KEY)) == (
        0,
        "greet.wink-eval.yaml: 10 runs (0 from the journal), 0 model requests, 10 replies from "
        "the cache; kept in out\n",
        lacking,
    )


def test_a_kill_9_loses_only_the_runs_in_flight(
    tmp_path: Path, slow_server: ProviderServer
) -> None:
    eval_file = _suite_folder(tmp_path / "s", slow_server.url)
    with _started(eval_file, "--concurrency", "2") as process, _ended(process):
        _when(lambda: len(_journal(eval_file)) >= 3)
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=LIMIT)
    kept = _journal(eval_file)
    # The keeper writes a run's replies, then its journal line, one run at a time: a kill
    # between the two leaves at most one run whose replies are kept but not its line.
    replied = sorted(set(_cached(eval_file)) - set(kept))
    assert (process.returncode, 3 <= len(kept) < 10, len(replied) <= 1) == (
        -signal.SIGKILL,
        True,
        True,
    )
    assert sorted(set(kept) | set(replied)) == _cached(eval_file)  # each kept run's replies
    _resumed(eval_file, slow_server, kept, replied)


@pytest.mark.usefixtures("interruptible")
def test_ctrl_c_keeps_the_runs_in_flight_and_resume_runs_the_rest(
    tmp_path: Path, slow_server: ProviderServer
) -> None:
    eval_file = _suite_folder(tmp_path / "s", slow_server.url)
    with _started(eval_file, "--concurrency", "2") as process, _ended(process):
        _when(lambda: len(_journal(eval_file)) >= 3)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=LIMIT)
    kept = _journal(eval_file)
    stopping = re.fullmatch(
        r"wink-decl: stopping: waiting for ([0-2]) runs? in flight to finish \(Ctrl-C again to "
        r"leave them\)\n"
        r"wink-decl: interrupted: (\d+) runs kept in out/results.jsonl\n"
        r"  hint: run the same command with --resume to go on\n",
        err,
    )
    assert (process.returncode, out, stopping is not None) == (130, "", True)
    assert stopping is not None
    assert int(stopping.group(2)) == len(kept) < 10
    assert len(slow_server.requests) == len(kept)  # every run started was finished and kept
    assert _cached(eval_file) == sorted(kept)
    _resumed(eval_file, slow_server, kept, [])


class _InterruptedOnce(SimpleQueue[Any]):
    """A queue whose first taking is followed by Ctrl-C (it lands just after, as it may)."""

    taken: ClassVar[list[object]] = []

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        item = super().get(block, timeout)
        if not self.taken:
            self.taken.append(item)
            raise KeyboardInterrupt
        return item


def _as_finished(run: object, _settings: object) -> object:
    return run


def _three_runs_two_at_a_time(
    on_finished: Callable[[Any], None], on_stopping: Callable[[int], None]
) -> None:
    """``run_locally`` over the runs "a", "b", "c", two at a time (each finished as started)."""
    run_locally(
        cast("list[Any]", ["a", "b", "c"]),
        cast("Any", None),
        concurrency=2,
        on_finished=on_finished,
        on_stopping=on_stopping,
    )


def test_ctrl_c_just_after_a_run_was_taken_loses_no_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_InterruptedOnce, "taken", [])
    monkeypatch.setattr("wink_decl.evals._local.SimpleQueue", _InterruptedOnce)
    monkeypatch.setattr("wink_decl.evals._local.execute", _as_finished)
    kept: list[object] = []
    stopping: list[int] = []

    def interrupted(_index: int) -> None:
        with pytest.raises(KeyboardInterrupt):
            _three_runs_two_at_a_time(kept.append, stopping.append)

    run_threads(interrupted, threads=1, timeout=10, switch_interval=None)
    assert (stopping, sorted(cast("list[str]", kept))) == ([2], ["a", "b"])


class _InterruptedKeeper:
    """Keeps runs; Ctrl-C lands while it keeps the first (between its cache write and its
    journal line)."""

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.stopping: list[int] = []

    def keep(self, run: object) -> None:
        if not self.kept:
            os.kill(os.getpid(), signal.SIGINT)
        self.kept.append(cast("str", run))

    def outcome(self) -> tuple[list[int], list[str]]:
        return self.stopping, sorted(self.kept)


KEPT_WHOLE = ([1], ["a", "b"])
"""The first run kept whole and the second, in flight, after it; the third never started."""


@pytest.mark.usefixtures("interruptible")
def test_ctrl_c_while_a_run_is_kept_is_raised_once_it_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("wink_decl.evals._local.execute", _as_finished)
    keeper = _InterruptedKeeper()
    with pytest.raises(KeyboardInterrupt):
        _three_runs_two_at_a_time(keeper.keep, keeper.stopping.append)
    assert keeper.outcome() == KEPT_WHOLE


class _RunsInOrder:
    """Ray's pool as the driver sees it: each run is finished, in the order it was started."""

    def __init__(self) -> None:
        self.in_flight: dict[str, str] = {}

    def start(self, run: str) -> None:
        self.in_flight[run] = run

    def next_ready(self) -> str:
        return next(iter(self.in_flight))

    def take(self, reference: str) -> str:
        return self.in_flight.pop(reference)


@pytest.mark.usefixtures("interruptible")
def test_ctrl_c_while_a_run_from_ray_is_kept_is_raised_once_it_is_kept() -> None:
    keeper = _InterruptedKeeper()
    with pytest.raises(KeyboardInterrupt):
        _drive_pool(
            cast("Any", _RunsInOrder()),
            cast("list[Any]", ["a", "b", "c"]),
            2,
            keeper.keep,
            keeper.stopping.append,
        )
    assert keeper.outcome() == KEPT_WHOLE
