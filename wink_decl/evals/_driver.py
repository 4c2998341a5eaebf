"""The run's driver: plans the runs, skips those a journal holds, runs the rest, keeps results.

Only the driver writes: each finished run's line in the journal and the replies it got in the
response cache, as it finishes, so an interrupted suite resumes where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from wink_decl.evals._cache import ResponseCache
from wink_decl.evals._execute import AdapterPool, Finished, ModelAdapters, RunSettings, Scorer
from wink_decl.evals._local import run_locally
from wink_decl.evals._replay import replaying
from wink_decl.evals._results_journal import Journal, read_journal

if TYPE_CHECKING:
    from wink_decl.compiler import CompiledPrompt
    from wink_decl.evals._eval_types import CaseResult
    from wink_decl.evals._execute import AdapterFactory
    from wink_decl.evals._matrix import CaseRun

__all__ = ["JOURNAL_NAME", "MAX_JOURNAL_BYTES", "Driven", "DriverOptions", "drive"]

JOURNAL_NAME = "results.jsonl"
CACHE_NAME = "cache"
MAX_JOURNAL_BYTES = 1_000_000_000
"""A journal is read back whole to resume: one larger than this is refused, not read."""


@dataclass(frozen=True)
class DriverOptions:
    """How to run: ``concurrency`` at once, kept in ``out``, from the cache unless ``no_cache``.

    ``resume`` keeps the journal's results for the runs it holds (and runs only the rest);
    without it, the journal starts anew. ``timeout`` bounds each run in seconds. ``replay``
    answers every request from the replies kept in that folder (a response cache) and asks
    no model: a request it has no reply for is the case's error. ``executor`` ``ray`` runs
    the cases on the Ray cluster at ``ray_address`` (None: a local one), see ``run_on_ray``.
    """

    out: Path
    concurrency: int = 8
    no_cache: bool = False
    resume: bool = False
    timeout: float | None = None
    max_turns: int | None = None
    secrets: tuple[str, ...] = field(default=())
    replay: Path | None = None
    executor: Literal["local", "ray"] = "local"
    ray_address: str | None = None


@dataclass(frozen=True)
class Driven:
    """What the driver did: every run's result (in plan order) and what it cost.

    ``resumed``: results taken from the journal; ``skipped``: its lines that were not whole
    entries; ``requests``: replies asked of models; ``hits``: replies found in the cache.
    """

    results: tuple[CaseResult, ...]
    resumed: int = 0
    skipped: int = 0
    requests: int = 0
    hits: int = 0
    cache_notes: tuple[str, ...] = ()
    """What the response caches read did not read or keep: a warning each."""


class _Keeper:
    """Keeps each finished run: its journal line, its replies in the cache, its result."""

    def __init__(
        self, journal: Journal, cache: ResponseCache | None, keys: Mapping[int, str]
    ) -> None:
        self.journal = journal
        self.cache = cache
        self.keys = keys
        self.results: dict[int, CaseResult] = {}
        self.requests = 0
        self.hits = 0

    def keep(self, finished: Finished) -> None:
        index = id(finished.run)
        # The replies first: a run the journal holds has its replies in the cache, even after
        # a kill between the two writes.
        if self.cache is not None:
            for key, reply in finished.recorded:
                self.cache.put(key, reply)
        self.journal.append(self.keys[index], finished.result)
        self.requests += len(finished.recorded)
        self.hits += finished.hits
        self.results[index] = finished.result


def drive(
    runs: Sequence[CaseRun],
    prompts: Mapping[str | None, CompiledPrompt],
    digests: Mapping[str | None, str],
    *,
    options: DriverOptions,
    make_adapter: AdapterFactory,
    score: Callable[[ModelAdapters], Scorer],
    on_finished: Callable[[CaseResult], None] = lambda _result: None,
    on_stopping: Callable[[int], None] = lambda _in_flight: None,
) -> Driven:
    """Run ``runs`` (each prompt by tag, and its digest), keeping results in ``options.out``.

    ``score`` makes the checker of the runs, given how its judges reach their models.

    ``on_finished`` sees each result as it is kept (a progress bar); a ``KeyboardInterrupt``
    escapes after the runs in flight are kept (see ``run_locally``).
    """
    out = options.out
    out.mkdir(parents=True, exist_ok=True)
    journal_path = out / JOURNAL_NAME
    keys = {id(run): run.key(digests[run.variant.tag]) for run in runs}
    done: dict[str, CaseResult] = {}
    skipped = 0
    if options.resume:
        entries, skipped = read_journal(journal_path, MAX_JOURNAL_BYTES)
        done = {entry.key: entry.result for entry in entries}
    elif journal_path.exists():
        journal_path.replace(out / f"{JOURNAL_NAME}.previous")
    replay = options.replay
    cache = None if options.no_cache or replay else ResponseCache(out / CACHE_NAME)
    if cache is not None:
        cache.compact()  # the driver alone writes: each run starts from one pack
    recorded = ResponseCache(replay) if replay else cache
    lookup = None if recorded is None else recorded.get
    journal = Journal(journal_path)
    keeper = _Keeper(journal, cache, keys)
    todo = [run for run in runs if keys[id(run)] not in done]
    make = replaying if replay else make_adapter
    adapters = AdapterPool(make)

    def finished(run: Finished) -> None:
        keeper.keep(run)
        on_finished(run.result)

    try:
        if options.executor == "ray":
            _on_ray(todo, prompts, make, score, options, finished, on_stopping)
        else:
            settings = RunSettings(
                prompts,
                adapters,
                score(ModelAdapters(adapters, lookup)),
                lookup=lookup,
                timeout=options.timeout,
                max_turns=options.max_turns,
                secrets=options.secrets,
            )
            run_locally(
                todo,
                settings,
                concurrency=options.concurrency,
                on_finished=finished,
                on_stopping=on_stopping,
            )
    finally:
        journal.close()
        if cache is not None:
            cache.close()
        adapters.close()
    results = tuple(keeper.results.get(id(run)) or done[keys[id(run)]] for run in runs)
    resumed = len(runs) - len(todo)
    notes = () if recorded is None else recorded.notes
    return Driven(results, resumed, skipped, keeper.requests, keeper.hits, notes)


def _on_ray(
    todo: Sequence[CaseRun],
    prompts: Mapping[str | None, CompiledPrompt],
    make_adapter: AdapterFactory,
    score: Callable[[ModelAdapters], Scorer],
    options: DriverOptions,
    on_finished: Callable[[Finished], None],
    on_stopping: Callable[[int], None],
) -> None:
    """Run ``todo`` on Ray, each worker making its own settings of what it is sent.

    ``prompts`` must be a ``TaggedPrompts``, ``make_adapter`` and ``score`` must pickle: see
    ``WorkerSettings``.
    """
    from wink_decl.evals._ray import WorkerSettings, run_on_ray  # noqa: PLC0415  # Ray's only

    cached = not options.no_cache
    replies = options.replay or (options.out / CACHE_NAME if cached else None)
    made_of = WorkerSettings(
        prompts,
        make_adapter,
        score,
        replies=None if replies is None else replies.absolute(),  # the workers' folder is not ours
        timeout=options.timeout,
        max_turns=options.max_turns,
        secrets=options.secrets,
    )
    run_on_ray(
        todo,
        made_of,
        address=options.ray_address,
        concurrency=options.concurrency,
        on_finished=on_finished,
        on_stopping=on_stopping,
    )
