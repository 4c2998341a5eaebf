"""What a YAML prompt author is told about keys, tags, anchors and the shape of the file."""

from __future__ import annotations

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.loader import _yaml_compose as tags
from wink_decl.loader._yaml_compose import MAPPING, SCALAR, Node

HEADER_KEYS = frozenset({"key", "name"})
"""Keys that name the item they start: written twice, they mean an item lost its place."""


def duplicate_key(span: Span, key: str, first_line: int) -> Diagnostic:
    """The second (third, ...) time ``key`` is written in one mapping."""
    return Diagnostic(
        message=f"Key '{key}' appears twice in this mapping (first on line {first_line}).",
        span=span,
        code=DiagnosticCode.DUPLICATE_KEY,
        expected="each key once in a mapping",
        hint="Remove one of the two, or merge their values under the first.",
    )


def item_without_dash(span: Span, key: str, first_line: int) -> Diagnostic:
    """The first key of a list item written again in it: a new item that lacks its ``- ``."""
    return Diagnostic(
        message=f"Key '{key}' appears twice in this list item (first on line {first_line}): "
        f"the item that starts here has no '- ', so its keys run on into the item above.",
        span=span,
        code=DiagnosticCode.DUPLICATE_KEY,
        expected=f"'- {key}:' to start a new item",
        hint=f"Write '- ' before '{key}', at the column of the '- ' on line {first_line}.",
    )


def header_out_of_place(span: Span, key: str, first_line: int) -> Diagnostic:
    """The file's own ``key`` (or ``name``) written again at the top: an item's, not indented."""
    return Diagnostic(
        message=f"Key '{key}' appears twice at the top level of the file (first on line "
        f"{first_line}): a '{key}' of a section or tool written without its indentation "
        "lands here.",
        span=span,
        code=DiagnosticCode.DUPLICATE_KEY,
        expected=f"'{key}' once at the top level, and each item's '{key}' indented under it",
        hint=f"If this '{key}' belongs to a section or tool above, indent it like that item's "
        "other keys; otherwise remove one of the two.",
    )


def key_type(span: Span, node: Node) -> Diagnostic:
    """A key that YAML reads as a number, true/false, null, a list or a mapping."""
    if node.__class__ is not SCALAR:
        what = "A mapping" if node.__class__ is MAPPING else "A list"
        message = f"{what} cannot be used as a key; keys must be text."
        hint = "Use a name as the key, such as title."
    elif node.value == "":
        message = "This key is empty, but keys must be text."
        hint = "Write a name before the ':'."
    else:
        written = str(node.value)
        if node.ctag is tags.NULL:
            message = f"The key '{written}' means 'no value', but keys must be text."
        elif node.ctag is tags.BOOL:
            message = f"The key '{written}' is read as true or false, but keys must be text."
        else:
            message = f"The key '{written}' is a number, but keys must be text."
        hint = f'Put the key in quotes: "{written}":'
    return Diagnostic(
        message=message,
        span=span,
        code=DiagnosticCode.KEY_TYPE,
        expected="a key written as text, such as title",
        hint=hint,
    )


def merge_key(span: Span) -> Diagnostic:
    """``<<:`` merges another mapping in; prompt files spell their keys out."""
    return Diagnostic(
        message="Merge keys ('<<') are not supported in prompt files.",
        span=span,
        code=DiagnosticCode.YAML_MERGE,
        expected="every key written out in this mapping",
        hint="Copy the keys you need into this mapping instead of merging them with '<<'.",
    )


def recursive_alias(span: Span, name: str) -> Diagnostic:
    """``*name`` used inside the value that ``&name`` marks: it would never end."""
    return Diagnostic(
        message=f"The alias '*{name}' is used inside the value it names, so it never ends.",
        span=span,
        code=DiagnosticCode.YAML_ALIAS,
        expected=f"'*{name}' used only after the value marked '&{name}' is complete",
        hint=f"Move '*{name}' out of the value marked '&{name}'.",
    )


def tag_not_allowed(span: Span, written: str) -> Diagnostic:
    """An explicit tag such as ``!python/object`` or ``!!str``: prompt files take none."""
    return Diagnostic(
        message=f"Tags such as '{written}' are not allowed in prompt files.",
        span=span,
        code=DiagnosticCode.YAML_TAG,
        expected="a plain value, without a tag",
        hint="Remove the tag; if the '!' belongs to your text, put the whole value in quotes.",
    )
