"""The wink-decl-files handlers, loaded through the catalog from the package's own pyproject."""

from __future__ import annotations

import importlib
import json
import sys
import tomllib
from collections.abc import Iterator
from typing import Any, cast

import pytest
from plugin_support import PLUGINS, MemoryDistribution

from wink_decl import (
    InMemoryFilesystem,
    MarkdownSection,
    Prompt,
    PromptTemplate,
    ReadBeforeWritePolicy,
    Session,
    Tool,
    ToolContext,
    ToolHandler,
    ToolResult,
)
from wink_decl.plugins import (
    HANDLERS,
    PluginCatalog,
    PluginEntry,
    check_handler,
    compare_params,
    handler_params_type,
    handler_result_type,
)
from wink_decl.prompt.tool_schema import field_descriptions
from wink_decl.runtime.executor import ToolExecutor
from wink_decl.runtime.provider import ProviderToolCall

PACKAGE = PLUGINS / "wink-decl-files"
PROJECT: dict[str, Any] = tomllib.loads((PACKAGE / "pyproject.toml").read_text(encoding="utf-8"))[
    "project"
]
REGISTERED: dict[str, str] = PROJECT["entry-points"][HANDLERS]


@pytest.fixture
def catalog(monkeypatch: pytest.MonkeyPatch) -> Iterator[PluginCatalog]:
    """A catalog of the package's registrations, importable from its source folder."""
    monkeypatch.setattr(sys, "path", [str(PACKAGE / "src"), *sys.path])
    importlib.invalidate_caches()
    distribution = MemoryDistribution(PROJECT["name"], PROJECT["version"], {HANDLERS: REGISTERED})
    yield PluginCatalog(distributions=[distribution])
    for name in [name for name in sys.modules if name.partition(".")[0] == "wink_decl_files"]:
        del sys.modules[name]


def handler(catalog: PluginCatalog, name: str) -> ToolHandler[Any, Any]:
    entry = catalog.resolve(HANDLERS, name)
    assert isinstance(entry, PluginEntry)
    return cast("ToolHandler[Any, Any]", catalog.load(entry))


def call(
    catalog: PluginCatalog, name: str, filesystem: InMemoryFilesystem | None, **arguments: object
) -> tuple[bool, str, str]:
    """(success, message, rendered value) of one call with a real ToolContext.

    ``filesystem`` None: the prompt has no Filesystem resource.
    """
    function = handler(catalog, name)
    params_type = handler_params_type(function)
    assert params_type is not None
    resources = [] if filesystem is None else [filesystem]
    prompt: Prompt[Any] = Prompt(PromptTemplate(ns="tests", key="files"), resources=resources)
    context = ToolContext(prompt=prompt, rendered_prompt=None, adapter=None, session=Session())
    result: ToolResult[Any] = function(params_type(**arguments), context=context)
    return result.success, result.message, result.render()


def files() -> InMemoryFilesystem:
    return InMemoryFilesystem(
        {"notes.txt": "one\ntwo\n", "docs/guide.md": "# Guide\n", "a.txt": "x"}
    )


def test_the_package_registers_four_handlers(catalog: PluginCatalog) -> None:
    assert PROJECT["name"] == "wink-decl-files"
    assert PROJECT["version"] == "1.0.0"
    assert catalog.names(HANDLERS) == (
        "files.edit_file",
        "files.list_dir",
        "files.read_file",
        "files.write_file",
    )


@pytest.mark.parametrize(
    ("name", "declared", "params", "result"),
    [
        ("files.read_file", {"path": (str, True)}, "ReadFileParams", "ReadFileResult"),
        (
            "files.write_file",
            {"path": (str, True), "text": (str, True)},
            "WriteFileParams",
            "WriteFileResult",
        ),
        (
            "files.edit_file",
            {"path": (str, True), "old_text": (str, True), "new_text": (str, True)},
            "EditFileParams",
            "EditFileResult",
        ),
        ("files.list_dir", {"path": (str, False)}, "ListDirParams", "ListDirResult"),
    ],
    ids=["read_file", "write_file", "edit_file", "list_dir"],
)
def test_each_handler_passes_the_checks_a_prompt_file_gets(
    catalog: PluginCatalog,
    name: str,
    declared: dict[str, tuple[type, bool]],
    params: str,
    result: str,
) -> None:
    function = handler(catalog, name)
    tool_name = name.removeprefix("files.")
    entry = catalog.resolve(HANDLERS, name)
    assert isinstance(entry, PluginEntry)
    assert check_handler(function, name=tool_name, entry=entry) is None
    params_type = handler_params_type(function)
    result_type = handler_result_type(function)
    assert params_type is not None
    assert result_type is not None
    assert (params_type.__qualname__, result_type.__qualname__) == (params, result)
    assert compare_params(declared, params_type) == []
    described = {**field_descriptions(params_type), **field_descriptions(result_type)}
    assert all(described.values())
    assert set(described) >= set(declared)


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        (
            "files.read_file",
            {"path": "./docs/../notes.txt"},
            (
                True,
                "Read 'notes.txt' (8 characters).",
                '{"path": "notes.txt", "text": "one\\ntwo\\n"}',
            ),
        ),
        (
            "files.read_file",
            {"path": "a.txt"},
            (True, "Read 'a.txt' (1 character).", '{"path": "a.txt", "text": "x"}'),
        ),
        (
            "files.read_file",
            {"path": "missing.txt"},
            (False, "File 'missing.txt' does not exist.", ""),
        ),
        (
            "files.read_file",
            {"path": "../secrets.txt"},
            (False, "Path '../secrets.txt' is outside the filesystem root.", ""),
        ),
        (
            "files.read_file",
            {"path": "/etc/passwd"},
            (False, "Path '/etc/passwd' must be relative to the filesystem root.", ""),
        ),
        ("files.read_file", {"path": "docs"}, (False, "'docs' is a directory.", "")),
        ("files.read_file", {"path": ""}, (False, "Path must not be empty.", "")),
        (
            "files.write_file",
            {"path": "new/file.txt", "text": "hello"},
            (
                True,
                "Created 'new/file.txt' (5 characters).",
                '{"path": "new/file.txt", "characters": 5, "created": true}',
            ),
        ),
        (
            "files.write_file",
            {"path": "notes.txt", "text": "!"},
            (
                True,
                "Replaced 'notes.txt' (1 character).",
                '{"path": "notes.txt", "characters": 1, "created": false}',
            ),
        ),
        (
            "files.write_file",
            {"path": "../escape.txt", "text": "x"},
            (False, "Path '../escape.txt' is outside the filesystem root.", ""),
        ),
        ("files.write_file", {"path": "docs", "text": "x"}, (False, "'docs' is a directory.", "")),
        (
            "files.list_dir",
            {},
            (
                True,
                "'.' has 3 entries.",
                '{"path": ".", "entries": ["a.txt", "docs", "notes.txt"]}',
            ),
        ),
        (
            "files.list_dir",
            {"path": "docs/"},
            (True, "'docs' has 1 entry.", '{"path": "docs", "entries": ["guide.md"]}'),
        ),
        ("files.list_dir", {"path": "nowhere"}, (False, "Folder 'nowhere' does not exist.", "")),
        ("files.list_dir", {"path": "notes.txt"}, (False, "'notes.txt' is a file.", "")),
        (
            "files.list_dir",
            {"path": ".."},
            (False, "Path '..' is outside the filesystem root.", ""),
        ),
    ],
    ids=[
        "read",
        "read-one-character",
        "read-missing",
        "read-outside-root",
        "read-absolute",
        "read-directory",
        "read-empty-path",
        "write-new",
        "write-replace",
        "write-outside-root",
        "write-onto-directory",
        "list-root-by-default",
        "list-folder",
        "list-missing",
        "list-a-file",
        "list-outside-root",
    ],
)
def test_handlers_on_an_in_memory_filesystem(
    catalog: PluginCatalog, name: str, arguments: dict[str, str], expected: tuple[bool, str, str]
) -> None:
    assert call(catalog, name, files(), **arguments) == expected


def test_an_empty_folder_listing_says_so(catalog: PluginCatalog) -> None:
    empty = InMemoryFilesystem()
    assert call(catalog, "files.list_dir", empty) == (
        True,
        "'.' has 0 entries.",
        '{"path": ".", "entries": []}',
    )


def test_a_write_changes_the_filesystem(catalog: PluginCatalog) -> None:
    filesystem = files()
    call(catalog, "files.write_file", filesystem, path="notes.txt", text="new\n")
    assert filesystem.read_text("notes.txt") == "new\n"


def sources() -> InMemoryFilesystem:
    return InMemoryFilesystem(
        {
            "calc.py": "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n",
            "notes.txt": "one\ntwo\n",
            "aaa.txt": "aaa",
            "xs.txt": "x\n" * 8,
            "docs/guide.md": "# Guide\n",
        }
    )


NOT_FOUND = (
    "old_text was not found in '{path}'. It must match the file exactly, whitespace and line "
    "breaks included: read the file again and copy the text from it."
)
NOT_UNIQUE = (
    "old_text occurs {times} times in '{path}' ({where}): include more of the surrounding text "
    "in old_text, so that it occurs exactly once."
)


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (
            {
                "path": "calc.py",
                "old_text": "def add(a, b):\n    return a - b",
                "new_text": ("def add(a, b):\n    return a + b"),
            },
            (
                True,
                "Edited 'calc.py' at line 1: 2 lines replaced by 2 lines.",
                '{"path": "calc.py", "line": 1, "old_lines": 2, "new_lines": 2}',
            ),
        ),
        (
            {"path": "./docs/../notes.txt", "old_text": "two", "new_text": "2\nand 3"},
            (
                True,
                "Edited 'notes.txt' at line 2: 1 line replaced by 2 lines.",
                '{"path": "notes.txt", "line": 2, "old_lines": 1, "new_lines": 2}',
            ),
        ),
        (
            {"path": "notes.txt", "old_text": "one\n", "new_text": ""},
            (
                True,
                "Edited 'notes.txt' at line 1: 1 line replaced by 0 lines.",
                '{"path": "notes.txt", "line": 1, "old_lines": 1, "new_lines": 0}',
            ),
        ),
        (
            {"path": "notes.txt", "old_text": "three", "new_text": "3"},
            (False, NOT_FOUND.format(path="notes.txt"), ""),
        ),
        (
            {"path": "notes.txt", "old_text": "One", "new_text": "1"},
            (False, NOT_FOUND.format(path="notes.txt"), ""),
        ),
        (
            {"path": "calc.py", "old_text": "    return a - b\n", "new_text": "    pass\n"},
            (False, NOT_UNIQUE.format(times=2, path="calc.py", where="on lines 2 and 6"), ""),
        ),
        (
            {"path": "aaa.txt", "old_text": "aa", "new_text": "b"},
            (False, NOT_UNIQUE.format(times=2, path="aaa.txt", where="on line 1"), ""),
        ),
        (
            {"path": "xs.txt", "old_text": "x", "new_text": "y"},
            (
                False,
                NOT_UNIQUE.format(
                    times=8, path="xs.txt", where="on lines 1, 2, 3, 4, 5 and 3 more"
                ),
                "",
            ),
        ),
        (
            {"path": "notes.txt", "old_text": "", "new_text": "zero\n"},
            (
                False,
                "old_text is empty: give the exact text to replace, copied from the file.",
                "",
            ),
        ),
        (
            {"path": "notes.txt", "old_text": "two", "new_text": "two"},
            (
                False,
                "old_text and new_text are the same: the edit would change nothing.",
                "",
            ),
        ),
        (
            {"path": "missing.txt", "old_text": "a", "new_text": "b"},
            (False, "File 'missing.txt' does not exist.", ""),
        ),
        (
            {"path": "docs", "old_text": "a", "new_text": "b"},
            (False, "'docs' is a directory.", ""),
        ),
        (
            {"path": "../notes.txt", "old_text": "a", "new_text": "b"},
            (False, "Path '../notes.txt' is outside the filesystem root.", ""),
        ),
    ],
    ids=[
        "replace-two-lines",
        "normalised-path-more-lines",
        "delete-a-line",
        "not-found",
        "not-found-case-matters",
        "twice",
        "overlapping-on-one-line",
        "many-lines-named-five",
        "empty-old-text",
        "no-change",
        "missing-file",
        "folder",
        "outside-root",
    ],
)
def test_edit_file(
    catalog: PluginCatalog, arguments: dict[str, str], expected: tuple[bool, str, str]
) -> None:
    filesystem = sources()
    before = {path: filesystem.read_text(path) for path in ("calc.py", "notes.txt", "aaa.txt")}
    assert call(catalog, "files.edit_file", filesystem, **arguments) == expected
    after = {path: filesystem.read_text(path) for path in before}
    assert (after != before) is expected[0]  # an edit that is refused changes nothing


def test_an_edit_changes_exactly_the_text_it_names(catalog: PluginCatalog) -> None:
    filesystem = sources()
    call(
        catalog,
        "files.edit_file",
        filesystem,
        path="calc.py",
        old_text="def sub(a, b):\n    return a - b",
        new_text="def sub(a, b):\n    return a - b  # subtracts",
    )
    assert filesystem.read_text("calc.py") == (
        "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b  # subtracts\n"
    )


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("files.read_file", {"path": "notes.txt"}),
        ("files.write_file", {"path": "notes.txt", "text": "x"}),
        ("files.edit_file", {"path": "notes.txt", "old_text": "one", "new_text": "1"}),
        ("files.list_dir", {}),
    ],
    ids=["read_file", "write_file", "edit_file", "list_dir"],
)
def test_without_a_filesystem_each_handler_says_so(
    catalog: PluginCatalog, name: str, arguments: dict[str, str]
) -> None:
    assert call(catalog, name, None, **arguments) == (
        False,
        "No filesystem is attached to this prompt: the file tools need a Filesystem resource "
        "(such as HostFilesystem) in the prompt's resources.",
        "",
    )


def test_the_handlers_pair_with_read_before_write_under_the_default_tool_names(
    catalog: PluginCatalog,
) -> None:
    tools: list[Tool[Any, Any]] = []
    for tool_name in ("read_file", "write_file", "edit_file"):
        function = handler(catalog, f"files.{tool_name}")
        tools.append(
            Tool(
                name=tool_name,
                description=f"The {tool_name} tool.",
                handler=function,
                params_type=cast("type[Any]", handler_params_type(function)),
                result_type=handler_result_type(function),
            )
        )
    section = MarkdownSection(
        title="Files", key="files", tools=tools, policies=[ReadBeforeWritePolicy()]
    )
    filesystem = files()
    prompt = Prompt(
        PromptTemplate(ns="tests", key="files", sections=[section]), resources=[filesystem]
    )
    session = Session()
    executor = ToolExecutor(prompt=prompt, rendered=prompt.render(session=session), session=session)

    def run(name: str, **arguments: str) -> str:
        outcome = executor.execute(ProviderToolCall("c", name, json.dumps(arguments)))
        return ("ok: " if outcome.success else "denied: ") + outcome.message.content

    assert run("write_file", path="notes.txt", text="x") == (
        "denied: File 'notes.txt' must be read before overwriting."
    )
    assert run("edit_file", path="a.txt", old_text="x", new_text="y") == (
        "denied: File 'a.txt' must be read before overwriting."
    )
    assert run("read_file", path="docs/../notes.txt").startswith("ok: Read 'notes.txt'")
    assert run("write_file", path="notes.txt", text="x") == (
        'ok: Replaced \'notes.txt\' (1 character).\n\n{"path": "notes.txt", "characters": 1, '
        '"created": false}'
    )
    assert filesystem.read_text("notes.txt") == "x"
    assert run("edit_file", path="notes.txt", old_text="x", new_text="one\ntwo\n") == (
        "ok: Edited 'notes.txt' at line 1: 1 line replaced by 2 lines.\n\n"
        '{"path": "notes.txt", "line": 1, "old_lines": 1, "new_lines": 2}'
    )
    assert filesystem.read_text("notes.txt") == "one\ntwo\n"
    assert filesystem.read_text("a.txt") == "x"
