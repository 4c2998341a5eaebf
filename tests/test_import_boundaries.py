"""The runtime never imports YAML, TOML, CLI or schema libraries, nor the layers above it."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import wink_decl.runtime

PACKAGE_ROOT = Path(wink_decl.runtime.__file__).parent.parent
RUNTIME = PACKAGE_ROOT / "runtime"
REPO = PACKAGE_ROOT.parent

FORBIDDEN_LIBRARIES = (
    "yaml",
    "ruamel",
    "tomllib",
    "tomli",
    "tomli_w",
    "click",
    "typer",
    "argparse",
    "jsonschema",
    "pydantic",
)
FORBIDDEN_LAYERS = ("wink_decl.loader", "wink_decl.schema", "wink_decl.compiler", "wink_decl.cli")
FORBIDDEN = FORBIDDEN_LIBRARIES + FORBIDDEN_LAYERS

IMPORT_EVERYTHING = """
import importlib, json, pkgutil, sys
import wink_decl, wink_decl.runtime as runtime
for module in pkgutil.walk_packages(runtime.__path__, runtime.__name__ + "."):
    importlib.import_module(module.name)
print(json.dumps(sorted(sys.modules)))
"""


def forbidden_root(module: str) -> str | None:
    """The forbidden name ``module`` is or lies under, or None."""
    for name in FORBIDDEN:
        if module == name or module.startswith(f"{name}."):
            return name
    return None


def resolve_relative(node: ast.ImportFrom, package: str) -> str:
    """The absolute module of ``from ...x import y`` written in ``package``."""
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def imported_modules(node: ast.AST, package: str) -> list[str]:
    """Every module an import statement (or a literal ``import_module``) may load."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        module = resolve_relative(node, package)
        if forbidden_root(module) is not None:
            return [module]
        return [f"{module}.{alias.name}" for alias in node.names]  # `from pkg import submodule`
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name | ast.Attribute)
        and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr)
        in ("import_module", "__import__")
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return [node.args[0].value]
    return []


def forbidden_imports(source: str, *, filename: str, package: str) -> list[str]:
    """``file:line: imports name`` for every forbidden import, at any depth of the file."""
    found: set[tuple[int, str]] = set()
    for node in ast.walk(ast.parse(source, filename=filename)):
        for module in imported_modules(node, package):
            if forbidden_root(module) is not None:
                found.add((getattr(node, "lineno", 0), module))
    return [f"{filename}:{line}: imports {module}" for line, module in sorted(found)]


def package_of(path: Path) -> str:
    """The package relative imports in ``path`` resolve against (for ``__init__`` too)."""
    return ".".join(path.relative_to(REPO).parts[:-1])


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import yaml\n", ["x.py:1: imports yaml"]),
        ("import json\n\ndef load():\n    import tomllib\n", ["x.py:4: imports tomllib"]),
        ("from ruamel.yaml import YAML\n", ["x.py:1: imports ruamel.yaml"]),
        ("import click as c, os\n", ["x.py:1: imports click"]),
        ("from wink_decl.loader import load\n", ["x.py:1: imports wink_decl.loader"]),
        ("from wink_decl import cli\n", ["x.py:1: imports wink_decl.cli"]),
        ("from .. import compiler\n", ["x.py:1: imports wink_decl.compiler"]),
        ("from ..schema.model import Doc\n", ["x.py:1: imports wink_decl.schema.model"]),
        (
            "import importlib\ndef f():\n    return importlib.import_module('pydantic')\n",
            ["x.py:3: imports pydantic"],
        ),
        ("if True:\n    __import__('argparse')\n", ["x.py:2: imports argparse"]),
        ("import json, yamlish\nfrom . import tool\nfrom wink_decl import errors\n", []),
        ("from .tool import Tool\nimport wink_decl.runtime.session\n", []),
    ],
    ids=[
        "top-level",
        "lazy-in-function",
        "from-submodule",
        "aliased",
        "layer-module",
        "layer-by-name",
        "relative-layer",
        "relative-layer-submodule",
        "import-module-call",
        "dunder-import",
        "allowed-lookalikes",
        "allowed-relative",
    ],
)
def test_scanner_finds_forbidden_imports(source: str, expected: list[str]) -> None:
    assert forbidden_imports(source, filename="x.py", package="wink_decl.runtime") == expected


def test_runtime_sources_import_nothing_forbidden() -> None:
    files = sorted(RUNTIME.rglob("*.py"))
    assert RUNTIME / "tool.py" in files
    problems = [
        problem
        for path in files
        for problem in forbidden_imports(
            path.read_text(encoding="utf-8"),
            filename=str(path.relative_to(REPO)),
            package=package_of(path),
        )
    ]
    assert problems == [], "\n".join(problems)


def test_importing_the_runtime_loads_nothing_forbidden() -> None:
    completed = subprocess.run(  # our own interpreter, fixed arguments
        [sys.executable, "-c", IMPORT_EVERYTHING],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    modules: list[str] = json.loads(completed.stdout)
    assert "wink_decl.runtime.tool" in modules
    assert "wink_decl.runtime.session.session" in modules
    loaded = sorted(module for module in modules if forbidden_root(module) is not None)
    assert loaded == []


def test_package_of_resolves_modules_and_packages() -> None:
    assert package_of(RUNTIME / "tool.py") == "wink_decl.runtime"
    assert package_of(RUNTIME / "session" / "__init__.py") == "wink_decl.runtime.session"
    assert package_of(RUNTIME / "session" / "session.py") == "wink_decl.runtime.session"


def cli_imports(path: Path) -> list[str]:
    """``file:line: imports name`` for every import of ``wink_decl.cli`` in ``path``."""
    filename = str(path.relative_to(REPO))
    found: set[tuple[int, str]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=filename)):
        for module in imported_modules(node, package_of(path)):
            if module == "wink_decl.cli" or module.startswith("wink_decl.cli."):
                found.add((getattr(node, "lineno", 0), module))
    return [f"{filename}:{line}: imports {module}" for line, module in sorted(found)]


def test_only_the_cli_and_the_main_module_import_the_cli() -> None:
    """The command sits on top: no library layer may depend on it."""
    cli = PACKAGE_ROOT / "cli"
    entry = PACKAGE_ROOT / "__main__.py"
    files = sorted(p for p in PACKAGE_ROOT.rglob("*.py") if not p.is_relative_to(cli))
    assert PACKAGE_ROOT / "compiler" / "compile.py" in files
    assert cli_imports(entry) == ["wink_decl/__main__.py:7: imports wink_decl.cli"]
    problems = [problem for path in files if path != entry for problem in cli_imports(path)]
    assert problems == [], "\n".join(problems)


def private_doors(source: str, *, filename: str, package: str) -> list[str]:
    """``file:line: imports name`` for each private part of another subpackage imported.

    A subpackage's ``_name`` modules (and ``_name`` names) are its own: what another package
    needs is public in its home package, so it can be renamed inside without breaking others.
    """
    home = package.split(".")[1] if package.count(".") else None
    found: set[tuple[int, str]] = set()
    for node in ast.walk(ast.parse(source, filename=filename)):
        for module in imported_modules(node, package):
            parts = module.split(".")
            if (
                len(parts) > 2
                and parts[0] == "wink_decl"
                and parts[1] != home
                and (PACKAGE_ROOT / parts[1]).is_dir()
                and any(part.startswith("_") and not part.startswith("__") for part in parts[2:])
            ):
                found.add((getattr(node, "lineno", 0), module))
    return [f"{filename}:{line}: imports {module}" for line, module in sorted(found)]


@pytest.mark.parametrize(
    ("source", "package", "expected"),
    [
        (
            "from wink_decl.runtime._renderer import Renderer\n",
            "wink_decl.compiler",
            ["x.py:1: imports wink_decl.runtime._renderer.Renderer"],
        ),
        (
            "from wink_decl.runtime import _renderer\n",
            "wink_decl.cli._writers",
            ["x.py:1: imports wink_decl.runtime._renderer"],
        ),
        (
            "def f():\n    import wink_decl.loader.regular_files._x\n",
            "wink_decl",
            ["x.py:2: imports wink_decl.loader.regular_files._x"],
        ),
        (
            "from ..runtime.keys import _KEY_RULE\n",
            "wink_decl.compiler",
            ["x.py:1: imports wink_decl.runtime.keys._KEY_RULE"],
        ),
        ("from wink_decl.runtime._renderer import Renderer\n", "wink_decl.runtime", []),
        ("from wink_decl.runtime.session import _state\n", "wink_decl.runtime.session", []),
        ("from wink_decl.runtime.keys import KEY_PATTERN\n", "wink_decl.compiler", []),
        ("from wink_decl import _atomic, runtime\n", "wink_decl.cli", []),
        ("from wink_decl.runtime.tool import __all__\n", "wink_decl.cli", []),
    ],
    ids=[
        "private-module",
        "private-module-by-name",
        "from-the-top-level",
        "private-name",
        "own-package",
        "own-subpackage",
        "public-module",
        "top-level-module",
        "dunder-name",
    ],
)
def test_scanner_finds_private_doors(source: str, package: str, expected: list[str]) -> None:
    assert private_doors(source, filename="x.py", package=package) == expected


def test_no_package_imports_the_private_modules_of_another() -> None:
    files = sorted(PACKAGE_ROOT.rglob("*.py"))
    assert PACKAGE_ROOT / "compiler" / "_sections.py" in files
    problems = [
        problem
        for path in files
        for problem in private_doors(
            path.read_text(encoding="utf-8"),
            filename=str(path.relative_to(REPO)),
            package=package_of(path),
        )
    ]
    assert problems == [], "\n".join(problems)


def test_no_two_modules_share_a_name() -> None:
    """A module's name alone says what it holds, in tracebacks, coverage and searches too."""
    names: dict[str, list[str]] = {}
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        if path.name not in ("__init__.py", "__main__.py"):
            names.setdefault(path.name, []).append(str(path.relative_to(REPO)))
    shared = {name: paths for name, paths in names.items() if len(paths) > 1}
    assert shared == {}
    assert len(names) > 100
