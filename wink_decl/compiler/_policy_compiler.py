"""Policy declarations compiled to runtime policies, their tool names checked."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from wink_decl.compiler._context import CompileContext
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.loader import JSONPath
from wink_decl.plugins import POLICIES, PREDICATES, PluginCatalog, PluginProblem
from wink_decl.schema import (
    PluginSpec,
    PolicyDoc,
    ReadBeforeWritePolicyDoc,
    ReadBeforeWriteSpec,
    SequentialPolicyDoc,
)
from wink_decl.suggestions import did_you_mean_sentence

# The lazy plugins and the runtime's classes are imported where a file declares what needs
# them: a file without policies or predicates never loads them.
if TYPE_CHECKING:
    from wink_decl.compiler._lazy import LazyPolicy, LazyPredicate
    from wink_decl.prompt.policy import ToolPolicy

__all__ = ["PolicyCompiler"]


class PolicyCompiler:
    """Compiles ``policies:`` lists and predicate references for one prompt."""

    def __init__(self, catalog: PluginCatalog, tool_names: Mapping[str, object]) -> None:
        """``tool_names`` are the prompt's declared tools, for checking references."""
        self._catalog = catalog
        self._tools = tool_names
        self.plugins: list[LazyPolicy | LazyPredicate] = []
        """Every plugin policy and predicate compiled, so binding can check them all at once."""

    def policies(
        self, ctx: CompileContext, path: JSONPath, items: Iterable[PolicyDoc]
    ) -> list[ToolPolicy] | None:
        """Every item compiled; None when any has errors."""
        built: list[ToolPolicy] = []
        ok = True
        for index, item in enumerate(items):
            policy = self._one(ctx, (*path, index), item)
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
        from wink_decl.compiler._lazy import LazyPredicate  # noqa: PLC0415  # see the imports

        predicate = LazyPredicate(self._catalog, found, ctx.span_later(path))
        self.plugins.append(predicate)
        return predicate

    def _one(self, ctx: CompileContext, path: JSONPath, item: PolicyDoc) -> ToolPolicy | None:
        """One policy; ``path`` is the item's, and its one key extends it."""
        match item:
            case SequentialPolicyDoc(sequential=table):
                return self._sequential(ctx, (*path, "sequential"), table)
            case ReadBeforeWritePolicyDoc(read_before_write=spec):
                return self._read_before_write(ctx, (*path, "read_before_write"), spec)
            case _:  # the plugin policy, the one kind left
                return self._plugin(ctx, (*path, "plugin"), item.plugin)

    def _plugin(self, ctx: CompileContext, path: JSONPath, spec: PluginSpec) -> ToolPolicy | None:
        found = self._catalog.resolve(POLICIES, spec.name)
        if isinstance(found, PluginProblem):
            ctx.bag.add(found.to_diagnostic(ctx.span((*path, "name"))))
            return None
        from wink_decl.compiler._lazy import LazyPolicy  # noqa: PLC0415  # see the imports

        where = ctx.span_later((*path, "name"))
        policy = LazyPolicy(self._catalog, found, dict(spec.config), where)
        self.plugins.append(policy)
        return policy

    def _sequential(
        self, ctx: CompileContext, path: JSONPath, table: Mapping[str, tuple[str, ...]]
    ) -> ToolPolicy | None:
        ok = self._known(ctx, [((*path,), name) for name in table], key=True)
        for tool, needs in table.items():
            ok = self._known(ctx, [((*path, tool, i), n) for i, n in enumerate(needs)]) and ok
        _warn_waiting_for_none(ctx, path, table)
        # The built-in policies' module imports the filesystem and the session: a file that
        # declares none never loads them.
        from wink_decl.runtime.policies import SequentialDependencyPolicy  # noqa: PLC0415

        return SequentialDependencyPolicy(dependencies=table) if ok else None

    def _read_before_write(
        self, ctx: CompileContext, path: JSONPath, spec: ReadBeforeWriteSpec
    ) -> ToolPolicy | None:
        # Only the lists the file writes are checked: the defaults name tools a prompt may
        # well not declare, and the warning below covers watching none of them.
        written = spec.model_fields_set
        ok = True
        for field, names in (("read_tools", spec.read_tools), ("write_tools", spec.write_tools)):
            if field in written:
                checked = [((*path, field, i), n) for i, n in enumerate(names)]
                ok = self._known(ctx, checked) and ok
        if not ok:
            return None
        from wink_decl.prompt.tool import Tool  # noqa: PLC0415  # as above
        from wink_decl.runtime.policies import ReadBeforeWritePolicy  # noqa: PLC0415  # as above

        policy = ReadBeforeWritePolicy(
            read_tools=spec.read_tools, write_tools=spec.write_tools, path_field=spec.path_field
        )
        named = {*spec.read_tools, *spec.write_tools}
        # A tool that declares reads:/writes: is watched whatever its name; one that did not
        # compile may declare them too, and has its own errors to show.
        declaring = [
            name
            for name, tool in self._tools.items()
            if not isinstance(tool, Tool) or tool.reads is not None or tool.writes is not None
        ]
        writing = set(spec.write_tools) & set(self._tools) or [
            name
            for name, tool in self._tools.items()
            if not isinstance(tool, Tool) or tool.writes is not None
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
        elif not writing:  # it watches reads only: it never has a write to refuse
            ctx.error(
                DiagnosticCode.UNUSED_POLICY,
                "read_before_write watches no tool that writes: this policy never refuses a call.",
                ctx.key_span(path),
                severity="warning",
                hint="name the tools that change files with write_tools:, or give each one writes:",
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


def _warn_waiting_for_none(
    ctx: CompileContext, path: JSONPath, table: Mapping[str, tuple[str, ...]]
) -> None:
    """A warning for each entry that makes its tool wait for nothing: it can never refuse.

    When no entry makes a tool wait, the whole policy does nothing: one warning says so.
    """
    idle = [tool for tool, needs in table.items() if not needs]
    if len(idle) == len(table):
        ctx.error(
            DiagnosticCode.UNUSED_POLICY,
            "sequential makes no tool wait for another: this policy never refuses a call.",
            ctx.key_span(path),
            severity="warning",
            hint="list what each tool waits for, such as {deploy: [build, test]}, or remove "
            "the policy",
        )
        return
    for tool in idle:
        ctx.error(
            DiagnosticCode.UNUSED_POLICY,
            f"Tool '{tool}' waits for no tool here: this entry does nothing.",
            ctx.key_span((*path, tool)),
            severity="warning",
            hint=f"list the tools '{tool}' must wait for, such as {{{tool}: [...]}}, or remove "
            "the entry",
        )
