"""A plugin that raises is reported against its plugin, exit status 1; ``-v`` adds its traceback.

In this process, with a catalog of synthetic entry points; tests/plugins/test_failing_plugins.py
does the same with a package installed by pip.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import compiler_plugins
import pytest
from plugin_support import MemoryDistribution

from wink_decl.compiler import compile as compile_module
from wink_decl.plugins import PREDICATES, PluginCatalog

Run = Callable[..., tuple[int, str, str]]

PROMPT = """\
key: flaky
sections:
  - {key: main, title: Main, template: Hello., enabled: {predicate: flaky.raises}}
"""

HEAD = (
    "flaky.wink.yaml:3:69: error: Predicate 'flaky.raises' (entry point in "
    "wink_decl.predicates, from flaky-plugins 2.0, value 'compiler_plugins:raising') raised "
)
TAIL = (
    "\n"
    "  expected: a function (params, *, session) that returns true or false without raising\n"
    "   3 |   - {key: main, title: Main, template: Hello., enabled: {predicate: flaky.raises}}\n"
    "     |                                                                     ^^^^^^^^^^^^\n"
    "  hint: the fault is in the plugin's distribution (flaky-plugins), not in this file: fix "
    "or upgrade it, or name another predicate; run again with -v to see the plugin's "
    "traceback\n"
)


def catalog() -> PluginCatalog:
    points = {PREDICATES: {"flaky.raises": "compiler_plugins:raising"}}
    return PluginCatalog(distributions=[MemoryDistribution("flaky-plugins", "2.0", points)])


@pytest.mark.parametrize(
    ("error", "shown"),
    [
        (KeyError("weather"), "KeyError: 'weather'."),
        (RuntimeError("It broke.\nDetails follow."), "RuntimeError: It broke."),
        (LookupError(), "LookupError."),
    ],
)
def test_a_raising_predicate_is_the_plugins_fault(
    cli: Run,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    error: Exception,
    shown: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(compile_module, "default_catalog", catalog)
    (tmp_path / "flaky.wink.yaml").write_text(PROMPT)
    compiler_plugins.failures[:] = [error]
    assert cli("render", "flaky.wink.yaml") == (1, "", HEAD + shown + TAIL)


def test_a_raising_predicate_stops_a_run_before_the_model_is_asked(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(compile_module, "default_catalog", catalog)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    (tmp_path / "flaky.wink.yaml").write_text(PROMPT)
    compiler_plugins.failures[:] = [KeyError("weather")]
    url = "http://127.0.0.1:9/v1"  # never reached: the first render fails
    assert cli("run", "flaky.wink.yaml", "--model", "openai:gpt-test", "--base-url", url) == (
        1,
        "",
        HEAD + "KeyError: 'weather'." + TAIL,
    )


def test_a_raising_predicate_is_the_plugins_fault_in_an_overrides_diff(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(compile_module, "default_catalog", catalog)
    (tmp_path / "flaky.wink.yaml").write_text(PROMPT)
    compiler_plugins.failures[:] = [KeyError("weather")]
    # Reported once, at the render without the tag: the tagged render is not tried. The tag
    # has no file here, which is told first (the prompt's ns is its folder's name).
    no_file = (
        f"flaky.wink.yaml: warning: Prompt '{tmp_path.name}/flaky' has no override file for tag "
        "'short', so it is used as written.\n"
        "  expected: one of its tags: it has none\n"
        "  hint: check the tag, or write its file: wink-decl overrides seed flaky.wink.yaml "
        "--tag short\n"
    )
    assert cli("overrides", "diff", "flaky.wink.yaml", "--tag", "short") == (
        1,
        "",
        no_file + HEAD + "KeyError: 'weather'." + TAIL,
    )


RAISING_LINE = next(
    number
    for number, line in enumerate(Path(compiler_plugins.__file__).read_text().splitlines(), 1)
    if line.strip() == "raise failures.pop(0)"
)
RAISING_TRACEBACK = (
    "Traceback (most recent call last):\n"
    f'  File "{compiler_plugins.__file__}", line {RAISING_LINE}, in raising\n'
    "    raise failures.pop(0)\n"
)


def test_with_v_a_raising_predicate_is_followed_by_its_traceback(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(compile_module, "default_catalog", catalog)
    (tmp_path / "flaky.wink.yaml").write_text(PROMPT)
    compiler_plugins.failures[:] = [KeyError("weather")]
    hint = TAIL.removesuffix("; run again with -v to see the plugin's traceback\n") + "\n"
    assert cli("-v", "render", "flaky.wink.yaml") == (
        1,
        "",
        HEAD + "KeyError: 'weather'." + hint + RAISING_TRACEBACK + "KeyError: 'weather'\n",
    )


def test_what_a_plugin_raises_is_redacted_with_and_without_v(
    cli: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(compile_module, "default_catalog", catalog)
    monkeypatch.setenv("WEATHER_API_KEY", "wk-secret-0123456789")
    (tmp_path / "flaky.wink.yaml").write_text(PROMPT)
    said = "RuntimeError: refused key wk-secret-0123456789"
    shown = "RuntimeError: refused key [redacted]"
    compiler_plugins.failures[:] = [RuntimeError(said.removeprefix("RuntimeError: "))]
    assert cli("render", "flaky.wink.yaml") == (1, "", HEAD + shown + "." + TAIL)
    compiler_plugins.failures[:] = [RuntimeError(said.removeprefix("RuntimeError: "))]
    status, out, err = cli("-v", "render", "flaky.wink.yaml")
    assert (status, out) == (1, "")
    assert err.endswith(RAISING_TRACEBACK + shown + "\n")
    assert "wk-secret" not in err


BROKEN_PROMPT = """\
key: broken
sections:
  - {key: main, title: Main, template: Hello., enabled: {predicate: broken.ready}}
"""

BROKEN_MODULE = """\
import broken_settings


def ready(params, *, session):
    return True
"""

SETTINGS_MODULE = """\
CONFIG = {"units": "metric"}

if "region" not in CONFIG:
    raise KeyError("region")
"""


@pytest.fixture
def broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A predicate whose module fails as it is imported, deep in reading its settings.

    The cwd is a folder holding ``broken.wink.yaml`` and ``again.wink.yaml`` naming it; the
    modules are in ``<tmp>/site``, on ``sys.path``. Returns that folder.
    """
    site = tmp_path / "site"
    site.mkdir()
    (site / "broken_mod.py").write_text(BROKEN_MODULE)
    (site / "broken_settings.py").write_text(SETTINGS_MODULE)
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    points = {PREDICATES: {"broken.ready": "broken_mod:ready"}}
    distribution = MemoryDistribution("broken-plugins", "1.0", points)
    monkeypatch.setattr(
        compile_module, "default_catalog", lambda: PluginCatalog(distributions=[distribution])
    )
    folder = tmp_path / "prompts"
    folder.mkdir()
    (folder / "broken.wink.yaml").write_text(BROKEN_PROMPT)
    (folder / "again.wink.yaml").write_text(BROKEN_PROMPT.replace("key: broken", "key: again"))
    monkeypatch.chdir(folder)
    return site


def broken_report(file: str, hint_end: str) -> str:
    return (
        f"{file}:3:69: error: Could not import predicate 'broken.ready' (broken-plugins 1.0, "
        "value 'broken_mod:ready'): KeyError: 'region'\n"
        "   3 |   - {key: main, title: Main, template: Hello., enabled: {predicate: "
        "broken.ready}}\n"
        "     |                                                                     "
        "^^^^^^^^^^^^\n"
        "  hint: check that the plugin's version matches this prompt, or name another entry "
        f"point{hint_end}\n"
    )


def broken_traceback(site: Path) -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "{site / "broken_mod.py"}", line 1, in <module>\n'
        "    import broken_settings\n"
        f'  File "{site / "broken_settings.py"}", line 4, in <module>\n'
        '    raise KeyError("region")\n'
        "KeyError: 'region'\n"
    )


def test_a_plugin_that_fails_deep_in_its_import_names_the_exception_and_v(
    cli: Run, broken: Path
) -> None:
    assert cli("compile", "broken.wink.yaml") == (
        1,
        "",
        broken_report("broken.wink.yaml", "; run again with -v to see the plugin's traceback"),
    )


def test_with_v_a_plugin_that_fails_deep_in_its_import_shows_the_traceback(
    cli: Run, broken: Path
) -> None:
    assert cli("compile", "-v", "broken.wink.yaml") == (
        1,
        "",
        broken_report("broken.wink.yaml", "") + broken_traceback(broken),
    )


@pytest.mark.parametrize("jobs", ["1", "2"], ids=["in-process", "worker-processes"])
def test_validate_json_with_v_keeps_stdout_json_and_writes_tracebacks_on_stderr(
    cli: Run, broken: Path, jobs: str
) -> None:
    status, out, err = cli(
        "-v", "validate", "--import-plugins", "--format", "json", "-j", jobs, "."
    )
    assert status == 1
    assert [(d["file"], d["message"], d["hint"]) for d in json.loads(out)] == [
        (
            file,
            "Could not import predicate 'broken.ready' (broken-plugins 1.0, value "
            "'broken_mod:ready'): KeyError: 'region'",
            "check that the plugin's version matches this prompt, or name another entry point",
        )
        for file in ("again.wink.yaml", "broken.wink.yaml")
    ]
    assert err == "".join(
        broken_report(file, "") + broken_traceback(broken)
        for file in ("again.wink.yaml", "broken.wink.yaml")
    )


def test_validate_json_without_v_is_unchanged(cli: Run, broken: Path) -> None:
    status, out, err = cli("validate", "--import-plugins", "--format", "json", "broken.wink.yaml")
    assert (status, err) == (1, "")
    assert "traceback" not in out
    assert json.loads(out)[0]["hint"] == (
        "check that the plugin's version matches this prompt, or name another entry point"
    )
