"""A predicate that raises during a render is reported against its plugin, exit status 1.

In this process, with a catalog of synthetic entry points; tests/plugins/test_failing_plugins.py
does the same with a package installed by pip.
"""

from __future__ import annotations

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
    "or upgrade it, or name another predicate\n"
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
