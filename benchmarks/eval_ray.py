"""The Ray executor's cost per case, next to the local one's, against a model that answers at once.

One suite of N single-turn cases (the ``greet`` prompt, a check per case) is driven to its
journal and cache, as ``wink-decl eval`` drives it, against a loopback OpenAI-compatible fake
with zero latency: so what is timed is the runner, the runtime and the SDK, not a model.
Each round runs it locally (threads), then on a Ray cluster of this machine; then both again
answered from the cache. The best round of each is kept.

Per case: a run of N cases (everything included), the same run answered from the cache, and
each case past the first N (a run of 5N less the run of N, over 4N): the cost a longer suite
adds per case. For Ray also: starting the cluster (once per command, when no cluster is
running), and a run's fixed cost (its workers' start: processes, imports, the prompt compiled
once per worker), the run of N less N times the cost per case.
Every Ray address is 127.0.0.1 (the cluster is this machine's alone).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from openai_replies import completion  # after the path is set
from provider_server import ProviderServer, RecordedRequest, Reply

from wink_decl.adapters.openai_chat import OpenAIAdapter
from wink_decl.evals import (
    BASELINE,
    Experiment,
    ModelSpec,
    Sample,
    SuiteCase,
    TextCheck,
    score_case,
)
from wink_decl.evals._driver import DriverOptions, drive
from wink_decl.evals._execute import ModelAdapters, Scorer
from wink_decl.evals._matrix import CaseRun, plan
from wink_decl.evals._ray import import_ray
from wink_decl.evals._tagged_prompts import TaggedPrompts
from wink_decl.runtime.adapter import ProviderAdapter

GREET = """\
key: greet
params:
  name: {type: string}
sections:
  - key: task
    title: Task
    template: Say hello to ${name}.
"""


def answer(request: RecordedRequest) -> Reply:
    """At once: a greeting of the name the prompt asks for."""
    name = re.findall(r"Say hello to (\w+)\.", request.json["messages"][0]["content"])
    return Reply(json=completion(f"Hello, {''.join(name)}!", usage=(20, 3)))


def make(choice: ModelSpec) -> ProviderAdapter:
    """The OpenAI adapter, at the fake's address."""
    return OpenAIAdapter(choice.model, api_key="sk-bench", base_url=choice.base_url, max_retries=0)


def checker(adapters: ModelAdapters) -> Scorer:
    """The built-in checks alone: the suite has no judge."""
    del adapters
    return score_case


def timed(work: Callable[[], object]) -> float:
    """Seconds ``work`` takes."""
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


class Bench:
    """The suite, its prompt and a fresh output folder for each run."""

    def __init__(self, url: str, cases: int, concurrency: int) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="eval-ray-"))
        (self.folder / "greet.wink.yaml").write_text(GREET)
        self.prompts = TaggedPrompts(
            str(self.folder / "greet.wink.yaml"),
            root=str(self.folder),
            overrides=str(self.folder / "overrides"),
        )
        self.digests = self.prompts.digests()
        model = ModelSpec("openai", "gpt-bench", base_url=f"{url}/v1")
        check = (TextCheck(kind="contains", value="Hello", label="contains: Hello"),)
        samples = [SuiteCase(Sample(f"P{i}", {"name": f"P{i}"}), check) for i in range(cases)]
        self.runs = plan(samples, [model], [Experiment(BASELINE)])
        self.concurrency = concurrency
        self.made = 0

    def out(self) -> Path:
        """A new output folder."""
        self.made += 1
        return self.folder / f"out-{self.made}"

    def run(self, runs: list[CaseRun], out: Path, executor: str) -> None:
        """Drive ``runs`` into ``out`` (its cache answers what it holds)."""
        options = DriverOptions(
            out=out,
            concurrency=self.concurrency,
            executor="ray" if executor == "ray" else "local",
        )
        driven = drive(
            runs, self.prompts, self.digests, options=options, make_adapter=make, score=checker
        )
        if not all(result.passed for result in driven.results):
            raise RuntimeError(f"a case failed: {driven.results}")


def measure(bench: Bench, rounds: int) -> dict[str, float]:
    """Best seconds of each run over ``rounds``: N cases, 5N cases, N cached; each executor."""
    best: dict[str, float] = {}
    few = bench.runs[: len(bench.runs) // 5]

    def keep(name: str, seconds: float) -> None:
        best[name] = min(best.get(name, seconds), seconds)

    for _ in range(rounds):
        for executor in ("local", "ray"):
            out = bench.out()
            keep(f"{executor} n", timed(lambda: bench.run(few, out, executor)))  # noqa: B023
            keep(f"{executor} cached", timed(lambda: bench.run(few, out, executor)))  # noqa: B023
            keep(f"{executor} 5n", timed(lambda: bench.run(bench.runs, bench.out(), executor)))  # noqa: B023
    return best


def per_case(best: dict[str, float], executor: str, n: int) -> tuple[float, float, float]:
    """Seconds per case: a run of N, the same from the cache, each case past N."""
    past = (best[f"{executor} 5n"] - best[f"{executor} n"]) / (4 * n)
    return best[f"{executor} n"] / n, best[f"{executor} cached"] / n, past


def main(argv: list[str]) -> int:
    """Print the figures; exit 0 (a benchmark reports, it does not fail)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=200, help="cases in the smaller suite")
    parser.add_argument("--concurrency", type=int, default=8, help="cases in flight")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the best is kept")
    args = parser.parse_args(argv)
    # A cluster of this machine alone, for the benchmark's length: no token to write in the
    # home folder, no usage report. Set before Ray is imported, which reads them.
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray: Any = import_ray()
    constants: Any = importlib.import_module("ray._private.ray_constants")
    constants.ENABLE_RAY_CLUSTER = False  # every address 127.0.0.1: a cluster of one machine
    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
    cluster = timed(lambda: ray.init(**quiet))
    try:
        with ProviderServer(responder=answer) as server:
            best = measure(Bench(server.url, 5 * args.cases, args.concurrency), args.rounds)
    finally:
        ray.shutdown()
    n = args.cases
    local, on_ray = per_case(best, "local", n), per_case(best, "ray", n)
    print(f"N={n} cases, concurrency {args.concurrency}, best of {args.rounds}; ms per case")
    print("                                         local      ray")
    labels = ("a run of N, start included", "a run of N, from the cache", "each case past N")
    for label, mine, theirs in zip(labels, local, on_ray, strict=True):
        print(f"  {label:<37}{mine * 1000:8.2f} {theirs * 1000:8.2f}")
    fixed = best["ray n"] - n * on_ray[2]
    print(f"ray: cluster start {cluster:.2f} s; a run's fixed cost (workers' start) {fixed:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
