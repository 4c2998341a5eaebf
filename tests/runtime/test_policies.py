"""SequentialDependencyPolicy and ReadBeforeWritePolicy through the real executor."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from wink_decl import (
    MarkdownSection,
    Prompt,
    PromptTemplate,
    Session,
    Tool,
    ToolContext,
    ToolResult,
)
from wink_decl.runtime.executor import ToolExecutor
from wink_decl.runtime.filesystem import Filesystem, HostFilesystem, InMemoryFilesystem
from wink_decl.runtime.policies import ReadBeforeWritePolicy, SequentialDependencyPolicy
from wink_decl.runtime.provider import ProviderToolCall
from wink_decl.runtime.session.tool_events import PolicyState


@dataclass(frozen=True)
class Step:
    fail: bool = False


@dataclass(frozen=True)
class Done:
    step: str


def step_tool(name: str) -> Tool[Step, Done]:
    def handler(params: Step, *, context: ToolContext) -> ToolResult[Done]:
        if params.fail:
            return ToolResult.error(f"{name} failed")
        return ToolResult.ok(Done(name), f"{name} ok")

    return Tool[Step, Done](name=name, description=f"Run {name}.", handler=handler)


@dataclass(frozen=True)
class PathArgs:
    path: str
    text: str = ""


@dataclass(frozen=True)
class FileText:
    path: str
    text: str


def files(context: ToolContext) -> Filesystem:
    filesystem = context.filesystem
    assert filesystem is not None
    return filesystem


def read_file(params: PathArgs, *, context: ToolContext) -> ToolResult[FileText]:
    return ToolResult.ok(FileText(params.path, files(context).read_text(params.path)))


def write_file(params: PathArgs, *, context: ToolContext) -> ToolResult[FileText]:
    files(context).write_text(params.path, params.text)
    return ToolResult.ok(FileText(params.path, params.text), "Written.")


FILE_TOOLS = [
    Tool[PathArgs, FileText](name="read_file", description="Read a file.", handler=read_file),
    Tool[PathArgs, FileText](name="write_file", description="Write a file.", handler=write_file),
]


class Runner:
    def __init__(self, tools: list[Tool[Any, Any]], policy: Any, resources: list[object]) -> None:
        self.session = Session()
        template = PromptTemplate(
            ns="tests",
            key="policies",
            sections=[MarkdownSection(title="Work", key="work", tools=tools, policies=[policy])],
        )
        prompt = Prompt(template, resources=resources)
        self.executor = ToolExecutor(
            prompt=prompt, rendered=prompt.render(session=self.session), session=self.session
        )

    def call(self, name: str, **arguments: Any) -> str:
        outcome = self.executor.execute(ProviderToolCall("c", name, json.dumps(arguments)))
        return ("ok: " if outcome.success else "denied: ") + outcome.message.content


def pipeline() -> Runner:
    policy = SequentialDependencyPolicy(
        dependencies={"deploy": frozenset({"test", "build"}), "build": frozenset({"lint"})}
    )
    tools = [step_tool(name) for name in ("lint", "test", "build", "deploy")]
    return Runner(tools, policy, [])


def test_sequential_dependencies_deny_with_the_missing_tools_sorted() -> None:
    run = pipeline()
    assert run.call("deploy") == "denied: Tool 'deploy' requires: build, test"
    assert run.call("build") == "denied: Tool 'build' requires: lint"
    assert run.call("lint") == 'ok: lint ok\n\n{"step": "lint"}'
    assert run.call("build") == 'ok: build ok\n\n{"step": "build"}'
    assert run.call("deploy") == "denied: Tool 'deploy' requires: test"
    assert run.call("test", fail=True) == "denied: test failed"
    assert run.call("deploy") == "denied: Tool 'deploy' requires: test"
    assert run.call("test") == 'ok: test ok\n\n{"step": "test"}'
    assert run.call("deploy") == 'ok: deploy ok\n\n{"step": "deploy"}'


def test_sequential_state_lives_in_the_session_and_resets_with_it() -> None:
    run = pipeline()
    run.call("lint")
    run.call("lint")
    assert run.session.query(PolicyState) == (
        PolicyState("sequential_dependency", frozenset({"lint"}), frozenset()),
    )
    run.session.reset()
    assert run.call("build") == "denied: Tool 'build' requires: lint"


def test_sequential_state_lists_every_invoked_tool() -> None:
    run = pipeline()
    for name in ("lint", "test", "build", "deploy"):
        assert run.call(name).startswith("ok: ")
    # 'deploy' is nobody's dependency: it is listed all the same.
    assert run.session.query(PolicyState) == (
        PolicyState("sequential_dependency", frozenset({"lint", "test", "build", "deploy"})),
    )


def test_sequential_state_rolls_back_with_a_snapshot() -> None:
    run = pipeline()
    snapshot = run.session.snapshot()
    run.call("lint")
    run.session.restore(snapshot)
    assert run.call("build") == "denied: Tool 'build' requires: lint"


@pytest.mark.parametrize(
    ("dependencies", "message"),
    [
        (
            {"deploy": "build"},
            "dependencies['deploy'] must be a collection of tool names, not the string 'build'.",
        ),
        ({"deploy": [""]}, "dependencies['deploy'] must hold non-empty tool names, got ''."),
        ({"deploy": [3]}, "dependencies['deploy'] must hold non-empty tool names, got 3."),
    ],
    ids=["string", "empty-name", "not-a-name"],
)
def test_sequential_dependencies_are_checked(dependencies: Any, message: str) -> None:
    with pytest.raises(TypeError) as info:
        SequentialDependencyPolicy(dependencies=dependencies)
    assert str(info.value) == message


@pytest.fixture(params=["memory", "host"])
def filesystem(request: pytest.FixtureRequest, tmp_path: Path) -> Filesystem:
    if request.param == "memory":
        return InMemoryFilesystem({"config.yaml": "old: 1\n"})
    (tmp_path / "config.yaml").write_text("old: 1\n")
    return HostFilesystem(tmp_path)


def test_read_before_write(filesystem: Filesystem) -> None:
    run = Runner(FILE_TOOLS, ReadBeforeWritePolicy(), [filesystem])
    assert run.call("write_file", path="new.txt", text="hi") == (
        'ok: Written.\n\n{"path": "new.txt", "text": "hi"}'
    )
    assert run.call("write_file", path="new.txt", text="again").startswith("ok: ")
    assert run.call("write_file", path="config.yaml", text="x") == (
        "denied: File 'config.yaml' must be read before overwriting."
    )
    assert run.call("write_file", path="./sub/../config.yaml", text="x") == (
        "denied: File 'config.yaml' must be read before overwriting."
    )
    assert filesystem.read_text("config.yaml") == "old: 1\n"
    assert run.call("read_file", path="sub/../config.yaml").startswith("ok: ")
    assert run.call("write_file", path="config.yaml", text="new: 2\n").startswith("ok: ")
    assert filesystem.read_text("config.yaml") == "new: 2\n"


def test_read_before_write_refuses_paths_outside_the_root(filesystem: Filesystem) -> None:
    run = Runner(FILE_TOOLS, ReadBeforeWritePolicy(), [filesystem])
    assert run.call("write_file", path="../escape.txt", text="x") == (
        "denied: Path '../escape.txt' is outside the filesystem root."
    )


def test_a_failed_write_leaves_the_filesystem_as_it_was(filesystem: Filesystem) -> None:
    def write_then_fail(params: PathArgs, *, context: ToolContext) -> ToolResult[FileText]:
        files(context).write_text(params.path, params.text)
        raise OSError("disk full")

    tools = [
        *FILE_TOOLS,
        Tool[PathArgs, FileText](name="flaky", description="Fails.", handler=write_then_fail),
    ]
    run = Runner(tools, ReadBeforeWritePolicy(write_tools=("write_file", "flaky")), [filesystem])
    run.call("read_file", path="config.yaml")
    assert run.call("flaky", path="config.yaml", text="half") == (
        "denied: Tool 'flaky' failed: OSError: disk full"
    )
    assert filesystem.read_text("config.yaml") == "old: 1\n"


def test_read_before_write_needs_a_filesystem() -> None:
    run = Runner(FILE_TOOLS, ReadBeforeWritePolicy(), [])
    assert run.call("write_file", path="a.txt") == (
        "denied: Tool 'write_file' needs a Filesystem resource for policy 'read_before_write'."
    )


def test_read_before_write_needs_the_path_field(filesystem: Filesystem) -> None:
    run = Runner(FILE_TOOLS, ReadBeforeWritePolicy(path_field="file"), [filesystem])
    assert run.call("write_file", path="a.txt") == (
        "denied: Policy 'read_before_write' reads the path from field 'file', which PathArgs "
        "does not have as a string."
    )


def test_read_before_write_lets_other_tools_run_and_lists_them(filesystem: Filesystem) -> None:
    run = Runner([*FILE_TOOLS, step_tool("lint")], ReadBeforeWritePolicy(), [filesystem])
    assert run.call("lint").startswith("ok: ")
    assert run.session.query(PolicyState) == (
        PolicyState("read_before_write", invoked_tools=frozenset({"lint"})),
    )


def test_read_before_write_records_no_path_without_a_filesystem() -> None:
    def read_anything(params: PathArgs, *, context: ToolContext) -> ToolResult[FileText]:
        return ToolResult.ok(FileText(params.path, "remote"))

    reader = Tool[PathArgs, FileText](name="read_file", description="Read.", handler=read_anything)
    run = Runner([reader], ReadBeforeWritePolicy(), [])
    assert run.call("read_file", path="a.txt").startswith("ok: ")
    assert run.session.query(PolicyState) == (
        PolicyState("read_before_write", invoked_tools=frozenset({"read_file"})),
    )


@dataclass(frozen=True)
class Edit:
    path: str
    old: str
    new: str


def edit_file(params: Edit, *, context: ToolContext) -> ToolResult[FileText]:
    text = files(context).read_text(params.path).replace(params.old, params.new)
    files(context).write_text(params.path, text)
    return ToolResult.ok(FileText(params.path, text), "Edited.")


def test_edit_file_is_guarded_like_write_file(filesystem: Filesystem) -> None:
    editor = Tool[Edit, FileText](name="edit_file", description="Edit.", handler=edit_file)
    run = Runner([*FILE_TOOLS, editor], ReadBeforeWritePolicy(), [filesystem])
    assert run.call("edit_file", path="config.yaml", old="1", new="2") == (
        "denied: File 'config.yaml' must be read before overwriting."
    )
    assert run.call("read_file", path="config.yaml").startswith("ok: ")
    assert run.call("edit_file", path="config.yaml", old="1", new="2").startswith("ok: ")
    assert filesystem.read_text("config.yaml") == "old: 2\n"


@dataclass(frozen=True)
class Patch:
    target: str
    text: str


@dataclass(frozen=True)
class Source:
    source: str


def patch(params: Patch, *, context: ToolContext) -> ToolResult[FileText]:
    files(context).write_text(params.target, params.text)
    return ToolResult.ok(FileText(params.target, params.text), "Patched.")


def cat(params: Source, *, context: ToolContext) -> ToolResult[FileText]:
    return ToolResult.ok(FileText(params.source, files(context).read_text(params.source)))


def declared_tools() -> list[Tool[Any, Any]]:
    return [
        Tool[Patch, FileText](name="patch", description="Patch.", handler=patch, writes="target"),
        Tool[Source, FileText](name="cat", description="Show.", handler=cat, reads="source"),
    ]


def test_tools_that_declare_the_files_they_touch_are_covered(filesystem: Filesystem) -> None:
    run = Runner(declared_tools(), ReadBeforeWritePolicy(), [filesystem])
    assert run.call("patch", target="new.txt", text="hi").startswith("ok: ")
    assert run.call("patch", target="config.yaml", text="x") == (
        "denied: File 'config.yaml' must be read before overwriting."
    )
    assert run.call("cat", source="./config.yaml").startswith("ok: ")
    assert run.call("patch", target="config.yaml", text="x").startswith("ok: ")
    assert run.session.query(PolicyState) == (
        PolicyState(
            "read_before_write",
            frozenset({"patch", "cat"}),
            frozenset({("patch", "new.txt"), ("cat", "config.yaml"), ("patch", "config.yaml")}),
        ),
    )


def test_a_tool_declared_as_writer_wins_over_a_name_listed_as_reader(
    filesystem: Filesystem,
) -> None:
    policy = ReadBeforeWritePolicy(read_tools=("patch",))
    run = Runner(declared_tools(), policy, [filesystem])
    assert run.call("patch", target="config.yaml", text="x") == (
        "denied: File 'config.yaml' must be read before overwriting."
    )
