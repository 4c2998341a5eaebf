"""The prompt root (``--root``, ``[tool.wink-decl]``, the path's folder) and atomic writes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from wink_decl.cli._usage import UsageError
from wink_decl.inputs import configured_root, root_finder

Run = Callable[..., tuple[int, str, str]]


def test_the_configured_root_names_the_ns(cli: Run, project: Path) -> None:
    assert cli("validate", "prompts/agents") == (0, "", "1 file checked: 1 valid, 0 invalid\n")
    assert root_finder(None)(Path("prompts/agents")) == project / "prompts"


def test_the_configured_root_is_found_from_a_subfolder(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project / "prompts" / "agents")
    assert configured_root(Path.cwd()) == project / "prompts"


def test_paths_outside_the_configured_root_use_their_folder(project: Path, tmp_path: Path) -> None:
    (project / "other").mkdir()
    find = root_finder(None)
    assert find(Path("other")) == Path("other")
    assert find(Path("other/x.wink.yaml")) == Path("other")


def test_a_pyproject_without_the_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert configured_root(Path.cwd()) is None
    assert root_finder(None)(Path("a/b.wink.yaml")) == Path("a")


def test_without_the_right_root_includes_fail(cli: Run, project: Path) -> None:
    code, out, err = cli("validate", "prompts/agents", "--root", "prompts/agents")
    assert (code, out, err) == (
        1,
        "",
        "prompts/agents/code-review.wink.yaml:29:14: error: Included file "
        "'common/safety.wink.yaml' does not exist.\n"
        "  29 |   - include: common/safety.wink.yaml#tone\n"
        "     |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "1 file checked: 0 valid, 1 invalid (1 error, 0 warnings)\n",
    )


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["validate", "prompts/agents", "--root", "prompts/release"],
            "wink-decl: error: 'prompts/agents' lies outside the prompt root 'prompts/release'\n"
            "  hint: pass a --root that contains it, or leave --root out\n",
        ),
        (
            ["render", "prompts/agents/code-review.wink.yaml", "--root", "prompts/agnets"],
            "wink-decl: error: no such file or folder: 'prompts/agnets'\n"
            "  hint: did you mean 'prompts/agents'?\n",
        ),
        (
            ["compile", "prompts/agents/code-review.wink.yaml", "--root", "pyproject.toml"],
            "wink-decl: error: --root 'pyproject.toml' is not a folder\n",
        ),
    ],
    ids=["outside", "missing", "not-a-folder"],
)
def test_root_usage_errors(cli: Run, project: Path, argv: list[str], expected: str) -> None:
    assert cli(*argv) == (2, "", expected)


@pytest.mark.parametrize(
    ("pyproject", "expected"),
    [
        (
            "[tool.wink-decl\n",
            "wink-decl: error: cannot read pyproject.toml (line 1, column 16): This table "
            "header is missing its closing ']'.\n"
            "  hint: fix the file, or pass --root to choose the prompt root yourself\n",
        ),
        (
            '[tool.wink-decl]\nroot = "promts"\n',
            "wink-decl: error: pyproject.toml: [tool.wink-decl] root = 'promts' is not a folder\n"
            "  hint: set root to a folder relative to that pyproject.toml, such as 'prompts'\n",
        ),
        (
            "[tool.wink-decl]\nroot = 3\n",
            "wink-decl: error: pyproject.toml: [tool.wink-decl] root = 3 is not a folder\n"
            "  hint: set root to a folder relative to that pyproject.toml, such as 'prompts'\n",
        ),
        (
            '[tool.wink-decl]\nroot = "/"\n',
            "wink-decl: error: pyproject.toml: [tool.wink-decl] root = '/' lies outside the "
            "folder of that pyproject.toml\n"
            "  hint: set root to a folder inside the project, such as 'prompts', or pass --root "
            "to choose a prompt root elsewhere\n",
        ),
        (
            '[tool.wink-decl]\nroot = "prompts/../.."\n',
            "wink-decl: error: pyproject.toml: [tool.wink-decl] root = 'prompts/../..' lies "
            "outside the folder of that pyproject.toml\n"
            "  hint: set root to a folder inside the project, such as 'prompts', or pass --root "
            "to choose a prompt root elsewhere\n",
        ),
        (
            '[tool.wink-decl]\nroot = "prompts"\n' + "# padding\n" * 100_001,
            "wink-decl: error: cannot read pyproject.toml (line 1, column 1): This file is "
            "1,000,044 bytes long, more than the limit of 1,000,000 bytes.\n"
            "  hint: fix the file, or pass --root to choose the prompt root yourself\n",
        ),
    ],
    ids=["broken-toml", "missing-folder", "not-text", "root-is-slash", "root-climbs", "huge"],
)
def test_configuration_errors(cli: Run, project: Path, pyproject: str, expected: str) -> None:
    # The pyproject.toml comes with the checkout: read bounded, it cannot widen the root.
    (project / "pyproject.toml").write_text(pyproject)
    assert cli("validate", "prompts") == (2, "", expected)
    assert cli("validate", "prompts", "--root", "prompts") == (
        0,
        "",
        "4 files checked: 4 valid, 0 invalid\n",
    )


def test_usage_error_render() -> None:
    error = UsageError("bad", hint="fix it", command="render")
    assert error.render() == (
        "wink-decl: error: bad\n  hint: fix it\n  run 'wink-decl render --help' for its options\n"
    )
    assert UsageError("bad").render() == "wink-decl: error: bad\n"
