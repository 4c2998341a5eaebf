"""What a suite runs: every case under every experiment and model, each repetition apart."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from wink_decl.evals._checks import Check
from wink_decl.evals._eval_types import Sample
from wink_decl.evals._suite_types import Experiment, ModelSpec, SuiteCase

__all__ = ["CaseRun", "Variant", "model_key", "plan", "variants"]


def model_key(model: ModelSpec) -> dict[str, object]:
    """What identifies ``model`` in cache keys and run keys: name, address and options."""
    return {"model": model.name, "base_url": model.base_url, "options": dict(model.options)}


@dataclass(frozen=True, slots=True)
class Variant:
    """One experiment on one model: the unit the report compares."""

    experiment: str
    tag: str | None
    model: ModelSpec


@dataclass(frozen=True, slots=True)
class CaseRun:
    """One case, run once (its ``repeat``-th time) under one variant, with its checks."""

    variant: Variant
    sample: Sample
    checks: tuple[Check, ...]
    repeat: int

    def key(self, prompt_digest: str) -> str:
        """What makes two runs the same: the prompt, params, model, tag and checks.

        ``prompt_digest`` covers the prompt's texts (the tag's applied); two runs with equal
        keys would send the same first request, so a journal entry of one stands for both.
        """
        variant = self.variant
        payload = {
            "prompt": prompt_digest,
            "case": self.sample.id,
            "params": self.sample.params,
            "expected": self.sample.expected,
            "experiment": variant.experiment,
            "tag": variant.tag,
            "model": model_key(variant.model),
            "checks": [repr(check) for check in self.checks],
            "repeat": self.repeat,
        }
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=repr)
        return hashlib.sha256(text.encode()).hexdigest()


def variants(models: Sequence[ModelSpec], experiments: Iterable[Experiment]) -> list[Variant]:
    """Each experiment (the baseline first) on its own model, else on every one of ``models``."""
    found: list[Variant] = []
    for experiment in experiments:
        chosen = models if experiment.model is None else [experiment.model]
        found.extend(Variant(experiment.name, experiment.tag, model) for model in chosen)
    return found


def plan(
    cases: Sequence[SuiteCase],
    models: Sequence[ModelSpec],
    experiments: Iterable[Experiment],
    *,
    repeat: int | None = None,
) -> list[CaseRun]:
    """Every run of the suite, variant by variant, case by case, repetition by repetition.

    ``repeat`` (``--repeat``) replaces each case's own count.
    """
    runs: list[CaseRun] = []
    for variant in variants(models, experiments):
        for case in cases:
            count = case.repeat if repeat is None else repeat
            runs.extend(CaseRun(variant, case.sample, case.checks, index) for index in range(count))
    return runs
