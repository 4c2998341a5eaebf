"""The registry's cheap index: the address a file's top-level lines claim, or 'not sure'.

Every case is also compiled: the one promise the reading makes is that a file that compiles
has the address claimed, or no claim at all (a wrong claim for a file that does not compile
costs a compile and nothing else).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from compiler_support import write

from wink_decl.compiler import compile_file
from wink_decl.compiler._claims import claimed_address

SECTIONS = "sections:\n  - key: task\n    title: Task\n    template: Hi.\n"
TOML_SECTIONS = '[[sections]]\nkey = "task"\ntitle = "Task"\ntemplate = "Hi."\n'

# name, file text, the claim (None: not sure), the address compiling gives (None: errors)
YAML_CASES: list[tuple[str, str, str | None, str | None]] = [
    ("plain", "key: review\n" + SECTIONS, "agents/review", "agents/review"),
    ("ns in upper case", "ns: Team/a\nkey: review\n" + SECTIONS, None, None),
    ("ns lower", "ns: team/a\nkey: review\n" + SECTIONS, "team/a/review", "team/a/review"),
    (
        "comments and a schema line",
        "# yaml-language-server: $schema=x.json\n\nkey: review  # the key\n" + SECTIONS,
        "agents/review",
        "agents/review",
    ),
    ("single quotes", "key: 'review'\n" + SECTIONS, "agents/review", "agents/review"),
    ("double quotes", 'key: "review"\n' + SECTIONS, "agents/review", "agents/review"),
    ("quoted digit first", "key: '2fa'\n" + SECTIONS, "agents/2fa", "agents/2fa"),
    ("key last", SECTIONS + "name: Review it\nkey: review\n", "agents/review", "agents/review"),
    (
        "key-like lines in a block scalar",
        "description: |\n  key: fake\nkey: real\n" + SECTIONS,
        "agents/real",
        "agents/real",
    ),
    ("closed flow value", "tools: {}\nkey: review\n" + SECTIONS, "agents/review", "agents/review"),
    (
        "a colon inside a plain value",
        "description: see http://x\nkey: review\n" + SECTIONS,
        "agents/review",
        "agents/review",
    ),
    (
        "a plain key continued on the next line",
        "key: review\n  more\n" + SECTIONS,
        "agents/review",
        None,  # the key is 'review more': a wrong claim, for a file that does not compile
    ),
    (
        "double quotes continued at column 0",
        'description: "one\nkey: fake\ntwo"\nkey: real\n' + SECTIONS,
        None,
        "agents/real",
    ),
    (
        "single quotes continued at column 0",
        "description: 'one\nkey: fake\ntwo'\nkey: real\n" + SECTIONS,
        None,
        "agents/real",
    ),
    ("flow left open", "tools: {\n}\nkey: real\n" + SECTIONS, None, "agents/real"),
    ("flow with quotes", "tools: {'a': 1}\nkey: real\n" + SECTIONS, None, None),
    ("anchor", "key: &k review\n" + SECTIONS, None, "agents/review"),
    ("block scalar key", "key: >-\n  review\n" + SECTIONS, None, "agents/review"),
    (
        "indented whole",
        "  key: review\n  sections:\n    - {key: a, title: A}\n",
        None,
        "agents/review",
    ),
    ("document marker", "---\nkey: review\n" + SECTIONS, None, "agents/review"),
    ("quoted name", '"key": review\n' + SECTIONS, None, "agents/review"),
    ("two keys", "key: one\nkey: two\n" + SECTIONS, None, None),
    ("a word some read as true", "key: yes\n" + SECTIONS, None, "agents/yes"),
    ("plain digit first", "key: 2fa\n" + SECTIONS, None, "agents/2fa"),
    ("upper case", "key: Review\n" + SECTIONS, None, None),
    ("empty quotes", "key: ''\n" + SECTIONS, None, None),
    ("empty", "key:\n" + SECTIONS, None, None),
    ("escape", 'key: "re\\u0076iew"\n' + SECTIONS, None, "agents/review"),
    ("no key", SECTIONS, None, None),
    ("crlf", ("key: review\n" + SECTIONS).replace("\n", "\r\n"), None, "agents/review"),
    (
        "sequence at column 0",
        "sections:\n- key: task\n  title: Task\nkey: real\n",
        None,
        "agents/real",
    ),
    ("tab first", "\tkey: review\n" + SECTIONS, None, None),
    ("a mapping inside a plain value", "name: a: b\nkey: review\n" + SECTIONS, None, None),
    ("comment glued to a value", "key: review#x\n" + SECTIONS, None, None),
    (
        "block scalar header with a comment",
        "description: |-  # x\n  a\nkey: b\n" + SECTIONS,
        "agents/b",
        "agents/b",
    ),
]
TOML_CASES: list[tuple[str, str, str | None, str | None]] = [
    ("plain", 'key = "review"\n' + TOML_SECTIONS, "agents/review", "agents/review"),
    (
        "ns and a literal string",
        "# note\nns = 'team'\nkey='review' # the key\nname = \"A # b\"\n" + TOML_SECTIONS,
        "team/review",
        "team/review",
    ),
    (
        "other values",
        'description = "x"\ntools = {}\nkey = "review"\n' + TOML_SECTIONS,
        "agents/review",
        "agents/review",
    ),
    ("a bare value", 'key = "review"\nmax = 3\n' + TOML_SECTIONS, "agents/review", None),
    ("after a table", TOML_SECTIONS + 'key = "review"\n', None, None),
    ("no table", 'key = "review"\n', "agents/review", None),
    (
        "inside a multi-line string",
        'description = """\nkey = "fake"\n"""\nkey = "real"\n' + TOML_SECTIONS,
        None,
        "agents/real",
    ),
    ("quoted name", '"key" = "review"\n' + TOML_SECTIONS, None, "agents/review"),
    ("indented", '  key = "review"\n' + TOML_SECTIONS, None, "agents/review"),
    ("escape", 'key = "re\\u0076iew"\n' + TOML_SECTIONS, None, "agents/review"),
    ("array left open", 'x = [\n]\nkey = "real"\n' + TOML_SECTIONS, None, None),
    ("not a string", "key = 3\n" + TOML_SECTIONS, None, None),
    ("two keys", 'key = "a"\nkey = "b"\n' + TOML_SECTIONS, None, None),
    ("empty", 'key = ""\n' + TOML_SECTIONS, None, None),
    (
        "a date-time with a space",
        'when = 1979-05-27 07:32:00\nkey = "a"\n' + TOML_SECTIONS,
        None,
        None,
    ),
]


def address_of(path: Path) -> str | None:
    result = compile_file(path.name, root=path.parent.parent)
    return None if result.prompt is None else result.prompt.address


@pytest.mark.parametrize(
    ("suffix", "text", "claim", "address"),
    [(".wink.yaml", *case[1:]) for case in YAML_CASES]
    + [(".wink.toml", *case[1:]) for case in TOML_CASES],
    ids=[f"yaml: {case[0]}" for case in YAML_CASES] + [f"toml: {case[0]}" for case in TOML_CASES],
)
def test_the_claim_and_the_compiled_address(
    here: Path,
    monkeypatch: pytest.MonkeyPatch,
    suffix: str,
    text: str,
    claim: str | None,
    address: str | None,
) -> None:
    path = write(here, f"agents/x{suffix}", text)
    monkeypatch.chdir(path.parent)
    assert claimed_address(text.encode(), path.name, here) == claim
    assert address_of(path) == address
    assert address is None or claim in (None, address)


def test_a_file_at_the_root_takes_the_roots_name(here: Path) -> None:
    assert claimed_address(b"key: review\n", "x.wink.yaml", Path()) == "prompts/review"


@pytest.mark.parametrize(
    "content",
    [b"\xffkey: review\n", b"\xef\xbb\xbfkey: review\n", "key: r\u2028eview\n".encode()],
    ids=["not utf-8", "byte-order mark", "a line separator"],
)
def test_bytes_that_are_not_plain_text_are_not_sure(content: bytes) -> None:
    assert claimed_address(content, "x.wink.yaml", Path()) is None
