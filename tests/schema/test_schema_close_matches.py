"""Did-you-mean answers as ``difflib`` gives them, at a cost a file of many mistakes can bear."""

from __future__ import annotations

import difflib

from hypothesis import given
from hypothesis import strategies as st

from wink_decl.schema._error_location import Place, place_of
from wink_decl.schema.model import PromptDocument, SectionDoc
from wink_decl.suggestions import close_matches

WORDS = st.text(alphabet="abcdeklmnorst_-0é", max_size=12)


@given(word=WORDS, candidates=st.lists(WORDS, max_size=8))
def test_close_matches_are_difflibs(word: str, candidates: list[str]) -> None:
    expected = difflib.get_close_matches(word, candidates, n=3, cutoff=0.6)
    assert close_matches(word, candidates) == tuple(expected)


def test_close_matches_of_known_words() -> None:
    keys = ("key", "name", "params", "sections", "tools", "policies")
    assert close_matches("sectons", keys) == ("sections",)
    assert close_matches("k123", keys) == ()
    assert close_matches(3, keys) == ()
    assert close_matches("", ()) == ()


def test_places_that_share_their_start_are_found_alike() -> None:
    # The start of a location is walked once and remembered; each last element differs.
    for key in ("k1", "k2"):
        place = place_of(PromptDocument, ("sections", 0, "section", key))
        assert place == Place(
            path=("sections", 0, key),
            steps=("field", "index", "field"),
            on_key=False,
            parent=SectionDoc,
            target=None,
            choices=(),
        )
    assert place_of(PromptDocument, ()).target is PromptDocument
