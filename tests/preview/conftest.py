"""Prompt files the preview tests serve, written into a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest

REVIEW = """\
key: review
params:
  language:
    type: string
    description: The change's language.
  strict:
    type: boolean
    default: false
  level:
    type: string
    enum: [low, high]
    default: low
  count:
    type: integer
    default: 3
  tags:
    type: array
    items: {type: string}
    default: [a]
sections:
  - key: intro
    title: Intro
    template: Review this ${language} code.
  - key: checks
    title: Checks
    summary: How to check the plan.
    template: Read the plan first.
    tools: [read_plan]
tools:
  read_plan:
    description: Read the current plan.
    handler: planning.read_plan
"""
"""A prompt with a param of each kind, and a section with a summary and a tool."""

PLAIN = """\
key = "plain"

[[sections]]
key = "only"
title = "Only"
template = "Nothing to fill in."
"""


@pytest.fixture
def served(tmp_path: Path) -> Path:
    """``<tmp>/prompts`` holding review.wink.yaml and plain.wink.toml."""
    folder = tmp_path / "prompts"
    folder.mkdir()
    (folder / "review.wink.yaml").write_text(REVIEW)
    (folder / "plain.wink.toml").write_text(PLAIN)
    return folder
