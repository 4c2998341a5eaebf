"""Random tool-call sequences leave the session exactly as a simple model predicts."""

from __future__ import annotations

import json
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from wink_decl import (
    InMemoryFilesystem,
    MarkdownSection,
    Prompt,
    PromptTemplate,
    SequentialDependencyPolicy,
    Session,
    Tool,
    ToolContext,
    ToolExecutor,
    ToolInvoked,
    ToolResult,
)
from wink_decl.runtime.provider import ProviderToolCall


@dataclass(frozen=True)
class Add:
    by: int


@dataclass(frozen=True)
class Total:
    value: int


def reduce_add(items: tuple[Total, ...], event: Add) -> tuple[Total, ...]:
    return (Total((items[-1].value if items else 0) + event.by),)


@dataclass(frozen=True)
class Args:
    amount: int


@dataclass(frozen=True)
class Seen:
    total: int


@dataclass(frozen=True)
class Note:
    """No reducer listens for it: it lands in a log slice, which a failed call rolls back too."""

    amount: int


def handler_for(behaviour: str) -> object:
    def handler(params: Args, *, context: ToolContext) -> ToolResult[Seen]:
        context.session.dispatch(Add(params.amount))
        context.session.dispatch(Note(params.amount))
        assert context.filesystem is not None
        context.filesystem.write_text(f"{behaviour}.txt", str(params.amount))
        if behaviour == "fail":
            return ToolResult.error("failed on purpose")
        if behaviour == "raise":
            raise RuntimeError("raised on purpose")
        total = context.session.latest(Total)
        return ToolResult.ok(Seen(0 if total is None else total.value))

    return handler


BEHAVIOURS = {"ok": "ok", "fail": "fail", "raise": "raise", "gated": "ok"}


def build() -> tuple[Session, InMemoryFilesystem, ToolExecutor]:
    tools = [
        Tool[Args, Seen](name=name, description=f"{name} tool.", handler=handler_for(kind))  # pyright: ignore[reportArgumentType]
        for name, kind in BEHAVIOURS.items()
    ]
    template = PromptTemplate(
        ns="tests",
        key="model",
        sections=[MarkdownSection(title="Tools", key="tools", tools=tools)],
        policies=[SequentialDependencyPolicy(dependencies={"gated": {"ok"}})],
    )
    session = Session()
    session.register_reducer(Add, reduce_add, slice_type=Total)
    filesystem = InMemoryFilesystem()
    prompt = Prompt(template, resources=[filesystem])
    executor = ToolExecutor(prompt=prompt, rendered=prompt.render(session=session), session=session)
    return session, filesystem, executor


CALLS = st.lists(
    st.tuples(st.sampled_from([*BEHAVIOURS, "missing"]), st.integers(min_value=-5, max_value=5)),
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(CALLS)
def test_random_calls_match_the_model(calls: list[tuple[str, int]]) -> None:
    session, filesystem, executor = build()
    total, files, ok_done = 0, {}, False
    notes: list[Note] = []
    expected_log: list[tuple[str, bool]] = []
    for index, (name, amount) in enumerate(calls):
        outcome = executor.execute(
            ProviderToolCall(f"c{index}", name, json.dumps({"amount": amount}))
        )
        allowed = name in {"ok", "gated"} and (name == "ok" or ok_done)
        if allowed:
            total += amount
            notes.append(Note(amount))
            files[f"{BEHAVIOURS[name]}.txt"] = str(amount)
            ok_done = ok_done or name == "ok"
        expected_log.append((name, allowed))
        assert outcome.success is allowed
    latest = session.latest(Total)
    assert (0 if latest is None else latest.value) == total
    assert session.query(Note) == tuple(notes)
    assert {path: filesystem.read_text(path) for path in filesystem.list_dir()} == files
    assert [(e.tool_name, e.result.success) for e in session.query(ToolInvoked)] == expected_log
    assert [e.call_id for e in session.query(ToolInvoked)] == [f"c{i}" for i in range(len(calls))]
