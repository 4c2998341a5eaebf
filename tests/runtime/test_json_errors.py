"""JSON syntax errors read the same on every Python: a trailing comma is one message."""

from __future__ import annotations

import json

import pytest

from wink_decl import ProviderToolCall
from wink_decl.runtime.json_errors import same_on_every_python


def reported(text: str) -> tuple[str, int, int, int]:
    with pytest.raises(json.JSONDecodeError) as info:
        json.loads(text)
    error = same_on_every_python(info.value)
    return error.msg, error.pos, error.lineno, error.colno


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1,}', ("Trailing comma before the closing '}'", 7, 1, 8)),
        ("[1,]", ("Trailing comma before the closing ']'", 2, 1, 3)),
        ('{"a": 1 ,\n }', ("Trailing comma before the closing '}'", 8, 1, 9)),
        ('{"a": [1,\t],}', ("Trailing comma before the closing ']'", 8, 1, 9)),
        ("[1,,]", ("Trailing comma before the closing ']'", 3, 1, 4)),
        ("[1,,2]", ("Expecting value", 3, 1, 4)),
        ("[1,", ("Expecting value", 3, 1, 4)),
        ("[1],]", ("Extra data", 3, 1, 4)),
        ("", ("Expecting value", 0, 1, 1)),
        ('{"a" 1}', ("Expecting ':' delimiter", 5, 1, 6)),
    ],
    ids=[
        "object",
        "array",
        "spaces-and-lines",
        "nested",
        "two-commas",
        "missing-value",
        "text-ends",
        "extra-data",
        "empty",
        "other-mistake",
    ],
)
def test_trailing_commas_are_one_message_at_the_comma(
    text: str, expected: tuple[str, int, int, int]
) -> None:
    assert reported(text) == expected


@pytest.mark.parametrize(
    ("message", "pos"),
    [
        ("Illegal trailing comma before end of object", 7),
        ("Expecting property name enclosed in double quotes", 8),
    ],
    ids=["python-3.13", "python-3.11-and-3.12"],
)
def test_what_each_python_raises_becomes_the_same(message: str, pos: int) -> None:
    error = same_on_every_python(json.JSONDecodeError(message, '{"a": 1,}', pos))
    assert (error.msg, error.pos) == ("Trailing comma before the closing '}'", 7)


def test_tool_call_arguments_with_a_trailing_comma() -> None:
    call = ProviderToolCall("c", "echo", '{"text": "hi",}')
    with pytest.raises(ValueError, match="not valid JSON") as info:
        call.decoded_arguments()
    assert str(info.value) == (
        "Arguments are not valid JSON: Trailing comma before the closing '}': line 1 column 14 "
        "(char 13)."
    )
