"""``run_suite``: an eval file's suite run end to end, through the real runtime, to its report.

The prompt is prepared as every front end prepares it (``wink_decl.inputs``): compiled once,
its plugins imported and checked, each experiment's tag applied once; then every run is
driven (journal, cache, resume: ``_driver``) and the results make the report.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from wink_decl.errors import InputError
from wink_decl.evals._driver import Driven, DriverOptions, drive
from wink_decl.evals._eval_report import EvalReport
from wink_decl.evals._eval_types import BASELINE, CaseResult
from wink_decl.evals._evaluate import score_case
from wink_decl.evals._judge import make_judge
from wink_decl.evals._matrix import plan
from wink_decl.evals._plugin_evaluators import PluginEvaluators
from wink_decl.evals._suite_types import Experiment, ModelSpec, Suite, SuiteCase
from wink_decl.evals._tagged_prompts import TaggedPrompts
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.suggestions import did_you_mean_sentence

if TYPE_CHECKING:
    from wink_decl.evals._execute import AdapterFactory, ModelAdapters, Scorer
    from wink_decl.runtime.adapter import ProviderAdapter

__all__ = ["DEFAULT_TIMEOUT", "RunOptions", "SuiteRun", "SuiteScorer", "default_out", "run_suite"]

DEFAULT_TIMEOUT = 300.0
"""Seconds each run may take unless ``timeout`` says otherwise."""


@dataclass(frozen=True)
class RunOptions:
    """How to run a suite (each is a ``wink-decl eval`` option; docs/evals.md).

    ``models`` replace the suite's; ``experiments`` keep only these (and the baseline);
    ``cases`` keep the cases whose id matches one of these patterns (``fnmatch``); ``out`` is
    where the journal and the cache are kept (default: ``default_out``). ``executor``
    ``ray`` runs the cases on the Ray cluster at ``ray_address`` (None: as Ray finds one;
    docs/evals.md, "Running on a Ray cluster").
    """

    out: Path | None = None
    models: tuple[ModelSpec, ...] = ()
    experiments: tuple[str, ...] = ()
    cases: tuple[str, ...] = ()
    concurrency: int = 8
    repeat: int | None = None
    no_cache: bool = False
    resume: bool = False
    replay: Path | None = None
    timeout: float | None = DEFAULT_TIMEOUT
    max_turns: int | None = None
    limits: Limits = DEFAULT_LIMITS
    secrets: tuple[str, ...] = field(default=())
    executor: Literal["local", "ray"] = "local"
    ray_address: str | None = None


@dataclass(frozen=True)
class SuiteRun:
    """A suite run: its report, and what the driver did (resumed, cached, asked)."""

    report: EvalReport
    driven: Driven
    runs: int


def default_out(eval_file: str | Path) -> Path:
    """``.wink-eval/<name>`` beside the eval file (``review.wink-eval.yaml``: ``review``)."""
    path = Path(eval_file)
    return path.parent / ".wink-eval" / path.name.partition(".wink-eval")[0]


def run_suite(
    suite: Suite,
    options: RunOptions | None = None,
    *,
    make_adapter: AdapterFactory | None = None,
    on_finished: Callable[[CaseResult], None] = lambda _result: None,
    on_stopping: Callable[[int], None] = lambda _in_flight: None,
    on_planned: Callable[[int], None] = lambda _runs: None,
) -> SuiteRun:
    """Run every case of ``suite`` under its experiments and models; the report.

    ``make_adapter`` makes a model's adapter (default: the provider's, as ``run`` makes it,
    with the model's address and options). ``on_planned`` is told how many runs there are,
    ``on_finished`` sees each result as it is kept.

    Raises:
        InputError: an experiment or a case pattern of ``options`` names nothing in the suite.
        DiagnosticError: the prompt (with a tag) cannot be prepared (the report of every
            problem, as ``wink-decl render`` prints it).
        KeyboardInterrupt: after the runs in flight are kept (``--resume`` goes on).
    """
    chosen = options or RunOptions()
    experiments = _experiments(suite, chosen.experiments)
    cases = _cases(suite, chosen.cases)
    models = chosen.models or suite.models
    # A Ray worker's working folder need not be this one: it is sent absolute paths.
    where = _Where.of(suite, absolute=chosen.executor == "ray")
    prompts = _prompts(where, experiments, chosen.limits)
    digests = prompts.digests()  # every prompt prepared, and every problem reported, first
    runs = plan(cases, models, experiments, repeat=chosen.repeat)
    on_planned(len(runs))
    driven = drive(
        runs,
        prompts,
        digests,
        options=DriverOptions(
            out=chosen.out or default_out(suite.path),
            concurrency=chosen.concurrency,
            no_cache=chosen.no_cache,
            resume=chosen.resume,
            timeout=chosen.timeout,
            max_turns=chosen.max_turns,
            secrets=chosen.secrets,
            replay=chosen.replay,
            executor=chosen.executor,
            ray_address=chosen.ray_address,
        ),
        make_adapter=make_adapter or _provider_adapter,
        score=SuiteScorer(where.folder, where.root, tuple(models), chosen.limits),
        on_finished=on_finished,
        on_stopping=on_stopping,
    )
    report = EvalReport(driven.results, threshold=suite.threshold, suite=suite.path)
    return SuiteRun(report, driven, len(runs))


def _experiments(suite: Suite, names: Sequence[str]) -> tuple[Experiment, ...]:
    """The baseline and the experiments named (all of them when none is)."""
    known = [experiment.name for experiment in suite.experiments]
    for name in names:
        if name not in known:
            raise InputError(
                f"--experiment {name}: the suite has no such experiment."
                + did_you_mean_sentence(name, known),
                hint="its experiments: " + ", ".join(known),
            )
    return tuple(
        experiment
        for experiment in suite.experiments
        if not names or experiment.name == BASELINE or experiment.name in names
    )


def _cases(suite: Suite, patterns: Sequence[str]) -> tuple[SuiteCase, ...]:
    """The cases whose id matches one of ``patterns`` (all of them when there is none)."""
    if not patterns:
        return suite.cases
    kept = tuple(
        case
        for case in suite.cases
        if any(fnmatch.fnmatchcase(case.sample.id, pattern) for pattern in patterns)
    )
    if not kept:
        shown = ", ".join(patterns)
        raise InputError(
            f"--filter {shown}: no case of the suite has a matching id",
            hint="a pattern matches whole ids, with * and ? as wildcards, such as 'add-*'",
        )
    return kept


@dataclass(frozen=True)
class _Where:
    """Where a suite's files are: the eval file's folder, the prompt file, root, overrides."""

    folder: str
    file: str
    root: str
    overrides: str

    @classmethod
    def of(cls, suite: Suite, *, absolute: bool) -> _Where:
        paths = (str(Path(suite.path).parent), suite.prompt_path, suite.root, suite.overrides)
        return cls(*(str(Path(path).absolute()) if absolute else path for path in paths))


def _prompts(where: _Where, experiments: Sequence[Experiment], limits: Limits) -> TaggedPrompts:
    """The prompt with each experiment's tag applied (None: as written), by tag."""
    tags = tuple(dict.fromkeys(experiment.tag for experiment in experiments))
    return TaggedPrompts(
        where.file, root=where.root, overrides=where.overrides, tags=tags, limits=limits
    )


def _provider_adapter(model: ModelSpec) -> ProviderAdapter:
    from wink_decl.adapters.providers import make_adapter  # noqa: PLC0415  # SDKs on a run

    return make_adapter(model.provider, model.model, base_url=model.base_url, options=model.options)


@dataclass(frozen=True)
class SuiteScorer:
    """Makes the checker of a suite's runs: built-in checks, its judge, plugin evaluators.

    A maker, not the checker: the judge and the evaluators hold locks and what they loaded,
    so a process that runs cases (a Ray worker) is sent this and makes its own checker.
    ``relative_to`` is the eval file's folder (a judge check's own prompt is found from it),
    ``root`` the prompt root, ``models`` the suite's (a judge's model by name).
    """

    relative_to: str
    root: str
    models: tuple[ModelSpec, ...]
    limits: Limits = DEFAULT_LIMITS

    def __call__(self, adapters: ModelAdapters) -> Scorer:
        """The checker, whose judges reach their models through ``adapters``."""
        models = self.models

        def judge_model(name: str | None) -> ProviderAdapter:
            return adapters.recording(_judge_spec(name, models))

        judge = make_judge(
            judge_model, relative_to=Path(self.relative_to), root=self.root, limits=self.limits
        )
        plugins = PluginEvaluators()
        return lambda checks, outcome, sample: score_case(
            checks, outcome, sample, judge=judge, plugins=plugins
        )


def _judge_spec(name: str | None, models: Sequence[ModelSpec]) -> ModelSpec:
    """The judge's model: the suite's own of that name, else as written; None: the first.

    A suite's model brings its address and options along.
    """
    if name is None:
        return models[0]
    found = next((model for model in models if model.name == name), None)
    if found is not None:
        return found
    provider, _, model = name.partition(":")
    return ModelSpec(provider, model)
