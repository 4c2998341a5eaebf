"""The ``judge`` check: an LLM rates the answer against a rubric with one of five ratings.

``Judge`` is what rates; ``make_judge`` builds one that runs a wink-decl judge prompt (the
bundled ``judge.wink.yaml``, or the check's own) through the real runtime (docs/evals.md).
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeAlias, cast

from wink_decl.diagnostics import DiagnosticError
from wink_decl.evals._eval_types import (
    PASSING_RATINGS,
    RATING_VALUES,
    Evaluator,
    Outcome,
    Rating,
    Sample,
    Score,
)
from wink_decl.evals._values import bounded, expected_text, failing, one_line, shown
from wink_decl.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from wink_decl.prompt.template import PromptTemplate

    _JudgePrompt: TypeAlias = PromptTemplate[DataclassInstance]
    """A judge prompt: its output is a dataclass the compiler makes of the file."""
    from wink_decl.runtime.loop import Evaluator as Adapter

__all__ = ["JUDGE_PROMPT", "Judge", "judge", "make_judge", "no_judge"]

JUDGE_PROMPT = Path(__file__).with_name("judge.wink.yaml")
"""The bundled judge prompt: params rubric, question, answer, expected; output rating, reason."""
_GIVEN = ("rubric", "question", "answer", "expected")
"""The params a judge prompt is given (it may declare fewer)."""
_RATINGS = ", ".join(RATING_VALUES)
_VALUES = {str(rating): value for rating, value in RATING_VALUES.items()}
"""``RATING_VALUES`` by any text, to look up what a judge gave."""


class Judge(Protocol):
    """Rates one answer against ``rubric``: the rating and why.

    ``model`` is the judge's ``provider:model`` and ``prompt`` its prompt file, as the check
    names them (None: the runner's choice, the bundled prompt). It may raise: the check then
    fails with what it raised.
    """

    def __call__(
        self,
        rubric: str,
        model: str | None,
        prompt: str | None,
        outcome: Outcome,
        sample: Sample,
        /,
    ) -> tuple[Rating, str]:
        """The rating of ``outcome`` (the answer to ``sample``) and the judge's reason."""
        ...


def judge(
    rubric: str, *, by: Judge, model: str | None = None, prompt: str | None = None
) -> Evaluator:
    """Asks ``by`` to rate the answer against ``rubric``; passes with excellent or good.

    The value is the rating's (``RATING_VALUES``: excellent 1.0 ... wrong 0.0); the reason is
    the rating and the judge's reason. A judge that raises fails the check, saying why.
    """

    def check(outcome: Outcome, sample: Sample) -> Score:
        try:
            # Read as what it may be: a judge written in Python can return anything.
            answer = cast("object", by(rubric, model, prompt, outcome, sample))
            rating, reason = cast("tuple[object, object]", answer)
        except Exception as error:  # noqa: BLE001  # a judge (a model, a plugin) may raise anything
            return failing(f"the judge failed: {one_line(error)}")
        value = _VALUES.get(rating) if isinstance(rating, str) else None
        if value is None:
            return failing(f"the judge gave {shown(rating)}, not one of {_RATINGS}")
        return Score(
            value, passed=rating in PASSING_RATINGS, reason=f"{rating}: {bounded(str(reason))}"
        )

    return check


def no_judge() -> Evaluator:
    """What a judge check is without a judge to ask: a failure that says so."""

    def check(outcome: Outcome, sample: Sample) -> Score:
        del outcome, sample  # nothing to rate them with
        return failing(
            "no judge to ask: a judge check needs one (evaluate(..., judge=make_judge(...)))"
        )

    return check


def make_judge(
    adapter_for: Callable[[str | None], Adapter],
    *,
    relative_to: str | Path | None = None,
    root: str | Path | None = None,
    limits: Limits | None = None,
) -> Judge:
    """A ``Judge`` that runs the judge prompt with ``MainLoop`` and the adapter of the model.

    ``adapter_for(model)`` gives the adapter of a check's ``model`` (None when it names none);
    it owns the adapters: the judge never closes one. A check's ``prompt`` is a prompt file,
    relative to ``relative_to`` (default: the working folder), whose includes resolve against
    the prompt root ``root`` (default: its folder); without one the bundled ``JUDGE_PROMPT``
    is used. ``limits`` bound the loading of each (docs/security.md); each is loaded once.

    A judge prompt must declare the output fields ``rating`` (one of the five ratings) and
    ``reason``; of the params ``rubric``, ``question`` (the case's params as JSON),
    ``answer`` and ``expected`` (the case's expected answer as text, or empty) it is given
    those it declares, and it must declare ``answer``.
    """
    folder = Path.cwd() if relative_to is None else Path(relative_to)
    return _PromptJudge(adapter_for, folder, None if root is None else Path(root), limits)


class _PromptJudge:
    """``make_judge``'s judge: prompt files loaded once each, shared by every thread."""

    def __init__(
        self,
        adapter_for: Callable[[str | None], Adapter],
        folder: Path,
        root: Path | None,
        limits: Limits | None,
    ) -> None:
        self._adapter_for = adapter_for
        self._folder = folder
        self._root = root
        self._limits = limits
        self._templates: dict[Path, _JudgePrompt] = {}
        self._lock = threading.Lock()

    def __call__(
        self,
        rubric: str,
        model: str | None,
        prompt: str | None,
        outcome: Outcome,
        sample: Sample,
        /,
    ) -> tuple[Rating, str]:
        """Run the judge prompt on the answer; the rating and the reason it gives."""
        from wink_decl.prompt.template import Prompt  # noqa: PLC0415  # a judge check runs it
        from wink_decl.runtime.loop import MainLoop  # noqa: PLC0415
        from wink_decl.runtime.session import Session  # noqa: PLC0415

        path = JUDGE_PROMPT if prompt is None else self._folder / prompt
        template = self._template(path)
        given = {
            "rubric": rubric,
            "question": json.dumps(dict(sample.params), ensure_ascii=False, indent=2, default=str),
            "answer": outcome.text,
            "expected": "" if sample.expected is None else expected_text(sample.expected),
        }
        bound = Prompt(template).bind(_params(template, given, path))
        response = MainLoop(adapter=self._adapter_for(model)).execute(bound, session=Session())
        rating: Rating = response.output.rating
        reason: str = response.output.reason
        return rating, reason

    def _template(self, path: Path) -> _JudgePrompt:
        with self._lock:  # one load per file, even when many cases ask at once
            template = self._templates.get(path)
            if template is None:
                own = self._root if path != JUDGE_PROMPT else None
                loaded = _load(path, path.parent if own is None else own, self._limits)
                template = _checked(loaded, path)
                self._templates[path] = template
            return template


def _load(path: Path, root: Path, limits: Limits | None) -> _JudgePrompt:
    """The judge prompt at ``path`` compiled, its plugins checked (as ``wink_decl.load`` does).

    Through the one way in, not ``wink_decl.load``: that module checks eval files with this
    package, and this package would import it back.
    """
    # Imported on first use: the compiler loads only when a judge check runs.
    from wink_decl.inputs import Location, PromptRequest, prepare  # noqa: PLC0415

    request = PromptRequest(str(path), root=str(root), limits=limits or DEFAULT_LIMITS)
    location = Location(request, path, root)
    prepared = prepare(request, plugins="all", bind_params=False, location=location)
    if not prepared.ok:
        raise DiagnosticError(prepared.diagnostics, sources=prepared.sources)
    return prepared.template


def _checked(template: _JudgePrompt, path: Path) -> _JudgePrompt:
    """``template`` when it declares what a judge reads back; else why not (``ValueError``)."""
    output = template.output_type
    fields: set[str] = (
        set() if output is None else {field.name for field in dataclasses.fields(output)}
    )
    if not {"rating", "reason"} <= fields:
        raise ValueError(
            f"The judge prompt {path} must declare the output fields rating (one of {_RATINGS}) "
            "and reason."
        )
    return template


def _params(template: _JudgePrompt, given: Mapping[str, str], path: Path) -> object:
    """The judge prompt's params made of ``given``: those of its params it declares."""
    fields = [field for kind in template.params_types for field in dataclasses.fields(kind)]
    names = [field.name for field in fields]
    if "answer" not in names:
        raise ValueError(f"The judge prompt {path} must declare the param answer (text).")
    missing = [
        field.name
        for field in fields
        if field.name not in given
        and field.default is dataclasses.MISSING
        and field.default_factory is dataclasses.MISSING
    ]
    if missing:
        raise ValueError(
            f"The judge prompt {path} declares the param '{missing[0]}' with no default; a "
            f"judge is given only {', '.join(_GIVEN)}."
        )
    (params_type,) = template.params_types  # a prompt file declares one params dataclass
    return params_type(**{name: given[name] for name in names if name in given})
