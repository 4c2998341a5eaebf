"""Every message that says how to install an extra says it one way, through one helper."""

from __future__ import annotations

import ast
from pathlib import Path

import wink_decl
from wink_decl._install_hint import install_hint

PACKAGE = Path(wink_decl.__file__).parent
HELPER = PACKAGE / "_install_hint.py"


def test_the_hint_is_a_pip_line_quoted_for_every_shell() -> None:
    assert install_hint("preview") == "pip install 'wink-decl[preview]'"


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (they may show the line as text)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _spelt_by_hand(path: Path) -> list[str]:
    """Where a string in ``path`` (not a docstring) names an extra without the helper."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    return [
        f"{path.relative_to(PACKAGE)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and "wink-decl[" in node.value
    ]


def test_no_message_spells_an_install_line_by_hand() -> None:
    modules = sorted(path for path in PACKAGE.rglob("*.py") if path != HELPER)
    assert [where for path in modules for where in _spelt_by_hand(path)] == []
