"""``--param NAME VALUE`` (a space for the '='): the hint writes the one word it meant."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Run = Callable[..., tuple[int, str, str]]


@pytest.mark.parametrize(
    ("argv", "command", "fix"),
    [
        (["render", "x.wink.yaml", "--param", "topic", "tea"], "render", "--param topic=tea"),
        (["tools", "x.wink.yaml", "--param", "topic", "tea"], "tools", "--param topic=tea"),
        (
            ["run", "x.wink.yaml", "--model", "openai:m", "--param", "topic", "tea"],
            "run",
            "--param topic=tea",
        ),
        (
            ["overrides", "diff", "x.wink.yaml", "--tag", "t", "--param", "topic", "green tea"],
            "overrides",  # argparse hands a sub-command's leftovers to its parent
            "--param 'topic=green tea'",
        ),
        (["compile", "x.wink.yaml", "--limit", "max_bytes", "9"], "compile", "--limit max_bytes=9"),
    ],
    ids=["render", "tools", "run", "overrides-diff-quoted", "limit"],
)
def test_a_value_after_a_space_is_told_to_join_with_equals(
    cli: Run, argv: list[str], command: str, fix: str
) -> None:
    extra = argv[-1]
    assert cli(*argv) == (
        2,
        "",
        f"wink-decl: error: unexpected argument '{extra}'\n"
        f"  hint: write {fix}: the name and the value in one word\n"
        f"  run 'wink-decl {command} --help' for its options\n",
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["render", "x.wink.yaml", "--param", "topic=tea", "more"],
        ["render", "x.wink.yaml", "--root", "r", "more"],
        ["schema", "extra"],
    ],
    ids=["pair-already-joined", "other-option", "first-word"],
)
def test_other_stray_words_get_no_pair_hint(cli: Run, argv: list[str]) -> None:
    command = argv[0]
    assert cli(*argv) == (
        2,
        "",
        f"wink-decl: error: unexpected argument '{argv[-1]}'\n"
        f"  run 'wink-decl {command} --help' for its options\n",
    )
