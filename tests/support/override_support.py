"""A small template and override files to apply to it, for the override tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from wink_decl import (
    MarkdownSection,
    PromptTemplate,
    SectionVisibility,
    Tool,
    ToolContext,
    ToolResult,
)
from wink_decl.overrides import text_hash

SUMMARY = SectionVisibility.SUMMARY


@dataclass(frozen=True)
class Topic:
    topic: str = "tests"


@dataclass(frozen=True)
class Query:
    query: str = field(metadata={"description": "What to look for."})
    limit: int = 10


def search(params: Query, *, context: ToolContext) -> ToolResult[None]:
    del context
    return ToolResult.ok(None, params.query)


def template() -> PromptTemplate[None]:
    """``tests/review``: a section with a tool, a summarized one, and two that refuse."""
    return PromptTemplate(
        ns="tests",
        key="review",
        sections=[
            MarkdownSection[Topic](
                title="Intro",
                key="intro",
                template="Review ${topic}.",
                tools=[
                    Tool[Query, None](name="search", description="Search the code.", handler=search)
                ],
            ),
            MarkdownSection(
                title="Context",
                key="context",
                template="Lots of context.",
                summary="Some context.",
                visibility=SUMMARY,
                children=[MarkdownSection(title="Deep", key="deep", template="Deeper.")],
            ),
            MarkdownSection(
                title="Fixed",
                key="fixed",
                template="Do not touch.",
                accepts_overrides=False,
                tools=[
                    Tool[Query, None](
                        name="fixed_search", description="Search, fixed.", handler=search
                    )
                ],
            ),
            MarkdownSection(
                title="Locked tool",
                key="locked",
                tools=[
                    Tool[Query, None](
                        name="locked_search",
                        description="Search, locked.",
                        handler=search,
                        accepts_overrides=False,
                    )
                ],
            ),
        ],
    )


BASE_TEXT = (
    "## 1. Intro (intro)\n\nReview tests.\n\n## 2. Context (context)\n\nSome context.\n\n---\n"
    '[This section is summarized. Call `read_section` with key "context" to view full content '
    "including subsections: deep.]\n\n## 3. Fixed (fixed)\n\nDo not touch.\n\n"
    "## 4. Locked tool (locked)"
)


def entry(base: str, text: str) -> dict[str, str]:
    """An entry replacing ``base`` by ``text``."""
    return {"hash": text_hash(base), "text": text}


def write(root: Path, text: str, *, tag: str = "exp", suffix: str = "yaml") -> Path:
    """Write ``tests/review``'s override file for ``tag`` under ``root``."""
    path = root / "tests" / "review" / f"{tag}.wink-override.{suffix}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


ZEROS = "sha256:" + "0" * 64

SHAPES = f"""sections:
  intro:
    templat: {{hash: "{ZEROS}", text: x}}
    template: just text
    summary: {{hash: "{ZEROS}"}}
    visibility: {{hash: "{ZEROS}", text: ful}}
  context: [1]
tools:
  search:
    description: {{hash: "sha256:abc", text: x}}
    params:
      query:
        description: {{hash: "{ZEROS}", text: 5}}
        kind: {{}}
  other: 3
extra: 1
"""
