"""``wink-decl overrides repin``: stale entries listed with their base text, re-pinned in place."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from wink_decl.cli import _overrides_repin
from wink_decl.overrides import Entry, OverrideFile, StaleEntry, repinned_text, text_hash

Run = Callable[..., tuple[int, str, str]]

PROMPT = """key: notes
params:
  topic: {type: string}
sections:
  - key: task
    title: Task
    template: Write notes about ${topic}.
  - key: style
    title: Style
    template: Be brief.
    summary: Brief.
"""
FILE = "prompts/notes.wink.yaml"
OVERRIDE = "overrides/prompts/notes/short.wink-override"
OLD_TASK = "Write notes about ${topic}."
NEW_TASK = "Write short notes about ${topic}.\nUse bullets."
OLD_STYLE = "Be brief."
NEW_STYLE = "Be very brief."

YAML_FILE = f"""# yaml-language-server: $schema=../../wink-decl-override.schema.json
sections:
  task:
    template:
      # reviewed by Ann
      hash: {text_hash(OLD_TASK)}
      text: Jot down ${{topic}}.
  style:
    template: {{hash: "{text_hash(OLD_STYLE)}", text: Be terse.}}   # flow style kept
    summary:
      hash: '{text_hash("Brief.")}'
      text: Terse.
"""
TOML_FILE = f"""#:schema ../../wink-decl-override.schema.json
# tuned for the short tag

[sections.task.template]
hash = "{text_hash(OLD_TASK)}"  # reviewed by Ann
text = "Jot down ${{topic}}."

[sections.style]
template = {{ hash = '{text_hash(OLD_STYLE)}', text = "Be terse." }}
"""

TASK_STALE = """\
{file}:6:13: sections.task.template is stale: its base text has changed
  pinned:   {old} (the base text it was written for is not kept)
  base now: {new}
    | Write short notes about ${{topic}}.
    | Use bullets.
  override (kept):
    | Jot down ${{topic}}.
"""
STYLE_STALE = """\
{file}:9:22: sections.style.template is stale: its base text has changed
  pinned:   {old} (the base text it was written for is not kept)
  base now: {new}
    | Be very brief.
  override (kept):
    | Be terse.
"""


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``<tmp>/prompts/notes.wink.yaml``, its base texts changed since tag ``short`` was seeded."""
    (tmp_path / "prompts").mkdir()
    (tmp_path / ".git").mkdir()
    (tmp_path / FILE).write_text(
        PROMPT.replace(OLD_TASK, '"Write short notes about ${topic}.\\nUse bullets."').replace(
            OLD_STYLE, NEW_STYLE
        )
    )
    (tmp_path / "overrides/prompts/notes").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def written(suffix: str, text: str) -> Path:
    path = Path(f"{OVERRIDE}.{suffix}")
    path.write_text(text)
    return path


def listing(suffix: str) -> str:
    """What ``repin`` prints for the two stale templates of the file in ``suffix``."""
    file = f"{OVERRIDE}.{suffix}"
    task = TASK_STALE.format(file=file, old=text_hash(OLD_TASK), new=text_hash(NEW_TASK))
    style = STYLE_STALE.format(file=file, old=text_hash(OLD_STYLE), new=text_hash(NEW_STYLE))
    if suffix == "toml":
        task = task.replace(":6:13:", ":5:8:")
        style = style.replace(":9:22:", ":9:21:")
    return (
        task
        + style
        + "2 entries stale. After review, write the new hashes (the texts stay as they are): "
        f"wink-decl overrides repin {FILE} --tag short --all, or --entry ENTRY for each.\n"
    )


def repinned(text: str, *olds_news: tuple[str, str]) -> str:
    for old, new in olds_news:
        text = text.replace(text_hash(old), text_hash(new))
    return text


@pytest.mark.parametrize(
    ("suffix", "text"), [("yaml", YAML_FILE), ("toml", TOML_FILE)], ids=["yaml", "toml"]
)
def test_repin_lists_the_stale_entries_then_re_pins_them_all_keeping_texts_and_layout(
    cli: Run, here: Path, suffix: str, text: str
) -> None:
    path = written(suffix, text)
    assert cli("overrides", "repin", FILE, "--tag", "short") == (1, listing(suffix), "")
    assert path.read_text() == text  # listing changes nothing
    assert cli("overrides", "repin", FILE, "--tag", "short", "--all") == (
        0,
        f"Re-pinned 2 entries of {path}: sections.task.template, sections.style.template\n",
        "",
    )
    assert path.read_text() == repinned(text, (OLD_TASK, NEW_TASK), (OLD_STYLE, NEW_STYLE))
    assert cli("overrides", "repin", FILE, "--tag", "short") == (
        0,
        f"No stale entries in {path}.\n",
        "",
    )
    assert cli("overrides", "repin", FILE, "--tag", "short", "--all") == (
        0,
        f"No stale entries in {path}; nothing was written.\n",
        "",
    )
    assert cli("render", FILE, "--param", "topic=tea", "--tag", "short") == (
        0,
        "## 1. Task (task)\n\nJot down tea.\n\n## 2. Style (style)\n\nBe terse.\n\ntools: (none)\n",
        "",
    )


def test_repin_by_entry_re_pins_only_the_entries_named(cli: Run, here: Path) -> None:
    path = written("yaml", YAML_FILE)
    one = ("overrides", "repin", FILE, "--tag", "short", "--entry", "sections.style.template")
    assert cli(*one) == (0, f"Re-pinned 1 entry of {path}: sections.style.template\n", "")
    assert path.read_text() == repinned(YAML_FILE, (OLD_STYLE, NEW_STYLE))
    file = f"{OVERRIDE}.yaml"
    assert cli("overrides", "repin", FILE, "--tag", "short") == (
        1,
        TASK_STALE.format(file=file, old=text_hash(OLD_TASK), new=text_hash(NEW_TASK))
        + "1 entry stale. After review, write the new hash (the texts stay as they are): "
        f"wink-decl overrides repin {FILE} --tag short --all, or --entry ENTRY for each.\n",
        "",
    )


def test_the_stale_warning_names_repin(cli: Run, here: Path) -> None:
    written("yaml", YAML_FILE.replace(text_hash(OLD_TASK), text_hash(NEW_TASK)))
    Path(FILE).write_text(
        Path(FILE).read_text().replace("summary: Brief.", "summary: Short.").replace("very ", "")
    )
    assert cli("render", FILE, "--param", "topic=tea", "--tag", "short") == (
        0,
        "## 1. Task (task)\n\nJot down tea.\n\n## 2. Style (style)\n\nBe terse.\n\ntools: (none)\n",
        f"{OVERRIDE}.yaml:11:13: warning: The override of sections.style.summary was written "
        "for another text: the base text has changed since, so the base text is used.\n"
        f"  expected: hash: {text_hash('Short.')}\n"
        f"  11 |       hash: '{text_hash('Brief.')}'\n"
        f"     |             {'^' * 73}\n"
        "  hint: compare the override with the new base text, then re-pin it: wink-decl "
        "overrides repin FILE --tag TAG shows each stale entry's base text and, with --all or "
        "--entry, writes the new hashes and keeps your texts\n",
    )
    short = ("overrides", "repin", FILE, "--tag", "short", "--all")
    assert cli(*short) == (0, f"Re-pinned 1 entry of {OVERRIDE}.yaml: sections.style.summary\n", "")


def test_an_empty_text_is_shown_as_empty(cli: Run, here: Path) -> None:
    written("yaml", YAML_FILE.replace("text: Be terse.", "text: ''"))
    assert cli("overrides", "repin", FILE, "--tag", "short")[1].count("    (empty)\n") == 1


def test_bad_entries_are_usage_errors_and_change_nothing(cli: Run, here: Path) -> None:
    path = written("yaml", YAML_FILE)
    repin = ("overrides", "repin", FILE, "--tag", "short")
    assert cli(*repin, "--entry", "sections.task.template", "--entry", "sections.tsk.template") == (
        2,
        "",
        f"wink-decl: error: {path} has no entry 'sections.tsk.template'; nothing was written\n"
        "  hint: did you mean 'sections.task.template'?\n"
        "  run 'wink-decl overrides repin --help' for its options\n",
    )
    assert cli(*repin, "--entry", "tools.x.description") == (
        2,
        "",
        f"wink-decl: error: {path} has no entry 'tools.x.description'; nothing was written\n"
        "  hint: the stale entries are sections.task.template, sections.style.template\n"
        "  run 'wink-decl overrides repin --help' for its options\n",
    )
    assert cli(*repin, "--entry", "sections.style.summary") == (
        2,
        "",
        f"wink-decl: error: entry 'sections.style.summary' of {path} is not stale: its hash is "
        "the base text's; nothing was written\n"
        "  hint: the stale entries are sections.task.template, sections.style.template\n"
        "  run 'wink-decl overrides repin --help' for its options\n",
    )
    assert path.read_text() == YAML_FILE
    assert cli(*repin, "--all", "--entry", "sections.style.template")[0] == 2
    code, out, err = cli("overrides", "repin", FILE)
    assert (code, out, err) == (
        2,
        "",
        "wink-decl: error: overrides repin needs --tag TAG\n"
        "  run 'wink-decl overrides repin --help' for its options\n",
    )
    assert path.read_text() == YAML_FILE


def test_not_stale_with_nothing_stale_says_so(cli: Run, here: Path) -> None:
    fresh = repinned(YAML_FILE, (OLD_TASK, NEW_TASK), (OLD_STYLE, NEW_STYLE))
    written("yaml", fresh)
    repin = ("overrides", "repin", FILE, "--tag", "short")
    assert cli(*repin, "--entry", "sections.task.template") == (
        2,
        "",
        f"wink-decl: error: entry 'sections.task.template' of {OVERRIDE}.yaml is not stale: its "
        "hash is the base text's; nothing was written\n"
        "  hint: no entry of the file is stale\n"
        "  run 'wink-decl overrides repin --help' for its options\n",
    )


def test_a_broken_file_or_a_missing_one_is_reported_and_nothing_is_written(
    cli: Run, here: Path
) -> None:
    broken = YAML_FILE.replace("text: Terse.", "text: [Terse.")
    path = written("yaml", broken)
    code, out, err = cli("overrides", "repin", FILE, "--tag", "short", "--all")
    assert (code, out) == (1, "")
    assert err.startswith(f"{path}:")
    assert ": error: " in err
    assert path.read_text() == broken
    assert cli("overrides", "repin", FILE, "--tag", "long") == (
        1,
        "",
        f"{FILE}: error: Prompt 'prompts/notes' has no override file for tag 'long', so it is "
        "used as written.\n"
        "  expected: one of its tags: short\n"
        f"  hint: check the tag, or write its file: wink-decl overrides seed {FILE} --tag long\n",
    )
    Path(FILE).write_text("key: [")
    assert cli("overrides", "repin", FILE, "--tag", "short")[0] == 1


def test_a_hash_written_with_an_escape_is_not_rewritten(cli: Run, here: Path) -> None:
    pinned = text_hash(OLD_TASK)
    escaped = YAML_FILE.replace(
        f"hash: {pinned}", f'hash: "sha256:\\x{ord(pinned[7]):02x}{pinned[8:]}"'
    )
    path = written("yaml", escaped)
    code, out, err = cli("overrides", "repin", FILE, "--tag", "short", "--all")
    assert (code, out) == (1, "")
    assert err.startswith(
        f"{path}:6:13: error: The hash of sections.task.template is not written as plain text, "
        "so it cannot be re-pinned in place; nothing was written.\n"
        f"  expected: hash: {text_hash(NEW_TASK)}\n"
    )
    assert err.endswith(
        "  hint: write the hash on one line, without escapes, and run the command again\n"
    )
    assert path.read_text() == escaped


def test_a_link_inside_the_folder_stays_a_link_and_one_out_of_it_is_refused(
    cli: Run, here: Path
) -> None:
    target = Path("overrides/shared.yaml")
    target.write_text(YAML_FILE)
    link = Path(f"{OVERRIDE}.yaml")
    link.symlink_to(os.path.relpath(target, link.parent))
    assert cli("overrides", "repin", FILE, "--tag", "short", "--all")[0] == 0
    assert link.is_symlink()
    assert target.read_text() == repinned(YAML_FILE, (OLD_TASK, NEW_TASK), (OLD_STYLE, NEW_STYLE))
    outside = Path("outside.yaml")
    outside.write_text(YAML_FILE)
    link.unlink()
    link.symlink_to(os.path.relpath(outside, link.parent))
    code, out, _ = cli("overrides", "repin", FILE, "--tag", "short", "--all")
    assert (code, out) == (1, "")
    assert outside.read_text() == YAML_FILE


def test_a_failed_write_is_reported(cli: Run, here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = written("yaml", YAML_FILE)

    def refuse(target: object, text: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(_overrides_repin, "write_atomically", refuse)
    assert cli("overrides", "repin", FILE, "--tag", "short", "--all") == (
        1,
        "",
        f"{path}: error: This file cannot be written: permission denied.\n"
        "  hint: check that you may write to the folder, and that it is a folder\n",
    )
    assert path.read_text() == YAML_FILE


def test_an_entry_without_a_hash_span_is_shown_by_file_and_not_rewritten() -> None:
    entry = Entry(("sections", "task", "template"), text_hash(OLD_TASK), "Jot.", None, None, None)
    stale = StaleEntry(entry, "New.", text_hash("New."))
    file = OverrideFile("short.wink-override.yaml", "sections: {}\n", (entry,))
    assert _overrides_repin._shown(file.path, stale).splitlines()[0] == (  # pyright: ignore[reportPrivateUsage]
        "short.wink-override.yaml: sections.task.template is stale: its base text has changed"
    )
    text, problems = repinned_text(file, [stale])
    assert (text, [(p.span, p.code) for p in problems]) == (None, [(None, "override-invalid")])


def test_unknown_entries_are_not_stale_and_are_left_alone(cli: Run, here: Path) -> None:
    text = YAML_FILE + f"  nope:\n    template: {{hash: '{text_hash('x')}', text: y}}\n"
    path = written("yaml", text)
    assert cli("overrides", "repin", FILE, "--tag", "short") == (
        1,
        listing("yaml"),
        "",
    )
    assert cli("overrides", "repin", FILE, "--tag", "short", "--all")[0] == 0
    assert path.read_text() == repinned(text, (OLD_TASK, NEW_TASK), (OLD_STYLE, NEW_STYLE))
