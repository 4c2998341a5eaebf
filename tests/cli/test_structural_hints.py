"""Mistakes in the shape of a file, reproduced with ``wink-decl validate``: each message names
the real cause and its fix, in YAML and in TOML (the loader's own cases are in tests/loader)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]

ONE_INVALID = "1 file checked: 0 valid, 1 invalid (1 error, 0 warnings)\n"
TWO_ERRORS = "1 file checked: 0 valid, 1 invalid (2 errors, 0 warnings)\n"

CASES = [
    pytest.param(
        "p.wink.toml",
        'key = "p"\n\n[sections]\nkey = "task"\ntitle = "Task"\n',
        "p.wink.toml:3:1: error: 'sections' must be a list; found a mapping with keys 'key', "
        "'title'\n"
        "   3 | [sections]\n"
        "     | ^^^^^^^^^^\n"
        "  hint: write [[sections]] with two brackets above each item: [sections] makes one "
        "table, [[sections]] adds an item to the list\n" + ONE_INVALID,
        id="toml-single-brackets",
    ),
    pytest.param(
        "p.wink.yaml",
        "key: p\nsections:\n  key: task\n  title: Task\n",
        "p.wink.yaml:3:3: error: 'sections' must be a list; found a mapping with keys 'key', "
        "'title'\n"
        "   3 |   key: task\n"
        "     |   ^^^^^^^^^\n"
        "  hint: write sections: as a list: each item on its own line after '- ', or "
        "[item, ...]\n" + ONE_INVALID,
        id="yaml-items-without-dashes",
    ),
    pytest.param(
        "p.wink.yaml",
        "params:\n  lang: {type: string}\n  key: p\nsections:\n  - {key: task, title: Task}\n",
        "p.wink.yaml:1:1: error: Prompt is missing 'key'.\n"
        "   1 | params:\n"
        "     | ^^^^^^^\n"
        "  hint: 'key' on line 3 is indented under params:, so it is read as one of them; move "
        "it to the start of its line\n"
        "p.wink.yaml:3:8: error: 'key' must be a mapping (key: value pairs); found 'p'\n"
        "   3 |   key: p\n"
        "     |        ^\n"
        "  hint: if this is the prompt's own key, write it at the start of a line, without "
        "indentation; indented, it is read as a key of params:\n" + TWO_ERRORS,
        id="yaml-key-indented-under-params",
    ),
    pytest.param(
        "p.wink.yaml",
        "tools:\n  key: p\nsections:\n  - {key: task, title: Task}\n",
        "p.wink.yaml:1:1: error: Prompt is missing 'key'.\n"
        "   1 | tools:\n"
        "     | ^^^^^^\n"
        "  hint: 'key' on line 2 is indented under tools:, so it is read as one of them; move "
        "it to the start of its line\n"
        "p.wink.yaml:2:8: error: 'key' must be a mapping (key: value pairs); found 'p'\n"
        "   2 |   key: p\n"
        "     |        ^\n"
        "  hint: if this is the prompt's own key, write it at the start of a line, without "
        "indentation; indented, it is read as a key of tools:\n" + TWO_ERRORS,
        id="yaml-key-indented-under-tools",
    ),
    pytest.param(
        "p.wink.yaml",
        "sections:\n  - {key: task, title: Task}\n",
        "p.wink.yaml:1:1: error: Prompt is missing 'key'.\n"
        "   1 | sections:\n"
        "     | ^^^^^^^^^\n"
        "  hint: add 'key', for example 'code-review'\n" + ONE_INVALID,
        id="yaml-key-missing",
    ),
    pytest.param(
        "p.wink.toml",
        '[[sections]]\ntitle = "Task"\nkey = "p"\n',
        "p.wink.toml:1:1: error: Prompt is missing 'key'.\n"
        "   1 | [[sections]]\n"
        "     | ^^^^^^^^^^^^\n"
        "  hint: add 'key' above the first [header]: a key = ... line below a header belongs "
        "to that table, not to the file\n" + ONE_INVALID,
        id="toml-key-below-a-header",
    ),
]


@pytest.mark.parametrize(("name", "text", "expected"), CASES)
def test_a_structural_mistake_names_its_cause(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, expected: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(text)
    assert cli("validate", name) == (1, "", expected)
