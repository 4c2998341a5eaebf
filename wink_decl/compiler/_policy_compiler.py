"""Policy declarations compiled to runtime policies, their tool names checked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wink_decl.compiler._context import CompileContext
from wink_decl.compiler._lazy import LazyPolicy, LazyPredicate
from wink_decl.compiler._readable import (
    UnreadableData,
    readable_list,
    readable_mapping,
    readable_names,
    required,
)
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.loader import JSONPath
from wink_decl.plugins import POLICIES, PREDICATES, PluginCatalog, PluginProblem
from wink_decl.prompt.policy import ToolPolicy
from wink_decl.prompt.tool import Tool
from wink_decl.suggestions import did_you_mean_sentence

__all__ = ["PolicyCompiler"]


_READ_BEFORE_WRITE_FIELDS = ("read_tools", "write_tools")


class PolicyCompiler:
    """Compiles ``policies:`` lists and predicate references for one prompt."""

    def __init__(self, catalog: PluginCatalog, tool_names: Mapping[str, object]) -> None:
        """``tool_names`` are the prompt's declared tools, for checking references."""
        self._catalog = catalog
        self._tools = tool_names
        self.plugins: list[LazyPolicy | LazyPredicate] = []
        """Every plugin policy and predicate compiled, so binding can check them all at once."""

    def policies(
        self, ctx: CompileContext, path: JSONPath, items: list[Any]
    ) -> list[ToolPolicy] | None:
        """Every item compiled; None when any has errors."""
        built: list[ToolPolicy] = []
        ok = True
        for index, item in enumerate(readable_list(items)):
            entry = readable_mapping(item)
            if len(entry) != 1:
                raise UnreadableData
            ((kind, config),) = entry.items()
            here = (*path, index, kind)
            policy = self._one(ctx, here, kind, config)
            if policy is None:
                ok = False
            else:
                built.append(policy)
        return built if ok else None

    def predicate(self, ctx: CompileContext, path: JSONPath, name: str) -> LazyPredicate | None:
        """A predicate plugin, resolved from package metadata (imported on first use)."""
        found = self._catalog.resolve(PREDICATES, name)
        if isinstance(found, PluginProblem):
            ctx.bag.add(found.to_diagnostic(ctx.span(path)))
            return None
        predicate = LazyPredicate(self._catalog, found, ctx.span(path))
        self.plugins.append(predicate)
        return predicate

    def _one(
        self, ctx: CompileContext, path: JSONPath, kind: str, config: Any
    ) -> ToolPolicy | None:
        if kind == "sequential":
            return self._sequential(ctx, path, config)
        if kind == "read_before_write":
            return self._read_before_write(ctx, path, config)
        config = readable_mapping(config)
        found = self._catalog.resolve(POLICIES, str(required(config, "name")))
        span = ctx.span((*path, "name"))
        if isinstance(found, PluginProblem):
            ctx.bag.add(found.to_diagnostic(span))
            return None
        policy = LazyPolicy(
            self._catalog, found, dict(readable_mapping(config.get("config", {}))), span
        )
        self.plugins.append(policy)
        return policy

    def _sequential(
        self, ctx: CompileContext, path: JSONPath, table: Mapping[str, list[str]]
    ) -> ToolPolicy | None:
        table = readable_mapping(table)
        ok = self._known(ctx, [((*path,), name) for name in table], key=True)
        for tool, needs in table.items():
            readable_names(needs)
            ok = self._known(ctx, [((*path, tool, i), n) for i, n in enumerate(needs)]) and ok
        # The built-in policies' module imports the filesystem and the session: a file that
        # declares none never loads them.
        from wink_decl.runtime.policies import SequentialDependencyPolicy  # noqa: PLC0415

        return SequentialDependencyPolicy(dependencies=table) if ok else None

    def _read_before_write(
        self, ctx: CompileContext, path: JSONPath, config: Mapping[str, Any]
    ) -> ToolPolicy | None:
        ok = True
        config = readable_mapping(config)
        if not config.keys() <= {*_READ_BEFORE_WRITE_FIELDS, "path_field"}:
            raise UnreadableData
        for field in _READ_BEFORE_WRITE_FIELDS:
            names = readable_names(config.get(field, []))
            ok = self._known(ctx, [((*path, field, i), n) for i, n in enumerate(names)]) and ok
        if not ok:
            return None
        from wink_decl.runtime.policies import ReadBeforeWritePolicy  # noqa: PLC0415  # as above

        policy = ReadBeforeWritePolicy(**dict(config))
        named = {*policy.read_tools, *policy.write_tools}  # pyright: ignore[reportGeneralTypeIssues]
        # A tool that declares reads:/writes: is watched whatever its name; one that did not
        # compile may declare them too, and has its own errors to show.
        declaring = [
            name
            for name, tool in self._tools.items()
            if not isinstance(tool, Tool) or tool.reads is not None or tool.writes is not None
        ]
        if not declaring and not named & set(self._tools):
            names = ", ".join(sorted(named))
            ctx.error(
                DiagnosticCode.UNUSED_POLICY,
                f"read_before_write watches tools this prompt does not declare: {names}."
                if named
                else "read_before_write watches no tools.",
                ctx.key_span(path),
                severity="warning",
                hint="name your file tools with read_tools: and write_tools:, or give each "
                "one reads: or writes:",
            )
        return policy

    def _known(
        self, ctx: CompileContext, names: list[tuple[JSONPath, str]], *, key: bool = False
    ) -> bool:
        ok = True
        for path, name in names:
            if name in self._tools:
                continue
            suggestion = did_you_mean_sentence(name, self._tools)
            span = ctx.key_span((*path, name)) if key else ctx.span(path)
            ctx.error(
                DiagnosticCode.UNKNOWN_TOOL,
                f"Policy names tool '{name}', which is not declared under tools:.",
                span,
                expected=f"a declared tool ({', '.join(self._tools) or 'none are declared'})",
                hint=suggestion.strip().lower() if suggestion else None,
                suggestions=[t for t in self._tools if suggestion and f"'{t}'" in suggestion],
            )
            ok = False
        return ok
