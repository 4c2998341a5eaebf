"""The public ``__all__`` of ``wink_decl`` is sorted, complete, resolvable, and imported lazily."""

import ast
import importlib
import importlib.metadata
import json
import re
import subprocess
import sys
from collections.abc import Iterator
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


def module_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a module body, with those under ``if TYPE_CHECKING:`` in its place.

    The package imports its exports there for type checkers, and on first use at run time.
    """
    for statement in body:
        if (
            isinstance(statement, ast.If)
            and isinstance(statement.test, ast.Name)
            and statement.test.id == "TYPE_CHECKING"
        ):
            yield from statement.body
        else:
            yield statement


def public_names_bound_in(source: str) -> set[str]:
    """Names the module body binds (imports, assignments, defs), without the private ones.

    ``TYPE_CHECKING`` is the flag type checkers read, not something the package offers.
    """
    names: set[str] = set()
    for statement in module_statements(ast.parse(source).body):
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
    return {name for name in names if not name.startswith("_") and name != "TYPE_CHECKING"}


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


def test_public_names_bound_in_reads_the_imports_for_type_checkers() -> None:
    source = (
        "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from x import A\n"
        "if other:\n    from y import B\n"
    )
    assert public_names_bound_in(source) == {"A"}


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


def type_checking_homes(source: str) -> dict[str, str]:
    """Each name imported under ``if TYPE_CHECKING:`` and the module it is imported from."""
    homes: dict[str, str] = {}
    for statement in module_statements(ast.parse(source).body):
        if isinstance(statement, ast.ImportFrom) and statement.module != "wink_decl":
            homes.update({alias.name: statement.module or "" for alias in statement.names})
    return homes


def test_each_name_is_imported_from_the_module_type_checkers_read() -> None:
    homes: dict[str, str] = vars(wink_decl)["_HOMES"]
    assert homes == type_checking_homes(INIT.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", wink_decl.__all__)
def test_every_exported_name_is_the_object_of_its_home_module(name: str) -> None:
    home = importlib.import_module(vars(wink_decl)["_HOMES"][name])
    assert getattr(wink_decl, name) is getattr(home, name)


def test_a_name_asked_for_once_is_kept_in_the_package() -> None:
    assert wink_decl.Budget is vars(wink_decl)["Budget"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError) as info:
        _ = wink_decl.NoSuchThing  # pyright: ignore[reportAttributeAccessIssue]
    assert str(info.value) == "module 'wink_decl' has no attribute 'NoSuchThing'"


def test_dir_lists_every_exported_name() -> None:
    listed = dir(wink_decl)
    assert [name for name in wink_decl.__all__ if name not in listed] == []
    assert listed == sorted(listed)


IMPORT_ONLY = """
import json, sys
import wink_decl
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {"wink_decl", "pydantic"})))
"""


def test_importing_the_package_imports_nothing_else() -> None:
    completed = subprocess.run(  # our own interpreter, fixed arguments
        [sys.executable, "-c", IMPORT_ONLY], capture_output=True, text=True, check=True
    )
    assert json.loads(completed.stdout) == ["wink_decl", "wink_decl._launch"]


def test_the_distribution_s_version_is_the_package_s() -> None:
    assert importlib.metadata.version("wink-decl") == wink_decl.__version__
