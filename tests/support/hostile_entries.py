"""Hostile disk cache entries: every way someone who can write the folder may try to lie.

A ``Scene`` is a prompt root whose ``main.wink.yaml`` has errors (it includes a broken section
from ``common/tone.wink.yaml``) and a cache folder holding its one real entry. Each damage in
``DAMAGES`` changes that entry (or the files around it) the way an attacker would; most
forgeries claim that the file is valid, so a forged entry that were believed would change the
report. The ``signed-*`` ones use the real key, as if it had leaked: the checks after the mac
must still refuse them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cache_entries import sign

from wink_decl import __version__
from wink_decl.compiler._stamp import digest
from wink_decl.limits import DEFAULT_LIMITS

__all__ = ["DAMAGES", "MAIN", "TONE", "VALID", "Scene", "forged", "make_prompts"]

MAIN = "key: main\nsections:\n  - include: common/tone.wink.yaml#task\n"
TONE = "key: tone\nsections:\n  - key: task\n    title: Task\n    tempalte: Hi.\n"
VALID = "key: valid\nsections:\n  - key: task\n    title: Task\n    template: Hi.\n"
ZEROS = digest(b"\0" * (DEFAULT_LIMITS.max_bytes + 1))
"""What a compile reading /dev/zero as an include would digest."""


def make_prompts(root: Path) -> None:
    """The prompt files of a scene, under ``root``."""
    (root / "common").mkdir(parents=True)
    (root / "main.wink.yaml").write_text(MAIN, encoding="utf-8")
    (root / "common" / "tone.wink.yaml").write_text(TONE, encoding="utf-8")
    (root / "valid.wink.yaml").write_text(VALID, encoding="utf-8")


@dataclass(frozen=True)
class Scene:
    """Where the damage is done."""

    root: Path
    """The prompt root, resolved (as included paths are stored)."""
    entry: Path
    """The entry of ``main.wink.yaml``."""
    donor: bytes
    """A whole entry of ``valid.wink.yaml``, signed with the same key."""
    outside: Path
    """A folder beside the root."""

    @property
    def tone(self) -> list[Any]:
        """The real include, as the compile stored it."""
        path = self.root / "common" / "tone.wink.yaml"
        return [str(path), digest(path.read_bytes())]


def forged(includes: list[Any]) -> dict[str, Any]:
    """An entry body that says the file is valid."""
    return {
        "wink_decl": __version__,
        "includes": includes,
        "diagnostics": [],
        "sources": {},
        "artifact": {"forged": True},
    }


Damage = Callable[[Scene], None]


def _write(data: bytes) -> Damage:
    def write(scene: Scene) -> None:
        scene.entry.write_bytes(data)

    return write


def _truncated(scene: Scene) -> None:
    data = scene.entry.read_bytes()
    scene.entry.write_bytes(data[: len(data) // 2])


def _body_only(scene: Scene) -> None:
    scene.entry.write_bytes(scene.entry.read_bytes().partition(b"\n")[2])


def _header_only(scene: Scene) -> None:
    scene.entry.write_bytes(scene.entry.read_bytes().partition(b"\n")[0])


def _huge(scene: Scene) -> None:
    with scene.entry.open("r+b") as stream:
        stream.truncate(1 << 30)  # sparse: a gibibyte on paper, the real entry at its start


def _fifo(scene: Scene) -> None:
    scene.entry.unlink()
    os.mkfifo(scene.entry)


def _dev_zero(scene: Scene) -> None:
    scene.entry.unlink()
    scene.entry.symlink_to("/dev/zero")


def _link_to_the_real_entry(scene: Scene) -> None:
    moved = scene.outside / scene.entry.name
    scene.entry.rename(moved)
    scene.entry.symlink_to(moved)


def _folder(scene: Scene) -> None:
    scene.entry.unlink()
    scene.entry.mkdir()


def _claims_success(scene: Scene) -> None:
    header = scene.entry.read_bytes().partition(b"\n")[0]
    scene.entry.write_bytes(header + b"\n" + json.dumps(forged([scene.tone])).encode())


def _signed_with_another_key(scene: Scene) -> None:
    sign(scene.entry, forged([scene.tone]), b"the attacker's own key, long enough too")


def _copied_from_another_file(scene: Scene) -> None:
    scene.entry.write_bytes(scene.donor)


def _old_format(scene: Scene) -> None:
    # What fooled wink-decl before entries were signed.
    old = {"format": "wink-decl.cache/1", **forged([])}
    scene.entry.write_text(json.dumps(old), encoding="utf-8")


def _signed(body: bytes) -> Damage:
    return lambda scene: sign(scene.entry, body)


def _signed_includes(includes: Callable[[Scene], list[Any]]) -> Damage:
    return lambda scene: sign(scene.entry, forged(includes(scene)))


def _signed_list(includes: list[Any]) -> Damage:
    return lambda scene: sign(scene.entry, forged(includes))


def _fifo_inside(scene: Scene) -> list[Any]:
    pipe = scene.root / "common" / "pipe.wink.yaml"
    os.mkfifo(pipe)
    return [scene.tone, [str(pipe), None]]


def _outside(scene: Scene) -> list[Any]:
    text = b"key: elsewhere\n"
    (scene.outside / "x.wink.yaml").write_bytes(text)
    return [[str(scene.outside / "x.wink.yaml"), digest(text)]]


def _dot_dot(scene: Scene) -> list[Any]:
    _outside(scene)
    sneaky = f"{scene.root}{os.sep}..{os.sep}{scene.outside.name}{os.sep}x.wink.yaml"
    return [[sneaky, digest(b"key: elsewhere\n")]]


def _linked_file(scene: Scene) -> list[Any]:
    alias = scene.root / "common" / "alias.wink.yaml"
    alias.symlink_to(scene.root / "common" / "tone.wink.yaml")
    return [[str(alias), scene.tone[1]]]


def _linked_folder(scene: Scene) -> list[Any]:
    (scene.root / "linked").symlink_to(scene.root / "common")
    return [[str(scene.root / "linked" / "tone.wink.yaml"), scene.tone[1]]]


def _dev_zero_inside(scene: Scene) -> list[Any]:
    (scene.root / "zero.wink.yaml").symlink_to("/dev/zero")
    return [[str(scene.root / "zero.wink.yaml"), ZEROS]]


DAMAGES: dict[str, Damage] = {
    "not-json": _write(b"{not json"),
    "binary": _write(bytes(range(256)) * 64),
    "empty": _write(b""),
    "truncated": _truncated,
    "body-without-header": _body_only,
    "header-without-body": _header_only,
    "huge": _huge,
    "fifo": _fifo,
    "link-to-dev-zero": _dev_zero,
    "link-to-the-real-entry": _link_to_the_real_entry,
    "folder": _folder,
    "edited-to-claim-success": _claims_success,
    "signed-with-another-key": _signed_with_another_key,
    "copied-from-another-file": _copied_from_another_file,
    "old-format-claiming-success": _old_format,
    "signed-not-json": _signed(b"{not json"),
    "signed-not-utf8": _signed(b'{"\xff": 1}'),
    "signed-deeply-nested": _signed(b"[" * 100_000 + b"]" * 100_000),
    "signed-not-an-object": _signed(b"[]"),
    "signed-without-includes": _signed(json.dumps({"artifact": {}}).encode()),
    "signed-includes-not-pairs": _signed_list([["a"]]),
    "signed-include-path-not-text": _signed_list([[1, None]]),
    "signed-include-a-fifo": _signed_includes(_fifo_inside),
    "signed-include-dev-zero": _signed_list([["/dev/zero", ZEROS]]),
    "signed-include-link-to-dev-zero": _signed_includes(_dev_zero_inside),
    "signed-include-outside-the-root": _signed_includes(_outside),
    "signed-include-dot-dot": _signed_includes(_dot_dot),
    "signed-include-relative": _signed_includes(lambda s: [["common/tone.wink.yaml", s.tone[1]]]),
    "signed-include-through-a-linked-file": _signed_includes(_linked_file),
    "signed-include-through-a-linked-folder": _signed_includes(_linked_folder),
    "signed-include-a-folder-said-missing": _signed_includes(
        lambda s: [[str(s.root / "common"), None]]
    ),
    "signed-include-under-a-file": _signed_includes(
        lambda s: [[str(s.root / "main.wink.yaml" / "x.wink.yaml"), None]]
    ),
    "signed-include-with-nul": _signed_includes(lambda s: [[f"{s.root}{os.sep}a\0b", None]]),
    "signed-include-name-too-long": _signed_includes(lambda s: [[str(s.root / ("x" * 300)), None]]),
    "signed-too-many-includes": _signed_includes(
        lambda s: [s.tone] * (DEFAULT_LIMITS.max_include_files + 1)
    ),
}
