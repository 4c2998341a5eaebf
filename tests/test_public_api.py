"""The public ``__all__`` of ``wink_decl`` is sorted, complete and resolvable."""

import ast
import re
from pathlib import Path

import pytest

import wink_decl

INIT = Path(wink_decl.__file__)


def isort_style(name: str) -> tuple[int, list[int | str]]:
    """ruff's RUF022 order: SCREAMING_CASE, then CamelCase, then the rest; natural within each."""
    if len(name) > 1 and name.isupper():
        group = 0
    elif name[:1].isupper():
        group = 1
    else:
        group = 2
    natural = [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]
    return group, natural


def public_names_bound_in(source: str) -> set[str]:
    """Names the module body binds (imports, assignments, defs), without the private ones."""
    names: set[str] = set()
    for statement in ast.parse(source).body:
        if isinstance(statement, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in statement.names)
        elif isinstance(statement, ast.Assign):
            names.update(t.id for t in statement.targets if isinstance(t, ast.Name))
        elif isinstance(statement, ast.AnnAssign | ast.AugAssign) and isinstance(
            statement.target, ast.Name
        ):
            names.add(statement.target.id)
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(statement.name)
    return {name for name in names if not name.startswith("_")}


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["tool", "Tool", "TOOL"], ["TOOL", "Tool", "tool"]),
        (["Tool10", "Tool9", "T"], ["T", "Tool9", "Tool10"]),
        (["b", "a_2", "A_B", "Ab"], ["A_B", "Ab", "a_2", "b"]),
    ],
    ids=["case-groups", "natural-numbers", "mixed"],
)
def test_isort_style_key(names: list[str], expected: list[str]) -> None:
    assert sorted(names, key=isort_style) == expected


def test_public_names_bound_in_finds_every_binding() -> None:
    source = (
        "import json\nimport os.path\nfrom x import a, b as c, _d\n"
        "E = 1\nf: int = 2\ndef g(): ...\nclass H: ...\n_private = 3\n__all__ = []\n"
    )
    assert public_names_bound_in(source) == {"json", "os", "a", "c", "E", "f", "g", "H"}


def test_all_is_sorted() -> None:
    assert wink_decl.__all__ == sorted(wink_decl.__all__, key=isort_style)


def test_all_has_no_duplicates() -> None:
    assert len(wink_decl.__all__) == len(set(wink_decl.__all__))


def test_all_lists_every_public_name_of_the_package_init() -> None:
    bound = public_names_bound_in(INIT.read_text(encoding="utf-8"))
    assert sorted(bound - set(wink_decl.__all__), key=isort_style) == []
    assert sorted(set(wink_decl.__all__) - bound, key=isort_style) == []


@pytest.mark.parametrize("name", wink_decl.__all__)
def test_every_exported_name_resolves(name: str) -> None:
    assert getattr(wink_decl, name, None) is not None
