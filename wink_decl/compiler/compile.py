"""Compile a prompt file: load with positions, validate, check references, build the runtime."""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from wink_decl.compiler._confined import confined
from wink_decl.compiler._context import CompileContext, folder_ns, quotable
from wink_decl.compiler._includes import Includer
from wink_decl.compiler._numbers import number_problems
from wink_decl.compiler._once import computed_once
from wink_decl.compiler._param_spans import ParamSpans
from wink_decl.compiler._params_dataclass import class_for_params
from wink_decl.compiler._policy_compiler import PolicyCompiler
from wink_decl.compiler._readable import UnreadableData, readable
from wink_decl.compiler._sections import SectionScope, compile_sections, plain_sections
from wink_decl.compiler._stamp import IncludeState
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span, sort_diagnostics
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.loader import LoadedFile, load_file
from wink_decl.plugins import PluginCatalog
from wink_decl.prompt.keys import KEY_PATTERN
from wink_decl.schema.model import ParamSpec, PromptDocument
from wink_decl.schema.readable import UNREADABLE, ReadableDocument, readable_parts
from wink_decl.schema.validate import validate_document

if TYPE_CHECKING:
    from wink_decl.compiler._lazy import LazyHandler, LazyPolicy, LazyPredicate
    from wink_decl.prompt.policy import ToolPolicy
    from wink_decl.prompt.section import Section
    from wink_decl.prompt.template import PromptTemplate
    from wink_decl.prompt.tool import Tool
    from wink_decl.schema.model import ToolDoc
    from wink_decl.schema.readable import Unreadable

_Built = TypeVar("_Built", "CompiledPrompt", "CompileResult")

__all__ = [
    "CompileResult",
    "CompiledPrompt",
    "bind_plugins",
    "compile_file",
    "compile_loaded",
    "default_catalog",
]


@dataclass(frozen=True)
class CompiledPrompt:
    """A prompt file turned into the runtime template, its tool registry and its artifact."""

    source: str
    template: PromptTemplate[Any]
    tools: Mapping[str, Tool[Any, Any]]
    """Every tool by name, ``read_section`` included when a section can be summarized."""
    params_type: type | None
    model: PromptDocument
    """The file as the schema accepted it: the typed ``PromptDocument``, defaults filled in.

    Only a file the schema accepts compiles, so every compiled prompt has one; read params,
    sections and tools from it, not from the loaded data."""
    sources: Mapping[str, str]
    """File texts by display path: this file's (at ``source``) and every included file's."""
    param_spans: Mapping[str, Span] = field(default_factory=dict[str, Span])
    """Where each param is declared, so a missing value points at its declaration."""
    plugins: tuple[LazyPolicy | LazyPredicate, ...] = ()
    """The plugin policies and predicates the prompt uses (handlers hang off ``tools``)."""

    @property
    def address(self) -> str:
        """``ns/key``."""
        return self.template.label

    @computed_once
    def content_hash(self) -> str:
        """sha256 of the file's text and of each included file's path and text.

        Worked out on first use: rendering never needs it.
        """
        import hashlib  # noqa: PLC0415  # rendering and checking never need it

        digest = hashlib.sha256(self.sources[self.source].encode())
        for path, text in sorted(self.sources.items()):
            if path != self.source:
                digest.update(b"\0" + path.encode() + b"\0" + text.encode())
        return "sha256:" + digest.hexdigest()

    @property
    def artifact(self) -> Mapping[str, Any]:
        """The deterministic JSON artifact, built on first use (rendering never needs it).

        A tool whose params come from its handler has null ``parameters`` and ``result``
        until the prompt is bound (``bind_plugins``): reading the artifact imports nothing.
        Threads reading it at once all get one object.
        """
        from wink_decl.compiler._lazy import LazyTool  # noqa: PLC0415  # a built prompt only

        tools = self.tools.values()
        if any(isinstance(tool, LazyTool) and not tool.settled for tool in tools):
            return self._artifact_unbound
        return self._artifact_bound

    @computed_once
    def _artifact_unbound(self) -> Mapping[str, object]:
        return self._build_artifact()

    @computed_once
    def _artifact_bound(self) -> Mapping[str, object]:
        return self._build_artifact()

    def _build_artifact(self) -> Mapping[str, object]:
        from wink_decl.compiler._artifact import build_artifact  # noqa: PLC0415  # compile only

        return build_artifact(
            self.template, self.model, source=self.source, content_hash=self.content_hash
        )


@dataclass(frozen=True)
class CompileResult:
    """A compiled prompt, or None, and every diagnostic (warnings come with a prompt too)."""

    prompt: CompiledPrompt | None
    diagnostics: tuple[Diagnostic, ...]
    sources: Mapping[str, str] = field(default_factory=dict[str, str])
    """File texts by display path, for quoting lines in reports."""
    includes: tuple[Path, ...] = ()
    """Every file the includes named, found or not (resolved): a change there changes this."""
    include_states: Mapping[Path, IncludeState] = field(
        default_factory=dict[Path, IncludeState], compare=False, repr=False
    )
    """Each of ``includes`` as this compile read it (its stamp from before the read, and the
    digest of the bytes used): what caches must compare, not the file as it is afterwards."""
    address: str | None = None
    """``ns/key`` of a file that compiles, ``check_only`` too: what a registry serves it as."""

    @property
    def ok(self) -> bool:
        """True when nothing is an error."""
        return self.prompt is not None


def compile_file(
    path: str | Path,
    *,
    root: str | Path | None = None,
    catalog: PluginCatalog | None = None,
    display_path: str | None = None,
    content: bytes | None = None,
    limits: Limits = DEFAULT_LIMITS,
    check_only: bool = False,
    state: os.stat_result | None = None,
) -> CompileResult:
    """Load and compile one file; ``root`` bounds includes and names the default ns.

    The file is read only when its real path lies inside ``root`` (default: its folder): a
    symbolic link to a file elsewhere is refused unread (docs/security.md).

    ``content`` is the file's bytes when the caller has read them already (to hash them);
    ``limits`` bound the work for this file and everything it includes. ``state`` is the
    file's ``os.lstat`` when the caller took it (finding its root): the check and the read
    use it rather than look again.

    ``check_only`` finds every diagnostic but builds no runtime prompt: ``prompt`` is None
    (and ``ok`` False) even for a valid file, which is one whose diagnostics hold no error.
    ``wink-decl validate`` needs no more.

    No plugin code is imported: handlers, predicates and policies are looked up by name in
    the installed packages' metadata (``catalog``), and the checks that need their code wait
    for ``bind_plugins`` (docs/security.md).
    """
    # Strings, not Path objects, on the way to the loader: a Path costs microseconds to build.
    file_path = os.fspath(path)
    root_text = os.path.dirname(file_path) if root is None else os.fspath(root)  # noqa: PTH120
    shown = display_path or file_path
    check = confined(file_path, root_text or os.curdir, shown, state=state)
    if check.refusal is not None:
        return CompileResult(None, (check.refusal,), {})
    loaded = load_file(
        file_path, display_path=display_path, content=content, limits=limits, state=check.state
    )
    if loaded.file is None:
        return CompileResult(None, loaded.diagnostics, quotable(loaded, shown))
    # The root as given: a Path is made only if an include needs one (most files have none).
    prompt_root = root if isinstance(root, Path) else root_text
    return compile_loaded(
        loaded.file,
        file_path=file_path,
        root=prompt_root,
        catalog=catalog,
        limits=limits,
        check_only=check_only,
    )


def compile_loaded(
    file: LoadedFile,
    *,
    file_path: str | os.PathLike[str],
    root: str | Path,
    catalog: PluginCatalog | None = None,
    limits: Limits = DEFAULT_LIMITS,
    check_only: bool = False,
) -> CompileResult:
    """Validate and compile an already loaded file; like ``compile_file``, imports nothing.

    A number no JSON reader takes (NaN, infinity, a whole number past 64 bits) is refused
    before anything else reads the data: checks would have to print it, and Python cannot
    print a whole number of more than 4,300 digits.
    """
    sources = {file.path: file.text}  # the includer adds the files it reads
    numbers = number_problems(file)
    if numbers:
        return CompileResult(None, tuple(sort_diagnostics(numbers)), sources)
    document, problems = validate_document(file.data, file.source_map)
    if document is not None and not check_only:
        plain = _plain_prompt(file, document, file_path, root, sources, limits)
        if plain is not None:  # nothing to report: see _plain_prompt
            return _built(
                CompileResult,
                {
                    "prompt": plain,
                    "diagnostics": (),
                    "sources": sources,
                    "includes": (),
                    "include_states": {},
                    "address": plain.address,
                },
            )
    ctx = CompileContext(file)
    if document is None:  # a refused file is checked too, on each part that validates alone
        data = cast("Mapping[str, object]", file.data)  # the loader gives a mapping or nothing
        doc = readable_parts(data)
    else:
        doc = ReadableDocument.of(document)
    builder = _Builder(ctx, doc, file_path, root, catalog or default_catalog(), sources, limits)
    builder.check_only = check_only
    if document is not None:
        prompt = builder.build()
    else:
        prompt = None
        _check_anyway(builder)
    includer = builder.includer
    found = [*problems, *ctx.bag.items, *includer.diagnostics]
    # A valid file (most) has nothing to sort.
    diagnostics = tuple(sort_diagnostics(found)) if found else ()
    failed = any(d.severity == "error" for d in diagnostics)
    prompt = None if failed else prompt
    address = None if failed else builder.address
    named = tuple(includer.named)
    return CompileResult(prompt, diagnostics, sources, named, includer.states, address)


def _compile_tools(
    ctx: CompileContext, declared: Mapping[str, ToolDoc | Unreadable], catalog: PluginCatalog
) -> dict[str, Tool[Any, Any] | None]:
    """Each declared tool compiled; None for one the schema refused (its diagnostics say why)."""
    if not declared:
        return {}
    # Imported for a file with tools only: checking others never loads the lazy tools and
    # the runtime's tool classes behind them.
    from wink_decl.compiler._tool_compiler import compile_tool  # noqa: PLC0415

    return {
        name: None
        if spec is UNREADABLE
        else compile_tool(ctx, ("tools", name), name, spec, catalog)
        for name, spec in declared.items()
    }


@functools.lru_cache(maxsize=1024)
def _is_key_path(ns: str) -> bool:
    """True when each part of ``ns`` between '/' is a key (a folder's files share one ns)."""
    return all(KEY_PATTERN.fullmatch(segment) for segment in ns.split("/"))


@functools.cache
def default_catalog() -> PluginCatalog:
    """The installed plugins, scanned on first use (a scan costs milliseconds).

    One per process, used by every compile not given a catalog. A long-running process calls
    ``default_catalog().refresh()`` to see plugins installed or removed since (docs/plugins.md).
    """
    return PluginCatalog()


def _plain_prompt(
    file: LoadedFile,
    document: PromptDocument,
    file_path: str | os.PathLike[str],
    root: str | Path,
    sources: dict[str, str],
    limits: Limits,
) -> CompiledPrompt | None:
    """The prompt of a plain file, built straight from the checked data; None for any other.

    Plain: no tools, no policies, only plain sections (``plain_sections``), and an ns. Every
    check of ``_Builder`` would pass such a file without a word, so none is made: no readable
    document, includer, scopes or budget. Any other file (None) takes the ``_Builder``, which
    checks it and reports; what was made here (the params class) is found in its cache.
    """
    if document.tools or document.policies:
        return None
    ns, ok = _prompt_ns(document.ns, root, file_path)
    if not ok:
        return None
    params_type = class_for_params("Params", document.params)
    sections = plain_sections(document.sections, document.params, params_type, limits.max_sections)
    if sections is None:
        return None
    output_type = class_for_params("Output", document.output)
    types = (params_type, output_type)
    return _finish(file, document, ns, sections, [], types, (), sources, may_offer_tools=False)


def _prompt_ns(
    given: str | None, root: str | Path, file_path: str | os.PathLike[str]
) -> tuple[str, bool]:
    """The prompt's ns: as written (lower case), else its folder's; False when unusable."""
    if given is not None:
        return given.lower(), True
    if isinstance(root, str) and isinstance(file_path, str):
        # The name up to its last separator says all folder_ns reads of it: its folder, and
        # whether it is absolute. Absolute names depend on no working folder: kept per text.
        folder = file_path[: file_path.rfind(os.sep) + 1]
        if os.path.isabs(root) and os.path.isabs(folder):  # noqa: PTH117
            return _absolute_folder_ns(root, folder)
    ns = folder_ns(root, file_path)
    return ns, _is_key_path(ns)


@functools.lru_cache(maxsize=1024)
def _absolute_folder_ns(root: str, folder: str) -> tuple[str, bool]:
    """``_prompt_ns`` of a file named ``folder`` + a name (``folder`` ends in a separator)."""
    ns = folder_ns(root, folder)  # the folder of ``folder`` is the folder it names
    return ns, _is_key_path(ns)


def _check_anyway(builder: _Builder) -> None:
    """Report reference mistakes too when the schema already found some.

    The checks read the data as the schema requires it; where it has another shape, they
    stop (``UnreadableData``). What they found before that is still worth showing, so
    authors fix everything in one pass.
    """
    try:
        builder.build()
    except UnreadableData:
        return


class _Builder:
    """One compilation: params, tools, sections, policies, then the template."""

    def __init__(
        self,
        ctx: CompileContext,
        doc: ReadableDocument,
        file_path: str | os.PathLike[str],
        root: str | Path,
        catalog: PluginCatalog,
        sources: dict[str, str],
        limits: Limits,
    ) -> None:
        self.ctx = ctx
        self.doc = doc
        """What the checks read: the typed document, or the parts of a refused one."""
        self.file_path = file_path
        self.root = root
        self.catalog = catalog
        self.sources = sources
        self.includer = Includer(root, catalog, sources, limits)
        self.check_only = False
        """Stop once every check has run: what is built after them reports nothing."""
        self.address: str | None = None
        """``ns/key``, once every check has passed (a ``check_only`` build knows it too)."""

    def build(self) -> CompiledPrompt | None:
        doc = self.doc
        params = readable(doc.params)
        # Nothing is built from a refused file: its sections are only checked.
        check_only = self.check_only or doc.model is None
        # The checks read the params' names only: a compile that builds nothing makes no class.
        params_type = None if check_only else self._params_type(params)
        declared = readable(doc.tools)
        tools = _compile_tools(self.ctx, declared, self.catalog)
        policies = PolicyCompiler(self.catalog, tools)
        scope = SectionScope(
            params=params,
            params_type=params_type,
            tools=tools,
            policies=policies.policies,
            predicates=policies.predicate,
            include=self.includer.include,
            budget=self.includer.budget,
            check_only=check_only,
        )
        sections = compile_sections(self.ctx, readable(doc.sections), scope)
        declared_policies = readable(doc.policies)
        prompt_policies = (  # most prompts have none: nothing to compile
            policies.policies(self.ctx, ("policies",), declared_policies)
            if declared_policies
            else []
        )
        if declared:
            self._unused_tools([n for n, spec in declared.items() if spec is not UNREADABLE], scope)
        ns = self._ns()
        if sections is None or prompt_policies is None or ns is None or self.ctx.bag.has_errors:
            return None
        document = doc.model
        if document is None:  # refused: nothing to build
            return None
        self.address = f"{ns}/{document.key.lower()}"  # as the template spells it
        if self.check_only:  # checked only: nothing to build
            return None
        output_type = class_for_params("Output", document.output)
        return _finish(
            self.ctx.file,
            document,
            ns,
            cast("list[Section[Any]]", sections),  # built: never check_only here
            prompt_policies,
            (params_type, output_type),
            tuple(policies.plugins),
            self.sources,
            may_offer_tools=bool(document.tools or self.includer.named),
        )

    @staticmethod
    def _params_type(params: Mapping[str, ParamSpec]) -> type | None:
        # One name for every prompt's params: equal declarations then share one generated class
        # (making a dataclass costs more than the rest of a small compile).
        return class_for_params("Params", params)

    def _ns(self) -> str | None:
        given = self.doc.ns
        if given is UNREADABLE:
            return None  # the schema reported it
        ns, ok = _prompt_ns(given, self.root, self.file_path)
        if ok:
            return ns
        self.ctx.error(
            DiagnosticCode.NS,
            f"The folder path '{ns}' cannot be used as the prompt's ns.",
            Span(self.ctx.file.path, 1, 1),
            hint="add ns: with segments of lowercase letters, digits, '-' or '_' joined by '/'",
        )
        return None

    def _unused_tools(self, names: list[str], scope: SectionScope) -> None:
        """Warn of each tool no section offers (``names``: the tools the schema accepted)."""
        for name in names:
            if name not in scope.tool_owner:
                self.ctx.error(
                    DiagnosticCode.UNUSED_TOOL,
                    f"Tool '{name}' is declared but no section offers it.",
                    self.ctx.key_span(("tools", name)),
                    severity="warning",
                    hint="list it under tools: in the section that explains when to use it",
                )


def _finish(  # the parts of one prompt, each checked already
    file: LoadedFile,
    document: PromptDocument,
    ns: str,
    sections: list[Section[Any]],
    policies: list[ToolPolicy],
    types: tuple[type | None, type | None],
    plugins: tuple[LazyPolicy | LazyPredicate, ...],
    sources: dict[str, str],
    *,
    may_offer_tools: bool,
) -> CompiledPrompt:
    """The compiled prompt of ``document``: every part built and checked before.

    ``may_offer_tools``: the prompt declares tools or includes sections (which may offer the
    included file's); without, no section offers one and none are looked for.
    """
    # Imported here: checking a file (``check_only``) never builds the runtime template.
    from wink_decl.prompt.template import PromptTemplate  # noqa: PLC0415

    params_type, output_type = types
    # Built only from data the schema and the checks above accepted: a refusal here would be
    # a defect in the compiler, and shows as one.
    template: PromptTemplate[Any] = PromptTemplate(
        ns=ns,
        key=document.key,
        name=document.name,
        sections=sections,
        policies=policies,
        output_type=output_type,
    )
    offered = template.all_tools() if may_offer_tools else ()
    registry = {tool.name: tool for tool in offered}
    if template.engine.read_section_tool is not None:
        registry["read_section"] = template.engine.read_section_tool
    spans = ParamSpans(file.source_map, document.params)  # found when asked
    return _built(
        CompiledPrompt,
        {
            "source": file.path,
            "template": template,
            "tools": registry,
            "params_type": params_type,
            "model": document,
            "sources": sources,
            "param_spans": spans,
            "plugins": plugins,
        },
    )


def _built(kind: type[_Built], fields: dict[str, object]) -> _Built:
    """``kind(**fields)`` for a frozen dataclass (no slots or ``__post_init__``), all fields given.

    Its ``__init__`` sets each field through ``object.__setattr__``, a call per field on every
    compile; this sets them at once. A test checks it gives what ``kind()`` would.
    """
    made = object.__new__(kind)
    object.__setattr__(made, "__dict__", fields)
    return made


def bind_plugins(prompt: CompiledPrompt, *, rendering_only: bool = False) -> list[Diagnostic]:
    """Import every handler, predicate and policy now, and check each against its use.

    Compiling reads package metadata only; binding imports plugin code, so it runs when the
    prompt is about to be used (or on demand, for ``wink-decl compile``). A tool whose params
    (or result) come from its handler is typed here, and its ``reads``/``writes`` and
    examples checked against them. Each problem points at the place in the file that named
    the plugin. ``rendering_only`` imports only what a render needs: every predicate, and
    the handler of each tool typed by its handler; other handlers and policies wait.
    """
    if not prompt.tools and not prompt.plugins:  # nothing to import: most prompts
        return []
    from wink_decl.compiler._lazy import LazyHandler, LazyPolicy, LazyTool  # noqa: PLC0415

    problems: list[Diagnostic] = []
    for tool in prompt.tools.values():
        handler = tool.handler
        if isinstance(handler, LazyHandler) and (isinstance(tool, LazyTool) or not rendering_only):
            problems.extend(_tool_problems(tool, handler, prompt.source))
    for plugin in prompt.plugins:
        if rendering_only and isinstance(plugin, LazyPolicy):
            continue
        message = plugin.resolve()
        if message is not None:
            code = (
                DiagnosticCode.POLICY
                if isinstance(plugin, LazyPolicy)
                else DiagnosticCode.PREDICATE
            )
            problems.append(_binding(message, code, plugin.span, prompt.source, plugin.cause))
    return sort_diagnostics(problems)


def _tool_problems(tool: Tool[Any, Any], handler: LazyHandler, source: str) -> list[Diagnostic]:
    """Why the handler cannot serve ``tool``: not importable, wrong shape, or other params."""
    from wink_decl.compiler._lazy import LazyTool  # noqa: PLC0415  # binding only

    message = handler.resolve()
    if isinstance(tool, LazyTool):
        typing_problems = tool.bind()  # settled either way, so the artifact is final
        if message is None and typing_problems:  # the file misfits the handler's dataclasses
            return list(typing_problems)
    if message is None:
        message = _params_mismatch(tool, handler)
    if message is None:
        return []
    text = f"Tool '{tool.name}' cannot use handler '{handler.entry.name}': {message}"
    return [_binding(text, DiagnosticCode.HANDLER, handler.span, source, handler.cause)]


def _params_mismatch(tool: Tool[Any, Any], handler: LazyHandler) -> str | None:
    """How the declared params differ from the (imported) handler's, or None."""
    from wink_decl.plugins import compare_params, handler_params_type  # noqa: PLC0415  # binding

    actual = handler_params_type(handler.target)
    if actual is None or actual is tool.params_type:  # params omitted: the handler's own type
        return None
    declared = {
        f.name: (f.type, f.default is MISSING and f.default_factory is MISSING)
        for f in fields(tool.params_type)
    }
    mismatches = compare_params(declared, actual)
    return " ".join(mismatches) if mismatches else None


def _binding(
    message: str,
    code: DiagnosticCode,
    span: Span | None,
    source: str,
    cause: BaseException | None,
) -> Diagnostic:
    hint = "check that the plugin's version matches this prompt, or name another entry point"
    return Diagnostic(message, span, code, hint=hint, path=None if span else source, cause=cause)
