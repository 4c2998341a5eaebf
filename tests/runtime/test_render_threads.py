"""One compiled template rendered from many threads at once gives the single-threaded text.

The template's plan cache keeps 256 visibility states; the renders below walk 512, so the
cache evicts on almost every render while other threads read and add plans.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from concurrency import run_threads

from wink_decl import (
    MarkdownSection,
    Prompt,
    PromptRenderError,
    PromptTemplate,
    RenderedPrompt,
    SectionVisibility,
)
from wink_decl.compiler import CompiledPrompt, compile_file, make_params

FULL = SectionVisibility.FULL
SUMMARY = SectionVisibility.SUMMARY
SECTIONS = 9  # 2**9 = 512 visibility states, twice what the plan cache keeps
THREADS = 16
PASSES = 3  # each thread walks every state this many times

PROMPT_HEAD = """\
key: many-states
params:
  user: {type: string}
  level: {type: integer, default: 3}
tools:
  planning_read_plan:
    description: Read the current plan.
    handler: planning.read_plan
sections:
"""
SECTION = """\
  - key: part-{i}
    title: Part {i}
    template: Part {i} for ${{user}} at level ${{level}}.
    summary: Part {i} is summarized for ${{user}}.
{tools}"""


def write_prompt(folder: Path) -> Path:
    sections = "".join(
        SECTION.format(i=i, tools="    tools: [planning_read_plan]\n" if i == 0 else "")
        for i in range(SECTIONS)
    )
    path = folder / "many-states.wink.yaml"
    path.write_text(PROMPT_HEAD + sections, encoding="utf-8")
    return path


def compile_prompt(path: Path) -> CompiledPrompt:
    result = compile_file(path, root=path.parent)
    assert result.prompt is not None, result.diagnostics
    return result.prompt


def states() -> list[dict[str, SectionVisibility]]:
    """Every combination of FULL and SUMMARY over the sections, as render overrides."""
    return [
        {f"part-{i}": choice for i, choice in enumerate(choices)}
        for choices in itertools.product((FULL, SUMMARY), repeat=SECTIONS)
    ]


def shown(rendered: RenderedPrompt) -> tuple[str, tuple[str, ...]]:
    """What a model receives: the whole text and the tools' names."""
    return rendered.text, rendered.tool_names


def test_threads_rendering_many_states_see_the_single_threaded_text(tmp_path: Path) -> None:
    path = write_prompt(tmp_path)
    all_states = states()
    users = [f"user-{n}" for n in range(THREADS)]
    # Expected texts from a template of its own, so the shared one starts with an empty cache.
    alone = compile_prompt(path)
    expected = {
        (user, index): shown(
            alone.template.render(
                *make_params(alone, {"user": user}), visibility_overrides=overrides
            )
        )
        for user in users
        for index, overrides in enumerate(all_states)
    }
    assert len({text for text, _ in expected.values()}) == THREADS * len(all_states)
    shared = compile_prompt(path)

    def render_every_state(thread: int) -> dict[tuple[str, int], tuple[str, tuple[str, ...]]]:
        user = users[thread]
        prompt = Prompt(shared.template).bind(*make_params(shared, {"user": user}))
        order = list(range(len(all_states)))
        start = thread * len(order) // THREADS  # each thread walks the states from elsewhere
        seen: dict[tuple[str, int], tuple[str, tuple[str, ...]]] = {}
        for _ in range(PASSES):
            for index in order[start:] + order[:start]:
                text = shown(prompt.render(visibility_overrides=all_states[index]))
                assert seen.setdefault((user, index), text) == text
        return seen

    results = run_threads(render_every_state, threads=THREADS)

    for thread, seen in enumerate(results):
        assert seen == {key: value for key, value in expected.items() if key[0] == users[thread]}
    engine: Any = shared.template.engine
    assert len(engine._plans) == 256  # full, and never over


def test_the_exact_text_of_one_state(tmp_path: Path) -> None:
    """The state the threads compare is the real render, spelled out once."""
    prompt = compile_prompt(write_prompt(tmp_path))
    overrides = {f"part-{i}": SUMMARY for i in range(1, SECTIONS)}
    rendered = prompt.template.render(
        *make_params(prompt, {"user": "ada"}), visibility_overrides=overrides
    )
    assert rendered.text == "\n\n".join(
        [
            "## 1. Part 0 (part-0)\n\nPart 0 for ada at level 3.",
            *(
                f"## {i + 1}. Part {i} (part-{i})\n\nPart {i} is summarized for ada.\n\n---\n"
                "[This section is summarized. To view full content, call `read_section` "
                f'with key "part-{i}".]'
                for i in range(1, SECTIONS)
            ),
        ]
    )
    assert rendered.tool_names == ("planning_read_plan", "read_section")


def test_a_render_error_in_one_thread_leaves_the_others_alone(tmp_path: Path) -> None:
    """A missing param fails that render only; plans built meanwhile stay correct."""
    path = write_prompt(tmp_path)
    alone = compile_prompt(path)
    shared = compile_prompt(path)
    overrides = states()[:64]
    expected = [
        alone.template.render(*make_params(alone, {"user": "bo"}), visibility_overrides=o).text
        for o in overrides
    ]

    def render(thread: int) -> list[str]:
        texts: list[str] = []
        for state in overrides:
            if thread % 2:
                try:
                    shared.template.render(visibility_overrides=state)  # no user bound
                except PromptRenderError as error:
                    texts.append(error.message)
            else:
                bound = make_params(shared, {"user": "bo"})
                texts.append(shared.template.render(*bound, visibility_overrides=state).text)
        return texts

    missing = (
        "Missing required parameter 'user' of Params for section 'part-0': "
        "bind a Params or give the field a default."
    )
    for thread, texts in enumerate(run_threads(render, threads=8)):
        assert texts == ([missing] * len(overrides) if thread % 2 else expected)


# -- found, not fixed here (wink_decl/runtime/ is being rewritten elsewhere) -------------------


@dataclass(frozen=True)
class Mode:
    value: int


def test_a_bind_that_lands_during_a_render_is_not_half_seen() -> None:
    """The interleaving of two threads, made to happen every time: the enabled callable
    runs inside the render, and the other thread's bind lands right then."""
    prompt: Prompt[None]

    def enabled(params: Mode) -> bool:
        if params.value == 1:
            prompt.bind(Mode(2))  # another thread's bind, landing mid-render
        return params.value == 1

    template = PromptTemplate(
        ns="tests/threads",
        key="bind",
        sections=[
            MarkdownSection[Mode](
                title="Only for one", key="only-one", template="value=${value}", enabled=enabled
            )
        ],
    )
    prompt = Prompt(template).bind(Mode(1))
    # Shown because value was 1, so the text must say 1 (today it says value=2).
    assert prompt.render().text == "## 1. Only for one (only-one)\n\nvalue=1"
