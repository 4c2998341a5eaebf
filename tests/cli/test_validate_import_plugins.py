"""``wink-decl validate --import-plugins`` in this process: plugins imported and checked.

The tests in ``test_plugin_code_on_validate.py`` run it as a fresh ``python -m``; these run
the same checks in-process, with and without a cache folder, and in worker processes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]

BROKEN = """\
key: broken
sections:
  - key: hello
    title: Hello
    template: Hello, ${nme}!
"""

MISFIT = """\
key: misfit
sections:
  - key: work
    title: Work
    template: Read the file.
    tools: [open]
tools:
  open:
    description: Read one file of the workspace.
    handler: files.read_file
    params:
      wrong: {type: string}
"""
"""Valid for metadata; its params are not those of the installed handler it names."""

GOOD = "key: good\nsections:\n  - {key: a, title: A, template: Fine.}\n"

REPORT = """\
broken.wink.yaml:5:22: error: Placeholder '${nme}' is not a declared param.
  expected: a declared param (none are declared)
   5 |     template: Hello, ${nme}!
     |                      ^^^^^^
  hint: declare 'nme' under params:
misfit.wink.yaml:10:14: error: Tool 'open' cannot use handler 'files.read_file': Field 'wrong' \
is declared in the prompt file but ReadFileParams has no such field. Field 'path' is required \
by ReadFileParams but the prompt file does not declare it.
  10 |     handler: files.read_file
     |              ^^^^^^^^^^^^^^^
  hint: check that the plugin's version matches this prompt, or name another entry point
3 files checked: 1 valid, 2 invalid (2 errors, 0 warnings)
"""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in {"broken": BROKEN, "misfit": MISFIT, "good": GOOD}.items():
        (tmp_path / f"{name}.wink.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_plugins_are_imported_and_checked(cli: Run, folder: Path) -> None:
    assert cli("validate", ".", "--import-plugins") == (1, "", REPORT)


def test_with_a_cache_folder_every_file_is_still_compiled_and_bound(cli: Run, folder: Path) -> None:
    argv = ("validate", ".", "--import-plugins", "--cache-dir", str(folder / "cache"))
    assert cli(*argv) == (1, "", REPORT)
    assert cli(*argv) == (1, "", REPORT)  # the second run reads the cache, and binds again


def test_workers_leave_a_safe_path_setting_as_it_was(
    cli: Run, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONSAFEPATH", "yes")
    assert cli("validate", ".", "--import-plugins", "--jobs", "2") == (1, "", REPORT)
    assert os.environ["PYTHONSAFEPATH"] == "yes"
