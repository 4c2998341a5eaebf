"""The data of a YAML file written plainly, read without recording a span.

Most prompt files are plain: mappings, lists, text, numbers, true/false and null, no alias, no
key written twice, well within the limits. Their data is all a clean load needs, and leaving
out the span of every value halves the walk (measured). Anything else, and anything near a
limit, is left to :class:`~wink_decl.loader._yaml_walk.Walker`, which records every span and
reports every mistake; for a plain file it runs when its spans are first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from wink_decl.errors import WinkDeclError
from wink_decl.loader import _yaml_compose as tags
from wink_decl.loader._source_map import JSONPath, SpanTuple
from wink_decl.loader._yaml_compose import MAPPING, SCALAR, Node, compose
from wink_decl.loader._yaml_scalars import core_value
from wink_decl.loader.file_kinds import FileKind
from wink_decl.loader.limit_diagnostics import Limits
from wink_decl.loader.number_bounds import unusable_number

if TYPE_CHECKING:
    from wink_decl.loader._yaml_walk import Walker

# Tags are compared by identity: an explicit ``!!int`` is another Tag object, equal to INT.
_STR, _INT, _FLOAT, _BOOL, _NULL = tags.STR, tags.INT, tags.FLOAT, tags.BOOL, tags.NULL
_MAP, _SEQ = tags.MAP, tags.SEQ


class NotPlain(WinkDeclError):  # noqa: N818 - a signal, not a failure
    """The file needs the walk that records spans: it may hold a mistake, or an alias."""


class PlainReader:
    """Reads one plain document; ``has_numbers`` tells, after, whether it held a number.

    ``bad_numbers`` tells whether one of them was unusable (``unusable_number``).
    """

    def __init__(self, limits: Limits) -> None:
        """Read within ``limits``: a file that reaches one is left to the full walk."""
        self.max_nodes = limits.max_nodes
        self.max_depth = limits.max_depth
        self.max_key_length = limits.max_key_length
        self.has_numbers = False
        self.bad_numbers = False
        self._count = 0

    def document(self, root: Node, text: str) -> dict[str, object]:
        """The data of the document whose root node is ``root``, composed from ``text``.

        Raises:
            NotPlain: the document is not a plain mapping (the full walk says why, if it is
                a mistake).
        """
        # An alias (*name) needs an anchor (&name): without both characters in the text,
        # no node can come twice, and no node needs its place checked against the last.
        if root.__class__ is not MAPPING or ("&" in text and "*" in text):
            raise NotPlain
        self._count = 1  # the root; a collection counts its values before reading them
        return self._mapping(root, 1)

    # As the full walk does: ``depth`` counts the collections around a node, and every value
    # counts towards ``max_nodes`` (keys do not). Two Python frames a level, as in the full
    # walk: ``Limits.max_depth`` is bounded for that stack. Text, most values, is read in the
    # loops rather than by a call to _value each.

    def _value(self, node: Node, depth: int) -> object:
        kind, tag = node.__class__, node.ctag
        if kind is SCALAR:
            return self._scalar(tag, node.value)
        if depth >= self.max_depth:
            raise NotPlain
        if kind is MAPPING:
            if tag is not _MAP:
                raise NotPlain
            return self._mapping(node, depth + 1)
        if tag is not _SEQ:
            raise NotPlain
        return self._sequence(node, depth + 1)

    def _scalar(self, tag: object, text: str) -> object:  # text is read by the loops
        if tag is _INT or tag is _FLOAT:
            self.has_numbers = True
            value = core_value(tag, text)
            if unusable_number(value):
                self.bad_numbers = True
            return value
        if tag is not _BOOL and tag is not _NULL:
            raise NotPlain  # a date, '=', '<<' or an explicit tag: rare, left to the walk
        return core_value(tag, text)

    def _counted(self, values: list[Any]) -> None:
        self._count += len(values)
        if self._count > self.max_nodes:
            raise NotPlain

    def _mapping(self, node: Node, depth: int) -> dict[str, object]:
        pairs: list[tuple[Node, Node]] = node.value
        self._counted(pairs)
        result: dict[str, object] = {}
        for key_node, value_node in pairs:
            if key_node.__class__ is not SCALAR or key_node.ctag is not _STR:
                raise NotPlain
            key: str = key_node.value
            if key in result or len(key) > self.max_key_length:
                raise NotPlain
            if value_node.__class__ is SCALAR and value_node.ctag is _STR:
                result[key] = value_node.value
            else:
                result[key] = self._value(value_node, depth)
        return result

    def _sequence(self, node: Node, depth: int) -> list[object]:
        nodes: list[Node] = node.value
        self._counted(nodes)
        return [
            item.value
            if item.__class__ is SCALAR and item.ctag is _STR
            else self._value(item, depth)
            for item in nodes
        ]


class PlainSpans:
    """Where each value and key of a plain document is, worked out when asked for.

    A plain document has no alias and no key written twice, so each JSON path names one node:
    a lookup follows the path down from the root (each mapping's keys indexed on first use,
    so many lookups stay linear), and only listing every path runs the full walk.
    """

    __slots__ = ("_entries", "_made", "_root", "_walked", "_walker", "path")

    def __init__(
        self, text: str, path: str, limits: Limits, kind: FileKind, root: Node | None = None
    ) -> None:
        """The spans of the plain document ``root`` of ``text`` (read with ``limits``).

        Without ``root`` (a file read without composing its nodes), the nodes are composed
        when a span is first asked for.
        """
        self.path = path
        self._made = (text, path, limits, kind)
        self._root = root
        self._entries: dict[int, dict[str, tuple[Node, Node]]] = {}
        """Each mapping's (key node, value node) by key text, by the mapping node's id."""
        self._walker: Walker | None = None
        self._walked = False

    def value(self, path: JSONPath) -> Node:
        """The node of the value at ``path``; ``KeyError`` when there is none."""
        node = self._composed()
        for part in path:
            node = self._entry(node, part)[1]
        return node

    def key(self, path: JSONPath) -> Node:
        """The key node of the mapping entry at ``path``; ``KeyError`` for a list item or root."""
        if not path:
            raise KeyError(path)
        key_node = self._entry(self.value(path[:-1]), path[-1])[0]
        if key_node is None:
            raise KeyError(path)
        return key_node

    def resolve(self, found: SpanTuple | Node) -> SpanTuple:
        """The span of a node, as :meth:`Walker.resolve` works it out."""
        return self._ready().resolve(found)

    def walked_values(self) -> dict[JSONPath, SpanTuple | Node]:
        """Every value's node, by path in document order (the full walk runs once, now)."""
        return self._walk().values

    def walked_keys(self) -> dict[JSONPath, SpanTuple | Node]:
        """Every key's node, by path (as above)."""
        return self._walk().keys

    def _entry(self, node: Node, part: str | int) -> tuple[Node | None, Node]:
        if node.__class__ is MAPPING:
            if isinstance(part, str):
                entries = self._entries.get(id(node))
                if entries is None:
                    entries = {key.value: (key, value) for key, value in node.value}
                    self._entries[id(node)] = entries
                found = entries.get(part)
                if found is not None:
                    return found
        elif node.__class__ is not SCALAR and isinstance(part, int):
            items: list[Node] = node.value
            if 0 <= part < len(items):
                return None, items[part]
        raise KeyError(part)

    def _ready(self) -> Walker:
        if self._walker is None:
            # Imported when needed: a plain file that no one asks about never loads it.
            from wink_decl.loader._yaml_walk import Walker  # noqa: PLC0415

            self._walker = Walker(*self._made)
        return self._walker

    def _walk(self) -> Walker:
        walker = self._ready()
        if not self._walked:  # the plain read found nothing to report: neither does this
            walker.value(self._composed(), (), 0, 0)
            self._walked = True
        return walker

    def _composed(self) -> Node:
        root = self._root
        if root is None:
            # The quick read (``_yaml_quick``) read this text: libyaml reads it the same way.
            root = self._root = cast("Node", compose(self._made[0]))
        return root
