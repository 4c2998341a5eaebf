"""``PluginCatalog``: what the installed distributions register, found without importing it."""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span, as_hint
from wink_decl.errors import PromptRenderError, WinkDeclError
from wink_decl.suggestions import close_matches

if TYPE_CHECKING:
    from importlib.metadata import Distribution, EntryPoint

__all__ = [
    "EVALUATORS",
    "GROUPS",
    "HANDLERS",
    "POLICIES",
    "PREDICATES",
    "PluginCallError",
    "PluginCatalog",
    "PluginEntry",
    "PluginLoadError",
    "PluginProblem",
    "describe_exception",
    "normalise_distribution",
    "plugin_raised",
]

HANDLERS = "wink_decl.handlers"
"""Tool handlers: callables with the signature ``(params, *, context)``."""
POLICIES = "wink_decl.policies"
"""Tool policies: objects (or factories of objects) satisfying ``ToolPolicy``."""
PREDICATES = "wink_decl.predicates"
"""Predicates for section visibility and enablement."""
EVALUATORS = "wink_decl.evaluators"
"""Evaluators for eval files' ``plugin`` checks: factories of ``(outcome, sample) -> Score``."""
GROUPS = (HANDLERS, POLICIES, PREDICATES, EVALUATORS)
"""Every group the catalog indexes."""

_NOUNS = {
    HANDLERS: "handler",
    POLICIES: "policy",
    PREDICATES: "predicate",
    EVALUATORS: "evaluator",
}
_CODES = {
    HANDLERS: DiagnosticCode.HANDLER,
    POLICIES: DiagnosticCode.POLICY,
    PREDICATES: DiagnosticCode.PREDICATE,
}
_LIST_HINT = "Run 'wink-decl plugins' to list what is installed."
_COUNTS = {2: "two", 3: "three", 4: "four"}


def normalise_distribution(name: str) -> str:
    """The PEP 503 form of a distribution name: ``Plug_A`` and ``plug.a`` both give ``plug-a``."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(slots=True, frozen=True)
class PluginEntry:
    """One entry point: ``name`` in ``group``, pointing at ``value``, from one distribution.

    ``distribution`` is the name as published (``""`` when the entry point came without one).
    """

    group: str
    name: str
    value: str
    distribution: str
    version: str

    @property
    def reference(self) -> str:
        """``name@distribution``: the reference that picks exactly this entry."""
        return f"{self.name}@{self.distribution}"

    @property
    def label(self) -> str:
        """``'files.read_file' (wink-decl-files 1.0.0, value 'pkg.mod:func')``, for messages."""
        return f"'{self.name}' ({_provider(self)}, value '{self.value}')"


@dataclass(slots=True, frozen=True)
class PluginProblem:
    """Why a reference resolved to no single entry; ``code`` is stable, for tools and tests."""

    code: DiagnosticCode | str
    message: str
    hint: str
    suggestions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """The hint in the form every diagnostic gives it."""
        object.__setattr__(self, "hint", as_hint(self.hint))

    def to_diagnostic(self, span: Span | None, *, path: str | None = None) -> Diagnostic:
        """This problem as an error at ``span`` (or in ``path`` when there is no span)."""
        return Diagnostic(
            message=self.message,
            span=span,
            code=self.code,
            hint=self.hint,
            suggestions=self.suggestions,
            path=path,
        )


class PluginLoadError(WinkDeclError):
    """Importing an entry point failed; the message names it, its distribution and the error.

    When plugin code raised, that exception is the ``__cause__``.
    """

    def __init__(self, message: str, *, entry: PluginEntry) -> None:
        super().__init__(message)
        self.message = message
        self.entry = entry


class PluginCallError(PromptRenderError):
    """Plugin code raised when called; the message blames the entry point, not wink-decl.

    ``expected`` says what the plugin should have been; ``span`` is where the file named it.
    """

    def __init__(
        self, error: Exception, *, entry: PluginEntry, expected: str, span: Span | None
    ) -> None:
        message = plugin_raised(entry, error)
        super().__init__(message)
        self.message = message
        self.error = error
        """What the plugin raised (also the ``__cause__`` where it is raised from it)."""
        self.entry = entry
        self.expected = expected
        self.span = span

    def to_diagnostic(self, *, path: str) -> Diagnostic:
        """This failure as an error at the place that named the plugin (else in ``path``)."""
        where = f"the plugin's distribution ({self.entry.distribution})"
        return Diagnostic(
            message=self.message,
            span=self.span,
            code=_CODES[self.entry.group],
            expected=self.expected,
            hint=f"the fault is in {where}, not in this file: fix or upgrade it, or name "
            f"another {_NOUNS[self.entry.group]}",
            path=path,
            cause=self.error,
        )


def plugin_raised(entry: PluginEntry, error: Exception) -> str:
    """``Handler 'x' (entry point in wink_decl.handlers, from d 1.0, value 'm:f') raised ...``.

    How plugin code that raised when called is blamed, whatever the kind of plugin.
    """
    noun = _NOUNS[entry.group].capitalize()
    return (
        f"{noun} '{entry.name}' (entry point in {entry.group}, from {_provider(entry)}, "
        f"value '{entry.value}') raised {_one_line(error)}"
    )


def _one_line(error: Exception) -> str:
    """``ValueError: the first line of its message.`` (or just the type when it says nothing)."""
    text = describe_exception(error)
    return text if text.endswith(".") else f"{text}."


_Index = dict[tuple[str, str], tuple[PluginEntry, ...]]
_refresh_lock = threading.Lock()
"""Held by ``refresh`` (rare and short): one module lock keeps a catalog free of one, so it
pickles as before."""
_Stamp = tuple[tuple[str, int | None], ...]
"""Each folder on ``sys.path`` and its modification time (None: not a folder one can stat)."""


def describe_exception(error: BaseException) -> str:
    """``KeyError: 'x'``: the type and the first line of the message, or the type alone.

    One line, for a diagnostic's message; the rest is in the traceback (``-v``).
    """
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


class PluginCatalog:
    """The entry points of ``GROUPS``, indexed on first use; plugin code is imported by ``load``.

    With no arguments the catalog reads the installed environment
    (``importlib.metadata.entry_points()``). Tests pass ``entry_points`` (each one's
    ``dist`` gives its distribution) and/or ``distributions`` (each one's entry points are
    read; a distribution whose normalised name was already seen is skipped, like
    ``importlib.metadata`` does for shadowed installs).

    The index is kept until ``refresh`` finds the installed plugins changed: a long-running
    process calls it to see plugins installed, removed or upgraded since (docs/plugins.md).
    """

    __slots__ = (
        "_distributions",
        "_entry_points",
        "_generation",
        "_index",
        "_loaded",
        "_stamp",
    )

    def __init__(
        self,
        entry_points: Iterable[EntryPoint] | None = None,
        *,
        distributions: Iterable[Distribution] | None = None,
    ) -> None:
        """Keep what to index; nothing is read until a name is first looked up.

        A command that checks a file naming no plugin never pays for reading the metadata
        of every installed distribution (nor for importing ``importlib.metadata``).
        """
        self._entry_points = None if entry_points is None else list(entry_points)
        self._distributions = None if distributions is None else list(distributions)
        self._index: _Index | None = None
        self._loaded: dict[PluginEntry, object] = {}
        self._stamp: _Stamp | None = None
        """The folders on ``sys.path`` as they were just before the index was read."""
        self._generation = 0

    @property
    def _entries(self) -> _Index:
        """Every entry by (group, name), indexed on first use.

        Threads that race here each build the same index; the last one assigned wins.
        """
        index = self._index
        if index is None:
            self._stamp = self._installed_stamp()  # before the read: a change during it shows
            index = self._index = _indexed(self._found())
        return index

    @property
    def generation(self) -> int:
        """A number that changes each time ``refresh`` finds other entries than before.

        What was compiled with this catalog under another generation may name plugins that
        are gone, or miss ones installed since: registries compile such files again.
        """
        return self._generation

    def refresh(self) -> bool:
        """Read the plugins again if they may have changed; True when the entries changed.

        For the installed environment this costs one ``stat`` of each folder on ``sys.path``
        when nothing was installed or removed there since the last read (installing,
        upgrading or removing a distribution changes its folder's modification time); only
        then is the metadata read again. A catalog of given entry points or distributions
        reads them again. Objects ``load`` imported stay for the entries still there (a
        module already imported is not imported again: new code needs a new process).
        """
        with _refresh_lock:  # one reader at a time; lookups never wait for it
            if self._index is None:
                return False  # nothing read yet: the first lookup reads the plugins as they are
            stamp = self._installed_stamp()
            if stamp is not None and stamp == self._stamp:
                return False
            self._stamp = stamp
            import importlib  # noqa: PLC0415  # only a catalog that may have changed needs it

            importlib.invalidate_caches()  # metadata and import finders see new folders now
            index = _indexed(self._found())
            if index == self._index:
                return False
            kept = self._loaded.items()
            self._loaded = {e: o for e, o in kept if e in index.get((e.group, e.name), ())}
            self._index = index  # before the generation: who sees the new number sees this
            self._generation += 1
            return True

    def _installed_stamp(self) -> _Stamp | None:
        """The ``sys.path`` folders' modification times; None for a catalog of given entries."""
        if self._entry_points is not None or self._distributions is not None:
            return None
        return tuple((folder, _modified(folder)) for folder in sys.path)

    def _found(self) -> list[EntryPoint]:
        found: list[EntryPoint] = []
        if self._entry_points is None and self._distributions is None:
            import importlib.metadata  # noqa: PLC0415  # costs more than the rest of a small check

            installed = importlib.metadata.entry_points()
            for group in GROUPS:
                found.extend(installed.select(group=group))
        found.extend(self._entry_points or ())
        found.extend(_from_distributions(self._distributions or ()))
        return found

    def names(self, group: str) -> tuple[str, ...]:
        """Every name registered in ``group``, sorted."""
        return tuple(sorted(name for kind, name in self._entries if kind == group))

    def entries(self, group: str, name: str) -> tuple[PluginEntry, ...]:
        """One entry per distribution registering ``name`` in ``group``, by distribution."""
        return self._entries.get((group, name), ())

    def fingerprint(self) -> str:
        """A digest of every entry: equal when the same plugins are installed the same way.

        Compile results depend on which names exist, so caches kept across processes are keyed
        by it; a plugin installed, removed or upgraded gives another fingerprint.
        """
        import hashlib  # noqa: PLC0415  # only caches kept on disk need it

        digest = hashlib.sha256()
        for (group, name), entries in sorted(self._entries.items()):
            for entry in entries:
                fields = (group, name, entry.value, entry.distribution, entry.version)
                digest.update("\0".join(fields).encode() + b"\n")
        return digest.hexdigest()

    def conflicts(self, group: str) -> dict[str, tuple[PluginEntry, ...]]:
        """The names of ``group`` that more than one distribution registers, sorted."""
        return {
            name: entries
            for name in self.names(group)
            if len(entries := self.entries(group, name)) > 1
        }

    def resolve(self, group: str, reference: str) -> PluginEntry | PluginProblem:
        """The entry ``reference`` (``name`` or ``name@distribution``) means, or why none."""
        name, at, distribution = reference.partition("@")
        entries = self.entries(group, name)
        noun = _NOUNS.get(group, "plugin")
        if not entries:
            return self._unknown(group, noun, name)
        if at:
            wanted = normalise_distribution(distribution)
            chosen = [e for e in entries if normalise_distribution(e.distribution) == wanted]
            if chosen:
                return chosen[0]
            return _unknown_distribution(noun, distribution, entries)
        if len(entries) == 1:
            return entries[0]
        count = _COUNTS.get(len(entries), str(len(entries)))
        references = tuple(entry.reference for entry in entries)
        return PluginProblem(
            code=DiagnosticCode.AMBIGUOUS_PLUGIN,
            message=(
                f"{noun.capitalize()} '{name}' is registered by {count} distributions: "
                f"{', '.join(_provider(entry) for entry in entries)}."
            ),
            hint=f"Choose one: {', '.join(references)}",
            suggestions=references,
        )

    def load(self, entry: PluginEntry) -> object:
        """Import the object ``entry`` points at (once; later calls reuse it).

        Raises:
            PluginLoadError: the import failed, or the value is not ``module:attribute``.
        """
        if entry in self._loaded:
            return self._loaded[entry]
        noun = _NOUNS.get(entry.group, "plugin")
        where = f"Could not import {noun} {entry.label}"
        from importlib.metadata import EntryPoint  # noqa: PLC0415  # loading plugins only

        if EntryPoint.pattern.fullmatch(entry.value) is None:
            raise PluginLoadError(
                f"{where}: the value must have the form 'package.module:attribute'.",
                entry=entry,
            )
        try:
            point = EntryPoint(name=entry.name, value=entry.value, group=entry.group)
            loaded: object = point.load()
        except Exception as error:  # plugin code may raise anything on import
            raise PluginLoadError(f"{where}: {describe_exception(error)}", entry=entry) from error
        self._loaded[entry] = loaded
        return loaded

    def _unknown(self, group: str, noun: str, name: str) -> PluginProblem:
        suggestions = close_matches(name, self.names(group), alphabetical_ties=True)
        did_you_mean = f"Did you mean {_either(suggestions)}? " if suggestions else ""
        return PluginProblem(
            code=DiagnosticCode.UNKNOWN_PLUGIN,
            message=f"No {noun} named '{name}' is installed.",
            hint=f"{did_you_mean}{_LIST_HINT}",
            suggestions=suggestions,
        )


def _unknown_distribution(
    noun: str, distribution: str, entries: tuple[PluginEntry, ...]
) -> PluginProblem:
    by_distribution = {normalise_distribution(e.distribution): e.reference for e in entries}
    close = close_matches(
        normalise_distribution(distribution), by_distribution, alphabetical_ties=True
    )
    suggestions = tuple(by_distribution[key] for key in close)
    did_you_mean = f"Did you mean {_either(suggestions)}? " if suggestions else ""
    return PluginProblem(
        code=DiagnosticCode.UNKNOWN_DISTRIBUTION,
        message=(
            f"{noun.capitalize()} '{entries[0].name}' is not registered by a distribution "
            f"named '{distribution}'."
        ),
        hint=(
            f"{did_you_mean}It is registered by {', '.join(_provider(entry) for entry in entries)}."
        ),
        suggestions=suggestions,
    )


def _indexed(found: Iterable[EntryPoint]) -> dict[tuple[str, str], tuple[PluginEntry, ...]]:
    """One entry per distribution for each (group, name) of the indexed groups."""
    index: dict[tuple[str, str], dict[str, PluginEntry]] = {}
    for point in found:
        if point.group not in GROUPS:
            continue
        entry = _entry(point)
        by_distribution = index.setdefault((entry.group, entry.name), {})
        by_distribution.setdefault(normalise_distribution(entry.distribution), entry)
    return {
        key: tuple(by_distribution[dist] for dist in sorted(by_distribution))
        for key, by_distribution in index.items()
    }


def _from_distributions(distributions: Iterable[Distribution]) -> list[EntryPoint]:
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for distribution in distributions:
        key = normalise_distribution(distribution.name or "")
        if key not in seen:
            seen.add(key)
            found.extend(distribution.entry_points)
    return found


def _entry(point: EntryPoint) -> PluginEntry:
    distribution = point.dist
    return PluginEntry(
        group=point.group,
        name=point.name,
        value=point.value,
        distribution=(distribution.name or "") if distribution is not None else "",
        version=(distribution.version or "") if distribution is not None else "",
    )


def _modified(folder: str) -> int | None:
    """The modification time of ``folder`` (``""`` is the working folder); None if none."""
    try:
        return os.stat(folder or os.curdir).st_mtime_ns  # noqa: PTH116  # a str: no Path each
    except OSError:  # a zip file that is not there, a folder removed: nothing to list
        return None


def _provider(entry: PluginEntry) -> str:
    if not entry.distribution:
        return "an unknown distribution"
    return f"{entry.distribution} {entry.version}".rstrip()


def _either(names: tuple[str, ...]) -> str:
    quoted = [f"'{name}'" for name in names]
    if len(quoted) == 1:
        return quoted[0]
    return f"{', '.join(quoted[:-1])} or {quoted[-1]}"
