"""The key that signs disk cache entries: where it lives, when there is none, what that costs."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from cache_entries import CompileCounter, body_of, entries, header_of, verifies
from compiler_support import make_catalog, prompt, write
from concurrency import run_threads

from wink_decl.compiler import PromptRegistry
from wink_decl.compiler._cache_key import KEY_VARIABLE, MIN_KEY_CHARS, cache_secret, key_file

LONG_KEY = "k" * MIN_KEY_CHARS


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> CompileCounter:
    return CompileCounter(monkeypatch)


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A state folder of this test's own, so the key file is made here."""
    folder = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder


def check(cache: Path, name: str = "review.wink.yaml") -> bool:
    return PromptRegistry(".", catalog=make_catalog(), cache_dir=cache).check(name).ok


def test_the_key_file_is_made_once_private_and_kept(state: Path, tmp_path: Path) -> None:
    secret = cache_secret(tmp_path / "cache")
    path = state / "wink-decl" / "cache-key"
    assert secret is not None
    assert len(secret) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert path.read_text(encoding="ascii") == secret.hex() + "\n"
    assert cache_secret(tmp_path / "other") == secret
    assert sorted(p.name for p in path.parent.iterdir()) == ["cache-key"]  # no temporary


def test_threads_making_the_key_at_once_agree_on_one(state: Path, tmp_path: Path) -> None:
    secrets = run_threads(lambda _: cache_secret(tmp_path / "cache"), threads=16)
    assert len(set(secrets)) == 1
    assert secrets[0] is not None
    assert sorted(p.name for p in (state / "wink-decl").iterdir()) == ["cache-key"]


def test_the_key_file_lives_in_the_state_folder_never_the_cache_one(tmp_path: Path) -> None:
    home = Path.home()
    assert key_file({}, "posix") == home / ".local" / "state" / "wink-decl" / "cache-key"
    assert key_file({"XDG_STATE_HOME": "relative"}, "posix") == key_file({}, "posix")
    assert key_file({"XDG_STATE_HOME": str(tmp_path)}, "posix") == (
        tmp_path / "wink-decl" / "cache-key"
    )
    assert key_file({}, "nt") == home / "AppData" / "Local" / "wink-decl" / "cache-key"
    assert key_file({"LOCALAPPDATA": str(tmp_path)}, "nt") == (tmp_path / "wink-decl" / "cache-key")


def test_without_a_home_there_is_no_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def nowhere() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", nowhere)
    assert key_file({}, "posix") is None
    assert cache_secret(tmp_path / "cache", {}) is None


def test_the_variable_is_the_key_when_it_is_long_enough(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert cache_secret(cache, {KEY_VARIABLE: LONG_KEY}) == LONG_KEY.encode()
    assert cache_secret(cache, {KEY_VARIABLE: LONG_KEY[1:]}) is None
    # Empty is what CI gives a pull request from a fork for a secret: the key file then.
    from_file = cache_secret(cache, {KEY_VARIABLE: "", "XDG_STATE_HOME": str(tmp_path / "s")})
    assert from_file == bytes.fromhex((tmp_path / "s" / "wink-decl" / "cache-key").read_text())


def _bad_mode(path: Path) -> None:
    path.chmod(0o644)


def _not_hex(path: Path) -> None:
    path.write_text("x" * 64 + "\n", encoding="ascii")


def _short(path: Path) -> None:
    path.write_text("ab\n", encoding="ascii")


def _not_ascii(path: Path) -> None:
    path.write_bytes(b"\xff" * 64)


def _too_large(path: Path) -> None:
    path.write_text("0" * 1000, encoding="ascii")


def _a_link(path: Path) -> None:
    real = path.with_name("elsewhere")
    path.rename(real)
    path.symlink_to(real)


def _a_folder(path: Path) -> None:
    path.unlink()
    path.mkdir()


def _a_fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


@pytest.mark.parametrize(
    "spoil",
    [_bad_mode, _not_hex, _short, _not_ascii, _too_large, _a_link, _a_folder, _a_fifo],
    ids=[
        "readable-by-others",
        "not-hex",
        "short",
        "not-ascii",
        "too-large",
        "link",
        "folder",
        "fifo",
    ],
)
def test_a_key_file_that_is_not_a_private_key_is_no_key(
    state: Path, tmp_path: Path, spoil: object
) -> None:
    cache_secret(tmp_path / "cache")
    path = state / "wink-decl" / "cache-key"
    assert callable(spoil)
    spoil(path)
    assert cache_secret(tmp_path / "cache") is None


def test_a_state_folder_that_cannot_be_written_is_no_key(state: Path, tmp_path: Path) -> None:
    state.write_text("a file where the state folder should be", encoding="utf-8")
    assert cache_secret(tmp_path / "cache") is None


def test_a_key_file_inside_the_cache_folder_is_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whoever writes the cache folder must not write the key too."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "cache" / "state"))
    assert cache_secret(tmp_path / "cache") is None
    assert cache_secret(tmp_path / "other") is not None

    def loop(self: Path, strict: bool = False) -> Path:  # as Python 3.11 and 3.12 do
        raise RuntimeError(f"Symlink loop from '{self}'")

    monkeypatch.setattr(Path, "resolve", loop)
    assert cache_secret(tmp_path / "other") is None  # cannot tell where it is: not trusted


# -- what the registry does with the key, or without one ------------------------------------


def test_without_a_usable_key_the_cache_is_not_used(
    here: Path, tmp_path: Path, counter: CompileCounter, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(here, "review.wink.yaml", prompt("review"))
    cache = tmp_path / "cache"
    assert check(cache)
    (entry,) = entries(cache)
    monkeypatch.setenv(KEY_VARIABLE, "too short")
    assert check(cache)
    assert check(cache)
    assert counter.calls == ["review.wink.yaml"] * 3
    monkeypatch.delenv(KEY_VARIABLE)
    assert verifies(entry)  # neither read nor written
    assert check(cache)
    assert counter.calls == ["review.wink.yaml"] * 3


def test_a_folder_restored_without_its_key_is_all_misses_then_re_signed(
    here: Path, tmp_path: Path, counter: CompileCounter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CI run with the secret fills the folder; a run without it (a fork's pull request)
    checks every file again and signs the entries with its own key, which the next run
    with the secret does not trust either."""
    write(here, "review.wink.yaml", prompt("review"))
    cache = tmp_path / "cache"
    monkeypatch.setenv(KEY_VARIABLE, LONG_KEY)
    assert check(cache)
    (entry,) = entries(cache)
    signed_by_secret = header_of(entry)
    monkeypatch.setenv(KEY_VARIABLE, "")
    assert check(cache)
    assert check(cache)
    assert counter.calls == ["review.wink.yaml"] * 2
    assert header_of(entry) != signed_by_secret
    assert body_of(entry)["sources"] == {"review.wink.yaml": prompt("review")}
    monkeypatch.setenv(KEY_VARIABLE, LONG_KEY)
    assert check(cache)
    assert counter.calls == ["review.wink.yaml"] * 3
    assert header_of(entry) == signed_by_secret
