"""Built-in tool policies: ``SequentialDependencyPolicy`` and ``ReadBeforeWritePolicy``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from wink_decl.runtime.filesystem import Filesystem, FilesystemError
from wink_decl.runtime.policy import PolicyDecision
from wink_decl.runtime.session.tool_events import (
    PolicyState,
    RecordPolicyInvocation,
    policy_state,
)
from wink_decl.runtime.tool import Tool
from wink_decl.runtime.tool_context import ToolContext
from wink_decl.runtime.tool_result import ToolResult

__all__ = ["ReadBeforeWritePolicy", "SequentialDependencyPolicy"]


def _names(values: Iterable[str], what: str) -> frozenset[str]:
    if isinstance(values, str):
        raise TypeError(f"{what} must be a collection of tool names, not the string {values!r}.")
    names = frozenset(values)
    for name in names:
        if not isinstance(name, str) or not name:  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"{what} must hold non-empty tool names, got {name!r}.")
    return names


@dataclass(slots=True, frozen=True)
class SequentialDependencyPolicy:
    """Tool B may run only after every tool it depends on has succeeded in this session."""

    dependencies: Mapping[str, Iterable[str]]
    name: str = "sequential_dependency"
    _tracked: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Freeze the table; remember which tools are worth recording."""
        table = {
            tool: _names(required, f"dependencies[{tool!r}]")
            for tool, required in dict(self.dependencies).items()
        }
        object.__setattr__(self, "dependencies", MappingProxyType(table))
        object.__setattr__(self, "_tracked", frozenset().union(*table.values()))

    def check(self, tool: Tool[Any, Any], params: Any, *, context: ToolContext) -> PolicyDecision:
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
        self, tool: Tool[Any, Any], params: Any, result: ToolResult[Any], *, context: ToolContext
    ) -> None:
        """Record a success of a tool that something depends on (once is enough)."""
        del params, result
        if tool.name not in self._tracked:
            return
        done = policy_state(context.session.query(PolicyState), self.name).invoked_tools
        if tool.name not in done:
            context.session.dispatch(RecordPolicyInvocation(self.name, tool.name))


@dataclass(slots=True, frozen=True)
class ReadBeforeWritePolicy:
    """An existing file may be overwritten only after it was read (or written) in this session.

    New files may be created freely. Paths are normalised by the prompt's ``Filesystem``
    resource, so ``a/../b.txt`` and ``b.txt`` are one file.
    """

    read_tools: Iterable[str] = ("read_file",)
    write_tools: Iterable[str] = ("write_file",)
    path_field: str = "path"
    name: str = "read_before_write"

    def __post_init__(self) -> None:
        """Freeze the tool sets."""
        object.__setattr__(self, "read_tools", _names(self.read_tools, "read_tools"))
        object.__setattr__(self, "write_tools", _names(self.write_tools, "write_tools"))

    def check(self, tool: Tool[Any, Any], params: Any, *, context: ToolContext) -> PolicyDecision:
        """Deny overwriting an existing file that this session has not read."""
        if tool.name not in self.write_tools:
            return PolicyDecision.allow()
        filesystem = context.resources.get_optional(Filesystem)
        if filesystem is None:
            return PolicyDecision.deny(
                f"Tool '{tool.name}' needs a Filesystem resource for policy '{self.name}'."
            )
        try:
            path = filesystem.normalise(self._path(params))
        except FilesystemError as error:
            return PolicyDecision.deny(str(error))
        if not filesystem.exists(path):
            return PolicyDecision.allow()
        keys = policy_state(context.session.query(PolicyState), self.name).invoked_keys
        seen = {*self.read_tools, *self.write_tools}  # pyright: ignore[reportGeneralTypeIssues]
        if any((name, path) in keys for name in seen):
            return PolicyDecision.allow()
        return PolicyDecision.deny(f"File '{path}' must be read before overwriting.")

    def on_result(
        self, tool: Tool[Any, Any], params: Any, result: ToolResult[Any], *, context: ToolContext
    ) -> None:
        """Remember the path of a successful read or write."""
        del result
        if tool.name not in self.read_tools and tool.name not in self.write_tools:
            return
        filesystem = context.resources.get_optional(Filesystem)
        if filesystem is None:
            return
        path = filesystem.normalise(self._path(params))
        context.session.dispatch(RecordPolicyInvocation(self.name, tool.name, path))

    def _path(self, params: Any) -> str:
        value = getattr(params, self.path_field, None)
        if not isinstance(value, str):
            raise FilesystemError(
                f"Policy '{self.name}' reads the path from field '{self.path_field}', "
                f"which {type(params).__qualname__} does not have as a string."
            )
        return value
