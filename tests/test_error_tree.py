"""One error tree: every exception class the package defines derives from ``WinkDeclError``."""

import importlib
import pkgutil

import pytest

import wink_decl
from wink_decl.cli._usage import UsageError
from wink_decl.cli._writers._toml_writer import NullValueError
from wink_decl.diagnostics import Diagnostic, DiagnosticCode, DiagnosticError
from wink_decl.errors import (
    DeadlineExceededError,
    EvaluationPhase,
    PromptEvaluationError,
    ProviderError,
    SingleTurnUnsupportedError,
    WinkDeclError,
)
from wink_decl.loader.regular_files import FileTooLargeError, NotAFileError
from wink_decl.runtime.filesystem import FileNotFoundInFilesystemError, PathOutsideRootError


def _every_module() -> list[str]:
    """Every module of the package but the ``__main__`` ones (importing those runs them)."""
    found = pkgutil.walk_packages(wink_decl.__path__, "wink_decl.")
    return sorted(m.name for m in found if not m.name.endswith("__main__"))


def _subclasses(cls: type[BaseException]) -> set[type[BaseException]]:
    found: set[type[BaseException]] = set()
    for sub in cls.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


def test_every_exception_class_of_the_package_is_a_wink_decl_error() -> None:
    for name in _every_module():
        importlib.import_module(name)
    ours = {c for c in _subclasses(BaseException) if c.__module__.startswith("wink_decl.")}
    strays = sorted(
        f"{c.__module__}.{c.__qualname__}" for c in ours if not issubclass(c, WinkDeclError)
    )
    assert (strays, len(ours) > 20) == ([], True)


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (DiagnosticError([]), ValueError),
        (NullValueError([("a",)]), ValueError),
        (DeadlineExceededError("late"), TimeoutError),
        (NotAFileError("p", 0o040000), OSError),
        (FileTooLargeError("p", 20, 10), OSError),
        (PathOutsideRootError("out", path="../x"), ValueError),
        (FileNotFoundInFilesystemError("gone", path="x"), LookupError),
        (UsageError("bad"), WinkDeclError),
        (SingleTurnUnsupportedError("one turn"), NotImplementedError),
    ],
    ids=lambda value: type(value).__name__,
)
def test_each_error_is_also_the_builtin_a_caller_would_catch(
    error: BaseException, builtin: type[BaseException]
) -> None:
    assert (isinstance(error, WinkDeclError), isinstance(error, builtin)) == (True, True)


def test_the_built_ins_keep_their_messages() -> None:
    found = DiagnosticError([Diagnostic("Broken.", None, DiagnosticCode.SCHEMA, path="a.yaml")])
    assert [str(found), str(DeadlineExceededError("late")), str(UsageError("bad"))] == [
        "a.yaml: error: Broken.",
        "late",
        "bad",
    ]


def test_phases_are_an_enum_that_reads_as_before() -> None:
    plain = PromptEvaluationError("stopped")
    refused = ProviderError("no", kind="other")
    assert (plain.phase, refused.phase, f"{refused.phase}", [p.value for p in EvaluationPhase]) == (
        EvaluationPhase.UNKNOWN,
        EvaluationPhase.PROVIDER,
        "provider",
        ["", "provider", "tool", "output", "deadline", "budget", "loop", "disclosure"],
    )
