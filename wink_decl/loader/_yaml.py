"""YAML prompt files: text -> plain data and a source map, or every problem found."""

from __future__ import annotations

import re
from functools import partial
from typing import TYPE_CHECKING

from wink_decl.diagnostics import Span
from wink_decl.loader._lazy_table import LazyTable
from wink_decl.loader._loaded import Loaded
from wink_decl.loader._source_map import SourceMap, source_map_on_first_use
from wink_decl.loader._yaml_quick import quick_read
from wink_decl.loader.file_kinds import FileKind
from wink_decl.loader.limit_diagnostics import Limits, too_deep

# ruamel.yaml (libyaml's composer) is imported by the first file the quick read leaves to it,
# or the first span asked of a file read quickly: a process that reads only plain files, as
# most ``wink-decl validate`` runs do, never pays for its import.
if TYPE_CHECKING:
    from wink_decl.loader._yaml_compose import Node
    from wink_decl.loader._yaml_plain import PlainSpans

SAFE_NESTING = 1_000
"""Nesting the C composer handles quickly; beyond it the depth is checked on events first."""

_PREFIX = re.compile(r"^[ \t]*(?:(?:[-?:]|[&!]\S*)[ \t]+)*", re.MULTILINE)
_OTHER_BREAKS = re.compile(r"\r(?!\n)|[\x85\u2028\u2029]")


def load_yaml(text: str, path: str, limits: Limits, kind: FileKind) -> Loaded:
    """The data of ``text`` and its source map (None on errors), and every problem found.

    ``kind`` words the diagnostics that depend on what kind of file this is.
    """
    quick = quick_read(text, limits)
    if quick is not None:  # most prompt files: no nodes composed unless spans are asked for
        data, has_numbers, bad_numbers = quick
        # Made when a span is first asked for: a file that compiles cleanly asks for none.
        source_map = source_map_on_first_use(path, partial(_quick_map, text, path, limits, kind))
        return Loaded(data, source_map, [], has_numbers, bad_numbers)
    return _composed(text, path, limits, kind)


def _composed(text: str, path: str, limits: Limits, kind: FileKind) -> Loaded:
    """As :func:`load_yaml`, from the nodes libyaml composes."""
    from ruamel.yaml.error import MarkedYAMLError  # noqa: PLC0415 - see the imports above
    from ruamel.yaml.reader import ReaderError  # noqa: PLC0415

    from wink_decl.loader._yaml_compose import compose, nested_beyond  # noqa: PLC0415
    from wink_decl.loader._yaml_plain import NotPlain, PlainReader, PlainSpans  # noqa: PLC0415

    try:
        if nesting_bound(text) > SAFE_NESTING:
            mark = nested_beyond(text, limits.max_depth)
            if mark is not None:
                span = Span(path, mark.line + 1, mark.column + 1)
                return Loaded(None, None, [too_deep(span, limits.max_depth)])
        root = compose(text)
    # What explains a mistake is imported only for one: most files parse.
    except MarkedYAMLError as error:
        from wink_decl.loader._yaml_errors import syntax_diagnostic  # noqa: PLC0415

        return Loaded(None, None, [syntax_diagnostic(text, path, error)])
    except ReaderError as error:
        from wink_decl.loader._yaml_errors import reader_diagnostic  # noqa: PLC0415

        return Loaded(None, None, [reader_diagnostic(text, path, error)])
    if root is None:
        return Loaded(None, None, [kind.not_a_mapping(Span(path, 1, 1), "empty", "yaml")])
    reader = PlainReader(limits)
    try:
        data = reader.document(root, text)
    except NotPlain:
        return _walk(text, path, limits, kind, root)
    source_map = _plain_map(PlainSpans(text, path, limits, kind, root))
    return Loaded(data, source_map, [], reader.has_numbers, reader.bad_numbers)


def _quick_map(text: str, path: str, limits: Limits, kind: FileKind) -> SourceMap:
    """The source map of a text read quickly, when a span is first asked of it."""
    from wink_decl.loader._yaml_plain import PlainSpans  # noqa: PLC0415 - see the imports above

    return _plain_map(PlainSpans(text, path, limits, kind))


def _plain_map(spans: PlainSpans) -> SourceMap:
    """The source map of a plain document: each span worked out when first asked for."""
    values = LazyTable(spans.walked_values, spans.value)
    keys = LazyTable(spans.walked_keys, spans.key)
    return SourceMap(spans.path, values, keys, resolve=spans.resolve)


def _walk(text: str, path: str, limits: Limits, kind: FileKind, root: Node) -> Loaded:
    """Every span, and every mistake: for a document that is not plain."""
    # Imported when needed: a plain file (most) is read, checked and compiled without it.
    from wink_decl.loader._yaml_compose import MAPPING, NULL, SCALAR  # noqa: PLC0415
    from wink_decl.loader._yaml_walk import Stop, Walker  # noqa: PLC0415

    walker = Walker(text, path, limits, kind)
    try:
        data, _ = walker.value(root, (), 0, 0)
    except Stop as stop:
        return Loaded(None, None, [*walker.diagnostics, stop.diagnostic])
    if root.__class__ is SCALAR and root.value == "" and root.ctag is NULL:
        walker.diagnostics.append(kind.not_a_mapping(Span(path, 1, 1), "empty", "yaml"))
    elif root.__class__ is SCALAR or (root.__class__ is not MAPPING and not kind.holds_list):
        found = "value" if root.__class__ is SCALAR else "list"
        span = walker.span(walker.values[()])
        walker.diagnostics.append(kind.not_a_mapping(span, found, "yaml"))
    source_map = SourceMap(path, walker.values, walker.keys, resolve=walker.resolve)
    return Loaded(data, source_map, walker.diagnostics, walker.has_numbers, walker.bad_numbers)


def nesting_bound(text: str) -> int:
    """An upper bound on how deeply ``text`` nests mappings and lists, found without parsing.

    Each mapping or list needs a character of its own among ``-:?[{``, which bounds small
    files at once. For larger ones: a block collection starts at its line's indentation or
    after the indicators that open the line (``- ``, ``? ``, ``: ``, anchors, tags), every two
    levels of block nesting move it at least one column right, and each flow level needs its
    own bracket.
    """
    indicators = sum(map(text.count, "-:?[{"))
    if indicators < SAFE_NESTING:
        return indicators + 1  # every mapping or list needs one of these characters
    if _OTHER_BREAKS.search(text):
        return SAFE_NESTING + 1  # lines this pattern cannot see: check on events instead
    widest = max(map(len, _PREFIX.findall(text)), default=0)
    return 2 * (widest + 1) + text.count("[") + text.count("{")
