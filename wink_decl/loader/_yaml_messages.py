"""What a YAML prompt author is told about keys, tags, anchors and the shape of the file."""

from __future__ import annotations

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.loader import _yaml_compose as tags
from wink_decl.loader._yaml_compose import MAPPING, SCALAR, Node


def duplicate_key(span: Span, key: str, first_line: int) -> Diagnostic:
    """The second (third, ...) time ``key`` is written in one mapping."""
    return Diagnostic(
        message=f"Key '{key}' appears twice in this mapping (first on line {first_line}).",
        span=span,
        code=DiagnosticCode.DUPLICATE_KEY,
        expected="each key once in a mapping",
        hint="Remove one of the two, or merge their values under the first.",
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
