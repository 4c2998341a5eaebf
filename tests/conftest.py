"""Fixtures for every test: nothing a test runs touches the state folder of the real home."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def state_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One state folder for the run: the disk cache keeps its per-user key there."""
    return tmp_path_factory.mktemp("state-home")


@pytest.fixture(autouse=True)
def private_state(state_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``XDG_STATE_HOME`` in the run's folder, and no cache key from the environment.

    Subprocesses inherit both, so a ``wink-decl`` run by a test keys its cache there too.
    """
    monkeypatch.setenv("XDG_STATE_HOME", str(state_home))
    monkeypatch.delenv("WINK_DECL_CACHE_KEY", raising=False)


@pytest.fixture
def interruptible() -> Iterator[None]:
    """Ctrl-C raises ``KeyboardInterrupt`` here and in the processes started meanwhile.

    A test run started where Ctrl-C is ignored (a background job of a shell, ``nohup``) hands
    the ignoring on to every process it starts, and Python then never raises
    ``KeyboardInterrupt``: a test of what Ctrl-C does would see it do nothing.
    """
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)
