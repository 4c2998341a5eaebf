"""``wink_decl.evals`` lists each export three times alike and imports each on first use."""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import wink_decl.evals

INIT = Path(str(wink_decl.evals.__file__))


def isort_style(name: str) -> tuple[int, list[int | str]]:
    """ruff's RUF022 order: SCREAMING_CASE, then CamelCase, then the rest."""
    group = 0 if len(name) > 1 and name.isupper() else 1 if name[:1].isupper() else 2
    return group, [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def type_checking_homes() -> dict[str, str]:
    homes: dict[str, str] = {}
    for statement in ast.parse(INIT.read_text(encoding="utf-8")).body:
        if isinstance(statement, ast.If) and ast.unparse(statement.test) == "TYPE_CHECKING":
            for node in statement.body:
                assert isinstance(node, ast.ImportFrom)
                homes.update({alias.name: node.module or "" for alias in node.names})
    return homes


def test_the_exports_are_listed_alike_sorted_and_found_in_their_homes() -> None:
    homes: dict[str, str] = vars(wink_decl.evals)["_HOMES"]
    assert homes == type_checking_homes()
    assert wink_decl.evals.__all__ == sorted(wink_decl.evals.__all__, key=isort_style)
    assert sorted(homes) == sorted(wink_decl.evals.__all__)
    for name, home in homes.items():
        assert getattr(wink_decl.evals, name) is getattr(importlib.import_module(home), name)


def test_importing_the_package_imports_none_of_its_modules() -> None:
    code = "import json, sys, wink_decl.evals\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(  # our own interpreter, fixed arguments
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = [m for m in json.loads(done.stdout) if m.startswith("wink_decl.evals")]
    assert loaded == ["wink_decl.evals"]
