"""A noun agrees with its count in every message that prints one."""

import pytest

from wink_decl._nouns import noun_for


@pytest.mark.parametrize(
    ("number", "expected"),
    [(0, "tools"), (1, "tool"), (2, "tools"), (1.0, "tool"), (0.5, "tools"), (-1, "tools")],
    ids=["zero", "one", "two", "one-float", "half", "minus-one"],
)
def test_a_noun_agrees_with_its_count(number: float, expected: str) -> None:
    assert noun_for(number, "tool") == expected
