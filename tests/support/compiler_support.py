"""Shared by the compiler tests: a catalog of synthetic plugins, and compiling text in a folder."""

from __future__ import annotations

import dataclasses
import json
import os
import textwrap
from importlib.metadata import Distribution
from pathlib import Path
from typing import Any

from plugin_support import MemoryDistribution

from wink_decl import Prompt, ProviderToolCall, Session, ToolExecutionOutcome, ToolExecutor
from wink_decl.compiler import CompiledPrompt, CompileResult, bind_plugins, compile_file
from wink_decl.compiler._lazy import LazyHandler
from wink_decl.compiler._params_dataclass import FieldSpec, spec_from_model
from wink_decl.diagnostics import render_text
from wink_decl.plugins import HANDLERS, POLICIES, PREDICATES, PluginCatalog
from wink_decl.schema import ParamSpec

TEST_PLUGINS = {
    HANDLERS: {
        "test.lookup": "compiler_plugins:lookup",
        "test.untyped": "compiler_plugins:untyped",
        "time.now": "compiler_plugins:clock",
        "test.no_result": "compiler_plugins:no_result",
        "test.wrong_shape": "compiler_plugins:wrong_shape",
        "test.missing": "compiler_plugins:not_there",
        "test.unimportable": "no_such_module_for_tests:handler",
        "shared.lookup": "compiler_plugins:lookup",
    },
    PREDICATES: {
        "test.always": "compiler_plugins:always",
        "test.never": "compiler_plugins:never",
        "test.record": "compiler_plugins:record",
        "test.unimportable": "no_such_module_for_tests:predicate",
        "test.no_session": "compiler_plugins:no_session",
        "test.not_callable": "compiler_plugins:NOT_CALLABLE",
        "test.builtin": "builtins:bool",
        "test.unreadable": "compiler_plugins:UNREADABLE",
    },
    POLICIES: {
        "test.call_limit": "compiler_plugins:call_limit",
        "broken.no_methods": "compiler_plugins:no_methods",
        "broken.not_callable": "compiler_plugins:NOT_CALLABLE",
        "broken.unimportable": "no_such_module_for_tests:policy",
    },
}
OTHER_PLUGINS = {HANDLERS: {"shared.lookup": "compiler_plugins:lookup_elsewhere"}}


def make_catalog_distributions() -> list[Distribution]:
    """Two distributions; both register ``shared.lookup``."""
    return [
        MemoryDistribution("test-plugins", "1.0", TEST_PLUGINS),
        MemoryDistribution("other-plugins", "2.0", OTHER_PLUGINS),
    ]


def make_catalog() -> PluginCatalog:
    """A catalog of the test plugins (see ``make_catalog_distributions``)."""
    return PluginCatalog(distributions=make_catalog_distributions())


def write(folder: Path, name: str, text: str) -> Path:
    """Write dedented ``text`` to ``folder/name`` (parents made) and return the path."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def compile_in(
    folder: Path,
    text: str,
    *,
    name: str = "prompt.wink.yaml",
    catalog: PluginCatalog | None = None,
) -> CompileResult:
    """Write ``text`` as ``name`` and compile it with ``folder`` as the root.

    The caller's working directory should be ``folder``: diagnostics then show short paths.
    """
    write(folder, name, text)
    return compile_file(name, root=".", catalog=catalog or make_catalog())


def report(result: CompileResult) -> str:
    """Every diagnostic as authors see it."""
    return render_text(result.diagnostics, result.sources)


def bound_report(result: CompileResult) -> str:
    """What binding the compiled prompt reports (its handlers imported), as authors see it."""
    return render_text(bind_plugins(compiled(result)), result.sources)


def compiled(result: CompileResult) -> CompiledPrompt:
    """The prompt of a result that must have compiled (the report shows why it did not)."""
    assert result.prompt is not None, report(result)
    return result.prompt


def executor(
    prompt: CompiledPrompt, *params: object, session: Session | None = None
) -> ToolExecutor:
    """A tool executor for the rendered prompt, as an evaluation loop would make one."""
    bound = Prompt(prompt.template).bind(*params)
    chosen = session or Session()
    return ToolExecutor(prompt=bound, rendered=bound.render(session=chosen), session=chosen)


def call(runner: ToolExecutor, name: str, **arguments: Any) -> ToolExecutionOutcome:
    """One provider tool call through ``runner``."""
    return runner.execute(ProviderToolCall("call-1", name, json.dumps(arguments)))


def one_tool(declaration: str, *, name: str = "lookup") -> str:
    """A prompt whose only section offers one tool, declared by the indented ``declaration``."""
    return (
        "key: tools\n"
        "sections:\n"
        "  - key: task\n"
        "    title: Task\n"
        f"    tools: [{name}]\n"
        "tools:\n"
        f"  {name}:\n" + declaration
    )


def lazy(handler: object) -> LazyHandler:
    """A compiled tool's handler, which waits to import its plugin."""
    assert isinstance(handler, LazyHandler)
    return handler


def prompt(key: str, title: str = "Task", extra: str = "") -> str:
    """A one-section prompt file."""
    return f"key: {key}\nsections:\n  - key: task\n    title: {title}\n{extra}"


def touch(path: Path, *, later_by: int = 10) -> None:
    """Move the file's modification time on, as an edit some seconds later would."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + later_by * 1_000_000_000))


def rewrite(path: Path, text: str) -> None:
    """Change a file as an editor would, its modification time moved on."""
    path.write_text(text, encoding="utf-8")
    touch(path)


MAIN = "key: main\nsections:\n  - include: common/tone.wink.yaml#task\n"


def declared_spec(name: str, declaration: dict[str, Any]) -> FieldSpec:
    """The ``FieldSpec`` the compiler makes of one param declaration, as a file writes it."""
    return spec_from_model(name, ParamSpec.model_validate(declaration))


def field_facts(field: dataclasses.Field[Any]) -> tuple[object, ...]:
    """What a dataclass field says of itself, to compare one made class with another."""
    return (
        field.name,
        field.type,
        field.default,
        field.default_factory,
        field.init,
        field.repr,
        field.hash,
        field.compare,
        dict(field.metadata),
        field.kw_only,
    )
