"""The checks an eval file's ``assert`` entries become: plain data, evaluated by ``evaluate``.

Each check may be weighted (its share of the case's score) and negated (it passes when the
check it wraps would fail). ``label`` is the check as the eval file writes it, for reports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

__all__ = [
    "AllOf",
    "AnyOf",
    "Check",
    "CheckBase",
    "FieldCheck",
    "JsonSchemaCheck",
    "JudgeCheck",
    "LimitCheck",
    "PluginCheck",
    "RegexCheck",
    "TextCheck",
    "ToolCalledCheck",
    "ToolCallsCheck",
    "ToolsSucceededCheck",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckBase:
    """What every check has: its weight, whether it is negated, and how to name it."""

    weight: float = 1.0
    negate: bool = False
    label: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class TextCheck(CheckBase):
    """The answer's text ``equals``, ``contains``, ``icontains`` or ``starts_with`` ``value``.

    ``value`` None: the case's ``expected`` (as text) is compared with.
    """

    kind: Literal["equals", "contains", "icontains", "starts_with"]
    value: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RegexCheck(CheckBase):
    """The answer's text matches the regular expression ``pattern`` (searched anywhere)."""

    pattern: str


@dataclass(frozen=True, slots=True, kw_only=True)
class JsonSchemaCheck(CheckBase):
    """The structured answer (the prompt's ``output:``) fits the JSON Schema ``schema``."""

    schema: Mapping[str, object]


@dataclass(frozen=True, slots=True, kw_only=True)
class FieldCheck(CheckBase):
    """The value at ``path`` in the structured answer equals (or contains) ``value``.

    ``path`` is dotted, list items by index (``findings.0.line``).
    """

    path: str
    op: Literal["equals", "contains"]
    value: object


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCalledCheck(CheckBase):
    """The model called (``called``) or never called (not ``called``) the tool ``name``."""

    name: str
    called: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCallsCheck(CheckBase):
    """The model called ``name`` at least ``min`` and at most ``max`` times (None: no bound)."""

    name: str
    min: int | None = None
    max: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolsSucceededCheck(CheckBase):
    """Every tool call of the run succeeded."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LimitCheck(CheckBase):
    """The run stayed within ``limit`` tokens (all of them), turns or milliseconds."""

    kind: Literal["max_tokens", "max_turns", "max_latency_ms"]
    limit: float


@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeCheck(CheckBase):
    """An LLM judge rates the answer against ``rubric``; it passes with excellent or good.

    ``model`` is ``provider:model`` (None: the suite's first model); ``prompt`` is the judge's
    prompt file (None: the bundled one).
    """

    rubric: str
    model: str | None = None
    prompt: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PluginCheck(CheckBase):
    """A custom evaluator, by entry-point name in ``wink_decl.evaluators``, with its args."""

    name: str
    args: Mapping[str, object] = field(default_factory=dict[str, object])


@dataclass(frozen=True, slots=True, kw_only=True)
class AllOf(CheckBase):
    """Passes when every one of ``checks`` passes; scores their weighted mean."""

    checks: tuple[Check, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class AnyOf(CheckBase):
    """Passes when one of ``checks`` passes; scores the best of them."""

    checks: tuple[Check, ...]


Check: TypeAlias = (
    TextCheck
    | RegexCheck
    | JsonSchemaCheck
    | FieldCheck
    | ToolCalledCheck
    | ToolCallsCheck
    | ToolsSucceededCheck
    | LimitCheck
    | JudgeCheck
    | PluginCheck
    | AllOf
    | AnyOf
)
"""Every kind of check."""
