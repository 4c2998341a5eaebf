"""Built-in tool policies: ``SequentialDependencyPolicy`` and ``ReadBeforeWritePolicy``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from wink_decl.prompt.policy import PolicyDecision
from wink_decl.prompt.tool import Tool
from wink_decl.prompt.tool_context import ToolContext
from wink_decl.prompt.tool_result import ToolResult
from wink_decl.runtime.filesystem import FilesystemError
from wink_decl.runtime.session.tool_events import (
    PolicyState,
    RecordPolicyInvocation,
    policy_state,
)

__all__ = ["ReadBeforeWritePolicy", "SequentialDependencyPolicy"]


def _names(values: Iterable[str], what: str) -> frozenset[str]:
    if isinstance(values, str):
        raise TypeError(f"{what} must be a collection of tool names, not the string {values!r}.")
    names = frozenset(values)
    for name in names:
        if not isinstance(name, str) or not name:  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"{what} must hold non-empty tool names, got {name!r}.")
    return names


def _record(context: ToolContext, policy: str, tool: str, key: str | None = None) -> None:
    """Add a successful call to the policy's state, unless the state already holds it."""
    state = policy_state(context.session.query(PolicyState), policy)
    known = tool in state.invoked_tools and (key is None or (tool, key) in state.invoked_keys)
    if not known:
        context.session.dispatch(RecordPolicyInvocation(policy, tool, key))


@dataclass(slots=True, frozen=True)
class SequentialDependencyPolicy:
    """Tool B may run only after every tool it depends on has succeeded in this session.

    Every successful call of a tool this policy governs is recorded in its ``PolicyState``
    (``invoked_tools``), whether or not another tool depends on it.
    """

    dependencies: Mapping[str, Iterable[str]]
    name: str = "sequential_dependency"

    def __post_init__(self) -> None:
        """Freeze the table."""
        table = {
            tool: _names(required, f"dependencies[{tool!r}]")
            for tool, required in dict(self.dependencies).items()
        }
        object.__setattr__(self, "dependencies", MappingProxyType(table))

    def check(
        self, tool: Tool[Any, Any], params: object, *, context: ToolContext
    ) -> PolicyDecision:
        """Deny while any dependency has not succeeded; name the missing ones, sorted."""
        del params
        required: frozenset[str] = self.dependencies.get(tool.name, frozenset())  # pyright: ignore[reportAssignmentType]
        if not required:
            return PolicyDecision.allow()
        done = policy_state(context.session.query(PolicyState), self.name).invoked_tools
        missing = sorted(required - done)
        if missing:
            return PolicyDecision.deny(f"Tool '{tool.name}' requires: {', '.join(missing)}")
        return PolicyDecision.allow()

    def on_result(
        self, tool: Tool[Any, Any], params: object, result: ToolResult[Any], *, context: ToolContext
    ) -> None:
        """Record the success (once per tool is enough: the state is a set)."""
        del params, result
        _record(context, self.name, tool.name)


_READ = "read"
_WRITE = "write"


@dataclass(slots=True, frozen=True)
class ReadBeforeWritePolicy:
    """An existing file may be changed only after it was read (or written) in this session.

    New files may be created freely. A tool writes when it declares ``writes=`` (the params
    field holding the path) or is named in ``write_tools``; it reads when it declares
    ``reads=`` or is named in ``read_tools`` (named tools keep the path in ``path_field``).
    Paths are normalised by the prompt's ``Filesystem`` resource, so ``a/../b.txt`` and
    ``b.txt`` are one file.
    """

    read_tools: Iterable[str] = ("read_file",)
    write_tools: Iterable[str] = ("write_file", "edit_file")
    path_field: str = "path"
    name: str = "read_before_write"

    def __post_init__(self) -> None:
        """Freeze the tool sets."""
        object.__setattr__(self, "read_tools", _names(self.read_tools, "read_tools"))
        object.__setattr__(self, "write_tools", _names(self.write_tools, "write_tools"))

    def check(
        self, tool: Tool[Any, Any], params: object, *, context: ToolContext
    ) -> PolicyDecision:
        """Deny changing an existing file that this session has not read."""
        role = self._role(tool)
        if role is None or role[0] is not _WRITE:
            return PolicyDecision.allow()
        filesystem = context.filesystem
        if filesystem is None:
            return PolicyDecision.deny(
                f"Tool '{tool.name}' needs a Filesystem resource for policy '{self.name}'."
            )
        try:
            path = filesystem.normalise(self._path(params, role[1]))
        except FilesystemError as error:
            return PolicyDecision.deny(str(error))
        if not filesystem.exists(path):
            return PolicyDecision.allow()
        keys = policy_state(context.session.query(PolicyState), self.name).invoked_keys
        if any(key == path for _, key in keys):
            return PolicyDecision.allow()
        return PolicyDecision.deny(f"File '{path}' must be read before overwriting.")

    def on_result(
        self, tool: Tool[Any, Any], params: object, result: ToolResult[Any], *, context: ToolContext
    ) -> None:
        """Record the call; for a tool that reads or writes a file, the file's path too."""
        del result
        role = self._role(tool)
        filesystem = context.filesystem
        if role is None or filesystem is None:
            _record(context, self.name, tool.name)
            return
        path = filesystem.normalise(self._path(params, role[1]))
        _record(context, self.name, tool.name, path)

    def _role(self, tool: Tool[Any, Any]) -> tuple[str, str] | None:
        """(read or write, the params field holding the path), or None for other tools."""
        if tool.writes is not None:
            return _WRITE, tool.writes
        if tool.name in self.write_tools:  # pyright: ignore[reportOperatorIssue]  # frozen to a frozenset
            return _WRITE, self.path_field
        if tool.reads is not None:
            return _READ, tool.reads
        if tool.name in self.read_tools:  # pyright: ignore[reportOperatorIssue]  # frozen to a frozenset
            return _READ, self.path_field
        return None

    def _path(self, params: object, field_name: str) -> str:
        value = getattr(params, field_name, None)
        if not isinstance(value, str):
            raise FilesystemError(
                f"Policy '{self.name}' reads the path from field '{field_name}', "
                f"which {type(params).__qualname__} does not have as a string."
            )
        return value
