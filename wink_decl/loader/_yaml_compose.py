"""ruamel.yaml's C parser and composer behind typed views; YAML 1.2 core tags, no objects built.

The composer asks its subclass for tags only, so nothing but nodes is ever created: an
explicit tag such as ``!!python/object`` stays a tag on a node for the walker to refuse.
"""

from __future__ import annotations

import functools
import operator
from typing import Any, Protocol

import ruamel.yaml.cyaml
from ruamel.yaml.events import (
    MappingEndEvent,
    MappingStartEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.tag import Tag

from wink_decl.loader._yaml_core import plain_kind

_CParser: Any = vars(ruamel.yaml.cyaml)["CParser"]  # untyped C extension class


class Mark(Protocol):
    """A 0-based position in the text, as libyaml reports it (index counts characters)."""

    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def index(self) -> int: ...


class Node(Protocol):
    """A composed node: scalar (``value`` is text), sequence or mapping (``value`` is a list).

    ``style`` exists on scalars only (``|``, ``>``, quotes or None), ``flow_style`` on
    collections only (True for ``[...]`` and ``{...}``).
    """

    ctag: Tag
    value: Any
    start_mark: Mark
    end_mark: Mark
    style: str | None
    flow_style: bool | None

    # The class is compared with SCALAR and MAPPING, which this protocol does not name.
    __class__: type  # pyright: ignore[reportIncompatibleMethodOverride]


def _tag(name: str) -> Tag:
    return Tag(suffix=f"tag:yaml.org,2002:{name}")


STR, INT, FLOAT, BOOL, NULL = _tag("str"), _tag("int"), _tag("float"), _tag("bool"), _tag("null")
TIMESTAMP, MERGE, VALUE = _tag("timestamp"), _tag("merge"), _tag("value")
SEQ, MAP = _tag("seq"), _tag("map")
"""The tags this composer gives; compare with ``is``. Any other tag was written explicitly."""

SCALAR: type = ScalarNode
MAPPING: type = MappingNode
"""Node classes, to compare ``node.__class__`` with (a sequence is neither)."""

_TAG_OF_KIND = {
    "str": STR,
    "int": INT,
    "float": FLOAT,
    "bool": BOOL,
    "null": NULL,
    "timestamp": TIMESTAMP,
    "merge": MERGE,
    "value": VALUE,
}


def plain_tag(value: str) -> Tag:
    """The YAML 1.2 core tag of a plain scalar written as ``value``."""
    return _TAG_OF_KIND[plain_kind(value)]


def _resolve(kind: type, value: str | None, implicit: tuple[bool, bool]) -> Tag:
    """The YAML 1.2 core tag of an untagged node (plain scalars by their text)."""
    if kind is ScalarNode:
        if implicit[0] and value is not None:
            return plain_tag(value)
        return STR
    return SEQ if kind is SequenceNode else MAP


class _Composer(_CParser):
    """libyaml's parser with ruamel's C composer; this class only resolves tags."""

    # The composer calls these three for every node, and a Python call costs more than the
    # node. Path-based resolvers are not used and the composer ignores what the first two
    # return: C builtins that take the same arguments do nothing, faster. Keys and common
    # values recur from file to file, so tags are remembered by lru_cache (also in C); a small
    # bound keeps few of the files' texts alive.
    descend_resolver = staticmethod(operator.is_)  # (parent, index) -> a bool, unused
    ascend_resolver = staticmethod(tuple)  # () -> (), unused
    resolve = staticmethod(functools.lru_cache(maxsize=256)(_resolve))


def compose(text: str) -> Node | None:
    """The single document of ``text`` as nodes (None when empty); raises ruamel's errors."""
    composer = _Composer(text)
    try:
        node: Node | None = composer.get_single_node()
    finally:
        composer.dispose()
    return node


_OPEN = (MappingStartEvent, SequenceStartEvent)
_CLOSE = (MappingEndEvent, SequenceEndEvent)


def nested_beyond(text: str, max_depth: int) -> Mark | None:
    """Where a mapping or list first opens deeper than ``max_depth``, reading events only.

    Stops there, so a deeply nested file costs little and never reaches the composer, whose
    recursion could exhaust the C stack.
    """
    parser = _Composer(text)
    depth = 0
    try:
        while True:
            event: Any = parser.get_event()
            kind: type = event.__class__
            if kind in _OPEN:
                depth += 1
                if depth > max_depth:
                    mark: Mark = event.start_mark
                    return mark
            elif kind in _CLOSE:
                depth -= 1
            elif kind is StreamEndEvent:
                return None
    finally:
        parser.dispose()
