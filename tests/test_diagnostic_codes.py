"""Every diagnostic code is documented, and every documented example gives exactly its code."""

import ast
import io
import shlex
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

import wink_decl.diagnostics as diagnostics_module
from wink_decl import diagnostic_docs
from wink_decl.cli._app import run
from wink_decl.cli._command import Console
from wink_decl.compiler.compile import default_catalog
from wink_decl.diagnostic_codes import DiagnosticCode, code_of
from wink_decl.diagnostic_docs import (
    CODE_DOCS,
    DOC_PATH,
    CodeDoc,
    _shown,  # pyright: ignore[reportPrivateUsage]
    main,
    markdown,
)
from wink_decl.diagnostics import Diagnostic, DiagnosticError


def make_example(folder: Path, doc: CodeDoc) -> None:
    """The example's files, folders and links under ``folder``."""
    for name, text in doc.files.items():
        path = folder / name
        if name.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
    for name, target in doc.links.items():
        (folder / name).symlink_to(target)


def _run_python(code: str) -> Iterable[Diagnostic]:
    """The diagnostics the last line of ``code`` gives, or those of the error it raises."""
    *body, last = code.splitlines()
    scope: dict[str, object] = {}
    try:
        exec("\n".join(body), scope)  # noqa: S102  # the documented example, as written
        return eval(last, scope)  # noqa: S307
    except DiagnosticError as error:
        return error.diagnostics


def run_example(folder: Path, doc: CodeDoc, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The code of every diagnostic the example reports, in the order reported."""
    make_example(folder, doc)
    monkeypatch.chdir(folder)
    command = doc.run
    if command.startswith("PYTHONPATH="):
        where, command = command.removeprefix("PYTHONPATH=").split(" ", 1)
        monkeypatch.syspath_prepend(str(folder / where))  # pyright: ignore[reportUnknownMemberType]
        default_catalog.cache_clear()  # the catalog is scanned once per process
    if not command.startswith("wink-decl "):
        return [d.code for d in _run_python(command)]
    reported: list[str] = []
    render_one = diagnostics_module._render_one  # pyright: ignore[reportPrivateUsage]

    def record(diagnostic: Diagnostic, lines: list[str] | None) -> str:
        reported.append(diagnostic.code)
        return render_one(diagnostic, lines)

    monkeypatch.setattr(diagnostics_module, "_render_one", record)
    err = io.StringIO()
    assert run(shlex.split(command)[1:], Console(io.StringIO(), err)) in (0, 1), err.getvalue()
    return reported


@pytest.fixture(autouse=True)
def fresh_catalog() -> Iterator[None]:
    """Tests after an example that installed plugins must not see them."""
    yield
    default_catalog.cache_clear()


@pytest.mark.parametrize(
    "code", [c for c in DiagnosticCode if CODE_DOCS[c].run], ids=lambda c: str(c)
)
def test_each_example_gives_exactly_its_code(
    code: DiagnosticCode, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = CODE_DOCS[code]
    reported = run_example(tmp_path, doc, monkeypatch)
    assert sorted(set(reported)) == sorted({code, *doc.also})


def test_every_code_is_documented_and_only_safety_nets_lack_an_example() -> None:
    without = [c for c in DiagnosticCode if not CODE_DOCS[c].run]
    assert (list(CODE_DOCS), without) == (
        list(DiagnosticCode),
        [DiagnosticCode.PROMPT, DiagnosticCode.SCHEMA, DiagnosticCode.SECTION, DiagnosticCode.TOOL],
    )


REGENERATE = "regenerate with: python -m wink_decl.diagnostic_docs --write"


def test_the_committed_page_is_the_generated_one_byte_for_byte() -> None:
    committed = DOC_PATH.read_bytes()
    assert committed == markdown().encode("utf-8"), REGENERATE


def test_main_prints_writes_and_refuses_other_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "diagnostics.md"
    monkeypatch.setattr(diagnostic_docs, "DOC_PATH", target)
    statuses = [main([]), main(["--write"]), main(["--check"])]
    out, err = capsys.readouterr()
    assert (statuses, out, err, target.read_text(encoding="utf-8")) == (
        [0, 0, 2],
        f"{markdown()}wrote {target}\n",
        "usage: python -m wink_decl.diagnostic_docs [--write]\n",
        markdown(),
    )


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\ufeffkey: a\n", "\\ufeffkey: a\n"),
        ("title: Caf\udce9\n", "title: Caf\\xe9\n"),
        ("\ttitle: x\n", "\\ttitle: x\n"),
    ],
    ids=["bom", "latin-1-byte", "tab"],
)
def test_the_page_shows_what_cannot_be_seen_as_escapes(text: str, shown: str) -> None:
    assert _shown(text) == shown  # pyright: ignore[reportPrivateUsage]


def test_code_of_gives_the_member_or_the_callers_own_text() -> None:
    assert [code_of("unknown-key"), code_of("my-check")] == [DiagnosticCode.UNKNOWN_KEY, "my-check"]
    assert type(code_of("unknown-key")) is DiagnosticCode


def test_a_cached_diagnostic_reads_back_with_its_member() -> None:
    made = Diagnostic("m", None, DiagnosticCode.TAB, path="p.yaml")
    assert type(Diagnostic.from_json(made.to_json()).code) is DiagnosticCode


def _literal_codes(source: str) -> list[str]:
    """Every code written as a bare string where a diagnostic or a problem is made."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        given = [k.value for k in node.keywords if k.arg == "code"]
        if isinstance(node.func, ast.Name) and node.func.id == "Diagnostic":
            given += node.args[2:3]
        found += [str(g.value) for g in given if isinstance(g, ast.Constant)]
    return found


def test_the_package_writes_every_code_as_a_member() -> None:
    package = Path(diagnostic_docs.__file__).parent
    written = {
        str(path.relative_to(package)): _literal_codes(path.read_text(encoding="utf-8"))
        for path in sorted(package.rglob("*.py"))
    }
    assert {path: codes for path, codes in written.items() if codes} == {}
    assert _literal_codes('Diagnostic("m", None, "x")\nProblem("m", code="y")\n') == ["x", "y"]
