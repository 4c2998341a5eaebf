"""Evaluations: the runner's own cost, its wall time at a model's latency, a cached re-run, a peer.

Every figure is measured against a fake OpenAI-compatible provider on 127.0.0.1
(``_loopback_provider``, served by a child process: its threads neither take this process's
interpreter lock nor count in its CPU time), through the real OpenAI SDK, on a suite of
one-turn cases that each check the answer (``contains``):

- **runner cost**: ``--cases`` cases at zero latency through ``run_suite`` (one at a time,
  journal and response cache written) next to the same cases through the adapter alone in a
  loop (the prompt bound to the case's params, ``adapter.evaluate``): the difference per case
  is what the runner adds (target: at most 0.5 ms);
- **latency**: ``--many`` cases at ``--latency`` ms a request, ``--concurrency`` at a time,
  through ``run_suite`` and through the whole ``wink-decl eval`` command, against the ideal
  ``many / concurrency x latency`` (target: within 1.15x);
- **cached re-run**: the same command again over the same results folder: every reply from
  the response cache, no request (target: under 1 s for the whole command);
- **inspect-ai** (``pip install 'wink-decl[bench]'``): its ``inspect eval`` command running
  the same cases against the same fake at the same concurrency, beside ours (target: we are at
  least as fast). Without it installed, that line says so.

Prints the figures; asserts nothing about time (the machine may be busy).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _fixtures import best_of_rounds, child_environment, run_child  # after the path is set
from _loopback_provider import ANSWER, ProviderProcess

from wink_decl.evals import RunOptions, Suite, load_suite, run_suite

KEY = "sk-bench-0123456789"
MODEL = "gpt-bench"
RUNNER_TARGET_MS = 0.5
LATENCY_TARGET = 1.15
CACHED_TARGET_S = 1.0

PROMPT = """\
key: greet
params:
  name: {type: string}
sections:
  - key: task
    title: Task
    template: Say hello to ${name} and say whether the change looks right.
"""

INSPECT_TASK = """\
import json
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import includes
from inspect_ai.solver import generate

CASES = Path(__file__).with_name("cases.jsonl")


@task
def greet():
    samples = [
        Sample(id=case["id"], input=PROMPT.format(**case["params"]), target="Hello")
        for case in map(json.loads, CASES.read_text().splitlines())
    ]
    return Task(dataset=samples, solver=generate(), scorer=includes())


PROMPT = "## 1. Task (task)\\n\\nSay hello to {name} and say whether the change looks right."
"""
"""The same cases as an inspect-ai task: the prompt's text, one generation, one check."""


@dataclass(frozen=True)
class Folder:
    """A suite of ``cases`` one-turn cases written under ``path``, its model at ``url``."""

    path: Path
    cases: int

    @property
    def eval_file(self) -> Path:
        """The suite's eval file."""
        return self.path / "greet.wink-eval.yaml"


def write_suite(path: Path, cases: int, url: str) -> Folder:
    """A prompt, an eval file and its JSONL dataset of ``cases`` cases, under ``path``."""
    path.mkdir(parents=True, exist_ok=True)
    (path / "greet.wink.yaml").write_text(PROMPT, encoding="utf-8")
    lines = (
        json.dumps({"id": f"case-{i:05d}", "params": {"name": f"person {i}"}}) for i in range(cases)
    )
    (path / "cases.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (path / "greet.wink-eval.yaml").write_text(
        "prompt: greet.wink.yaml\n"
        f"models:\n  - model: openai:{MODEL}\n    base_url: {url}\n"
        "defaults:\n  assert:\n    - contains: Hello\n"
        "dataset: cases.jsonl\n"
        "threshold: 1.0\n",
        encoding="utf-8",
    )
    return Folder(path, cases)


def suite_of(folder: Folder) -> Suite:
    """The folder's suite, loaded as ``wink-decl eval`` loads it."""
    return load_suite(folder.eval_file, root=folder.path)


def timed_run_suite(
    suite: Suite, out: Path, concurrency: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Seconds (by ``clock``) ``run_suite`` takes over every case, into a fresh ``out``."""
    shutil.rmtree(out, ignore_errors=True)
    start = clock()
    done = run_suite(suite, RunOptions(out=out, concurrency=concurrency))
    elapsed = clock() - start
    if done.report.pass_rate != 1.0:
        raise SystemExit(f"run_suite: not every case passed (pass rate {done.report.pass_rate})")
    return elapsed


def timed_adapter_loop(suite: Suite, url: str) -> float:
    """CPU seconds the adapter alone takes over the same cases, one after another."""
    from wink_decl.adapters.openai_chat import OpenAIAdapter  # noqa: PLC0415  # optional extra
    from wink_decl.compiler import compile_file, make_params  # noqa: PLC0415
    from wink_decl.prompt.template import Prompt  # noqa: PLC0415
    from wink_decl.runtime.session import Session  # noqa: PLC0415

    compiled = compile_file(suite.prompt_path, root=suite.root).prompt
    if compiled is None:
        raise SystemExit("the benchmark's prompt does not compile")
    adapter = OpenAIAdapter(MODEL, api_key=KEY, base_url=url)
    start = time.process_time()
    for case in suite.cases:
        params = make_params(compiled, case.sample.params)
        prompt = Prompt(compiled.template).bind(*params)
        response = adapter.evaluate(prompt, session=Session())
        if ANSWER not in (response.text or ""):
            raise SystemExit(f"the adapter's answer was {response.text!r}")
    elapsed = time.process_time() - start
    adapter.close()
    return elapsed


def runner_cost(work: Path, cases: int, rounds: int) -> tuple[float, float]:
    """CPU milliseconds per case: through ``run_suite`` and through the adapter alone.

    The CPU time of this process, which is the client's alone (the fake provider is a child
    process): on a busy machine, wall-clock time also counts the time other processes held
    the cores. The adapter alone does what every case needs and the runner does not add (the
    prompt bound to the params, the SDK's request and response, the answer read back), so the
    difference is what the runner adds: threads, the cache's key and entry, checks, journal.
    """
    with ProviderProcess() as provider:
        suite = suite_of(write_suite(work / "runner", cases, provider.url))
        out = work / "runner-out"
        timed_run_suite(suite, out, 1)  # warm: imports, the SDK's first client
        suite_s, loop_s = best_of_rounds(
            [
                lambda: timed_run_suite(suite, out, 1, time.process_time),
                lambda: timed_adapter_loop(suite, provider.url),
            ],
            rounds,
        )
    return suite_s / cases * 1000, loop_s / cases * 1000


@dataclass(frozen=True)
class Timing:
    """What a fresh process took: seconds by the clock, and on the cores (user and system)."""

    wall: float
    cpu: float


def timed_child(command: list[str], env: dict[str, str], cwd: Path, *, name: str) -> Timing:
    """How long a fresh process took; one that fails stops the benchmark."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    _, elapsed = run_child(command, env, cwd, name=name)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Timing(elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))


@dataclass(frozen=True)
class Latency:
    """The many cases at the provider's latency, their cached re-run, and the peer's run."""

    run_suite: float
    command: Timing
    cached: Timing
    requests_cached: int
    inspect: Timing | None


def eval_command(folder: Folder, out: Path, concurrency: int, env: dict[str, str]) -> Timing:
    """How long the whole ``wink-decl eval`` command takes (a fresh process)."""
    command = [sys.executable, "-m", "wink_decl", "eval", folder.eval_file.name]
    options = ["--concurrency", str(concurrency), "--out", str(out), "--format", "json"]
    return timed_child([*command, *options], env, folder.path, name="wink-decl eval")


def inspect_command(folder: Folder, url: str, concurrency: int, env: dict[str, str]) -> Timing:
    """How long ``inspect eval`` takes over the same cases (a fresh process)."""
    (folder.path / "greet_task.py").write_text(INSPECT_TASK, encoding="utf-8")
    logs = folder.path / "inspect-logs"
    shutil.rmtree(logs, ignore_errors=True)
    command = [
        *(sys.executable, "-m", "inspect_ai", "eval", "greet_task.py"),
        *("--model", f"openai-api/loopback/{MODEL}"),
        *("--max-connections", str(concurrency), "--max-samples", str(concurrency)),
        *("--log-dir", str(logs), "--display", "none", "--max-retries", "0"),
    ]
    inspect_env = env | {"LOOPBACK_API_KEY": KEY, "LOOPBACK_BASE_URL": url}
    return timed_child(command, inspect_env, folder.path, name="inspect eval")


def latency_figures(
    work: Path, cases: int, latency_ms: float, concurrency: int, *, peer: bool
) -> Latency:
    """The many cases at the provider's latency: ours in-process and as commands, the peer's.

    ``peer``: run inspect-ai too, when it is installed.
    """
    env = child_environment(str(work / "pycache")) | {"OPENAI_API_KEY": KEY}
    peer = peer and importlib.util.find_spec("inspect_ai") is not None
    with ProviderProcess(latency_ms / 1000) as provider:
        folder = write_suite(work / "latency", cases, provider.url)
        in_process = timed_run_suite(suite_of(folder), work / "latency-in", concurrency)
        # Untimed, a few cases first: each command then finds its bytecode, as installed.
        warm = write_suite(work / "warm", concurrency, provider.url)
        eval_command(warm, work / "warm-out", concurrency, env)
        if peer:
            inspect_command(warm, provider.url, concurrency, env)
        out = work / "latency-out"
        command = eval_command(folder, out, concurrency, env)
        before = provider.requests
        cached = eval_command(folder, out, concurrency, env)
        requests_cached = provider.requests - before
        theirs = inspect_command(folder, provider.url, concurrency, env) if peer else None
    return Latency(in_process, command, cached, requests_cached, theirs)


def report(args: argparse.Namespace, suite_ms: float, loop_ms: float, figures: Latency) -> None:
    """Print every figure beside its target."""
    print(f"runner cost: {args.cases} cases at zero latency, one at a time, best of {args.rounds}")
    print(f"  run_suite            {suite_ms:7.3f} ms/case (CPU)")
    print(f"  adapter alone        {loop_ms:7.3f} ms/case (CPU)")
    print(f"  runner's own         {suite_ms - loop_ms:7.3f} ms/case (target {RUNNER_TARGET_MS})")
    ideal = args.many / args.concurrency * args.latency / 1000
    print(
        f"{args.many} cases at {args.latency:g} ms, concurrency {args.concurrency}: ideal "
        f"{ideal:.3f} s, target {LATENCY_TARGET}x"
    )
    print(f"  run_suite            {figures.run_suite:7.3f} s  {figures.run_suite / ideal:5.2f}x")
    ours = figures.command
    print(f"  wink-decl eval       {ours.wall:7.3f} s  {ours.wall / ideal:5.2f}x  {_cpu(ours)}")
    peer = figures.inspect
    if peer is None:
        left_out = "left out" if args.no_peer else "not installed (pip install 'wink-decl[bench]')"
        print(f"  inspect eval         {left_out}")
    else:
        print(f"  inspect eval         {peer.wall:7.3f} s  {peer.wall / ideal:5.2f}x  {_cpu(peer)}")
        ratio = peer.wall / ours.wall
        print(f"  inspect / wink-decl  {ratio:7.2f}x  (CPU {peer.cpu / ours.cpu:.2f}x; target 1x)")
    cached = figures.cached
    print(f"fully cached re-run of {args.many} cases: target under {CACHED_TARGET_S:g} s")
    print(
        f"  wink-decl eval       {cached.wall:7.3f} s  CPU {cached.cpu:.3f} s  "
        f"{figures.requests_cached} model requests"
    )


def _cpu(timing: Timing) -> str:
    return f"CPU {timing.cpu:.3f} s"


def main(argv: list[str] | None = None) -> int:
    """Measure, then print every figure beside its target."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cases", type=int, default=500, help="cases for the runner's cost")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of it; the best counts")
    parser.add_argument("--many", type=int, default=1000, help="cases at the provider's latency")
    parser.add_argument("--latency", type=float, default=50.0, help="ms a request takes")
    parser.add_argument("--concurrency", type=int, default=16, help="requests at once")
    parser.add_argument("--no-peer", action="store_true", help="leave inspect-ai out")
    args = parser.parse_args(argv)
    os.environ["OPENAI_API_KEY"] = KEY
    with tempfile.TemporaryDirectory(prefix="wink-bench-eval-") as temporary:
        work = Path(temporary)
        suite_ms, loop_ms = runner_cost(work, args.cases, args.rounds)
        figures = latency_figures(
            work, args.many, args.latency, args.concurrency, peer=not args.no_peer
        )
    report(args, suite_ms, loop_ms, figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
