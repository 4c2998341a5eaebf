"""The layers import one way: cli -> compiler -> schema -> loader; runtime -> prompt -> errors.

The prompt and the runtime never import YAML, TOML, CLI or schema libraries, nor the layers
above them; the prompt never imports the runtime; neither holds a circle of modules.
"""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import wink_decl.runtime

PACKAGE_ROOT = Path(wink_decl.runtime.__file__).parent.parent
RUNTIME = PACKAGE_ROOT / "runtime"
PROMPT = PACKAGE_ROOT / "prompt"
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
PROMPT_FORBIDDEN = (*FORBIDDEN, "wink_decl.runtime", "wink_decl.adapters")
"""The prompt sits below the runtime: it names what it needs of a run as protocols."""

IMPORT_EVERYTHING = """
import importlib, json, pkgutil, sys
import wink_decl, wink_decl.{layer} as layer
for module in pkgutil.walk_packages(layer.__path__, layer.__name__ + "."):
    importlib.import_module(module.name)
print(json.dumps(sorted(sys.modules)))
"""


def forbidden_root(module: str, forbidden: tuple[str, ...] = FORBIDDEN) -> str | None:
    """The ``forbidden`` name ``module`` is or lies under, or None."""
    for name in forbidden:
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


def forbidden_imports(
    source: str, *, filename: str, package: str, forbidden: tuple[str, ...] = FORBIDDEN
) -> list[str]:
    """``file:line: imports name`` for every ``forbidden`` import, at any depth of the file."""
    found: set[tuple[int, str]] = set()
    for node in ast.walk(ast.parse(source, filename=filename)):
        for module in imported_modules(node, package):
            if forbidden_root(module, forbidden) is not None:
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


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "from wink_decl.runtime.session import Session\n",
            ["x.py:1: imports wink_decl.runtime.session.Session"],
        ),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..runtime import loop\n",
            ["x.py:3: imports wink_decl.runtime.loop"],
        ),
        (
            "import wink_decl.adapters.openai_chat\n",
            ["x.py:1: imports wink_decl.adapters.openai_chat"],
        ),
        ("from wink_decl.compiler import compile\n", ["x.py:1: imports wink_decl.compiler"]),
        ("from .tool import Tool\nfrom wink_decl import errors, suggestions\n", []),
    ],
    ids=["runtime", "runtime-when-type-checking", "adapters", "compiler", "allowed"],
)
def test_scanner_finds_what_the_prompt_must_not_import(source: str, expected: list[str]) -> None:
    found = forbidden_imports(
        source, filename="x.py", package="wink_decl.prompt", forbidden=PROMPT_FORBIDDEN
    )
    assert found == expected


@pytest.mark.parametrize(
    ("layer", "forbidden", "witness"),
    [(RUNTIME, FORBIDDEN, "executor.py"), (PROMPT, PROMPT_FORBIDDEN, "tool.py")],
    ids=["runtime", "prompt"],
)
def test_layer_sources_import_nothing_forbidden(
    layer: Path, forbidden: tuple[str, ...], witness: str
) -> None:
    files = sorted(layer.rglob("*.py"))
    assert layer / witness in files
    problems = [
        problem
        for path in files
        for problem in forbidden_imports(
            path.read_text(encoding="utf-8"),
            filename=str(path.relative_to(REPO)),
            package=package_of(path),
            forbidden=forbidden,
        )
    ]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize(
    ("layer", "forbidden", "witness"),
    [
        ("runtime", FORBIDDEN, "wink_decl.runtime.session.session"),
        ("prompt", PROMPT_FORBIDDEN, "wink_decl.prompt.tool"),
    ],
    ids=["runtime", "prompt"],
)
def test_importing_a_layer_loads_nothing_forbidden(
    layer: str, forbidden: tuple[str, ...], witness: str
) -> None:
    completed = subprocess.run(  # our own interpreter, fixed arguments
        [sys.executable, "-c", IMPORT_EVERYTHING.format(layer=layer)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    modules: list[str] = json.loads(completed.stdout)
    assert witness in modules
    assert "wink_decl.prompt.section" in modules
    loaded = sorted(module for module in modules if forbidden_root(module, forbidden) is not None)
    assert loaded == []


def module_name(path: Path) -> str:
    """The dotted name of the module at ``path`` (a package's name for its ``__init__``)."""
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def graph_imports(node: ast.AST, package: str) -> list[str]:
    """As ``imported_modules``, but ``from pkg import name`` is ``pkg.name`` for every package.

    (``imported_modules`` stops at a forbidden layer's name, which is all its check needs.)
    """
    if isinstance(node, ast.ImportFrom):
        module = resolve_relative(node, package)
        return [f"{module}.{alias.name}" for alias in node.names]
    return imported_modules(node, package)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module under ``root`` and the modules of the package it imports, at any depth.

    Relative and absolute imports count, those under ``TYPE_CHECKING`` and inside functions too:
    a name imported from a package leads to its submodule when there is one, else the package.
    """
    paths = {module_name(path): path for path in sorted(root.rglob("*.py"))}
    known = {module_name(path) for path in PACKAGE_ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        edges: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            for imported in graph_imports(node, package_of(path)):
                module = imported
                while module and module not in known:  # `from pkg import name` -> pkg
                    module = module.rpartition(".")[0]
                if module and module != name:
                    edges.add(module)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of modules (strongly connected groups of two or more), each sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for target in sorted(graph.get(module, set()) & graph.keys()):
            if target not in order:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], order[target])
        if low[module] == order[module]:
            group: list[str] = []
            while not group or group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return sorted(found)


def test_cycles_finds_circles_and_only_them() -> None:
    graph: dict[str, set[str]] = {
        "a": {"b"},
        "b": {"c", "x"},
        "c": {"a"},
        "d": {"e"},
        "e": set(),
        "f": {"f"},
    }
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"p": {"q"}, "q": {"p"}, "r": {"p"}}) == [["p", "q"]]


def test_import_graph_counts_type_checking_lazy_and_package_imports() -> None:
    prompt = import_graph(PROMPT)
    runtime = import_graph(RUNTIME)
    # under TYPE_CHECKING only
    assert "wink_decl.prompt.context_protocols" in prompt["wink_decl.prompt.tool_context"]
    assert "wink_decl.runtime.session.session" in runtime["wink_decl.runtime.session.protocols"]
    # a package's ``__init__`` is the package; ``from pkg import name`` leads to the package
    assert "wink_decl.runtime.filesystem._host" in runtime["wink_decl.runtime.filesystem"]
    assert "wink_decl.runtime.session" in runtime["wink_decl.runtime.loop"]
    # imports out of the layer are edges too (the cycle search keeps to the layer)
    assert "wink_decl.prompt.section" in runtime["wink_decl.runtime.planning.tools_section"]


@pytest.mark.parametrize("layer", [PROMPT, RUNTIME], ids=["prompt", "runtime"])
def test_no_circle_of_modules_within_a_layer(layer: Path) -> None:
    graph = import_graph(layer)
    assert len(graph) > 10
    found = cycles(graph)
    assert found == [], "modules that import each other in a circle:\n" + "\n".join(
        " <-> ".join(group) for group in found
    )


def test_import_graph_leads_a_submodule_of_a_layer_to_that_submodule() -> None:
    loader = import_graph(PACKAGE_ROOT / "loader")
    # ``from wink_decl.loader import _yaml_compose`` is the submodule, not the package
    assert "wink_decl.loader._yaml_compose" in loader["wink_decl.loader._yaml_walk"]
    assert "wink_decl.loader" not in loader["wink_decl.loader._yaml_walk"]


def test_no_circle_of_modules_in_the_package() -> None:
    """No two modules need each other, through any chain, in any package or between them.

    A circle makes the order of imports matter and each module's tests load the other's:
    the shared part belongs in a third module below both.
    """
    graph = import_graph(PACKAGE_ROOT)
    assert "wink_decl.loader._yaml_plain" in graph
    found = cycles(graph)
    assert found == [], "modules that import each other in a circle:\n" + "\n".join(
        " <-> ".join(group) for group in found
    )


def test_package_of_resolves_modules_and_packages() -> None:
    assert package_of(PROMPT / "tool.py") == "wink_decl.prompt"
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


SHARED_BOTTOM = (
    "errors",
    "diagnostic_codes",
    "diagnostics",
    "json_path",
    "suggestions",
    "limits",
    "version",
    "_exports",
)
"""The small top-level modules every layer may use; they use no layer."""


@pytest.mark.parametrize("name", SHARED_BOTTOM)
def test_the_shared_modules_import_no_layer(name: str) -> None:
    path = PACKAGE_ROOT / f"{name}.py"
    layers = (*PROMPT_FORBIDDEN, "wink_decl.prompt", "wink_decl.plugins")
    problems = forbidden_imports(
        path.read_text(encoding="utf-8"),
        filename=str(path.relative_to(REPO)),
        package="wink_decl",
        forbidden=layers,
    )
    assert problems == []


def top_names(source: str, *, filename: str, package: str) -> list[str]:
    """``file:line: imports wink_decl.NAME`` for each name taken from the package top.

    The top (``wink_decl/__init__.py``) re-exports every layer for users; a module inside the
    package that takes a name from it depends on all of them. Submodules may be named there.
    """
    found: set[tuple[int, str]] = set()
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names if alias.name == "wink_decl"]
        elif isinstance(node, ast.ImportFrom) and resolve_relative(node, package) == "wink_decl":
            names = [
                f"wink_decl.{alias.name}"
                for alias in node.names
                if not (PACKAGE_ROOT / f"{alias.name}.py").is_file()
                and not (PACKAGE_ROOT / alias.name).is_dir()
            ]
        else:
            continue
        found.update((node.lineno, name) for name in names)
    return [f"{filename}:{line}: imports {name}" for line, name in sorted(found)]


@pytest.mark.parametrize(
    ("source", "package", "expected"),
    [
        (
            "from wink_decl import Session\n",
            "wink_decl.preview",
            ["x.py:1: imports wink_decl.Session"],
        ),
        ("from .. import load, errors\n", "wink_decl.cli", ["x.py:1: imports wink_decl.load"]),
        ("import wink_decl\n", "wink_decl.compiler", ["x.py:1: imports wink_decl"]),
        ("from wink_decl import errors, runtime, version\n", "wink_decl.cli", []),
        ("from wink_decl.runtime import Session\n", "wink_decl.preview", []),
    ],
    ids=["a-name", "relative", "the-package", "submodules", "a-layer"],
)
def test_scanner_finds_names_taken_from_the_package_top(
    source: str, package: str, expected: list[str]
) -> None:
    assert top_names(source, filename="x.py", package=package) == expected


def test_no_module_takes_a_name_from_the_package_top() -> None:
    files = sorted(PACKAGE_ROOT.rglob("*.py"))
    assert PACKAGE_ROOT / "compiler" / "_artifact.py" in files
    problems = [
        problem
        for path in files
        if path != PACKAGE_ROOT / "__init__.py"
        for problem in top_names(
            path.read_text(encoding="utf-8"),
            filename=str(path.relative_to(REPO)),
            package=package_of(path),
        )
    ]
    assert problems == [], "\n".join(problems)
