"""``wink-decl validate`` runs no plugin code, even from a checkout written to make it.

A pull request can ship a package named like an installed plugin's module: under
``python -m wink_decl`` the working folder came first on ``sys.path``, so importing the
plugin ran the checkout's code. Each case runs the real command in a fresh interpreter
(``run_python``: time and memory capped) in such a checkout, with the real ``wink-decl-files``
plugin installed, and asks the interpreter which of the plugin's modules it imported.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest
from concurrency import MIB, run_python

from wink_decl import _checking, _launch
from wink_decl._launch import main_module

Run = Callable[..., tuple[int, str, str]]

CLI = """
import os, sys
command = [sys.executable, "-X", "importtime", "-m", "wink_decl", *sys.argv[1:]]
os.execv(sys.executable, command)  # the limits on this process hold for the command too
"""
"""``python -m wink_decl ARGV`` exactly as people type it, telling every module it imports."""

SHADOW = 'import pathlib\npathlib.Path("shadow-ran").write_text("checkout code ran")\n'

PROMPT = """\
key: review
sections:
  - key: task
    title: Task
    template: Read the file.
    tools: [open]
tools:
  open:
    description: Read one file of the workspace.
    handler: files.read_file
"""
"""A tool without ``params:``: they come from its handler, which validate once imported."""

NOTHING = "plugin modules: []\n"
REAL_PLUGIN = "plugin modules: ['wink_decl_files.handlers']\n"
"""-X importtime names the modules imported by name (a package imported as a parent is not)."""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A folder with a prompt file and a ``wink_decl_files`` package that leaves a mark."""
    package = tmp_path / "wink_decl_files"
    package.mkdir()
    (package / "__init__.py").write_text(SHADOW)
    (package / "handlers.py").write_text(SHADOW)
    (tmp_path / "review.wink.yaml").write_text(PROMPT)
    return tmp_path


def wink(checkout: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """The command's exit status, output and errors, its imports of the plugin at the end."""
    done = run_python(CLI, args=argv, cwd=checkout, timeout=60, memory=1024 * MIB)
    lines = done.stderr.splitlines(keepends=True)
    imported = [line.rsplit("|", 1)[1].strip() for line in lines if line.startswith(_TIMED)]
    plugin = [name for name in imported if name.startswith("wink_decl_files")]
    errors = "".join(line for line in lines if not line.startswith(_TIMED))
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout, f"{errors}plugin modules: {plugin}\n"
    )


_TIMED = "import time:"


def test_the_checkout_would_shadow_the_plugin_on_a_path_that_starts_with_it(
    checkout: Path,
) -> None:
    done = run_python("import wink_decl_files", cwd=checkout, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert (checkout / "shadow-ran").read_text() == "checkout code ran"


@pytest.mark.parametrize("output", ["text", "json"])
def test_validate_imports_no_plugin_module(checkout: Path, output: str) -> None:
    done = wink(checkout, "validate", "review.wink.yaml", "--format", output)
    summary = "1 file checked: 1 valid, 0 invalid\n" if output == "text" else ""
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "[]\n" if output == "json" else "",
        summary + NOTHING,
    )
    assert not (checkout / "shadow-ran").exists()


def test_validate_in_worker_processes_imports_no_plugin_module(checkout: Path) -> None:
    for i in range(3):  # each a prompt of its own: one address twice is a warning
        (checkout / f"copy{i}.wink.yaml").write_text(PROMPT.replace("key: review", f"key: c{i}", 1))
    done = wink(checkout, "validate", ".", "--jobs", "2")
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "",
        "4 files checked: 4 valid, 0 invalid\n" + NOTHING,
    )
    assert not (checkout / "shadow-ran").exists()


def test_import_plugins_imports_the_installed_plugin_not_the_checkouts(checkout: Path) -> None:
    done = wink(checkout, "validate", "review.wink.yaml", "--import-plugins")
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "",
        "1 file checked: 1 valid, 0 invalid\n" + REAL_PLUGIN,
    )
    assert not (checkout / "shadow-ran").exists()


def test_render_imports_the_installed_plugin_not_the_checkouts(checkout: Path) -> None:
    done = wink(checkout, "render", "review.wink.yaml")
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "## 1. Task (task)\n\nRead the file.\n\ntools:\n  open  Read one file of the workspace.\n",
        REAL_PLUGIN,
    )
    assert not (checkout / "shadow-ran").exists()


SPAWNING_CLI = """
import sys
del sys.path[0]  # as python -m wink_decl leaves it; only -c can choose how workers start
import multiprocessing, runpy
multiprocessing.set_start_method("spawn")  # as on macOS and Windows
runpy.run_module("wink_decl", run_name="__main__", alter_sys=True)
"""


def test_workers_started_fresh_do_not_import_the_checkouts_standard_modules(
    checkout: Path,
) -> None:
    # A spawned worker is ``python -c``: it imports runpy (through multiprocessing) before it
    # takes the command's sys.path, from the working folder unless PYTHONSAFEPATH is set.
    (checkout / "runpy.py").write_text(SHADOW)
    for i in range(3):  # each a prompt of its own: one address twice is a warning
        (checkout / f"copy{i}.wink.yaml").write_text(PROMPT.replace("key: review", f"key: c{i}", 1))
    done = run_python(
        SPAWNING_CLI,
        args=["validate", ".", "--jobs", "2", "--import-plugins"],
        cwd=checkout,
        timeout=120,
        memory=2048 * MIB,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "",
        "4 files checked: 4 valid, 0 invalid\n",
    )
    assert not (checkout / "shadow-ran").exists()


def test_python_m_imports_none_of_the_checkouts_modules(checkout: Path) -> None:
    # typing is imported by the package itself, long before any plugin.
    (checkout / "typing.py").write_text(SHADOW)
    done = wink(checkout, "validate", "review.wink.yaml")
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "",
        "1 file checked: 1 valid, 0 invalid\n" + NOTHING,
    )
    assert not (checkout / "shadow-ran").exists()


@pytest.mark.parametrize(
    ("argv", "module"),
    [
        (["python", "-m", "wink_decl", "validate"], "wink_decl"),
        (["python", "-mwink_decl.cli"], "wink_decl.cli"),
        (["python", "-Im", "wink_decl"], "wink_decl"),
        (["python", "-X", "importtime", "-W", "error", "-X", "dev", "-m", "app"], "app"),
        (["python", "-Xfrozen_modules=off", "-m", "wink_decl"], "wink_decl"),
        (["python", "-m"], ""),
        (["python", "script.py", "-m", "wink_decl"], ""),
        (["python", "-c", "code", "-m", "wink_decl"], ""),
        (["python", "--check-hash-based-pycs", "always", "-m", "app"], "app"),
        (["python", "--version"], ""),
        (["python", "-"], ""),
        (["python"], ""),
    ],
)
def test_the_module_python_was_told_to_run(argv: list[str], module: str) -> None:
    assert main_module(argv) == module


@pytest.mark.parametrize(
    ("argv", "path", "safe_path", "left"),
    [
        (["-m"], ["{cwd}", "/lib"], False, ["/lib"]),
        (["-m"], ["/lib", "{cwd}"], False, ["/lib", "{cwd}"]),  # not first: someone chose it
        (["-m"], ["{cwd}", "/lib"], True, ["{cwd}", "/lib"]),  # -P: what is first was wanted
        (["-m"], [], False, []),
        (["-c"], ["{cwd}", "/lib"], False, ["{cwd}", "/lib"]),  # found already: not ours to do
    ],
    ids=["python-m", "not-first", "safe-path", "empty-path", "not-starting"],
)
def test_the_working_folder_leaves_the_path_only_while_python_m_starts_us(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    argv: list[str],
    path: list[str],
    safe_path: bool,
    left: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "wink_decl", "validate"])
    monkeypatch.setattr(sys, "path", [p.format(cwd=tmp_path) for p in path])
    monkeypatch.setattr(sys, "flags", SimpleNamespace(safe_path=safe_path))
    _launch.leave_working_folder()
    assert sys.path == [p.format(cwd=tmp_path) for p in left]


def test_another_python_m_app_keeps_the_working_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["-m"])
    monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "app"])
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    _launch.leave_working_folder()
    assert sys.path == [str(tmp_path)]


def test_a_working_folder_that_is_gone_is_not_looked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    def gone() -> str:
        raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setattr(sys, "argv", ["-m"])
    monkeypatch.setattr(sys, "orig_argv", ["python", "-m", "wink_decl.cli"])
    monkeypatch.setattr(sys, "path", ["/gone"])
    monkeypatch.setattr(os, "getcwd", gone)
    _launch.leave_working_folder()
    assert sys.path == ["/gone"]


@pytest.mark.parametrize("before", [None, "0"], ids=["unset", "set"])
def test_workers_start_with_pythonsafepath_and_the_environment_is_put_back(
    monkeypatch: pytest.MonkeyPatch, before: str | None
) -> None:
    if before is None:
        monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
    else:
        monkeypatch.setenv("PYTHONSAFEPATH", before)
    with _checking._workers_without_the_working_folder():  # pyright: ignore[reportPrivateUsage]
        assert os.environ["PYTHONSAFEPATH"] == "1"
    assert os.environ.get("PYTHONSAFEPATH") == before


CASE = Path(__file__).resolve().parents[1] / "cases" / "invalid" / "file-tool-params-from-handlers"


@pytest.mark.parametrize("cache", [False, True], ids=["compiled", "with-cache-dir"])
def test_import_plugins_reports_what_binding_finds_in_this_process(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache: bool
) -> None:
    shutil.copy(CASE / "prompt.wink.yaml", tmp_path / "prompt.wink.yaml")
    monkeypatch.chdir(tmp_path)
    more = ["--cache-dir", str(tmp_path / "cache")] if cache else []
    assert cli("validate", "prompt.wink.yaml", *more) == (
        0,
        "",
        "1 file checked: 1 valid, 0 invalid\n",
    )
    expected = (CASE / "expected.txt").read_text()
    code, out, err = cli("validate", "prompt.wink.yaml", "--import-plugins", *more)
    summary = "1 file checked: 0 valid, 1 invalid (3 errors, 0 warnings)\n"
    assert (code, out, err) == (1, "", expected + summary)


def test_render_reports_what_binding_finds(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(CASE / "prompt.wink.yaml", tmp_path / "prompt.wink.yaml")
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("render", "prompt.wink.yaml")
    assert (code, out, err) == (1, "", (CASE / "expected.txt").read_text())


def test_import_plugins_on_a_file_that_does_not_compile_reports_as_validate_does(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bad.wink.yaml").write_text("key: bad\nsections: []\ncolour: red\n")
    monkeypatch.chdir(tmp_path)
    plain = cli("validate", "bad.wink.yaml")
    assert plain[0] == 1
    assert cli("validate", "bad.wink.yaml", "--import-plugins") == plain
