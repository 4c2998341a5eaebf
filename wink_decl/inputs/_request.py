"""``PromptRequest`` -> ``prepare`` -> ``Prepared``: one prompt file made ready to render or run.

Every front end (the command line, the preview page, ``wink_decl.load``, the servers and runners
built on them) says what it was given as a ``PromptRequest`` and gets the same answer: the same
prompt root, limits, params, opened sections, tag and overrides folder, and the same
diagnostics in the same words.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from wink_decl.compiler import bind_plugins, compile_file
from wink_decl.diagnostics import DiagnosticError
from wink_decl.inputs._open import opened_sections
from wink_decl.inputs._params import MISSING_HINT, ParamValues
from wink_decl.inputs._params_file import load_params_file
from wink_decl.inputs._report import Report
from wink_decl.inputs._roots import overrides_folder, path_text, prompt_file, root_finder
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.overrides.tagged import apply_tag
from wink_decl.plugins import PluginCallError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from wink_decl.compiler import CompiledPrompt, CompileResult
    from wink_decl.diagnostics import Diagnostic
    from wink_decl.overrides import OverrideStore
    from wink_decl.prompt.template import PromptTemplate, RenderedPrompt
    from wink_decl.prompt.visibility import SectionPath, SectionVisibility

__all__ = ["Location", "Plugins", "Prepared", "PromptRequest", "locate", "prepare"]

Plugins = Literal["render", "all"]
"""Which plugin code ``prepare`` imports and checks: what a render needs, or all of it."""


@dataclass(frozen=True, init=False)
class PromptRequest:
    """What a front end was asked for one prompt file, as it was given.

    ``root`` and ``overrides`` are folders as written (None: found as ``docs/overrides.md``
    and the README say); ``params`` are ``NAME=VALUE`` texts split in two, in the order given
    (a later one of a name wins, and every text wins over ``params_file``); ``open`` names
    sections to render in full.
    """

    file: str
    root: str | None = None
    limits: Limits = DEFAULT_LIMITS
    params: tuple[tuple[str, str], ...] = ()
    params_file: str | None = None
    open: tuple[str, ...] = ()
    tag: str | None = None
    overrides: str | None = None
    strict: bool = False
    """A stale override entry is an error, not a warning."""
    missing_hint: str = MISSING_HINT
    """How this front end tells people to give a missing param (``{name}`` is filled in)."""

    def __init__(  # the dataclass's own fields, in order, with their defaults
        self,
        file: str,
        root: str | None = None,
        limits: Limits = DEFAULT_LIMITS,
        params: tuple[tuple[str, str], ...] = (),
        params_file: str | None = None,
        open: tuple[str, ...] = (),  # noqa: A002 - the field's name
        tag: str | None = None,
        overrides: str | None = None,
        strict: bool = False,
        missing_hint: str = MISSING_HINT,
    ) -> None:
        # Frozen: every field goes in at once, past ``__setattr__``, as ``Location``'s do.
        fields: dict[str, object] = {
            "file": file,
            "root": root,
            "limits": limits,
            "params": params,
            "params_file": params_file,
            "open": open,
            "tag": tag,
            "overrides": overrides,
            "strict": strict,
            "missing_hint": missing_hint,
        }
        object.__setattr__(self, "__dict__", fields)


@dataclass(frozen=True, init=False)
class Location:
    """Where a request's files are: the prompt file, its root, and (when asked) overrides.

    ``file`` and ``root`` are kept as text, as ``str(Path(...))`` writes them
    (``file_name``, ``root_name``: what the compile is given and reports show); a Path of
    either is made when asked for. ``overrides``: the overrides folder, when the front end has
    found it already; ``store``: where the tag's override files come from, when not from a
    folder (``OverrideStore``); ``state``: the prompt file's ``os.lstat``, when finding its
    root took it (the compile's check and read use it rather than look again).
    """

    request: PromptRequest
    file_name: str
    root_name: str
    overrides: Path | None
    store: OverrideStore | None
    state: os.stat_result | None

    def __init__(
        self,
        request: PromptRequest,
        file: str | os.PathLike[str],
        root: str | os.PathLike[str],
        overrides: Path | None = None,
        store: OverrideStore | None = None,
        *,
        state: os.stat_result | None = None,
    ) -> None:
        # Text, not Path objects: a front end that has the names as text pays for no Path.
        self._fill(request, path_text(file), path_text(root), overrides, store, state)

    @classmethod
    def of_names(
        cls,
        request: PromptRequest,
        file_name: str,
        root_name: str,
        store: OverrideStore | None = None,
        *,
        state: os.stat_result | None = None,
    ) -> Location:
        """The location of names written as ``path_text`` writes them already (as given)."""
        location = object.__new__(cls)
        location._fill(request, file_name, root_name, None, store, state)  # noqa: SLF001
        return location

    def _fill(
        self,
        request: PromptRequest,
        file_name: str,
        root_name: str,
        overrides: Path | None,
        store: OverrideStore | None,
        state: os.stat_result | None,
    ) -> None:
        # Frozen: every field goes in at once, past ``__setattr__`` (the cached properties
        # join them in the same dict).
        fields = {
            "request": request,
            "file_name": file_name,
            "root_name": root_name,
            "overrides": overrides,
            "store": store,
            "state": state,
        }
        object.__setattr__(self, "__dict__", fields)

    @cached_property
    def file(self) -> Path:
        """The prompt file."""
        return Path(self.file_name)

    @cached_property
    def root(self) -> Path:
        """The prompt root."""
        return Path(self.root_name)

    @cached_property
    def overrides_folder(self) -> Path:
        """The request's ``overrides``, else the configured folder, else one beside the root."""
        if self.overrides is not None:
            return self.overrides
        request = self.request
        return overrides_folder(request.overrides, self.root, root_given=request.root is not None)

    def override_store(self) -> OverrideStore:
        """``store``, else one of ``overrides_folder`` reading files within the limits."""
        if self.store is not None:
            return self.store
        from wink_decl.overrides import LocalOverrideStore  # noqa: PLC0415  # tags only

        return LocalOverrideStore(self.overrides_folder, limits=self.request.limits)


def locate(request: PromptRequest) -> Location:
    """The request's prompt file and root; ``InputError`` when either cannot be used."""
    path = prompt_file(request.file)
    return Location(request, path, root_finder(request.root)(path))


@dataclass(frozen=True, init=False)
class Prepared:
    """A prompt file compiled, its params bound, its plugins checked and its tag applied.

    ``reports`` holds what each step found, in order (warnings too; the compile's first, and
    a step that found nothing has an empty one); ``ok`` says whether the prompt can be
    rendered. ``compiled`` is the prompt as written, ``prompt`` with the tag.
    """

    location: Location
    result: CompileResult
    reports: tuple[Report, ...]
    compiled: CompiledPrompt | None = None
    prompt: CompiledPrompt | None = None
    params: tuple[object, ...] = ()
    visibility: Mapping[SectionPath, SectionVisibility] = field(
        default_factory=dict["SectionPath", "SectionVisibility"]
    )

    def __init__(  # the dataclass's own fields, in order
        self,
        location: Location,
        result: CompileResult,
        reports: tuple[Report, ...],
        compiled: CompiledPrompt | None = None,
        prompt: CompiledPrompt | None = None,
        params: tuple[object, ...] = (),
        visibility: Mapping[SectionPath, SectionVisibility] | None = None,
    ) -> None:
        # Frozen: every field goes in at once, past ``__setattr__``, as ``Location``'s do.
        fields: dict[str, object] = {
            "location": location,
            "result": result,
            "reports": reports,
            "compiled": compiled,
            "prompt": prompt,
            "params": params,
            "visibility": {} if visibility is None else visibility,
        }
        object.__setattr__(self, "__dict__", fields)

    @property
    def ok(self) -> bool:
        """Whether every step succeeded, so the prompt can be rendered."""
        return self.prompt is not None and not any(report.failed for report in self.reports)

    @property
    def template(self) -> PromptTemplate[Any]:
        """The template to render and run: the tag's, when a tag was asked for."""
        if self.prompt is None:
            raise ValueError("a prompt that did not compile has no template")
        return self.prompt.template

    @property
    def source(self) -> str:
        """The prompt file as reports show it."""
        return self.location.file_name

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """Every report's diagnostics, in the order the steps found them."""
        return tuple(d for report in self.reports for d in report.diagnostics)

    @property
    def sources(self) -> dict[str, str]:
        """Every text the diagnostics may quote: the files compiled and every report's."""
        found = dict(self.result.sources)
        for report in self.reports:
            found.update(report.sources)
        return found

    def render(self, *, tagged: bool = True) -> RenderedPrompt:
        """The prompt (with the tag unless ``tagged`` is False) rendered with its params.

        A predicate that raises is the plugin's fault: ``DiagnosticError`` names the plugin.
        """
        prompt = self.prompt if tagged else self.compiled
        if prompt is None or not self.ok:
            raise ValueError("a prepared prompt with errors cannot be rendered")
        try:
            return prompt.template.render(*self.params, visibility_overrides=self.visibility)
        except PluginCallError as error:
            problem = error.to_diagnostic(path=prompt.source)
            raise DiagnosticError([problem], sources=self.result.sources) from error


def prepare(
    request: PromptRequest,
    *,
    plugins: Plugins = "render",
    tools_only: bool = False,
    bind_params: bool = True,
    location: Location | None = None,
    compiled: CompileResult | None = None,
) -> Prepared:
    """Compile the request's file and make it ready: params, opened sections, plugins, tag.

    Each step that can run does, so every problem is reported at once: the params, the
    opened sections, the plugins and the tag are checked even when another of them fails;
    only a file that does not compile stops there. ``tools_only``: only the tools will be
    used, so a required param that cannot change them need not be given. ``bind_params``
    False: nothing will be rendered, so no param is needed (nor checked). ``location``:
    where the request's files are, when the front end has found them already (else
    ``locate``); ``compiled``: the file compiled there, when the front end needed it first.
    ``InputError`` when a file or folder of the request cannot be used.
    """
    params_file = (
        None
        if request.params_file is None
        else load_params_file(request.params_file, request.limits)
    )
    location = location or locate(request)
    result = compiled or compile_file(
        location.file_name,
        root=location.root_name,
        display_path=location.file_name,
        limits=request.limits,
        state=location.state,
    )
    prompt = result.prompt
    reports = [Report(result.diagnostics, result.sources)]
    if prompt is None:
        return Prepared(location, result, tuple(reports))
    params: tuple[object, ...] = ()
    visibility: dict[SectionPath, SectionVisibility] = {}
    if bind_params:
        values = ParamValues(prompt, tools_only=tools_only)
        if params_file is not None:
            values.add_file(params_file)
        for name, text in dict(request.params).items():  # the last text of a name wins
            values.add_text(name, text)
        params = values.params(request.missing_hint)
        visibility = opened_sections(prompt, request.open, values.problems)
        file_sources: Mapping[str, str] = {} if params_file is None else params_file.sources
        reports.append(Report(tuple(values.problems), {**result.sources, **file_sources}))
    problems = bind_plugins(prompt, rendering_only=plugins == "render")
    reports.append(Report(tuple(problems), result.sources))
    tagged: CompiledPrompt | None = prompt
    if request.tag is not None:
        store = location.override_store()
        tagging = apply_tag(
            prompt.template, store, request.tag, strict=request.strict, source=prompt.source
        )
        reports.append(Report(tagging.diagnostics, tagging.sources))
        tagged = dataclasses.replace(prompt, template=tagging.template) if tagging.ok else None
    return Prepared(
        location,
        result,
        tuple(reports),
        prompt,
        tagged,
        params,
        visibility,
    )
