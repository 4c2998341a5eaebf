"""Paths, bundled prompts and the broken prompt copies that every editor-tool test shares."""

from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "schema" / "wink-decl.schema.json"
PROMPTS = REPO / "prompts"
BUNDLED_YAML = sorted(PROMPTS.rglob("*.wink.yaml"))
BUNDLED_TOML = sorted(PROMPTS.rglob("*.wink.toml"))
TIMEOUT = 30.0
"""Seconds any one tool may take; they take well under one, but CI machines stall."""

_YAML_SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=.*$", re.MULTILINE)
_TOML_SCHEMA_LINE = re.compile(r"^#:schema .*$", re.MULTILINE)


def replace_once(text: str, old: str, new: str) -> str:
    """``text`` with its single occurrence of ``old`` replaced; anything else is a test bug."""
    count = text.count(old)
    assert count == 1, f"{old!r} occurs {count} times, expected once"
    return text.replace(old, new)


def point_schema_at(text: str, reference: str) -> str:
    """Rewrite a prompt's schema line (YAML or TOML form) to name ``reference`` instead."""
    if _YAML_SCHEMA_LINE.search(text):
        return _YAML_SCHEMA_LINE.sub(f"# yaml-language-server: $schema={reference}", text, 1)
    assert _TOML_SCHEMA_LINE.search(text), "the prompt has no schema line"
    return _TOML_SCHEMA_LINE.sub(f"#:schema {reference}", text, 1)


def without_schema_line(text: str) -> str:
    """A prompt's text with its schema line removed (its other lines keep their numbers)."""
    return _YAML_SCHEMA_LINE.sub("# (schema associated by the editor's settings)", text, 1)


@dataclass(frozen=True)
class Mistake:
    """One mistake made in a copy of a bundled prompt: what is replaced, and by what."""

    id: str
    source: Path
    old: str
    new: str

    def text(self, schema_reference: str) -> str:
        """The broken prompt, its schema line pointing at ``schema_reference``."""
        broken = replace_once(self.source.read_text(encoding="utf-8"), self.old, self.new)
        return point_schema_at(broken, schema_reference)

    def write(self, folder: Path, schema_reference: str) -> Path:
        """Write the broken copy into ``folder`` under a name made from the mistake's id."""
        path = folder / f"{self.id}{''.join(self.source.suffixes)}"
        path.write_text(self.text(schema_reference), encoding="utf-8")
        return path


_REVIEW = PROMPTS / "agents" / "code-review.wink.yaml"
_PIPELINE = PROMPTS / "release" / "pipeline.wink.toml"

YAML_MISTAKES = {
    mistake.id: mistake
    for mistake in (
        Mistake(
            "misspelled-key",
            _REVIEW,
            "    template: Read the files",
            "    tempalte: Read the files",
        ),
        Mistake(
            "bad-visibility",
            _REVIEW,
            "visibility: summary\n    summary: The house",
            "visibility: ful\n    summary: The house",
        ),
        Mistake("wrong-type", _REVIEW, "title: Workspace", "title: 3"),
        Mistake(
            "bad-param-type",
            _REVIEW,
            "type: string\n    description: The diff",
            "type: strnig\n    description: The diff",
        ),
        Mistake("missing-required", _REVIEW, "    title: Workspace\n", ""),
        Mistake(
            "summary-missing",
            _REVIEW,
            "    summary: The house style for ${language} covers naming, layout and error "
            "handling.\n",
            "",
        ),
    )
}
"""Broken copies of ``agents/code-review.wink.yaml``, one mistake each."""

TOML_MISTAKES = {
    mistake.id: mistake
    for mistake in (
        Mistake("misspelled-key", _PIPELINE, 'template = "Release', 'tempalte = "Release'),
        Mistake("bad-visibility", _PIPELINE, 'visibility = "summary"', 'visibility = "ful"'),
        Mistake("wrong-type", _PIPELINE, 'title = "Goal"', "title = 3"),
        Mistake(
            "bad-param-type",
            _PIPELINE,
            'type = "string"\ndefault = "app"',
            'type = "str"\ndefault = "app"',
        ),
        Mistake("missing-required", _PIPELINE, 'title = "Goal"\n', ""),
    )
}
"""Broken copies of ``release/pipeline.wink.toml``, one mistake each."""


def tool(name: str) -> str:
    """The dev extra's command ``name``: beside this Python first, so an unactivated venv works."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    assert found is not None, f"{name} is not installed: pip install -e '.[dev]'"
    return found


def quiet_env(tmp_path: Path) -> dict[str, str]:
    """The environment with colour off and the user's tool config and caches out of the way."""
    return {
        **os.environ,
        "NO_COLOR": "1",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
