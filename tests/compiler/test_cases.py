"""Golden cases: a folder per case, holding a prompt file and its whole expected output.

``tests/cases/valid/<case>/``: the prompt, optional ``params.json`` and ``open.json`` (section
keys to render at full), and ``expected.txt``: the rendered text and the tool names.
``tests/cases/invalid/<case>/``: the prompt (plus any files it includes), optional
``params.json``, and ``expected.txt``: every diagnostic, exactly as authors see it: the
compiler's (what ``validate`` reports), then, for a file that compiles, those of binding its
plugins (``compile``, ``render``, ``run``), else of its params.
Adding a case is adding a folder. ``WINK_UPDATE_GOLDEN=1`` rewrites the expected files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

import pytest
from golden import updating_golden

from wink_decl import SectionVisibility
from wink_decl.compiler import bind_plugins, compile_file, make_params
from wink_decl.compiler.registry import find_prompt_files
from wink_decl.diagnostics import DiagnosticError, render_text

CASES = Path(__file__).resolve().parent.parent / "cases"


def case_dirs(kind: str) -> list[Path]:
    return sorted(p for p in (CASES / kind).iterdir() if p.is_dir())


def main_prompt(case: Path) -> Path:
    (prompt,) = [
        p for p in find_prompt_files(case) if p.parent == case and p.stem.startswith("prompt")
    ]
    return prompt


def check(case: Path, actual: str) -> None:
    expected = case / "expected.txt"
    if updating_golden():
        expected.write_text(actual)
    assert actual == expected.read_text()


def options(case: Path, name: str, default: object) -> object:
    path = case / name
    return json.loads(path.read_text()) if path.exists() else default


@pytest.mark.parametrize("case", case_dirs("valid"), ids=lambda p: p.name)
def test_valid_case(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(case)
    result = compile_file(main_prompt(case).name, root=".")
    assert render_text(result.diagnostics, result.sources) == ""
    assert result.prompt is not None
    assert bind_plugins(result.prompt, rendering_only=True) == []  # as wink-decl render binds
    params = make_params(result.prompt, options(case, "params.json", {}))  # pyright: ignore[reportArgumentType]
    opened = cast("list[str]", options(case, "open.json", []))
    overrides = dict.fromkeys(opened, SectionVisibility.FULL)  # pyright: ignore[reportGeneralTypeIssues]
    rendered = result.prompt.template.render(*params, visibility_overrides=overrides)
    check(case, f"{rendered.text}\n\ntools: {', '.join(rendered.tool_names) or '(none)'}\n")


@pytest.mark.parametrize("case", case_dirs("invalid"), ids=lambda p: p.name)
def test_invalid_case(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(case)
    result = compile_file(main_prompt(case).name, root=".")
    diagnostics = list(result.diagnostics)
    bound = [] if result.prompt is None else bind_plugins(result.prompt)
    diagnostics.extend(bound)
    if result.prompt is not None and not bound:
        with pytest.raises(DiagnosticError) as info:
            make_params(result.prompt, options(case, "params.json", {}))  # pyright: ignore[reportArgumentType]
        diagnostics.extend(info.value.diagnostics)
    assert diagnostics, "an invalid case must produce diagnostics"
    check(case, render_text(diagnostics, result.sources) + "\n")


def test_yaml_and_toml_twins_mean_the_same() -> None:
    """Each ``<name>-yaml`` valid case with a ``<name>-toml`` twin renders identically."""
    twins = [p for p in case_dirs("valid") if p.name.endswith("-yaml")]
    assert twins
    for yaml_case in twins:
        toml_case = yaml_case.with_name(yaml_case.name[: -len("yaml")] + "toml")
        assert (yaml_case / "expected.txt").read_text() == (toml_case / "expected.txt").read_text()


def every_prompt_file() -> list[object]:
    """Each prompt file of every case (included files too) and of ``prompts/``, with its root."""
    roots = [*case_dirs("valid"), *case_dirs("invalid"), CASES.parent.parent / "prompts"]
    return [
        pytest.param(root, path, id=f"{root.name}/{path.relative_to(root)}")
        for root in roots
        for path in find_prompt_files(root)
    ]


@pytest.mark.parametrize(("root", "path"), every_prompt_file())
def test_checking_only_finds_what_compiling_does(
    root: Path, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``validate`` runs: every diagnostic of a full compile, and no prompt built."""
    monkeypatch.chdir(root)
    shown = str(path.relative_to(root))
    full = compile_file(shown, root=".")
    checked = compile_file(shown, root=".", check_only=True)
    assert checked.diagnostics == full.diagnostics
    assert checked.sources == full.sources
    assert checked.includes == full.includes
    assert checked.prompt is None
    errors = [d for d in checked.diagnostics if d.severity == "error"]
    assert (full.prompt is not None) == (not errors)
