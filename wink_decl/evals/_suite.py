"""Load and check an eval file: the prompt, models, experiments and cases, into a ``Suite``.

The file is loaded with positions and limits as prompt files are, checked against the eval
model, then its references are resolved: the prompt (compiled), each model's provider, each
experiment's tag, each case's params and checks, and its dataset. No plugin code and no
provider SDK is imported. docs/evals.md describes the file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from wink_decl.compiler import Confinement, number_problems, outside_root
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, DiagnosticError, sort_diagnostics
from wink_decl.evals._case_params import ParamChecker
from wink_decl.evals._check_build import CheckBuilder
from wink_decl.evals._dataset import CaseMaker, read_dataset
from wink_decl.evals._dataset_files import RawCase, too_many_cases
from wink_decl.evals._models import model_problem, model_spec
from wink_decl.evals._places import MapPlace
from wink_decl.evals._prompt_ref import FoundPrompt, PromptSearch, find_prompt
from wink_decl.evals._suite_types import BASELINE, Experiment, ModelSpec, Suite, SuiteCase
from wink_decl.inputs import overrides_or_default
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.loader import FileKind, Holds, LoadedFile, load_file
from wink_decl.schema.eval_validate import validate_eval_document
from wink_decl.suggestions import did_you_mean

if TYPE_CHECKING:
    from wink_decl.evals._checks import Check
    from wink_decl.plugins import PluginCatalog
    from wink_decl.schema.eval_model import EvalDocument, ModelDoc

__all__ = ["EVAL_FILE", "SuiteCheck", "check_suite", "load_suite"]

_MOVE = "Move the cases into a dataset file (dataset:)"
EVAL_FILE: Final = FileKind(
    name="an eval file",
    holds={
        "yaml": Holds(
            "a mapping of keys such as 'prompt:', 'models:' and 'cases:'",
            hint="Start the file with lines such as 'prompt: ../prompts/review.wink.yaml' and "
            "'models: [openai:gpt-4.1-mini]'.",
        ),
        "toml": Holds(
            "a table of keys such as 'prompt', 'models' and 'cases'",
            hint='Start the file with lines such as prompt = "../prompts/review.wink.yaml" and '
            'models = ["openai:gpt-4.1-mini"].',
        ),
    },
    size_advice=_MOVE,
    values_advice=_MOVE,
)
"""How the loader words its diagnostics for an eval file."""


@dataclass(frozen=True, slots=True)
class SuiteCheck:
    """A checked eval file: its suite (None when anything is an error) and every diagnostic.

    ``sources`` are the texts the diagnostics quote: the eval file's, the prompt's and the
    dataset's, by the paths they show.
    """

    suite: Suite | None
    diagnostics: tuple[Diagnostic, ...]
    sources: Mapping[str, str] = field(default_factory=dict[str, str])

    @property
    def ok(self) -> bool:
        """True when no diagnostic is an error (warnings may remain)."""
        return self.suite is not None


def load_suite(
    path: str | os.PathLike[str],
    *,
    root: str | os.PathLike[str] | None = None,
    configured_root: str | os.PathLike[str] | None = None,
    overrides: str | os.PathLike[str] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    catalog: PluginCatalog | None = None,
) -> Suite:
    """The suite the eval file at ``path`` describes (``check_suite`` says what is checked).

    Raises:
        DiagnosticError: every diagnostic found, when one is an error; its message is the
            whole report, the lines quoted.
    """
    checked = check_suite(
        path,
        root=root,
        configured_root=configured_root,
        overrides=overrides,
        limits=limits,
        catalog=catalog,
    )
    if checked.suite is None:
        raise DiagnosticError(checked.diagnostics, sources=checked.sources)
    return checked.suite


def check_suite(
    path: str | os.PathLike[str],
    *,
    root: str | os.PathLike[str] | None = None,
    configured_root: str | os.PathLike[str] | None = None,
    overrides: str | os.PathLike[str] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    catalog: PluginCatalog | None = None,
) -> SuiteCheck:
    """Load and check the eval file at ``path``; every diagnostic, and the suite if it holds.

    ``root`` is the prompt root: the prompt file must lie inside it, and an address is looked
    up under it. Without it, ``configured_root`` (the ``[tool.wink-decl] root`` setting) is
    the root of a prompt file inside it, else the prompt file's folder is; an address is then
    looked up under ``configured_root``, else under the eval file's folder. The eval file
    itself is read only when its real path lies inside ``root`` (else its own folder).
    ``overrides`` is the folder of the experiments' tags (default: ``overrides`` beside the
    prompt root). ``catalog`` lists the installed evaluators (default: the environment's).
    """
    # Imported here: only a suite that names plugins reads the catalog, and one is made once.
    from wink_decl.compiler.compile import default_catalog  # noqa: PLC0415

    shown = os.fspath(path)
    confined = os.fspath(root) if root is not None else os.path.dirname(shown) or os.curdir  # noqa: PTH120
    refused = outside_root(shown, confined, shown, _confinement(rooted=root is not None))
    if refused is not None:
        return SuiteCheck(None, (refused,))
    loaded = load_file(shown, limits=limits, kind=EVAL_FILE)
    sources = {} if loaded.text is None else {shown: loaded.text}
    if loaded.file is None:
        return SuiteCheck(None, loaded.diagnostics, sources)
    problems = number_problems(loaded.file)
    document = None
    if not problems:
        document, problems = validate_eval_document(loaded.file.data, loaded.file.source_map)
    if document is None:
        return SuiteCheck(None, tuple(problems), sources)
    search = PromptSearch(
        limits,
        catalog or default_catalog(),
        None if root is None else os.fspath(root),
        None if configured_root is None else os.fspath(configured_root),
    )
    checker = _Checker(loaded.file, document, search, sources)
    return checker.run(None if overrides is None else os.fspath(overrides))


def _confinement(*, rooted: bool) -> Confinement:
    """How a refused link names an eval file and the folder it must lie in."""
    where = "the prompt root" if rooted else "its folder"
    return Confinement(
        "This eval file", "an eval file", where, "Replace the link with the file itself."
    )


class _Checker:
    """One eval file's references resolved, and every problem found on the way."""

    def __init__(
        self,
        file: LoadedFile,
        document: EvalDocument,
        search: PromptSearch,
        sources: dict[str, str],
    ) -> None:
        self.file = file
        self.document = document
        self.search = search
        self.sources = sources
        self.places = MapPlace(file.source_map)
        self.problems: list[Diagnostic] = []

    def run(self, overrides: str | None) -> SuiteCheck:
        document = self.document
        found = find_prompt(
            document.prompt, self.places.value(("prompt",)), self.file.path, self.search
        )
        self.problems.extend(found.diagnostics)
        self.sources.update(found.sources)
        models = tuple(
            self._model(item, ("models", index)) for index, item in enumerate(document.models)
        )
        folder = str(overrides_or_default(overrides, found.root or os.curdir))
        experiments = (Experiment(BASELINE), *self._experiments(found, folder))
        cases = self._cases(found)
        # Once each: a CSV column that names no param is found again in every row.
        diagnostics = tuple(sort_diagnostics(dict.fromkeys(self.problems)))
        if found.prompt is None or any(d.severity == "error" for d in diagnostics):
            return SuiteCheck(None, diagnostics, self.sources)
        suite = Suite(
            path=self.file.path,
            prompt_path=found.path,
            root=found.root,
            overrides=folder,
            models=models,
            experiments=experiments,
            cases=tuple(cases),
            threshold=document.threshold,
        )
        return SuiteCheck(suite, diagnostics, self.sources)

    def _model(self, item: str | ModelDoc, at: tuple[str | int, ...]) -> ModelSpec:
        span = self.places.value(at if isinstance(item, str) else (*at, "model"))
        problem = model_problem(item if isinstance(item, str) else item.model, span)
        if problem is not None:
            self.problems.append(problem)
        return model_spec(item)

    def _experiments(self, found: FoundPrompt, folder: str) -> list[Experiment]:
        experiments: list[Experiment] = []
        tags = None
        for name, written in self.document.experiments.items():
            model = None
            if written.model is not None:
                model = self._model(written.model, ("experiments", name, "model"))
            prompt = found.prompt
            if written.tag is not None and prompt is not None:
                if tags is None:
                    tags = _tags(folder, prompt.address)
                if written.tag not in tags:
                    self._unknown_tag(written.tag, tags, name, (prompt.address, found.path), folder)
            experiments.append(Experiment(name, written.tag, model))
        return experiments

    def _unknown_tag(
        self, tag: str, tags: list[str], name: str, prompt: tuple[str, str], folder: str
    ) -> None:
        """The tag of experiment ``name``, which ``prompt`` (address, file) has no file for."""
        address, path = prompt
        hint = did_you_mean(tag, tags) or (
            f"write one with 'wink-decl overrides seed {path} --tag {tag}'"
        )
        self.problems.append(
            Diagnostic(
                f"The prompt '{address}' has no override file for the tag '{tag}' in "
                f"'{os.path.relpath(folder)}'.",
                self.places.value(("experiments", name, "tag")),
                DiagnosticCode.UNKNOWN_TAG,
                severity="warning",
                expected="one of its tags: " + ", ".join(tags) if tags else "it has no tags",
                hint=hint,
            )
        )

    def _cases(self, found: FoundPrompt) -> list[SuiteCase]:
        document = self.document
        prompt = found.prompt
        folder = os.path.dirname(self.file.path)  # noqa: PTH120
        tools = None if prompt is None else set(prompt.tools)
        builder = CheckBuilder(self.search.catalog, folder, tools)
        checker = None if prompt is None else ParamChecker(prompt.model.params, prompt.source)
        defaults = document.defaults
        place = self.places.within("defaults")
        params: dict[str, object] = {}
        checks: tuple[Check, ...] = ()
        given: list[str] = []
        if defaults is not None:
            given = list(defaults.params)
            params = defaults.params if checker is None else checker.values(defaults.params, place)
            checks = builder.checks(defaults.assert_, place.within("assert"))
        maker = CaseMaker(builder, checker, params, checks, given)
        limit = self.search.limits.max_cases
        inline = [
            RawCase(case, self.places.within("cases", index), "")
            for index, case in enumerate(document.cases)
        ]
        if len(inline) > limit:
            self.problems.append(too_many_cases(inline[limit].place.value(), limit))
            inline = inline[:limit]
        cases = maker.cases(inline)
        if document.dataset is not None:
            span = self.places.value(("dataset",))
            read = read_dataset(document.dataset, span, self.search.limits, limit - len(inline))
            self.problems.extend(read.diagnostics)
            if read.text is not None:
                self.sources[read.path] = read.text
            cases.extend(maker.cases(read.cases))
        self.problems.extend(maker.problems)
        return cases


def _tags(folder: str, address: str) -> list[str]:
    # Imported here: only a suite with tagged experiments looks at override files.
    from wink_decl.overrides import LocalOverrideStore  # noqa: PLC0415

    ns, _, key = address.rpartition("/")
    return LocalOverrideStore(folder).tags(ns, key)
