"""A cache folder written by an attacker: every entry checked, at worst a miss, never a lie.

Each hostile entry kind (``hostile_entries.DAMAGES``) is read through the real registry and
through ``wink-decl validate --cache-dir`` in a subprocess under a time and memory limit: the
report is exactly what a run without a cache gives, and the entry is rewritten, signed.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from cache_entries import CompileCounter, entries, sign, verifies
from compiler_support import make_catalog
from concurrency import run_python, run_threads
from hostile_entries import DAMAGES, Damage, Scene, forged, make_prompts

from wink_decl.compiler import CachedResult, PromptRegistry
from wink_decl.diagnostics import render_text


def shown(result: CachedResult) -> tuple[bool, str, str]:
    """All a report shows, exactly: the verdict, the diagnostics quoted, the artifact."""
    return result.ok, render_text(result.diagnostics, result.sources), json.dumps(result.artifact)


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> CompileCounter:
    return CompileCounter(monkeypatch)


def check(cache: Path, name: str = "main.wink.yaml") -> tuple[bool, str, str]:
    """``check`` through a new registry, as a new process; a hang fails the test."""
    registry = PromptRegistry(".", catalog=make_catalog(), cache_dir=cache)
    return run_threads(
        lambda _: shown(registry.check(name)), threads=1, timeout=30, switch_interval=None
    )[0]


@pytest.fixture
def scene(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Scene:
    root = tmp_path / "prompts"
    make_prompts(root)
    (tmp_path / "outside").mkdir()
    monkeypatch.chdir(root)
    check(tmp_path / "donor", "valid.wink.yaml")
    check(tmp_path / "cache")
    ((entry,), (donor,)) = entries(tmp_path / "cache"), entries(tmp_path / "donor")
    return Scene(root.resolve(), entry, donor.read_bytes(), tmp_path / "outside")


@pytest.mark.parametrize("damage", list(DAMAGES.values()), ids=list(DAMAGES))
def test_a_hostile_entry_is_a_miss_and_the_file_is_checked_again(
    scene: Scene, counter: CompileCounter, damage: Damage
) -> None:
    expected = shown(PromptRegistry(".", catalog=make_catalog()).check("main.wink.yaml"))
    assert not expected[0]  # the forgeries say valid: believing one would change the report
    damage(scene)
    assert check(scene.entry.parent) == expected
    assert counter.calls == ["main.wink.yaml"] * 2
    rewritten = verifies(scene.entry)
    assert rewritten is (damage is not DAMAGES["folder"])
    assert check(scene.entry.parent) == expected
    assert len(counter.calls) == (2 if rewritten else 3)  # a rewritten entry is a hit again


def test_a_stolen_key_can_sign_a_lie_so_it_lives_outside_the_folder(scene: Scene) -> None:
    """The control: the forgeries above fail for the reasons they test, not by accident."""
    sign(scene.entry, forged([scene.tone]))
    assert check(scene.entry.parent) == (True, "", '{"forged": true}')


# -- the same through the command line ----------------------------------------------------


@pytest.fixture(scope="module")
def cli_base(tmp_path_factory: pytest.TempPathFactory, state_home: Path) -> Iterator[Path]:
    """A pristine scene made once by the CLI; each test puts it back at the same place.

    The same place, because an entry's key holds the root's absolute path.
    """
    base = tmp_path_factory.mktemp("cli")
    make_prompts(base / "prompts")
    env = {**os.environ, "XDG_STATE_HOME": str(state_home)}
    env.pop("WINK_DECL_CACHE_KEY", None)
    for cache, name in (("donor", "valid.wink.yaml"), ("cache", "main.wink.yaml")):
        status, _, err = validate(base, name, cache, env)
        assert status in (0, 1), err
    for name in ("prompts", "cache", "donor"):
        shutil.copytree(base / name, base / "pristine" / name, symlinks=True)
    yield base
    shutil.rmtree(base)


def validate(
    base: Path, name: str, cache: str | None, env: dict[str, str] | None = None
) -> tuple[int, str, str]:
    """``wink-decl validate NAME`` run from ``base/prompts``, under a time and memory limit."""
    options = [] if cache is None else ["--cache-dir", f"../{cache}"]
    done = run_python(
        "import runpy; runpy.run_module('wink_decl', run_name='__main__')",
        args=["validate", name, "--root", ".", *options],
        cwd=base / "prompts",
        env=env,
        timeout=60,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def cli_scene(cli_base: Path) -> Scene:
    for name in ("prompts", "cache", "donor", "outside"):
        shutil.rmtree(cli_base / name, ignore_errors=True)
        if (cli_base / "pristine" / name).exists():
            shutil.copytree(cli_base / "pristine" / name, cli_base / name, symlinks=True)
    (cli_base / "outside").mkdir()
    ((entry,), (donor,)) = entries(cli_base / "cache"), entries(cli_base / "donor")
    root = (cli_base / "prompts").resolve()
    return Scene(root, entry, donor.read_bytes(), cli_base / "outside")


@pytest.mark.parametrize("damage", list(DAMAGES.values()), ids=list(DAMAGES))
def test_a_hostile_entry_gives_the_report_of_a_run_without_a_cache(
    cli_base: Path, cli_scene: Scene, damage: Damage
) -> None:
    expected = validate(cli_base, "main.wink.yaml", None)
    assert expected[0] == 1
    assert "Unknown key 'tempalte'" in expected[2]
    damage(cli_scene)
    assert validate(cli_base, "main.wink.yaml", "cache") == expected
    assert verifies(cli_scene.entry) is (damage is not DAMAGES["folder"])


def test_the_command_reads_the_entry_the_forgeries_replace(
    cli_base: Path, cli_scene: Scene
) -> None:
    """The control: a lie signed with the real key is believed, so the entry is the one read."""
    sign(cli_scene.entry, forged([cli_scene.tone]))
    assert validate(cli_base, "main.wink.yaml", "cache") == (
        0,
        "",
        "1 file checked: 1 valid, 0 invalid\n",
    )
