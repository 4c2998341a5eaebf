"""``wink-decl convert``: round trips that compile alike, whole outputs, layout, error paths."""

from __future__ import annotations

import argparse
import io
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schema_documents import published_documents

from wink_decl.cli._command import Console
from wink_decl.cli._convert import COMMAND
from wink_decl.cli._writers import _comments
from wink_decl.cli._writers._toml_writer import NullValueError, null_paths, to_toml
from wink_decl.cli._writers._yaml_writer import to_yaml
from wink_decl.compiler import compile_file
from wink_decl.compiler.registry import find_prompt_files
from wink_decl.diagnostics import render_text
from wink_decl.loader import load_file, load_text

REPO = Path(__file__).resolve().parents[2]
OTHER = {"yaml": "toml", "toml": "yaml"}
PROPERTY_SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def run(*argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="wink-decl convert")
    COMMAND.configure(parser)
    out, err = io.StringIO(), io.StringIO()
    status = COMMAND.run(parser.parse_args(list(argv)), Console(out=out, err=err))
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def artifact_of(path: Path, root: Path) -> dict[str, Any]:
    result = compile_file(path, root=root)
    assert render_text(result.diagnostics, result.sources) == ""
    assert result.prompt is not None
    artifact = dict(result.prompt.artifact)
    del artifact["source"], artifact["content_hash"]
    return artifact


def data_of(path: Path) -> object:
    loaded = load_file(path)
    assert loaded.file is not None, render_text(loaded.diagnostics)
    return loaded.file.data


# --- every real prompt survives the trip both ways -----------------------------------------------


def prompt_roots() -> list[tuple[Path, Path]]:
    """(root, prompt) for each bundled prompt and each valid case's main prompt."""
    found = [(REPO / "prompts", path) for path in find_prompt_files(REPO / "prompts")]
    for case in sorted((REPO / "tests" / "cases" / "valid").iterdir()):
        found.extend((case, path) for path in case.glob("prompt.wink.*"))
    return found


@pytest.mark.parametrize(
    ("root", "prompt"),
    prompt_roots(),
    ids=lambda p: str(p.relative_to(REPO)) if p.is_file() else "",
)
def test_a_prompt_converted_and_back_compiles_to_the_same_artifact(
    tmp_path: Path, root: Path, prompt: Path
) -> None:
    copy = tmp_path / "root"
    shutil.copytree(root, copy)
    original = copy / prompt.relative_to(root)
    source_format = original.suffix[1:]
    there = original.with_name(f"converted.wink.{OTHER[source_format]}")
    back = original.with_name(f"back.wink.{source_format}")
    assert run(str(original), "--to", OTHER[source_format], "--output", str(there))[0] == 0
    assert run(str(there), "--to", source_format, "--output", str(back))[0] == 0
    expected = artifact_of(original, copy)
    assert artifact_of(there, copy) == expected
    assert artifact_of(back, copy) == expected
    assert data_of(there) == data_of(original) == data_of(back)


# --- whole outputs -----------------------------------------------------------------------------

SMALL_YAML = """\
# yaml-language-server: $schema=../schema/wink-decl.schema.json
# A small prompt.
key: greet
params:
  who: {type: string, default: world}  # who is greeted
sections:
  - key: hello
    title: Hello
    template: |
      Say hello to ${who}.
      Use "quotes" and a \\ backslash.
    enabled: {param: who}
    tools: [a, b]
"""

SMALL_TOML = """\
#:schema ../schema/wink-decl.schema.json
key = "greet"

[params.who]
type = "string"
default = "world"

[[sections]]
key = "hello"
title = "Hello"
template = '''
Say hello to ${who}.
Use "quotes" and a \\ backslash.
'''
enabled = { param = "who" }
tools = ["a", "b"]
"""

SMALL_YAML_BACK = """\
# yaml-language-server: $schema=../schema/wink-decl.schema.json
key: greet
params:
  who:
    type: string
    default: world
sections:
  - key: hello
    title: Hello
    template: |
      Say hello to ${who}.
      Use "quotes" and a \\ backslash.
    enabled:
      param: who
    tools: [a, b]
"""


def test_yaml_to_toml_on_stdout(here: Path) -> None:
    (here / "greet.wink.yaml").write_text(SMALL_YAML)
    assert run("greet.wink.yaml", "--to", "toml", "--output", "-") == (
        0,
        SMALL_TOML,
        "note: comments are not carried over (2 comment lines in greet.wink.yaml)\n",
    )


def test_toml_to_yaml_on_stdout(here: Path) -> None:
    (here / "greet.wink.toml").write_text(SMALL_TOML)
    assert run("greet.wink.toml", "--to", "yaml", "--output", "-") == (0, SMALL_YAML_BACK, "")


def test_the_default_output_is_beside_the_input_with_the_other_suffix(here: Path) -> None:
    (here / "greet.wink.yaml").write_text(SMALL_YAML)
    status, out, _ = run("greet.wink.yaml", "--to", "toml")
    assert (status, out) == (0, "Wrote greet.wink.toml\n")
    assert (here / "greet.wink.toml").read_text() == SMALL_TOML
    assert sorted(p.name for p in here.iterdir()) == ["greet.wink.toml", "greet.wink.yaml"]


def test_a_yml_file_becomes_toml_beside_it(here: Path) -> None:
    (here / "greet.yml").write_text("key: greet\nsections: [{title: T}]\n")
    assert run("greet.yml", "--to", "toml") == (0, "Wrote greet.toml\n", "")
    assert (here / "greet.toml").read_text() == 'key = "greet"\n\n[[sections]]\ntitle = "T"\n'


def test_a_relative_schema_path_is_rewritten_for_another_folder(here: Path) -> None:
    (here / "prompts").mkdir()
    (here / "prompts" / "greet.wink.yaml").write_text(SMALL_YAML)
    run("prompts/greet.wink.yaml", "--to", "toml", "--output", "out/deeper/greet.wink.toml")
    first = (here / "out" / "deeper" / "greet.wink.toml").read_text().splitlines()[0]
    assert first == "#:schema ../../schema/wink-decl.schema.json"


@pytest.mark.parametrize(
    "ref", ["https://example.org/wink.json", "/opt/schemas/wink.json"], ids=["url", "absolute"]
)
def test_a_url_or_absolute_schema_ref_is_kept(here: Path, ref: str) -> None:
    (here / "greet.wink.toml").write_text(f"#:schema {ref}\nkey = 'g'\n")
    run("greet.wink.toml", "--to", "yaml", "--output", "sub/greet.wink.yaml")
    text = (here / "sub" / "greet.wink.yaml").read_text()
    assert text == f"# yaml-language-server: $schema={ref}\nkey: g\n"


def test_without_a_schema_line_none_is_written(here: Path) -> None:
    (here / "g.wink.toml").write_text("# one comment\nkey = 'g'\n")
    assert run("g.wink.toml", "--to", "yaml", "--output", "-") == (
        0,
        "key: g\n",
        "note: comments are not carried over (1 comment line in g.wink.toml)\n",
    )


def test_force_overwrites_an_existing_output(here: Path) -> None:
    (here / "g.wink.yaml").write_text("key: g\n")
    (here / "g.wink.toml").write_text("old\n")
    assert run("g.wink.yaml", "--to", "toml", "--force") == (0, "Wrote g.wink.toml\n", "")
    assert (here / "g.wink.toml").read_text() == 'key = "g"\n'


# --- errors -----------------------------------------------------------------------------------


def test_converting_to_the_same_format_is_a_usage_error(here: Path) -> None:
    assert run("x.wink.yaml", "--to", "yaml") == (
        2,
        "",
        "wink-decl convert: error: 'x.wink.yaml' is already YAML; to write it as TOML, "
        "use --to toml.\n",
    )


def test_an_output_with_the_wrong_suffix_is_a_usage_error(here: Path) -> None:
    assert run("x.wink.yaml", "--to", "toml", "--output", "x.wink.yaml") == (
        2,
        "",
        "wink-decl convert: error: --output 'x.wink.yaml' does not end in .toml, so it "
        "would not be read as TOML; name it like x.wink.toml.\n",
    )


@pytest.mark.parametrize(
    ("to", "output", "suggested"),
    [
        ("toml", "out", "out.wink.toml"),
        ("toml", "drafts/out.txt", "drafts/out.wink.toml"),
        ("yaml", "out", "out.wink.yaml"),
        ("yaml", "out.wink.toml", "out.wink.yaml"),
    ],
)
def test_the_suggested_output_is_a_name_validate_finds(
    here: Path, to: str, output: str, suggested: str
) -> None:
    source = "x.wink.yaml" if to == "toml" else "x.wink.toml"
    other = "TOML" if to == "toml" else "YAML"
    assert run(source, "--to", to, "--output", output) == (
        2,
        "",
        f"wink-decl convert: error: --output '{output}' does not end in .{to}, so it "
        f"would not be read as {other}; name it like {suggested}.\n",
    )


def test_the_suggested_output_name_is_accepted_and_found_as_a_prompt(here: Path) -> None:
    (here / "x.wink.yaml").write_text(SMALL_YAML)
    assert run("x.wink.yaml", "--to", "toml", "--output", "out.wink.toml") == (
        0,
        "Wrote out.wink.toml\n",
        "note: comments are not carried over (2 comment lines in x.wink.yaml)\n",
    )
    assert find_prompt_files(here) == [here / "out.wink.toml", here / "x.wink.yaml"]


def test_an_existing_output_is_left_alone(here: Path) -> None:
    (here / "g.wink.yaml").write_text("# c\nkey: g\n")
    (here / "g.wink.toml").write_text("mine\n")
    assert run("g.wink.yaml", "--to", "toml") == (
        1,
        "",
        "g.wink.toml: error: This file already exists; it was left unchanged.\n"
        "  hint: pass --force to overwrite it, or choose another name\n",
    )
    assert (here / "g.wink.toml").read_text() == "mine\n"


def test_a_null_cannot_be_written_as_toml(here: Path) -> None:
    (here / "n.wink.yaml").write_text("key: n\nsections:\n  - title: T\n    summary:\n")
    assert run("n.wink.yaml", "--to", "toml") == (
        1,
        "",
        "n.wink.yaml:4:13: error: This value is empty (null), and TOML has no way to write "
        "an empty value.\n"
        "  expected: a text, number, true/false, list or mapping\n"
        "   4 |     summary:\n"
        "     |             ^\n"
        "  hint: write a value here, or remove the entry, then convert again\n",
    )
    assert not (here / "n.wink.toml").exists()


def test_an_unreadable_input_is_reported(here: Path) -> None:
    assert run("missing.wink.yaml", "--to", "toml") == (
        1,
        "",
        "missing.wink.yaml: error: This file cannot be read: no such file or directory.\n"
        "  expected: a prompt file that exists and can be read\n"
        "  hint: check the path and the file's permissions\n",
    )


def test_a_broken_input_is_reported_with_its_line(here: Path) -> None:
    (here / "b.wink.toml").write_text('key = "b"\nname = \n')
    status, out, err = run("b.wink.toml", "--to", "yaml")
    assert (status, out) == (1, "")
    assert err.startswith("b.wink.toml:2:")
    assert "   2 | name = \n" in err
    assert not (here / "b.wink.yaml").exists()


def test_a_file_that_cannot_be_written_is_reported(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(path: Path, text: str, *, make_folder: bool) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("wink_decl.cli._convert.write_atomically", refuse)
    (here / "g.wink.yaml").write_text("key: g\n")
    assert run("g.wink.yaml", "--to", "toml") == (
        1,
        "",
        "g.wink.toml: error: This file cannot be written: permission denied.\n"
        "  hint: check that you may write to the folder, and that it is a folder\n",
    )


def test_the_command_describes_itself() -> None:
    assert COMMAND.name == "convert"
    assert len(COMMAND.examples) == 2


# --- comments ----------------------------------------------------------------------------------


def test_yaml_comments_are_counted_but_not_text_in_blocks_or_quotes() -> None:
    text = (
        "# top\n"
        "key: a  # trailing\n"
        "t: |\n"
        "  # not a comment\n"
        "s: 'a # b'\n"
        "l:\n"
        "  - a # c1\n"
        "  # full\n"
        "\n"
        "  - b\n"
        "# end\n"
    )
    assert _comments.comment_lines(text, "yaml") == {1, 2, 7, 8, 11}
    assert _comments.comment_lines("a:\n  - 1\n\n  # x\n\n  - 2 # z\n\n# end\n", "yaml") == {
        4,
        6,
        8,
    }


def test_toml_comments_are_counted_but_not_hashes_in_strings() -> None:
    text = "a = \"x # y\"  # c\nb = '''\n# no\n'''\n# yes\nc = '#'\nd = \"\"\"#\"\"\"\n"
    assert _comments.comment_lines(text, "toml") == {1, 5}


def test_yaml_comments_fall_back_to_whole_lines_if_the_scanner_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fail(self: object, stream: str) -> None:
        raise _comments.YAMLError("scanner disagrees")

    monkeypatch.setattr(_comments.YAML, "scan", fail)
    assert _comments.comment_lines("# a\nkey: v  # b\n  # c\n", "yaml") == {1, 3}


def test_the_schema_line_is_found_among_the_opening_comments_only() -> None:
    assert _comments.find_schema_ref("\n# x\n#:schema s.json\nkey = 1\n") == ("s.json", 3)
    assert _comments.find_schema_ref("key = 1\n#:schema s.json\n") is None
    assert _comments.find_schema_ref("# only a comment\n") is None


# --- the TOML writer ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("plain", '"plain"'),
        ('say "hi"', "'say \"hi\"'"),
        ("C:\\path", "'C:\\path'"),
        ('it\'s "x"', '"it\'s \\"x\\""'),
        ("tab\there", '"tab\\there"'),
        ("bell\x07 del\x7f", '"bell\\u0007 del\\u007f"'),
        (True, "true"),
        (-3, "-3"),
        (0.5, "0.5"),
        (1e300, "1e+300"),
        (float("inf"), "inf"),
        (float("-inf"), "-inf"),
        (float("nan"), "nan"),
        ([], "[]"),
        ({}, "{}"),
        ([1, "a", [True]], '[1, "a", [true]]'),
        ({"a b": 1, "": 2, "ok": {"é": 3}}, '{ "a b" = 1, "" = 2, ok = { "é" = 3 } }'),
    ],
    ids=repr,
)
def test_toml_values(value: object, written: str) -> None:
    assert to_toml({"v": value}) == f"v = {written}\n"


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("a\nb\n", '"""\na\nb\n"""'),
        ('end with "\n"', '"""\nend with "\n\\""""'),
        ('three """ quotes\n', '"""\nthree \\"\\"" quotes\n"""'),
        ("back\\slash\n", "'''\nback\\slash\n'''"),
        ("back\\slash ''' and\n", '"""\nback\\\\slash \'\'\' and\n"""'),
        ("back\\slash\nends '", '"""\nback\\\\slash\nends \'"""'),
        ("crlf\r\nline\n", '"""\ncrlf\\r\nline\n"""'),
        ("\nstarts with a newline", '"""\n\nstarts with a newline"""'),
    ],
    ids=repr,
)
def test_toml_multiline_strings(text: str, written: str) -> None:
    assert to_toml({"t": text}) == f"t = {written}\n"
    assert tomllib.loads(to_toml({"t": text})) == {"t": text}


def test_toml_long_arrays_are_one_item_a_line() -> None:
    words = [f"word-number-{i}" for i in range(8)]
    lines = "".join(f'  "{word}",\n' for word in words)
    assert to_toml({"enum": words}) == f"enum = [\n{lines}]\n"


def test_toml_tables_for_wide_or_multiline_mappings_and_lists_of_them() -> None:
    data = {
        "wide": {"text": "x" * 90},
        "lines": [{"a": "1\n2"}],
        "deep": {"inner": {"text": "y" * 95}},
        "short": [{"a": 1}],
    }
    assert to_toml(data) == (
        'short = [{ a = 1 }]\n\n[wide]\ntext = "' + "x" * 90 + '"\n\n'
        '[[lines]]\na = """\n1\n2"""\n\n'
        '[deep.inner]\ntext = "' + "y" * 95 + '"\n'
    )


def test_toml_writes_records_as_tables_and_prompt_lists_as_arrays_of_tables() -> None:
    data: dict[str, object] = {
        "key": "k",
        "params": {"n": {"type": "integer"}},
        "tools": {"t": {"params": {"q": {"type": "string"}}, "examples": [{"input": {}}]}},
        "policies": [{"read_before_write": {}}],
    }
    assert to_toml(data) == (
        'key = "k"\n\n[params.n]\ntype = "integer"\n\n'
        '[tools.t.params.q]\ntype = "string"\n\n[[tools.t.examples]]\ninput = {}\n\n'
        "[[policies]]\nread_before_write = {}\n"
    )


def test_toml_refuses_nulls_and_says_where() -> None:
    with pytest.raises(NullValueError) as info:
        to_toml({"a": None, "b": [1, {"c": None}]})
    assert info.value.paths == (("a",), ("b", 1, "c"))
    assert null_paths({"a": [None]}) == [("a", 0)]


def test_toml_refuses_what_is_not_json_data() -> None:
    with pytest.raises(TypeError, match="TOML cannot write a bytes"):
        to_toml({"a": b"x"})


# --- the YAML writer ---------------------------------------------------------------------------


def test_yaml_keeps_order_uses_blocks_for_text_and_flow_for_short_lists() -> None:
    data = {
        "z": "first",
        "a": {"text": "one\ntwo\n", "no_end": "x\ny", "list": ["p", 1], "long": ["w" * 40] * 3},
        "items": [{"k": "true"}],
    }
    assert to_yaml(data) == (
        "z: first\n"
        "a:\n"
        "  text: |\n    one\n    two\n"
        "  no_end: |-\n    x\n    y\n"
        "  list: [p, 1]\n"
        "  long:\n" + "".join(f"    - {'w' * 40}\n" for _ in range(3)) + "items:\n"
        "  - k: 'true'\n"
    )


# --- properties --------------------------------------------------------------------------------

SCALARS = (
    st.text(max_size=12) | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.booleans()
)
JSON_DATA = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
DOCUMENTS = st.dictionaries(st.text(max_size=6), JSON_DATA, max_size=4)


def assert_round_trips(data: dict[str, Any]) -> None:
    toml_text = to_toml(data)
    assert tomllib.loads(toml_text) == data
    loaded_toml = load_text(toml_text, path="p.toml", format="toml")
    if data:  # the loader refuses an empty file
        assert loaded_toml.file is not None, render_text(loaded_toml.diagnostics)
        assert loaded_toml.file.data == data
    yaml_text = to_yaml(data)
    loaded_yaml = load_text(yaml_text, path="p.yaml", format="yaml")
    if data:
        assert loaded_yaml.file is not None, render_text(loaded_yaml.diagnostics)
        assert loaded_yaml.file.data == data


@PROPERTY_SETTINGS
@given(published_documents())
def test_schema_documents_survive_both_writers(data: dict[str, Any]) -> None:
    assert_round_trips(data)


@PROPERTY_SETTINGS
@given(DOCUMENTS)
def test_any_json_data_survives_both_writers(data: dict[str, Any]) -> None:
    assert_round_trips(data)


def test_toml_starts_with_a_table_header_when_no_plain_key_comes_first() -> None:
    assert to_toml({"sections": [{"title": "A"}]}) == '[[sections]]\ntitle = "A"\n'
    assert to_toml({"params": {"x": {"type": "string"}}}) == '[params.x]\ntype = "string"\n'
