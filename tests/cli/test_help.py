"""The help layout is ours: usage and option lines read the same on every Python."""

from __future__ import annotations

import argparse

import pytest

from wink_decl.cli._help import HelpFormatter


def parser(prog: str, *, values: bool = True) -> argparse.ArgumentParser:
    built = argparse.ArgumentParser(prog=prog, formatter_class=HelpFormatter)
    built.add_argument("-v", "--verbose", action="store_true")
    if values:
        built.add_argument("--to", choices=("yaml", "toml"), required=True)
        built.add_argument("--output", metavar="FILE")
        built.add_argument("-j", "--jobs", metavar="N", type=int)
    built.add_argument("paths", nargs="+", metavar="PATH")
    return built


@pytest.mark.parametrize(
    ("prog", "columns", "values", "usage"),
    [
        (
            "wink-decl convert",
            100,
            True,
            "usage: wink-decl convert [-h] [-v] --to {yaml,toml} [--output FILE] [-j N] "
            "PATH [PATH ...]\n",
        ),
        (
            "wink-decl convert",
            50,
            True,
            "usage: wink-decl convert [-h] [-v]\n"
            "                         --to {yaml,toml}\n"
            "                         [--output FILE] [-j N]\n"
            "                         PATH [PATH ...]\n",
        ),
        (
            "a-program-with-a-long-name",
            40,
            True,
            "usage: a-program-with-a-long-name\n"
            "       [-h] [-v] --to {yaml,toml}\n"
            "       [--output FILE] [-j N]\n"
            "       PATH [PATH ...]\n",
        ),
        (
            "a-program-with-a-long-name",
            40,
            False,
            "usage: a-program-with-a-long-name\n       [-h] [-v] PATH [PATH ...]\n",
        ),
    ],
    ids=["one-line", "beside-the-name", "below-the-name", "below-the-name-in-one-line"],
)
def test_usage_wraps_between_whole_arguments(
    monkeypatch: pytest.MonkeyPatch, prog: str, columns: int, values: bool, usage: str
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    assert parser(prog, values=values).format_usage() == usage


def test_an_option_shows_its_value_after_each_spelling() -> None:
    assert parser("p").format_help() == (
        "usage: p [-h] [-v] --to {yaml,toml} [--output FILE] [-j N] PATH [PATH ...]\n"
        "\n"
        "positional arguments:\n"
        "  PATH\n"
        "\n"
        "options:\n"
        "  -h, --help        show this help message and exit\n"
        "  -v, --verbose\n"
        "  --to {yaml,toml}\n"
        "  --output FILE\n"
        "  -j N, --jobs N\n"
    )


def test_exclusive_options_are_left_to_argparse() -> None:
    built = argparse.ArgumentParser(prog="p", formatter_class=HelpFormatter)
    either = built.add_mutually_exclusive_group()
    either.add_argument("-a", action="store_true")
    either.add_argument("-b", action="store_true")
    assert built.format_usage() == "usage: p [-h] [-a | -b]\n"
