"""The compiler, evals, plugins and overrides packages import each export on first use.

Each package lists its names three times (for type checkers, in ``__all__`` and in
``_HOMES``); these tests keep the three the same and every name the object of its module.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import wink_decl.compiler
import wink_decl.evals
import wink_decl.overrides
import wink_decl.plugins

PACKAGES = (wink_decl.compiler, wink_decl.evals, wink_decl.overrides, wink_decl.plugins)
IDS = [package.__name__ for package in PACKAGES]


def type_checking_homes(package: ModuleType) -> dict[str, str]:
    """Each name the package imports under ``if TYPE_CHECKING:``, with its module."""
    source = Path(str(package.__file__)).read_text(encoding="utf-8")
    homes: dict[str, str] = {}
    for statement in ast.parse(source).body:
        if isinstance(statement, ast.If) and ast.unparse(statement.test) == "TYPE_CHECKING":
            for node in statement.body:
                assert isinstance(node, ast.ImportFrom)
                homes.update({alias.name: node.module or "" for alias in node.names})
    return homes


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_the_homes_are_the_imports_type_checkers_read(package: ModuleType) -> None:
    homes: dict[str, str] = vars(package)["_HOMES"]
    assert homes == type_checking_homes(package)
    assert sorted(homes) == sorted(package.__all__)


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_every_name_is_the_object_of_its_home_module(package: ModuleType) -> None:
    homes: dict[str, str] = vars(package)["_HOMES"]
    for name, home in homes.items():
        assert getattr(package, name) is getattr(importlib.import_module(home), name)
        assert vars(package)[name] is getattr(package, name)  # kept after the first look-up


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_an_unknown_name_is_an_attribute_error(package: ModuleType) -> None:
    with pytest.raises(AttributeError) as info:
        getattr(package, "NoSuchThing")  # noqa: B009  # the name is the point
    assert str(info.value) == f"module '{package.__name__}' has no attribute 'NoSuchThing'"


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_dir_lists_every_exported_name_sorted(package: ModuleType) -> None:
    listed = dir(package)
    assert [name for name in package.__all__ if name not in listed] == []
    assert listed == sorted(listed)


IMPORT_ONLY = """
import json, sys
import wink_decl.compiler, wink_decl.evals, wink_decl.overrides, wink_decl.plugins
print(json.dumps(sorted(m for m in sys.modules if m.startswith("wink_decl"))))
"""


def test_importing_the_packages_imports_none_of_their_modules() -> None:
    completed = subprocess.run(  # our own interpreter, fixed arguments
        [sys.executable, "-c", IMPORT_ONLY], capture_output=True, text=True, check=True
    )
    assert json.loads(completed.stdout) == [
        "wink_decl",
        "wink_decl._exports",
        "wink_decl._launch",
        "wink_decl.compiler",
        "wink_decl.evals",
        "wink_decl.overrides",
        "wink_decl.plugins",
    ]
