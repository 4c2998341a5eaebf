"""Fixtures of the evaluation tests: a small prompt file, and a model that answers by rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from wink_decl.compiler import CompiledPrompt, compile_file

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


@pytest.fixture
def greet(tmp_path: Path) -> CompiledPrompt:
    """The compiled ``greet`` prompt: one required param, one summarized section."""
    (tmp_path / "greet.wink.yaml").write_text(GREET)
    result = compile_file(tmp_path / "greet.wink.yaml", root=tmp_path)
    assert result.prompt is not None
    return result.prompt
