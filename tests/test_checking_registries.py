"""The registries a process keeps for ``validate --cache-dir`` are bounded, used-last kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from wink_decl import _checking
from wink_decl._checking import Job, check_chunk
from wink_decl.compiler import PromptRegistry
from wink_decl.limits import Limits

Registries = dict[tuple[str, str, Limits], PromptRegistry]

PROMPT = "ns: demo\nkey: hello\nsections:\n  - key: task\n    title: Task\n    template: Hi.\n"


@pytest.fixture
def registries(monkeypatch: pytest.MonkeyPatch) -> Registries:
    """The process's registries, empty for this test."""
    kept: Registries = {}
    monkeypatch.setattr(_checking, "_REGISTRIES", kept)
    return kept


def check_in(root: Path, cache: Path) -> bool:
    """Check the one prompt file of ``root`` with a cache folder, as ``validate`` does."""
    root.mkdir()
    (root / "hello.wink.yaml").write_text(PROMPT)
    job = Job(str(root / "hello.wink.yaml"), str(root), cache_dir=str(cache))
    (checked,) = check_chunk([job])
    return checked.ok


def test_a_process_checking_ever_new_roots_keeps_the_registries_used_last(
    tmp_path: Path, registries: Registries
) -> None:
    limit = _checking._REGISTRY_LIMIT  # pyright: ignore[reportPrivateUsage]
    cache = tmp_path / "cache"
    roots = [tmp_path / f"root{number}" for number in range(limit + 2)]
    assert all(check_in(root, cache) for root in roots[:limit])
    assert len(registries) == limit
    # using the first again keeps it: the second is now the one used longest ago
    (checked,) = check_chunk([Job(str(roots[0] / "hello.wink.yaml"), str(roots[0]), str(cache))])
    assert checked.ok
    assert all(check_in(root, cache) for root in roots[limit:])
    assert len(registries) == limit
    kept_roots = [root for root, _, _ in registries]
    assert kept_roots == [str(root) for root in (*roots[3:limit], roots[0], *roots[limit:])]
