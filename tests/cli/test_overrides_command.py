"""``wink-decl overrides`` and ``--tag`` end to end: seed, edit, render; stale; check; diff."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path

import pytest
from chat_adapters import block_the_network
from compiler_support import make_catalog
from openai_replies import reply
from provider_server import ProviderServer

from wink_decl.compiler import compile as compile_module
from wink_decl.overrides import text_hash

Run = Callable[..., tuple[int, str, str]]

PROMPT = """key: notes
params:
  topic: {type: string}
sections:
  - key: task
    title: Task
    template: Write notes about ${topic}.
    tools: [read_file]
  - key: style
    title: Style
    template: Be brief.
    accepts_overrides: false
tools:
  read_file:
    description: Read a file.
    handler: files.read_file
"""
FILE = "prompts/notes.wink.yaml"
OVERRIDE = "overrides/prompts/notes/short.wink-override"
TASK_HASH = text_hash("Write notes about ${topic}.")
PATH_DESCRIPTION = "The file to read, relative to the workspace root."


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``<tmp>/prompts/notes.wink.yaml``; the cwd is ``<tmp>``; no network."""
    (tmp_path / "prompts").mkdir()
    (tmp_path / ".git").mkdir()  # the search for a schema copy ends here
    (tmp_path / FILE).write_text(PROMPT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    return tmp_path


SCHEMA_COPY = "overrides/wink-decl-override.schema.json"


def seeded(cli: Run, suffix: str) -> Path:
    """Seed tag ``short``; the first seed also writes the schema its first line points at."""
    copied = (
        ""
        if Path(SCHEMA_COPY).exists()
        else f"Created {SCHEMA_COPY} (the schema the first line points at)\n"
    )
    assert cli("overrides", "seed", FILE, "--tag", "short", "--format", suffix) == (
        0,
        f"{copied}Created {OVERRIDE}.{suffix}\n",
        "",
    )
    return Path(f"{OVERRIDE}.{suffix}")


SCHEMA = "../../wink-decl-override.schema.json"
SEEDED_YAML = f"""# yaml-language-server: $schema={SCHEMA}
sections:
  task:
    template:
      hash: {TASK_HASH}
      text: Write notes about ${{topic}}.
    visibility:
      hash: {text_hash("full")}
      text: full
tools:
  read_file:
    description:
      hash: {text_hash("Read a file.")}
      text: Read a file.
    params:
      path:
        description:
          hash: {text_hash(PATH_DESCRIPTION)}
          text: {PATH_DESCRIPTION}
        type:
          hash: {text_hash("string")}
          text: string
        default:
          hash: {text_hash("")}
          text: ''
"""
EDITS = {
    "Write notes about ${topic}.": "Jot down ${topic}.",
    "Read a file.": "Read one file.",
    PATH_DESCRIPTION: "Which file.",
}
TAGGED = (
    "## 1. Task (task)\n\nJot down tea.\n\n## 2. Style (style)\n\nBe brief.\n\n"
    "tools:\n  read_file  Read one file.\n"
)


def edited(path: Path) -> None:
    """Replace the seeded texts (not the hashes) as an author would."""
    text = path.read_text()
    for old, new in EDITS.items():
        text = text.replace(f"text: {old}\n", f"text: {new}\n").replace(
            f'text = "{old}"', f'text = "{new}"'
        )
    path.write_text(text)


@pytest.mark.parametrize("suffix", ["yaml", "toml"])
def test_seed_edit_render_gives_the_edited_text(cli: Run, here: Path, suffix: str) -> None:
    path = seeded(cli, suffix)
    if suffix == "yaml":
        assert path.read_text() == SEEDED_YAML
    edited(path)
    assert cli("render", FILE, "--param", "topic=tea", "--tag", "short") == (0, TAGGED, "")
    status, out, err = cli(
        "tools", FILE, "--param", "topic=tea", "--tag", "short", "--format", "openai"
    )
    assert (status, err) == (0, "")
    assert json.loads(out)[0]["function"]["description"] == "Read one file."
    status, out, err = cli("compile", FILE, "--tag", "short")
    assert (status, err) == (0, "")
    assert '"template": "Jot down ${topic}."' in out
    assert cli("overrides", "check", "prompts") == (
        0,
        "",
        "1 override file checked (0 errors, 0 warnings)\n",
    )
    assert cli("overrides", "diff", FILE, "--tag", "short", "--param", "topic=tea") == (
        0,
        f"--- {FILE}\n+++ {FILE} --tag short\n@@ -1,10 +1,10 @@\n ## 1. Task (task)\n \n"
        "-Write notes about tea.\n+Jot down tea.\n \n ## 2. Style (style)\n \n Be brief.\n \n"
        " tools:\n-  read_file  Read a file.\n+  read_file  Read one file.\n",
        "",
    )


@pytest.mark.parametrize("context", ["-1", "two", "1.5", "\u00b2"])
def test_overrides_diff_refuses_a_context_that_is_not_a_count_of_lines(
    cli: Run, here: Path, context: str
) -> None:
    assert cli("overrides", "diff", FILE, "--tag", "short", "--context", context) == (
        2,
        "",
        f"wink-decl: error: argument --context: expected a whole number of at least 0, not "
        f"'{context}'\n  run 'wink-decl overrides diff --help' for its options\n",
    )


def test_overrides_diff_with_no_context_or_more_than_the_text(cli: Run, here: Path) -> None:
    edited(seeded(cli, "yaml"))
    diff = ("overrides", "diff", FILE, "--tag", "short", "--param", "topic=tea")
    assert cli(*diff, "--context", "0") == (
        0,
        f"--- {FILE}\n+++ {FILE} --tag short\n@@ -3 +3 @@\n"
        "-Write notes about tea.\n+Jot down tea.\n@@ -10 +10 @@\n"
        "-  read_file  Read a file.\n+  read_file  Read one file.\n",
        "",
    )
    assert cli(*diff, "--context", "99999999999999999999") == cli(*diff)


STALE_TASK = (
    f"{OVERRIDE}.yaml:5:13: {{severity}}: The override of sections.task.template was "
    "written for another text: the base text has changed since, so the base text is used.\n"
    f"  expected: hash: {text_hash('Write short notes about ${topic}.')}\n"
    f"   5 |       hash: {TASK_HASH}\n"
    f"     |             {'^' * 71}\n"
    "  hint: compare the override with the new base text, then re-pin it: wink-decl "
    "overrides repin FILE --tag TAG shows each stale entry's base text and, with "
    "--all or --entry, writes the new hashes and keeps your texts\n"
)
"""The task's override once the base text is 'Write short notes about ${topic}.'."""


def test_editing_the_base_makes_the_override_stale_and_the_base_is_used(
    cli: Run, here: Path
) -> None:
    edited(seeded(cli, "yaml"))
    Path(FILE).write_text(PROMPT.replace("Write notes about", "Write short notes about"))
    stale = STALE_TASK
    assert cli("render", FILE, "--param", "topic=tea", "--tag", "short") == (
        0,
        TAGGED.replace("Jot down tea.", "Write short notes about tea."),
        stale.format(severity="warning"),
    )
    assert cli("render", FILE, "--param", "topic=tea", "--tag", "short", "--strict") == (
        1,
        "",
        stale.format(severity="error"),
    )
    assert cli("overrides", "check", "prompts", "--strict") == (
        1,
        "",
        stale.format(severity="error") + "1 override file checked (1 error, 0 warnings)\n",
    )


def test_check_counts_an_override_file_once_for_a_prompt_and_its_converted_copy(
    cli: Run, here: Path
) -> None:
    """Both files have one address, so both are checked against its file: counted once."""
    edited(seeded(cli, "yaml"))
    assert cli("convert", FILE, "--to", "toml")[:2] == (0, "Wrote prompts/notes.wink.toml\n")
    for prompt in (Path(FILE), Path("prompts/notes.wink.toml")):
        text = prompt.read_text()
        prompt.write_text(text.replace("Write notes about", "Write short notes about"))
    stale = STALE_TASK.format(severity="warning")
    for argv in (["prompts"], ["prompts/notes.wink.toml", FILE]):
        assert cli("overrides", "check", *argv) == (
            0,
            "",
            stale + "1 override file checked (0 errors, 1 warning)\n",
        )


BASE = TAGGED.replace("Jot down tea.", "Write notes about tea.").replace(
    "Read one file.", "Read a file."
)


def no_file(tag: str, severity: str = "warning", tags: str = "it has none") -> str:
    """What a tag the prompt has no file for is told, the hint naming the command to write one."""
    return (
        f"{FILE}: {severity}: Prompt 'prompts/notes' has no override file for tag '{tag}', so it "
        "is used as written.\n"
        f"  expected: one of its tags: {tags}\n"
        f"  hint: check the tag, or write its file: wink-decl overrides seed {FILE} --tag {tag}\n"
    )


def test_a_tag_without_a_file_renders_the_base_with_a_warning_and_a_bad_tag_is_a_usage_error(
    cli: Run, here: Path
) -> None:
    base = BASE
    assert cli("render", FILE, "--param", "topic=tea", "--tag", "none") == (
        0,
        base,
        no_file("none"),
    )
    assert cli("render", FILE, "--param", "topic=tea", "--tag", "t", "--overrides", "prompts") == (
        0,
        base,
        no_file("t"),
    )
    assert cli("render", FILE, "--param", "topic=tea", "--tag", "a/b") == (
        2,
        "",
        "wink-decl: error: argument --tag: 'a/b' is not a tag: use 1-64 letters, digits, '_' or "
        "'-', starting with a letter or digit\n  run 'wink-decl render --help' for its options\n",
    )
    tea = ("--param", "topic=tea")
    assert cli("render", FILE, *tea, "--tag", "x", "--overrides", "nowhere")[0] == 2
    assert cli("render", FILE, *tea, "--tag", "x", "--overrides", FILE) == (
        2,
        "",
        f"wink-decl: error: --overrides '{FILE}' is not a folder\n",
    )


MISSPELT = (
    f"{FILE}: {{severity}}: Prompt 'prompts/notes' has no override file for tag 'shrot', so it "
    "is used as written.\n"
    "  expected: one of its tags: short\n"
    "  hint: did you mean 'short'?\n"
)
TEA = ("--param", "topic=tea")


@pytest.mark.parametrize(
    "argv",
    [
        ["render", FILE, *TEA],
        ["tools", FILE, *TEA],
        ["compile", FILE],
        ["overrides", "diff", FILE, *TEA],
        ["run", FILE, *TEA, "--model", "openai:gpt-test"],
    ],
    ids=["render", "tools", "compile", "diff", "run"],
)
def test_a_misspelt_tag_warns_with_the_nearest_and_stops_every_command_when_strict(
    cli: Run, here: Path, argv: list[str]
) -> None:
    seeded(cli, "yaml")
    assert cli(*argv, "--tag", "shrot", "--strict") == (1, "", MISSPELT.format(severity="error"))
    if argv[0] == "run":
        return  # it goes on to the model: test_run_with_a_misspelt_tag_sends_the_base_prompt
    untagged = "" if argv[0] == "overrides" else cli(*argv)[1]  # diff: nothing differs
    assert cli(*argv, "--tag", "shrot") == (0, untagged, MISSPELT.format(severity="warning"))


REFUSED = f"""sections:
  style:
    template: {{hash: "{text_hash("Be brief.")}", text: Ramble.}}
"""
REFUSED_REPORT = (
    "variants/prompts/notes/short.wink-override.yaml:2:3: error: Section 'style' does not "
    "accept overrides (accepts_overrides: false), so this entry is not applied.\n"
    "  expected: entries for sections and tools that accept overrides\n"
    "   2 |   style:\n     |   ^^^^^\n  hint: remove the entry\n"
)


def refused(here: Path) -> None:
    """A refused entry under ``variants/``, named by ``[tool.wink-decl] overrides``."""
    (here / "pyproject.toml").write_text('[tool.wink-decl]\noverrides = "variants"\n')
    path = here / "variants/prompts/notes/short.wink-override.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(REFUSED)


@pytest.mark.parametrize(
    "argv",
    [
        ["render", FILE, "--param", "topic=tea"],
        ["tools", FILE, "--param", "topic=tea"],
        ["compile", FILE],
        ["overrides", "diff", FILE, "--param", "topic=tea"],
        ["run", FILE, "--param", "topic=tea", "--model", "openai:gpt-test"],
    ],
    ids=["render", "tools", "compile", "diff", "run"],
)
def test_a_refused_entry_stops_every_command_with_its_place(
    cli: Run, here: Path, argv: list[str]
) -> None:
    refused(here)
    assert cli(*argv, "--tag", "short") == (1, "", REFUSED_REPORT)


def test_check_reports_every_file_and_prompt_and_counts_the_files(cli: Run, here: Path) -> None:
    refused(here)
    Path("prompts/broken.wink.yaml").write_text("key: broken\nsections: 3\n")
    bad = Path("variants/prompts/notes/long.wink-override.yaml")
    bad.write_text("tools: 3\n")
    status, out, err = cli("overrides", "check")
    assert (status, out) == (1, "")
    assert err.endswith(REFUSED_REPORT + "2 override files checked (3 errors, 0 warnings)\n")
    assert err.startswith("prompts/broken.wink.yaml:2:11: error: ")
    assert (
        "variants/prompts/notes/long.wink-override.yaml:1:8: error: Tools must be a mapping." in err
    )


def test_an_override_file_for_no_prompt_is_reported_when_the_whole_root_is_checked(
    cli: Run, here: Path
) -> None:
    path = seeded(cli, "yaml")
    gone = Path("overrides/prompts/note/short.wink-override.yaml")
    gone.parent.mkdir()
    gone.write_text(path.read_text())
    status, out, err = cli("overrides", "check", "prompts")
    assert (status, out, err) == (
        1,
        "",
        f"{gone}: error: No prompt 'prompts/note' for this override file: it applies to "
        "nothing. Did you mean 'prompts/notes'?\n"
        "  expected: a file in the folder of a prompt: <overrides>/<ns>/<key>/<tag>\n"
        "  hint: move it to the folder of the prompt it is for, or delete it\n"
        "1 override file checked (1 error, 0 warnings)\n",
    )
    assert cli("overrides", "check", FILE)[0] == 0  # one file of the root: others may own it


def test_seed_refuses_to_overwrite_and_needs_a_tag(cli: Run, here: Path) -> None:
    assert cli("overrides", "seed", FILE) == (
        2,
        "",
        "wink-decl: error: overrides seed needs --tag TAG\n"
        "  run 'wink-decl overrides seed --help' for its options\n",
    )
    seeded(cli, "yaml")
    assert cli("overrides", "seed", FILE, "--tag", "short") == (
        1,
        "",
        f"{OVERRIDE}.yaml: error: This file already exists; it was left unchanged.\n"
        "  hint: pass --force to overwrite it, or choose another name\n",
    )
    assert cli("overrides", "seed", FILE, "--tag", "short", "--force") == (
        0,
        f"Created {OVERRIDE}.yaml\n",
        "",
    )
    assert cli("overrides", "seed", FILE, "--tag", "short", "--format", "toml", "--force") == (
        1,
        "",
        f"{OVERRIDE}.yaml: error: This tag has this override file already, in the other "
        "format; nothing was written.\n"
        "  hint: edit that file, or delete it first to seed the tag in this format\n",
    )


def test_seed_points_at_a_schema_nearby_and_reports_what_it_cannot_write(
    cli: Run, here: Path
) -> None:
    (here / "schema").mkdir()
    (here / "schema" / "wink-decl-override.schema.json").write_text("{}")
    assert cli("overrides", "seed", FILE, "--tag", "short", "--format", "toml") == (
        0,
        f"Created {OVERRIDE}.toml\n",
        "",
    )
    path = Path(f"{OVERRIDE}.toml")
    assert path.read_text().startswith("#:schema ../../../schema/wink-decl-override.schema.json\n")
    Path("overrides/prompts/other").write_text("")
    Path("prompts/other.wink.yaml").write_text(PROMPT.replace("key: notes", "key: other"))
    status, out, err = cli("overrides", "seed", "prompts/other.wink.yaml", "--tag", "t")
    assert (status, out) == (1, "")
    assert err.startswith(
        "overrides/prompts/other/t.wink-override.yaml: error: This file cannot be written: "
    )


def test_seed_writes_the_schema_once_where_every_seed_finds_it(cli: Run, here: Path) -> None:
    path = seeded(cli, "yaml")
    assert path.read_text().splitlines()[0] == f"# yaml-language-server: $schema={SCHEMA}"
    packaged = resources.files("wink_decl.overrides").joinpath("wink-decl-override.schema.json")
    assert Path(SCHEMA_COPY).read_bytes() == packaged.read_bytes()
    Path("prompts/other.wink.yaml").write_text(PROMPT.replace("key: notes", "key: other"))
    assert cli("overrides", "seed", "prompts/other.wink.yaml", "--tag", "t") == (
        0,
        "Created overrides/prompts/other/t.wink-override.yaml\n",
        "",
    )


def test_a_schema_copy_that_cannot_be_written_is_reported(cli: Run, here: Path) -> None:
    Path("overrides").write_text("")  # a file where the overrides folder would be
    status, out, err = cli("overrides", "seed", FILE, "--tag", "short")
    assert (status, out, Path("overrides").read_text()) == (1, "", "")
    assert err.startswith(f"{SCHEMA_COPY}: error: This file cannot be written: ")


UNIMPORTABLE = PROMPT.replace("files.read_file", "test.unimportable")


@pytest.mark.parametrize(
    "argv",
    [
        ["overrides", "seed", FILE, "--tag", "t"],
        ["overrides", "diff", FILE, "--tag", "t", "--param", "topic=x"],
    ],
    ids=["seed", "diff"],
)
def test_plugin_problems_and_broken_files_stop_seed_and_diff(
    cli: Run, here: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compile_module, "default_catalog", make_catalog)
    Path(FILE).write_text(UNIMPORTABLE)
    status, out, err = cli(*argv)
    assert (status, out) == (1, "")
    assert err.startswith(
        f"{FILE}:16:14: error: Tool 'read_file' cannot use handler 'test.unimportable': "
    )
    Path(FILE).write_text("key: notes\nsections: 3\n")
    assert cli(*argv)[:2] == (1, "")
    assert cli("overrides", "diff", FILE)[0] == 2


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    attempts = block_the_network(monkeypatch)
    yield
    assert attempts == []


def test_run_with_a_tag_sends_the_tagged_prompt(cli: Run, here: Path, no_network: None) -> None:
    edited(seeded(cli, "yaml"))
    with ProviderServer([reply("Done.", usage=(10, 2))]) as server:
        status, out, err = cli(
            "run",
            FILE,
            "--param",
            "topic=tea",
            "--tag",
            "short",
            "--model",
            "openai:gpt-test",
            "--base-url",
            f"{server.url}/v1",
        )
    assert (status, out, err) == (0, "Done.\n", "")
    system = server.requests[0].json["messages"][0]["content"]
    assert system == TAGGED.split("\n\ntools:")[0]


def test_run_with_a_misspelt_tag_sends_the_base_prompt(
    cli: Run, here: Path, no_network: None
) -> None:
    edited(seeded(cli, "yaml"))
    with ProviderServer([reply("Done.", usage=(10, 2))]) as server:
        status, out, err = cli(
            "run",
            FILE,
            *TEA,
            "--tag",
            "shrot",
            "--model",
            "openai:gpt-test",
            "--base-url",
            f"{server.url}/v1",
        )
    assert (status, out, err) == (0, "Done.\n", MISSPELT.format(severity="warning"))
    system = server.requests[0].json["messages"][0]["content"]
    assert system == BASE.split("\n\ntools:")[0]


def test_validate_checks_override_files_when_an_overrides_folder_exists(
    cli: Run, here: Path
) -> None:
    assert cli("validate", "prompts") == (0, "", "1 file checked: 1 valid, 0 invalid\n")
    edited(seeded(cli, "yaml"))
    assert cli("validate", "prompts") == (0, "", "1 file checked: 1 valid, 0 invalid\n")
    Path(FILE).write_text(PROMPT.replace("Write notes about", "Write short notes about"))
    Path("prompts/broken.wink.yaml").write_text("key: broken\nsections: 3\n")
    status, out, err = cli("validate", "prompts", "--strict")
    assert (status, out) == (1, "")
    assert f"{OVERRIDE}.yaml:5:13: error: The override of sections.task.template" in err
    assert err.endswith("2 files checked: 0 valid, 2 invalid (2 errors, 0 warnings)\n")
    status, out, err = cli("validate", "prompts", "--format", "json")
    assert (status, err) == (1, "")
    assert [(d["file"], d["severity"]) for d in json.loads(out)] == [
        ("overrides/prompts/notes/short.wink-override.yaml", "warning"),
        ("prompts/broken.wink.yaml", "error"),
    ]
