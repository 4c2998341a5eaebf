"""The Ray executor on a real Ray cluster of this machine: the report local runs give.

A head is started as on a real cluster (``ray start --head``), on 127.0.0.1 only; every run
connects to it and the cases go to its workers. The model is the loopback fake of the runner's
tests, answering by rule. The module is guarded against hanging: past
``HANG_SECONDS`` the process prints every thread's stack and exits.
"""
# pyright: reportPrivateUsage=false

from __future__ import annotations

import faulthandler
import importlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from chat_adapters import unused_port
from greet_prompt import write_greet
from provider_server import ProviderServer

from wink_decl.adapters.openai_chat import OpenAIAdapter
from wink_decl.cli import main
from wink_decl.compiler import CompiledPrompt
from wink_decl.errors import InputError
from wink_decl.evals._cache import ResponseCache
from wink_decl.evals._checks import Check, TextCheck
from wink_decl.evals._driver import Driven, DriverOptions, drive
from wink_decl.evals._eval_types import CaseResult, Sample
from wink_decl.evals._evaluate import score_case
from wink_decl.evals._execute import Finished, ModelAdapters, Scorer
from wink_decl.evals._matrix import CaseRun, plan
from wink_decl.evals._ray import (
    CacheReader,
    CaseWorker,
    WorkerSettings,
    import_ray,
    remote_lookup,
    run_on_ray,
)
from wink_decl.evals._run_suite import SuiteScorer
from wink_decl.evals._suite_types import BASELINE, Experiment, ModelSpec, SuiteCase
from wink_decl.evals._tagged_prompts import TaggedPrompts
from wink_decl.runtime.adapter import ProviderAdapter
from wink_decl.runtime.provider import ProviderReply, ProviderRequest

REPO = Path(__file__).resolve().parents[2]
SUITE = "evals/code-review.wink-eval.yaml"
RECORDED = str(REPO / "evals" / "recorded")
RAY: Any = import_ray()  # untyped: its stubs are partial
KEY = "sk-test-key-0123456789"
HANG_SECONDS = 300
BASELINE_ONLY = (Experiment(BASELINE),)
REFUSED = "The provider rejected the request (400): Eve is not allowed."

RAY.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import tests


def _wait_for(done: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "still waiting"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The address of a Ray head of this machine alone, started as ``ray start --head`` is."""
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True)
    temp = tempfile.mkdtemp(prefix="ray")  # short: Ray's socket paths must stay short
    ray_env = {  # no token to write in the home folder: the head lives as long as the tests
        "RAY_AUTH_MODE": "disabled",
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_TMPDIR": temp,
    }
    port = unused_port()
    command = [
        str(Path(sys.executable).with_name("ray")),
        "start",
        "--head",
        "--block",
        f"--port={port}",
        "--num-cpus=2",
        "--include-dashboard=false",
        "--disable-usage-stats",
        f"--temp-dir={temp}",
    ]
    loopback_only = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}  # every address is 127.0.0.1
    log = Path(temp) / "head.log"
    with log.open("w") as output:
        head = subprocess.Popen(  # our own interpreter's ray, fixed arguments
            command,
            env={**os.environ, **ray_env, **loopback_only},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=temp,  # its workers' working folder: not the tests' (files go by absolute paths)
        )
    try:
        _wait_for(lambda: "Ray runtime started" in log.read_text() or head.poll() is not None)
        assert head.poll() is None, log.read_text()
        with pytest.MonkeyPatch.context() as patch:
            for name, value in ray_env.items():
                patch.setenv(name, value)
            constants = importlib.import_module("ray._private.ray_constants")
            patch.setattr(constants, "ENABLE_RAY_CLUSTER", False)  # so is this process's
            yield f"127.0.0.1:{port}"
    finally:
        head.send_signal(signal.SIGTERM)  # `ray start --block` stops what it started
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:  # only if Ray fails to stop
            os.killpg(head.pid, signal.SIGKILL)  # its session: the processes it started
            head.wait()
        shutil.rmtree(temp, ignore_errors=True)
        faulthandler.cancel_dump_traceback_later()


@pytest.fixture
def short_temp() -> Iterator[str]:
    """A new folder with a short path: Ray's socket paths must stay short."""
    temp = tempfile.mkdtemp(prefix="ray")
    yield temp
    shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture
def prompts(tmp_path: Path) -> TaggedPrompts:
    """``greet``, and its tag ``loud`` that asks for a shout."""
    prompt = write_greet(tmp_path)
    return TaggedPrompts(
        str(prompt),
        root=str(prompt.parent),
        overrides=str(tmp_path / "overrides"),
        tags=(None, "loud"),
    )


def _plain(adapters: ModelAdapters) -> Scorer:
    """The built-in checks alone (no judge, no plugin evaluator)."""
    del adapters
    return score_case


def _make(choice: ModelSpec) -> ProviderAdapter:
    return OpenAIAdapter(choice.model, api_key=KEY, base_url=choice.base_url, max_retries=0)


def _runs(server: ProviderServer, names: tuple[str, ...]) -> list[CaseRun]:
    model = ModelSpec("openai", "gpt-test", base_url=f"{server.url}/v1")
    checks: tuple[Check, ...] = (
        TextCheck(kind="contains", value="Hello", label="contains: Hello"),
        TextCheck(kind="equals", label="equals: null"),
    )
    cases = [SuiteCase(Sample(n, {"name": n}, expected=f"Hello, {n}!"), checks) for n in names]
    return plan(cases, [model], [Experiment(BASELINE), Experiment("loud", tag="loud")])


def _drive(prompts: TaggedPrompts, runs: list[CaseRun], out: Path, **options: object) -> Driven:
    chosen = DriverOptions(out=out, concurrency=3, **options)  # type: ignore[arg-type]
    return drive(
        runs,
        prompts,
        {None: "d", "loud": "dl"},
        options=chosen,
        make_adapter=_make,
        score=SuiteScorer(".", ".", ()),  # its judge and evaluators made on each worker
    )


def _timeless(result: CaseResult) -> CaseResult:
    """``result`` without what only timing decides."""
    if result.outcome is None:
        return result
    outcome = result.outcome
    return CaseResult(
        result.case_id,
        result.experiment,
        result.model,
        result.repeat,
        result.passed,
        result.score,
        type(outcome)(
            outcome.text,
            outcome.output,
            outcome.tool_calls,
            outcome.input_tokens,
            outcome.output_tokens,
            outcome.turns,
            latency_ms=0.0,
        ),
        result.checks,
        result.error,
    )


def test_a_suite_on_ray_reports_what_it_reports_locally(
    cluster: str, prompts: TaggedPrompts, server: ProviderServer, tmp_path: Path
) -> None:
    runs = _runs(server, ("Ann", "Dee", "Eve", "Bob"))
    local = _drive(prompts, runs, tmp_path / "local", no_cache=True)
    on_ray = _drive(prompts, runs, tmp_path / "ray", executor="ray", ray_address=cluster)
    assert [_timeless(r) for r in on_ray.results] == [_timeless(r) for r in local.results]
    assert [(r.case_id, r.experiment, r.passed, r.score, r.error) for r in on_ray.results] == [
        ("Ann", "baseline", True, 1.0, None),
        ("Dee", "baseline", True, 1.0, None),
        (
            "Eve",
            "baseline",
            False,
            0.0,
            "The provider rejected the request (400): Eve is not allowed.",
        ),
        ("Bob", "baseline", True, 1.0, None),
        ("Ann", "loud", False, 0.0, None),
        ("Dee", "loud", False, 0.0, None),
        ("Eve", "loud", False, 0.0, REFUSED),
        ("Bob", "loud", False, 0.0, None),
    ]
    assert (on_ray.requests, on_ray.hits, RAY.is_initialized()) == (8, 0, False)
    journal = (tmp_path / "ray" / "results.jsonl").read_text().splitlines()
    assert len(journal) == len(runs)


def test_a_rerun_on_ray_is_answered_from_the_drivers_cache(
    cluster: str, prompts: TaggedPrompts, server: ProviderServer, tmp_path: Path
) -> None:
    runs = _runs(server, ("Ann", "Dee"))
    first = _drive(prompts, runs, tmp_path / "out", executor="ray", ray_address=cluster)
    asked = len(server.requests)
    again = _drive(prompts, runs, tmp_path / "out", executor="ray", ray_address=cluster)
    assert (asked, len(server.requests), again.requests, again.hits) == (6, 6, 0, 6)
    assert [_timeless(r) for r in again.results] == [_timeless(r) for r in first.results]


class _Fatal(ProviderAdapter):
    """Ends its worker's process when asked to greet a name in ``fatal``: once for each name
    (a file under ``marks`` notes it), or every time for a name in ``always``."""

    def __init__(self, inner: ProviderAdapter, marks: Path, always: tuple[str, ...]) -> None:
        self.inner = inner
        self.marks = marks
        self.always = always

    def complete(self, request: ProviderRequest) -> ProviderReply:
        found = re.search(r"Say hello to (\w+)\.", request.messages[0].content)
        assert found is not None
        name = found.group(1)
        mark = self.marks / name
        if name.startswith("Crash") and (name in self.always or not mark.exists()):
            mark.touch()
            os._exit(1)  # as a worker killed mid-case: no result, no clean-up
        return self.inner.complete(request)


def test_a_lost_worker_is_retried_and_the_suite_completes(
    cluster: str,
    prompts: TaggedPrompts,
    server: ProviderServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()

    def make(choice: ModelSpec) -> ProviderAdapter:
        return _Fatal(_make(choice), marks, always=("CrashAlways",))

    model = ModelSpec("openai", "gpt-test", base_url=f"{server.url}/v1")
    names = ("Ann", "CrashOnce", "Bob", "CrashAlways", "Cy")
    runs = plan([SuiteCase(Sample(n, {"name": n}), ()) for n in names], [model], BASELINE_ONLY)
    driven = drive(
        runs,
        prompts,
        {None: "d"},
        options=DriverOptions(
            out=tmp_path / "out", concurrency=2, executor="ray", ray_address=cluster
        ),
        make_adapter=make,
        score=_plain,
    )
    assert [(r.case_id, r.passed, r.error) for r in driven.results] == [
        ("Ann", True, None),
        ("CrashOnce", True, None),
        ("Bob", True, None),
        (
            "CrashAlways",
            False,
            "The worker running this case was lost 3 times; the Ray cluster's logs say why.",
        ),
        ("Cy", True, None),
    ]
    journal = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["case"] for line in journal) == sorted(names)
    asked = [
        re.findall(r"hello to (\w+)", r.json["messages"][0]["content"]) for r in server.requests
    ]
    assert sorted(asked) == [["Ann"], ["Bob"], ["CrashOnce"], ["Cy"]]
    assert capsys.readouterr().out == ""  # Ray's news of the lost workers go to stderr


def test_an_interruption_on_ray_keeps_the_runs_in_flight(
    cluster: str, prompts: TaggedPrompts, server: ProviderServer, tmp_path: Path
) -> None:
    kept: list[CaseResult] = []
    stopping: list[int] = []

    def interrupt_first(result: CaseResult) -> None:
        kept.append(result)
        if len(kept) == 1:
            raise KeyboardInterrupt

    model = ModelSpec("openai", "gpt-test", base_url=f"{server.url}/v1")
    cases = [SuiteCase(Sample(n, {"name": n}), ()) for n in ("Ann", "Bob", "Cy", "Dee")]
    runs = plan(cases, [model], BASELINE_ONLY)
    with pytest.raises(KeyboardInterrupt):
        drive(
            runs,
            prompts,
            {None: "d"},
            options=DriverOptions(
                out=tmp_path / "out",
                concurrency=2,
                no_cache=True,
                executor="ray",
                ray_address=cluster,
            ),
            make_adapter=_make,
            score=_plain,
            on_finished=interrupt_first,
            on_stopping=stopping.append,
        )
    journal = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert (stopping, len(kept), len(journal), len(server.requests)) == ([1], 2, 2, 2)
    assert (sorted(r.case_id for r in kept), RAY.is_initialized()) == (["Ann", "Bob"], False)


def test_without_an_address_a_local_cluster_runs_the_suite_and_stops(
    cluster: str,
    prompts: TaggedPrompts,
    server: ProviderServer,
    tmp_path: Path,
    short_temp: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    del cluster  # its settings (127.0.0.1, no token), not its head:
    monkeypatch.setenv("RAY_TMPDIR", short_temp)  # where no head is found
    runs = _runs(server, ("Ann",))
    driven = _drive(prompts, runs, tmp_path / "out", executor="ray")
    assert [(r.case_id, r.experiment, r.passed) for r in driven.results] == [
        ("Ann", "baseline", True),
        ("Ann", "loud", False),
    ]
    assert not RAY.is_initialized()


def test_a_connection_made_before_is_used_and_kept(
    cluster: str, prompts: TaggedPrompts, server: ProviderServer, tmp_path: Path
) -> None:
    RAY.init(address=cluster, log_to_driver=False)
    try:
        (run,) = _runs(server, ("Ann",))[:1]
        kept: list[Finished] = []
        made_of = WorkerSettings(prompts, _make, _plain)
        run_on_ray([run], made_of, address="127.0.0.1:1", concurrency=1, on_finished=kept.append)
        assert RAY.is_initialized()
        assert [(f.run is run, f.result.passed, len(f.recorded)) for f in kept] == [(True, True, 1)]
    finally:
        RAY.shutdown()


def test_a_workers_lookups_go_to_the_reader_of_the_drivers_cache(
    cluster: str, prompts: TaggedPrompts, server: ProviderServer, tmp_path: Path
) -> None:
    (run,) = _runs(server, ("Ann",))[:1]
    RAY.init(address=cluster, log_to_driver=False)
    try:
        settings = WorkerSettings(prompts, _make, _plain)
        empty = RAY.remote(CacheReader).options(name="empty").remote(str(tmp_path / "cache"))
        first = CaseWorker(settings, "empty").run(run)  # as on Ray
        RAY.kill(empty)
        (key, reply), *_ = first.recorded
        ResponseCache(tmp_path / "cache").put(key, reply)
        # A reader reads the folder once, when it is made (on Ray, once the driver compacted
        # it), then answers from memory.
        reader = RAY.remote(CacheReader).options(name="cache").remote(str(tmp_path / "cache"))
        again = CaseWorker(settings, "cache").run(run)
        lookup = remote_lookup(RAY, reader)
        found = lookup(key)
        RAY.kill(reader)
        _wait_for(lambda: lookup(key) is None)  # a reader out of reach misses (once it is gone)
    finally:
        RAY.shutdown()
    assert (first.hits, again.hits, again.recorded, len(server.requests)) == (0, 1, (), 1)
    assert found == reply
    assert CacheReader(str(tmp_path / "cache")).get(key) == reply


def test_settings_that_cannot_be_pickled_are_refused_before_a_cluster_starts(
    greet: CompiledPrompt, server: ProviderServer
) -> None:
    made_of = WorkerSettings({None: greet}, _make, _plain)
    with pytest.raises(TypeError) as raised:
        run_on_ray(
            _runs(server, ("Ann",)),
            made_of,
            address="127.0.0.1:1",
            concurrency=1,
            on_finished=lambda _finished: None,
        )
    assert (str(raised.value), RAY.is_initialized()) == (
        "The Ray executor sends the suite's settings to every worker, and they cannot be "
        "pickled (TypeError: cannot pickle 'PromptTemplate' object: compile its file where it "
        "is used): give the prompts as TaggedPrompts, and make_adapter and score as a "
        "module's functions or objects.",
        False,
    )


def test_nothing_to_run_connects_to_nothing(prompts: TaggedPrompts) -> None:
    made_of = WorkerSettings(prompts, _make, _plain)
    run_on_ray([], made_of, address="127.0.0.1:1", concurrency=1, on_finished=print)
    assert not RAY.is_initialized()


def test_choosing_ray_without_it_says_how_to_install_it(
    prompts: TaggedPrompts, server: ProviderServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as when it is not installed
    with pytest.raises(InputError) as raised:
        _drive(prompts, _runs(server, ("Ann",)), tmp_path / "out", executor="ray")
    assert (raised.value.message, raised.value.hint) == (
        "The Ray executor needs the 'ray' package, which cannot be imported (import of ray "
        "halted; None in sys.modules).",
        "pip install 'wink-decl[ray]'",
    )
    assert (tmp_path / "out" / "results.jsonl").read_text() == ""


_SUMMARY_ROW = re.compile(
    r"(?m)^(\S+ +\S+ +[\d.]+ +\d+ +\d+ +\d+ +[\d.]+ +)(\d+)( +)(\d+)( +\d+ +\d+)$"
)
"""A row of the eval table: its p50 and p95 latencies (groups 2 and 4) vary from run to run."""


def _latencies_masked(text: str) -> str:
    """``text`` with the eval table's latencies as ``~``, each column keeping its width."""

    def mask(row: re.Match[str]) -> str:
        p50, gap, p95 = row.group(2), row.group(3), row.group(4)
        return f"{row.group(1)}{'~'.rjust(len(p50))}{gap}{'~'.rjust(len(p95))}{row.group(5)}"

    return _SUMMARY_ROW.sub(mask, text)


def test_the_eval_command_on_ray_prints_what_it_prints_locally(
    cluster: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    local = main(["eval", SUITE, "--replay", RECORDED, "--out", "o"])
    local_out, local_err = capsys.readouterr()
    ray = ("--executor", "ray", "--ray-address", cluster)
    on_ray = main(["eval", SUITE, "--replay", RECORDED, "--out", "o", *ray])
    ray_out, ray_err = capsys.readouterr()
    assert (on_ray, _latencies_masked(ray_out), ray_err) == (
        local,
        _latencies_masked(local_out),
        local_err,
    )
    assert (local, ray_err) == (
        0,
        f"{SUITE}: 6 runs (0 from the journal), 0 model requests, 8 replies from the cache; "
        "kept in o\n",
    )
    assert ray_out.startswith(f"{SUITE}: 6 runs, 5 passed, 1 failed, 0 errors\n")
    journal = (project / "o" / "results.jsonl").read_text().splitlines()
    assert (len(journal), RAY.is_initialized()) == (6, False)


def test_the_eval_command_goes_to_the_cluster_ray_address_names(
    cluster: str, project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["eval", SUITE, "--replay", RECORDED, "--format", "json", "--filter", "add-*"]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    monkeypatch.setenv("RAY_ADDRESS", cluster)
    assert main([*argv, "--executor", "ray"]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert (_timeless_json(on_ray), len(on_ray["cases"])) == (_timeless_json(local), 2)


def _timeless_json(value: Any) -> Any:
    """A JSON report without what only timing decides (every ``latency`` field)."""
    if isinstance(value, dict):
        items = cast("dict[str, Any]", value)
        return {k: _timeless_json(v) for k, v in items.items() if "latency" not in k}
    if isinstance(value, list):
        return [_timeless_json(item) for item in value]  # pyright: ignore[reportUnknownVariableType]
    return value
