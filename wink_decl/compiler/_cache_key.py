"""The secret that signs disk cache entries: ``WINK_DECL_CACHE_KEY``, else a per-user key file.

Never inside the cache folder: whoever can write that folder (a cache restored in CI from
what earlier runs saved) must not be able to sign what is in it. ``docs/security.md`` and
``wink_decl.compiler._disk_cache`` explain the design.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path

from wink_decl._atomic import write_once
from wink_decl.compiler._regular import read_regular

__all__ = ["KEY_VARIABLE", "MIN_KEY_CHARS", "cache_secret", "key_file"]

KEY_VARIABLE = "WINK_DECL_CACHE_KEY"
"""Set it (from a CI secret, say) to sign and check entries with it; empty counts as unset."""
MIN_KEY_CHARS = 32
"""A shorter key could be guessed from the entries it signed; the cache is then not used."""
_KEY_BYTES = 32
_MAX_KEY_FILE_BYTES = 256


def cache_secret(folder: Path, environ: Mapping[str, str] = os.environ) -> bytes | None:
    """The key that signs entries in ``folder``; None when there is none to trust.

    ``WINK_DECL_CACHE_KEY`` when set (None when it is shorter than ``MIN_KEY_CHARS``).
    Otherwise the user's key file, made on first use (random, 0600); None when it cannot be
    made or read, is not a private regular file of this user, or lies inside ``folder``. A
    damaged key file is never replaced here (another process may be using it): delete it, and
    the next run makes a new one.
    """
    value = environ.get(KEY_VARIABLE, "")
    if value:
        return os.fsencode(value) if len(value) >= MIN_KEY_CHARS else None
    path = key_file(environ)
    if path is None or _inside(path, folder):
        return None
    try:
        try:
            return _read_key(path)
        except FileNotFoundError:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_once(path, (secrets.token_hex(_KEY_BYTES) + "\n").encode("ascii"))
            return _read_key(path)  # ours, or the one another process made first
    except OSError:
        return None  # a home that cannot be written: no key, so no cache


def key_file(environ: Mapping[str, str] = os.environ, system: str = os.name) -> Path | None:
    """``wink-decl/cache-key`` in the user's state folder; None when there is no home.

    ``$XDG_STATE_HOME`` (when absolute) or ``~/.local/state``; on Windows ``%LOCALAPPDATA%``
    or ``~/AppData/Local``. A state folder, not a cache one: CI often saves ``~/.cache``
    whole and restores it for any branch, and the key must not travel with the entries.
    """
    if system == "nt":
        given, fallback = environ.get("LOCALAPPDATA", ""), ("AppData", "Local")
    else:
        given, fallback = environ.get("XDG_STATE_HOME", ""), (".local", "state")
    try:
        base = Path(given) if Path(given).is_absolute() else Path.home().joinpath(*fallback)
    except RuntimeError:  # no HOME and no password entry
        return None
    return base / "wink-decl" / "cache-key"


def _inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a link loop (3.11 raises RuntimeError): not trusted
        return True


def _read_key(path: Path) -> bytes | None:
    """The key in the file, when it is one and only this user can read or change it."""
    found = read_regular(str(path), _MAX_KEY_FILE_BYTES, whole=True)
    if found is None:
        return None
    data, info = found
    private = os.name == "nt" or (info.st_uid == os.getuid() and info.st_mode & 0o077 == 0)
    text = data.strip()
    if not private or len(text) != 2 * _KEY_BYTES:
        return None
    try:
        return bytes.fromhex(text.decode("ascii"))
    except ValueError:  # not hex (UnicodeDecodeError is a ValueError too)
        return None
