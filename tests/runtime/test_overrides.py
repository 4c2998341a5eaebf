"""Override inputs are checked and normalised like section keys."""

from __future__ import annotations

import pytest

from wink_decl import MarkdownSection, PromptTemplate, SectionVisibility, SetVisibilityOverride

TEMPLATE = PromptTemplate(
    ns="tests",
    key="overrides",
    sections=[
        MarkdownSection(
            title="Context",
            key="context",
            template="Full.",
            summary="Short.",
            visibility=SectionVisibility.SUMMARY,
        )
    ],
)


@pytest.mark.parametrize(
    "path", [("Context",), ("CONTEXT",), "Context"], ids=["tuple", "upper", "dotted"]
)
def test_override_keys_are_lowercased(path: tuple[str, ...] | str) -> None:
    rendered = TEMPLATE.render(visibility_overrides={path: SectionVisibility.FULL})  # pyright: ignore[reportArgumentType]
    assert rendered.text == "## 1. Context (context)\n\nFull."


def test_set_visibility_override_refuses_anything_but_a_visibility() -> None:
    with pytest.raises(TypeError) as info:
        SetVisibilityOverride(("context",), "summary")  # pyright: ignore[reportArgumentType]
    assert str(info.value) == (
        "SetVisibilityOverride.visibility must be a SectionVisibility, got 'summary'"
    )
