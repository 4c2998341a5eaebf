"""``wink-decl import``: whole outputs, each unsupported construct's warning, hostile files."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from wink_decl.cli import main

CORPUS = Path(__file__).parent / "corpus"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding the corpus, as the current folder."""
    for file in CORPUS.iterdir():
        shutil.copy(file, tmp_path / file.name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


UNSUPPORTED_YAML = """\
# Not imported, to finish by hand: tools: [{"name": "search"}]
key: own-unsupported
name: Own unsupported

params:
  items:
    type: array
    items:
      type: string
  name:
    type: string

sections:
  # To finish by hand: a loop at own-unsupported.prompty:12:1, as written there:
  #   {% for item in items %}
  #   - {{ item }}
  #   {% endfor %}
  # To finish by hand: a filter at own-unsupported.prompty:15:4, as written there:
  #   {{ name | upper }}
  # To finish by hand: a condition inside a paragraph at own-unsupported.prompty:15:22, as written there:
  #   {% if name %}, friend{% endif %}
  # A template comment at own-unsupported.prompty:16:1:
  #   {# a note for authors #}
  - key: system
    title: System
    template: |-
      Items:

      Hi .
"""  # noqa: E501 - the comments quote the file's lines whole
_HINT = (
    "  hint: rewrite it by hand: a param for a computed value, a section with 'enabled:' for a "
    "condition\n"
)
_EXPECTED = "  expected: variables, and conditions around whole paragraphs\n"
UNSUPPORTED_ERR = (
    "own-unsupported.prompty:7:1: warning: The setting 'tools' has no equivalent in a wink-decl "
    "prompt file; it is kept as a comment.\n"
    "  expected: name, description, inputs and model settings\n"
    "   7 | tools:\n"
    "     | ^^^^^\n"
    "  hint: carry it over by hand: tools go under tools: with a handler\n"
    "own-unsupported.prompty:12:1: warning: A loop has no equivalent in wink-decl; it is kept as "
    "a comment above the section.\n" + _EXPECTED + "  12 | {% for item in items %}\n"
    "     | ^\n" + _HINT + "own-unsupported.prompty:15:4: warning: A filter has no equivalent in "
    "wink-decl; it is kept as a comment above the section.\n"
    + _EXPECTED
    + "  15 | Hi {{ name | upper }}{% if name %}, friend{% endif %}.\n"
    "     |    ^^^^^^^^^^^^^^^^^^\n"
    + _HINT
    + "own-unsupported.prompty:15:22: warning: A condition inside a paragraph has no equivalent "
    "in wink-decl; it is kept as a comment above the section.\n"
    + _EXPECTED
    + "  15 | Hi {{ name | upper }}{% if name %}, friend{% endif %}.\n"
    "     |                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" + _HINT
)


def test_each_unsupported_construct_is_a_warning_at_its_place_and_a_comment(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "import", "own-unsupported.prompty") == (
        0,
        "Wrote own-unsupported.wink.yaml\n"
        "Next: check it with: wink-decl validate own-unsupported.wink.yaml\n",
        UNSUPPORTED_ERR,
    )
    assert (here / "own-unsupported.wink.yaml").read_text() == UNSUPPORTED_YAML
    assert run(capsys, "validate", "own-unsupported.wink.yaml")[0] == 0


GREETING_TOML = """\
# Imported from prompty-readme-greeting.prompty (Prompty).
# A prompt file has no place for model settings: pass the model to
# `wink-decl run --model PROVIDER:MODEL`, or name it in an eval file.
#   id: "gpt-4o-mini"
#   provider: "openai"
#   (for example: --model openai:gpt-4o-mini)
key = "prompty-readme-greeting"
name = "greeting"

[params.name]
type = "string"
default = "World"

[[sections]]
key = "system"
title = "System"
template = "You are a friendly assistant."

[[sections]]
key = "user"
title = "User"
template = "Say hello to ${name}."
"""


def test_toml_leaves_the_connection_and_its_key_out_and_validates(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "import", "prompty-readme-greeting.prompty", "--to", "toml")
    assert (code, out, err) == (
        0,
        "Wrote prompty-readme-greeting.wink.toml\n"
        "Next: check it with: wink-decl validate prompty-readme-greeting.wink.toml\n",
        "",
    )
    assert (here / "prompty-readme-greeting.wink.toml").read_text() == GREETING_TOML
    assert run(capsys, "validate", "prompty-readme-greeting.wink.toml")[0] == 0


def test_a_renamed_input_is_a_warning(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "import", "own-review.prompty", "--output", "-")
    assert (code, err) == (
        0,
        "own-review.prompty:16:3: warning: The input 'userName' is named 'user_name' in "
        "wink-decl.\n"
        "  expected: a param name of lowercase letters, digits and '_', starting with a letter\n"
        "  16 |   userName:\n"
        "     |   ^^^^^^^^\n"
        "  hint: pass it as user_name=... when you render or run the imported prompt\n",
    )


def test_an_existing_file_is_kept_unless_forced(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "own-chat.wink.yaml").write_text("mine\n")
    assert run(capsys, "import", "own-chat.yaml") == (
        1,
        "",
        "own-chat.wink.yaml: error: This file already exists; it was left unchanged.\n"
        "  hint: pass --force to overwrite it, or choose another name\n",
    )
    assert (here / "own-chat.wink.yaml").read_text() == "mine\n"
    assert run(capsys, "import", "own-chat.yaml", "--force")[0] == 0
    assert (here / "own-chat.wink.yaml").read_text().startswith("key: own-chat\n")


@pytest.mark.parametrize(
    "output", ["../out.wink.yaml", "/srv/out.wink.yaml"], ids=["up", "absolute"]
)
def test_nothing_is_written_outside_the_files_folder(
    here: Path, capsys: pytest.CaptureFixture[str], output: str
) -> None:
    code, out, err = run(capsys, "import", "own-chat.yaml", "--output", output)
    assert (code, out, err) == (
        2,
        "",
        f"wink-decl: error: --output '{output}' is not inside the folder of 'own-chat.yaml', "
        "and import writes only there\n"
        "  hint: name a file in that folder, such as own-chat.wink.yaml; move it afterwards if "
        "you want it elsewhere\n",
    )
    assert not (here.parent / "out.wink.yaml").exists()


def test_a_link_leading_out_of_the_folder_is_refused(
    here: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = tmp_path_factory.mktemp("elsewhere") / "secret.json"
    secret.write_text('{"template": "a key: sk-123"}')
    (here / "linked.json").symlink_to(secret)
    assert run(capsys, "import", "linked.json") == (
        1,
        "",
        "linked.json: error: This file is a symbolic link to a file outside its folder, so it "
        "is not read.\n"
        "  expected: a file whose real path lies inside the folder it is named in\n"
        "  hint: copy the file itself into the folder, then import the copy\n",
    )


def test_a_file_over_the_size_limit_is_not_read(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "huge.prompty").write_text("x" * 2_000)
    code, out, err = run(capsys, "import", "huge.prompty", "--limit", "max_bytes=1000")
    assert (code, out, err) == (
        1,
        "",
        "huge.prompty:1:1: error: This file is 2,000 bytes long, more than the limit of 1,000 "
        "bytes.\n"
        "  expected: a file of at most 1,000 bytes\n"
        "  hint: split the prompt into smaller files before importing it, or allow more with "
        "--limit max_bytes=2000\n",
    )


def test_a_fifo_is_refused_without_being_opened(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    os.mkfifo(here / "pipe.prompt")
    assert run(capsys, "import", "pipe.prompt") == (
        1,
        "",
        "pipe.prompt: error: This file cannot be read: it is a named pipe (FIFO), not a regular "
        "file.\n"
        "  expected: a regular file\n"
        "  hint: replace it with a regular file; folders, pipes, devices and sockets are never "
        "opened\n",
    )


def test_front_matter_nested_too_deep_is_refused(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = "a: " + "[" * 70 + "]" * 70
    (here / "deep.prompty").write_text(f"---\n{deep}\n---\nsystem:\nHi\n")
    assert run(capsys, "import", "deep.prompty") == (
        1,
        "",
        "deep.prompty:2:67: error: Values are nested more than 64 levels deep here.\n"
        "  expected: at most 64 levels of nested mappings and lists\n"
        "   2 | ..." + "[" * 47 + "]" * 53 + "...\n"
        "     |                                            ^^^^^^^^^^^^^^\n"
        "  hint: flatten the structure: nest mappings and lists less deeply, or allow more with "
        "--limit max_depth=128\n",
    )


@pytest.mark.parametrize(
    ("argv", "err"),
    [
        (
            ["--output", "chat.yaml"],
            "wink-decl: error: --output 'chat.yaml' does not end in .wink.yaml or .wink.toml, so "
            "validate would not find it\n"
            "  hint: name it like chat.wink.yaml\n",
        ),
        (
            ["--output", "chat.txt", "--to", "toml"],
            "wink-decl: error: --output 'chat.txt' does not end in .wink.yaml or .wink.toml, so "
            "validate would not find it\n"
            "  hint: name it like chat.wink.toml\n",
        ),
        (
            ["--output", "chat.wink.yaml", "--to", "toml"],
            "wink-decl: error: --output 'chat.wink.yaml' is YAML but --to says toml\n",
        ),
    ],
    ids=["no-suffix", "no-suffix-toml", "suffix-against-to"],
)
def test_an_output_name_validate_would_not_find_is_a_usage_error(
    here: Path, capsys: pytest.CaptureFixture[str], argv: list[str], err: str
) -> None:
    assert run(capsys, "import", "own-chat.yaml", *argv) == (2, "", err)
    assert sorted(p.name for p in here.iterdir() if ".wink." in p.name) == []


def test_the_output_named_below_the_folder_takes_its_format_from_its_name(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "import", "own-chat.yaml", "--output", "out/chat.wink.toml") == (
        0,
        "Wrote out/chat.wink.toml\nNext: check it with: wink-decl validate out/chat.wink.toml\n",
        "",
    )
    assert (here / "out" / "chat.wink.toml").read_text() == (
        'key = "own-chat"\n'
        'name = "Own chat"\n'
        "\n"
        "[params.topic]\n"
        'type = "string"\n'
        "\n"
        "[[sections]]\n"
        'key = "user"\n'
        'title = "User"\n'
        'template = "Summarize ${topic} in three sentences."\n'
    )


def test_a_file_that_cannot_be_written_is_an_error(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "out").write_text("a file where the folder would be\n")
    assert run(capsys, "import", "own-chat.yaml", "--output", "out/chat.wink.yaml") == (
        1,
        "",
        "out/chat.wink.yaml: error: This file cannot be written: file exists.\n"
        "  hint: check that you may write to the folder, and that it is a folder\n",
    )
    assert (here / "out").read_text() == "a file where the folder would be\n"
