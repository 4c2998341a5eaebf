"""What a suite runs: every case under every experiment and model, each repetition apart."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from wink_decl.evals._checks import Check
from wink_decl.evals._eval_types import BASELINE, Sample

__all__ = ["BASELINE", "CaseRun", "Experiment", "ModelChoice", "Variant", "plan"]


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """One model: ``provider:model`` as ``run --model`` takes it, its address and options."""

    spec: str
    base_url: str | None = None
    options: Mapping[str, object] = field(default_factory=dict[str, object])

    @property
    def provider(self) -> str:
        """The part before the first colon."""
        return self.spec.partition(":")[0]

    @property
    def name(self) -> str:
        """The model's name at its provider: the part after the first colon."""
        return self.spec.partition(":")[2]

    def key_data(self) -> dict[str, object]:
        """What identifies the model in cache keys and run keys."""
        return {"model": self.spec, "base_url": self.base_url, "options": dict(self.options)}


@dataclass(frozen=True, slots=True)
class Experiment:
    """A named variant: an override tag, a model in place of the suite's, or both."""

    name: str
    tag: str | None = None
    model: ModelChoice | None = None


@dataclass(frozen=True, slots=True)
class Variant:
    """One experiment on one model: the unit the report compares."""

    experiment: str
    tag: str | None
    model: ModelChoice


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
            "model": variant.model.key_data(),
            "checks": [repr(check) for check in self.checks],
            "repeat": self.repeat,
        }
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=repr)
        return hashlib.sha256(text.encode()).hexdigest()


def variants(models: Sequence[ModelChoice], experiments: Iterable[Experiment]) -> list[Variant]:
    """The baseline on every model, then each experiment on its model or on every model."""
    found = [Variant(BASELINE, None, model) for model in models]
    for experiment in experiments:
        chosen = models if experiment.model is None else [experiment.model]
        found.extend(Variant(experiment.name, experiment.tag, model) for model in chosen)
    return found


def plan(
    cases: Sequence[tuple[Sample, tuple[Check, ...], int]],
    models: Sequence[ModelChoice],
    experiments: Iterable[Experiment],
    *,
    repeat: int | None = None,
) -> list[CaseRun]:
    """Every run of the suite, variant by variant, case by case, repetition by repetition.

    ``repeat`` (``--repeat``) replaces each case's own count.
    """
    runs: list[CaseRun] = []
    for variant in variants(models, experiments):
        for sample, checks, times in cases:
            count = times if repeat is None else repeat
            runs.extend(CaseRun(variant, sample, checks, index) for index in range(count))
    return runs
