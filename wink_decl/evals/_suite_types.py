"""What a checked eval file is: a suite of cases, each run under every experiment and model."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from wink_decl.evals._checks import Check
from wink_decl.evals._eval_types import BASELINE, Sample

__all__ = ["BASELINE", "Experiment", "ModelSpec", "Suite", "SuiteCase"]


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """A model to run the prompt on: ``provider:model``, where it is served, its options."""

    provider: str
    model: str
    base_url: str | None = None
    """None: the provider's usual variable (such as ``OPENAI_BASE_URL``), else its address."""
    options: Mapping[str, object] = field(default_factory=dict[str, object])

    @property
    def name(self) -> str:
        """``provider:model``, as the eval file and ``--model`` write it."""
        return f"{self.provider}:{self.model}"


@dataclass(frozen=True, slots=True)
class Experiment:
    """A variant of the run: an override tag, a model instead of the suite's, or both.

    The baseline has neither.
    """

    name: str
    tag: str | None = None
    model: ModelSpec | None = None


class SuiteCase(NamedTuple):
    """One case: the sample, its checks (the defaults' first), and how many runs it has."""

    sample: Sample
    checks: tuple[Check, ...]
    repeat: int = 1


@dataclass(frozen=True, slots=True)
class Suite:
    """An eval file, checked: the prompt, models, experiments and cases, defaults applied.

    ``experiments`` starts with the baseline; ``cases`` hold the file's own cases, then its
    dataset's. ``overrides`` is the folder the experiments' tags were found in.
    """

    path: str
    """The eval file, as it was named."""
    prompt_path: str
    """The prompt file."""
    root: str
    """The prompt root the prompt was compiled under."""
    overrides: str
    models: tuple[ModelSpec, ...]
    experiments: tuple[Experiment, ...]
    cases: tuple[SuiteCase, ...]
    threshold: float = 1.0
    """The pass rate every experiment and model must reach."""
