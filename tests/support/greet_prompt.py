"""The ``greet`` prompt of the evaluation tests, and its tag ``loud`` that asks for a shout."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["GREET", "TASK", "loud_override", "write_greet"]

GREET = """\
key: greet
params:
  name:
    type: string
sections:
  - key: task
    title: Task
    template: Say hello to ${name}.
  - key: manners
    title: Manners
    visibility: summary
    summary: How to greet is written down.
    template: Greet warmly.
"""
"""One required param, one summarized section."""
TASK = "Say hello to ${name}."
"""The template of the ``task`` section, the one the tag ``loud`` replaces."""


def loud_override(text: str) -> str:
    """An override file that replaces the ``task`` template with ``text``, pinned to ``TASK``."""
    digest = "sha256:" + hashlib.sha256(TASK.encode()).hexdigest()
    return f"sections:\n  task:\n    template:\n      hash: {digest}\n      text: {text}\n"


def write_greet(folder: Path) -> Path:
    """``folder/prompts/greet.wink.yaml`` and, in ``folder/overrides``, its tag ``loud``.

    Returns the prompt file; ``folder/prompts`` is its root.
    """
    (folder / "prompts").mkdir()
    prompt = folder / "prompts" / "greet.wink.yaml"
    prompt.write_text(GREET)
    tags = folder / "overrides" / "prompts" / "greet"  # the root's ns is its folder's name
    tags.mkdir(parents=True)
    (tags / "loud.wink-override.yaml").write_text(loud_override(f"{TASK} Shout."))
    return prompt
