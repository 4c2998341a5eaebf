"""One did-you-mean for the whole package: difflib's answer, with either order of ties."""

import difflib

from wink_decl.json_path import format_path
from wink_decl.suggestions import close_matches, did_you_mean, did_you_mean_sentence

TIED = ("a.bcde3", "a.bcde1", "a.bcde4", "a.bcde2")


def test_ties_come_as_difflib_gives_them_or_in_alphabetical_order() -> None:
    assert (
        close_matches("a.bcde", TIED),
        tuple(difflib.get_close_matches("a.bcde", TIED, n=3)),
        close_matches("a.bcde", TIED, alphabetical_ties=True),
    ) == (
        ("a.bcde4", "a.bcde3", "a.bcde2"),
        ("a.bcde4", "a.bcde3", "a.bcde2"),
        ("a.bcde1", "a.bcde2", "a.bcde3"),
    )


def test_the_closest_comes_first_whatever_the_order_of_ties() -> None:
    names = ("sections", "section", "params")
    assert [
        close_matches("sectons", names),
        close_matches("sectons", names, alphabetical_ties=True),
        close_matches("sectons", names, most=1),
    ] == [("sections", "section"), ("sections", "section"), ("sections",)]


def test_no_match_for_other_values_far_words_or_none_to_choose_from() -> None:
    # Each case stops at another test: the type, the shared letters, the ratio, the quick ones.
    assert [
        close_matches(3, ("key",)),
        close_matches("xyz", ("key", "name")),
        close_matches("kye", ()),
        close_matches("yek", ("key",)),
        close_matches("ab", ("aaa", "bbb")),
        close_matches("aa", ("a", "aaaaaaa")),
    ] == [(), (), (), (), (), ("a",)]


def test_did_you_mean_words_the_closest_as_a_hint() -> None:
    assert [did_you_mean("revew", ["review", "render"]), did_you_mean("zzz", ["review"])] == [
        "did you mean 'review'?",
        None,
    ]


def test_a_json_path_is_written_with_dots_and_brackets() -> None:
    assert [format_path(()), format_path(("steps", 1, "title")), format_path((0, "a"))] == [
        "",
        "steps[1].title",
        "[0].a",
    ]


def test_did_you_mean_sentence_ends_a_message_or_adds_nothing() -> None:
    assert [
        did_you_mean_sentence("revew", ["review", "render"]),
        did_you_mean_sentence("zzz", ["review"]),
    ] == [" Did you mean 'review'?", ""]
