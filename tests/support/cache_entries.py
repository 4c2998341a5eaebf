"""Reading and forging disk cache entries, as an attacker with the folder (and maybe a key)."""

from __future__ import annotations

import hmac
import json
from pathlib import Path
from typing import Any

import pytest

from wink_decl.compiler import registry as registry_module
from wink_decl.compiler._cache_key import cache_secret
from wink_decl.compiler._disk_cache import CACHE_FORMAT

__all__ = [
    "CompileCounter",
    "body_of",
    "entries",
    "header_of",
    "sign",
    "signed",
    "the_key",
    "verifies",
]


def entries(cache: Path) -> list[Path]:
    """The entry files in ``cache``, sorted (the tag and ignore files are not entries)."""
    return sorted(cache.glob("*.json"))


def header_of(entry: Path) -> str:
    """The entry's first line: the format and the mac."""
    return entry.read_bytes().partition(b"\n")[0].decode()


def body_of(entry: Path) -> Any:
    """The entry's JSON body, as stored."""
    return json.loads(entry.read_bytes().partition(b"\n")[2])


def the_key(cache: Path) -> bytes:
    """The secret this process signs entries in ``cache`` with (a test may know it)."""
    secret = cache_secret(cache)
    assert secret is not None
    return secret


def signed(secret: bytes, name: str, body: bytes) -> bytes:
    """An entry for key ``name`` holding ``body``, signed with ``secret``."""
    message = f"{CACHE_FORMAT}\0{name}\0".encode() + body
    mac = hmac.digest(secret, message, "sha256").hex()
    return f"{CACHE_FORMAT} {mac}\n".encode() + body


def sign(entry: Path, body: Any, secret: bytes | None = None) -> None:
    """Replace ``entry`` with ``body`` (JSON data, or raw bytes) signed with ``secret``.

    Without ``secret``, with this process's key: what someone who stole it could write.
    """
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    key = secret if secret is not None else the_key(entry.parent)
    entry.write_bytes(signed(key, entry.name.removesuffix(".json"), raw))


def verifies(entry: Path) -> bool:
    """True when ``entry`` is a regular file signed with this process's key."""
    if entry.is_symlink() or not entry.is_file():
        return False
    data = entry.read_bytes()
    name = entry.name.removesuffix(".json")
    return data == signed(the_key(entry.parent), name, data.partition(b"\n")[2])


class CompileCounter:
    """Counts real compilations, so a test can tell a cache hit from work done again."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []
        real = registry_module.compile_file

        def counting(path: Any, **options: Any) -> Any:
            self.calls.append(str(path))
            return real(path, **options)

        monkeypatch.setattr(registry_module, "compile_file", counting)
