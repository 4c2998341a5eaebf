"""Composed YAML nodes -> plain data, a span for every value and key, and every mistake found.

Speed matters here (every prompt file is loaded on every run), so the common cases (a plain
scalar, a text key) take short paths, and spans are worked out from the nodes only when a
diagnostic or a caller asks for one: a file that compiles cleanly never needs most of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.errors import WinkDeclError
from wink_decl.loader import _yaml_compose as tags
from wink_decl.loader._source_map import JSONPath, SpanTuple
from wink_decl.loader._yaml_compose import MAPPING, SCALAR, Node
from wink_decl.loader._yaml_messages import (
    HEADER_KEYS,
    duplicate_key,
    header_out_of_place,
    item_without_dash,
    key_type,
    merge_key,
    recursive_alias,
    tag_not_allowed,
)
from wink_decl.loader._yaml_scalars import core_value
from wink_decl.loader._yaml_spans import PROPERTY, SEPARATION, SpanFinder, match_end
from wink_decl.loader.file_kinds import FileKind
from wink_decl.loader.limit_diagnostics import Limits, too_deep, too_long_key, too_many_values
from wink_decl.loader.number_bounds import unusable_number

_BEFORE_ALIAS = re.compile(
    r"(?:[\s?:,\[{-]|#[^\r\n\x85\u2028\u2029]*|[&!][^\s,\[\]{}]*)*\*([^\s,\[\]{}]+)"
)
_STR, _TIMESTAMP, _VALUE, _MERGE = tags.STR, tags.TIMESTAMP, tags.VALUE, tags.MERGE
_INT, _FLOAT, _BOOL, _NULL = tags.INT, tags.FLOAT, tags.BOOL, tags.NULL
_MAP, _SEQ = tags.MAP, tags.SEQ


class Stop(WinkDeclError):  # noqa: N818 - a signal that carries its diagnostic
    """A limit was passed: walking stops with this one diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        """Carry ``diagnostic`` up to the caller."""
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class Walker:
    """Walks one document's nodes in document order; aliases expand where they are used."""

    def __init__(self, text: str, path: str, limits: Limits, kind: FileKind) -> None:
        """Prepare to walk ``text`` (a file of ``kind`` shown as ``path``) within ``limits``."""
        self.text = text
        self.path = path
        self.kind = kind
        self.max_nodes = limits.max_nodes
        self.max_depth = limits.max_depth
        self.max_key_length = limits.max_key_length
        self.values: dict[JSONPath, SpanTuple | Node] = {}
        self.keys: dict[JSONPath, SpanTuple | Node] = {}
        """Spans, or the node whose span :meth:`resolve` works out when it is asked for."""
        self.diagnostics: list[Diagnostic] = []
        self._count = 0
        self.has_numbers = False
        self.bad_numbers = False
        """True once a value read as a number."""
        self._sizes: dict[int, int] = {}
        self.spans = SpanFinder(text)

    def span(self, found: SpanTuple | Node) -> Span:
        """``found`` (a span, or a node to find the span of) in this file."""
        return Span(self.path, *self.resolve(found))

    def resolve(self, found: SpanTuple | Node) -> SpanTuple:
        """The span recorded for a value or key: as found, or worked out from its node now."""
        if found.__class__ is tuple:
            return found  # pyright: ignore[reportReturnType]  # a tuple is a SpanTuple here
        node: Node = found  # pyright: ignore[reportAssignmentType]
        if node.__class__ is SCALAR:
            return self.spans.scalar(node)
        return self.spans.collection(node)

    # -- values -------------------------------------------------------------------------------

    def value(self, node: Node, path: JSONPath, depth: int, cursor: int) -> tuple[object, int]:
        """The data of ``node`` and the index just past it; ``cursor`` is where it may start.

        A node that starts before ``cursor`` was written earlier, with an anchor: it is used
        here through an alias.
        """
        if node.start_mark.index < cursor:
            return self._alias(node, path, depth, cursor)
        if node.__class__ is SCALAR:
            return self._leaf(node, path), node.end_mark.index
        self._count += 1
        self.values[path] = node
        if self._count > self.max_nodes:
            raise Stop(too_many_values(self.span(node), self.max_nodes, kind=self.kind))
        if depth >= self.max_depth:
            raise Stop(too_deep(self.span(node), self.max_depth))
        if node.ctag is not _MAP and node.ctag is not _SEQ:
            self.diagnostics.append(self.tag_diagnostic(node, self.resolve(node)))
        if node.__class__ is MAPPING:
            return self._mapping(node, path, depth + 1), node.end_mark.index
        return self._sequence(node, path, depth + 1), node.end_mark.index

    def _leaf(self, node: Node, path: JSONPath) -> object:
        """A scalar written at this place (the hot path: most values are plain text)."""
        self._count += 1
        self.values[path] = node
        if self._count > self.max_nodes:
            raise Stop(too_many_values(self.span(node), self.max_nodes, kind=self.kind))
        if node.ctag is _STR:
            return node.value
        return self._scalar(node)

    def _sequence(self, node: Node, path: JSONPath, depth: int) -> list[object]:
        items: list[object] = []
        cursor = self.spans.start(node)[0] + 1  # just past the '[' or the first '-'
        for index, item in enumerate(node.value):
            if item.__class__ is SCALAR and item.start_mark.index >= cursor:
                items.append(self._leaf(item, (*path, index)))
                cursor = item.end_mark.index
            else:
                data, cursor = self.value(item, (*path, index), depth, cursor)
                items.append(data)
        return items

    def _mapping(self, node: Node, path: JSONPath, depth: int) -> dict[str, object]:
        result: dict[str, object] = {}
        keys = self.keys
        cursor = node.start_mark.index
        run_on = False  # the keys below an item that lacks its '- ': one report says so
        for key_node, value_node in node.value:
            if (
                key_node.ctag is _STR
                and key_node.__class__ is SCALAR
                and key_node.start_mark.index >= cursor
            ):  # the common case: a text key written here
                key: str | None = key_node.value
                key_found: SpanTuple | Node = key_node
                cursor = key_node.end_mark.index
            else:
                key, key_found, cursor = self._key(key_node, cursor)
            if key is not None and len(key) > self.max_key_length:
                raise Stop(too_long_key(self.span(key_found), len(key), self.max_key_length))
            child = (*path, "" if key is None else key)
            if value_node.__class__ is SCALAR and value_node.start_mark.index >= cursor:
                data = self._leaf(value_node, child)
                cursor = value_node.end_mark.index
            else:
                data, cursor = self.value(value_node, child, depth, cursor)
            if key is None:
                continue
            if key in result:
                if not run_on:
                    first_line = self.resolve(keys[child])[0]
                    made, run_on = _twice(path, key, result)
                    self.diagnostics.append(made(self.span(key_found), key, first_line))
                continue
            keys[child] = key_found
            result[key] = data
        return result

    def _key(self, node: Node, cursor: int) -> tuple[str | None, SpanTuple | Node, int]:
        """The text of a key (None when refused), its span (or node) and the index past it."""
        found: SpanTuple | Node
        if node.start_mark.index < cursor:
            found, end, _ = self._alias_token(cursor)
        else:
            found, end = node, node.end_mark.index
        tag = node.ctag
        if node.__class__ is not SCALAR or tag is _INT or tag is _FLOAT:
            self.diagnostics.append(key_type(self.span(found), node))
        elif tag is _STR or tag is _TIMESTAMP or tag is _VALUE:
            return node.value, found, end
        elif tag is _MERGE:
            self.diagnostics.append(merge_key(self.span(found)))
        elif tag is _BOOL or tag is _NULL:
            self.diagnostics.append(key_type(self.span(found), node))
        else:
            self.diagnostics.append(self.tag_diagnostic(node, self.resolve(found)))
        return None, found, end

    def _alias(self, node: Node, path: JSONPath, depth: int, cursor: int) -> tuple[object, int]:
        found, end, name = self._alias_token(cursor)
        size = self._size(node)
        if size < 0:
            raise Stop(recursive_alias(self.span(found), name))
        if self._count + size > self.max_nodes:
            raise Stop(too_many_values(self.span(found), self.max_nodes, name, kind=self.kind))
        data, _ = self.value(node, path, depth, -1)
        self.values[path] = found
        return data, end

    def _alias_token(self, cursor: int) -> tuple[SpanTuple, int, str]:
        """The ``*name`` token that comes next after ``cursor``: its span, its end, its name."""
        match = _BEFORE_ALIAS.match(self.text, cursor)
        if match is None:
            raise AssertionError("unreachable: libyaml puts only indicators before an alias")
        line, column = self.spans.position(match.start(1) - 1)
        return (line, column, line, column + len(match.group(1))), match.end(), match.group(1)

    def _size(self, root: Node) -> int:
        """How many values ``root`` expands to (capped past the limit); -1 if it holds itself."""
        sizes, cap = self._sizes, self.max_nodes + 1
        pending: list[tuple[Node, bool]] = [(root, False)]
        open_nodes: set[int] = set()
        while pending:
            node, finished = pending.pop()
            key = id(node)
            if finished:
                open_nodes.discard(key)
                sizes[key] = min(cap, 1 + sum(sizes[id(child)] for child in _values(node)))
            elif key in open_nodes:
                return -1
            elif key not in sizes:
                open_nodes.add(key)
                pending.append((node, True))
                pending.extend((child, False) for child in _values(node))
        return sizes[id(root)]

    # -- scalars ------------------------------------------------------------------------------

    def _scalar(self, node: Node) -> object:
        """Plain data for a scalar by its resolved tag; an explicit tag is refused."""
        tag, text = node.ctag, node.value
        if tag is _STR or tag is _TIMESTAMP or tag is _VALUE or tag is _MERGE:
            return text
        if tag is _INT or tag is _FLOAT:
            self.has_numbers = True
            value = core_value(tag, text)
            if unusable_number(value):
                self.bad_numbers = True
            return value
        if tag is _BOOL or tag is _NULL:
            return core_value(tag, text)
        self.diagnostics.append(self.tag_diagnostic(node, self.spans.scalar(node)))
        return text

    def tag_diagnostic(self, node: Node, found: SpanTuple) -> Diagnostic:
        """Refuse an explicit tag, pointing at the tag as written when it can be found."""
        written = str(node.ctag).replace("tag:yaml.org,2002:", "!!")
        index = node.start_mark.index
        while (match := PROPERTY.match(self.text, index)) is not None:
            if match.group(1) is not None:
                written = match.group(1)
                line, column = self.spans.position(match.start())
                found = (line, column, line, column + len(written) - 1)
                break
            index = match_end(SEPARATION, self.text, match.end())
        return tag_not_allowed(self.span(found), written)


def _values(node: Node) -> list[Node]:
    """The child values of a node (mapping keys left out: they never expand)."""
    if node.__class__ is MAPPING:
        return [value for _, value in node.value]
    if node.__class__ is SCALAR:
        return []
    return list(node.value)


def _twice(
    path: JSONPath, key: str, earlier: dict[str, object]
) -> tuple[Callable[[Span, str, int], Diagnostic], bool]:
    """How to report ``key`` written twice in the mapping at ``path``; True: say it once.

    A list item whose first key comes again is most often two items, the second without its
    ``- ``: its other keys are the same mistake, and are not reported again. The file's own
    ``key`` or ``name`` written again at the top of a prompt (after its ``sections``) is most
    often an item's, not indented.
    """
    if path and isinstance(path[-1], int) and next(iter(earlier)) == key:
        return item_without_dash, True
    if not path and key in HEADER_KEYS and "sections" in earlier:
        return header_out_of_place, False
    return duplicate_key, False
