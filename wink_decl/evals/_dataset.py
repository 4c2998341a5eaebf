"""Cases made from what a file wrote: params checked, defaults applied, checks built.

``Dataset.load(path)`` reads a dataset file on its own; an eval file's ``dataset:`` is read by
``read_dataset`` (a path relative to the eval file, inside its folder).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, DiagnosticError, Span, clip
from wink_decl.evals._case_params import ParamChecker
from wink_decl.evals._check_build import CheckBuilder
from wink_decl.evals._dataset_files import (
    DATASET_FILE,
    DATASET_SUFFIXES,
    RawCase,
    Read,
    parse_dataset,
)
from wink_decl.evals._eval_types import Sample
from wink_decl.evals._nearby import nearby
from wink_decl.evals._suite_types import SuiteCase
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.loader import FileTooLargeError, NotAFileError, read_bytes
from wink_decl.loader.limit_diagnostics import too_many_bytes

if TYPE_CHECKING:
    from wink_decl.evals._checks import Check
    from wink_decl.plugins import PluginCatalog
    from wink_decl.schema import ParamSpec

__all__ = ["CaseMaker", "Dataset", "read_dataset"]


@dataclass(frozen=True, slots=True)
class Dataset:
    """The cases of a dataset file, each a sample and its checks (docs/evals.md)."""

    path: str
    cases: tuple[SuiteCase, ...]

    @property
    def samples(self) -> tuple[Sample, ...]:
        """Each case's sample, in the file's order."""
        return tuple(case.sample for case in self.cases)

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        *,
        params: Mapping[str, ParamSpec] | None = None,
        limits: Limits = DEFAULT_LIMITS,
        catalog: PluginCatalog | None = None,
    ) -> Dataset:
        """The cases of the JSONL, CSV or YAML file at ``path``.

        With ``params`` (a prompt's declarations) each case's params are checked against
        them and a CSV's cells converted by their types; without, a CSV's cells stay text.

        Raises:
            DiagnosticError: every problem found, with the file's text to quote.
        """
        # Imported here: the catalog's module is needed only to make one.
        from wink_decl.plugins import PluginCatalog  # noqa: PLC0415

        shown = os.fspath(path)
        read = read_dataset(shown, None, limits, limits.max_cases)
        folder = os.path.dirname(shown)  # noqa: PTH120
        checker = None if params is None else ParamChecker(params, shown)
        maker = CaseMaker(CheckBuilder(catalog or PluginCatalog(), folder), checker)
        cases = maker.cases(read.cases)
        problems = [*read.diagnostics, *maker.problems]
        if any(problem.severity == "error" for problem in problems):
            sources = {} if read.text is None else {shown: read.text}
            raise DiagnosticError(problems, sources=sources)
        return cls(shown, tuple(cases))


class CaseMaker:
    """Makes suite cases of cases as read, and collects what is wrong with them.

    ``checker`` knows the prompt's params (None: not known, values are taken as written);
    ``params`` (the values that fit) and ``checks`` are what every case gets first (the eval
    file's defaults).
    """

    def __init__(
        self,
        builder: CheckBuilder,
        checker: ParamChecker | None,
        params: Mapping[str, object] | None = None,
        checks: tuple[Check, ...] = (),
        given: Collection[str] = (),
    ) -> None:
        self.builder = builder
        self.checker = checker
        self.params = params or {}
        self.checks = checks
        self.given = frozenset(given)
        """The names the defaults give a value, fitting or not: none of them is missing."""
        self._seen: dict[str, Span] = {}
        self._duplicates: list[Diagnostic] = []

    @property
    def problems(self) -> list[Diagnostic]:
        """Every problem found so far, in the cases' checks and params and their ids."""
        found = [*self.builder.problems, *self._duplicates]
        return found if self.checker is None else [*found, *self.checker.problems]

    def cases(self, raws: Sequence[RawCase]) -> list[SuiteCase]:
        """A suite case of each case read, defaults applied."""
        return [self.case(raw) for raw in raws]

    def case(self, raw: RawCase) -> SuiteCase:
        """One suite case: its params checked, the defaults' checks before its own."""
        written = raw.case
        case_id = written.id or raw.default_id
        self._unique(case_id, raw.place.value(("id",)))
        checker = self.checker
        if checker is None:
            own: dict[str, object] = {**written.params, **raw.texts}
        else:
            own = {
                **checker.values(written.params, raw.place),
                **checker.texts(raw.texts, raw.place),
            }
            given = self.given.union(written.params, raw.texts)
            checker.missing(given, case_id, raw.place.value(("id",)))
        checks = self.builder.checks(written.assert_, raw.place.within("assert"))
        sample = Sample(case_id, {**self.params, **own}, written.expected)
        return SuiteCase(sample, (*self.checks, *checks), written.repeat)

    def _unique(self, case_id: str, span: Span) -> None:
        first = self._seen.get(case_id)
        if first is None:
            self._seen[case_id] = span
            return
        self._duplicates.append(
            Diagnostic(
                f"Case id '{case_id}' is used twice (first on line {first.line}"
                + ("" if first.path == span.path else f" of {first.path}")
                + ").",
                span,
                DiagnosticCode.DUPLICATE_CASE,
                hint="give each case an id of its own",
            )
        )


def read_dataset(written: str, ref: Span | None, limits: Limits, budget: int) -> Read:
    """The cases of the dataset ``written`` (a path, relative to where ``ref`` is written).

    ``ref`` is the eval file's ``dataset:`` value: the file must lie in that file's folder,
    and problems with the file as a whole point there. None: ``written`` is the path itself.
    """
    folder = "" if ref is None else os.path.dirname(ref.path)  # noqa: PTH120
    path = os.path.normpath(os.path.join(folder, written))  # noqa: PTH118
    return _read(written, path, folder, ref, limits, budget)._replace(path=path)


def _read(
    written: str, path: str, folder: str, ref: Span | None, limits: Limits, budget: int
) -> Read:
    problem = _unusable(written, path, folder, ref)
    if problem is not None:
        return Read([], [problem], None)
    try:
        content = read_bytes(path, replace(limits, max_bytes=limits.max_dataset_bytes))
    except FileTooLargeError as error:
        too_large = too_many_bytes(path, error.size, error.limit, kind=DATASET_FILE)
        return Read([], [too_large], None)
    except NotAFileError as error:
        return Read([], [_at(ref, path, f"it is {error.kind}, not a regular file")], None)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        return Read([], [_at(ref, path, reason[:1].lower() + reason[1:])], None)
    return parse_dataset(content, path, limits, budget)


def _unusable(written: str, path: str, folder: str, ref: Span | None) -> Diagnostic | None:
    """Why the file at ``path`` is not read, before it is opened; None when it may be."""
    if not path.lower().endswith(DATASET_SUFFIXES):
        return Diagnostic(
            f"'{clip(written)}' is not a dataset file: a dataset is JSONL, CSV or YAML.",
            ref,
            DiagnosticCode.DATASET,
            expected="a file whose name ends in .jsonl, .csv, .yaml or .yml",
            path=None if ref is not None else path,
        )
    if not os.path.lexists(path):
        return _missing(written, path, ref)
    if ref is not None and not _inside(path, folder or os.curdir):
        return Diagnostic(
            f"The dataset '{path}' lies outside the eval file's folder, so it is not read.",
            ref,
            DiagnosticCode.DATASET,
            expected="a file inside the folder of the eval file (links included)",
            hint="move the dataset beside the eval file, or into a folder below it",
        )
    return None


def _inside(path: str, folder: str) -> bool:
    real, top = os.path.realpath(path), os.path.realpath(folder)
    return real.startswith(top.rstrip(os.sep) + os.sep)


def _missing(written: str, path: str, ref: Span | None) -> Diagnostic:
    relative = " (the path is relative to the eval file)" if ref is not None else ""
    return Diagnostic(
        f"There is no dataset file '{path}'{relative}.",
        ref,
        DiagnosticCode.DATASET,
        hint=nearby(written, path, DATASET_SUFFIXES),
        path=None if ref is not None else path,
    )


def _at(ref: Span | None, path: str, reason: str) -> Diagnostic:
    return Diagnostic(
        f"The dataset '{path}' cannot be read: {reason}.",
        ref,
        DiagnosticCode.DATASET,
        expected="a regular file that can be read",
        path=None if ref is not None else path,
    )
