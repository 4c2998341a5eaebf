"""A process that compiles new declarations for ever keeps its memory flat (docs/runtime.md)."""

from __future__ import annotations

import dataclasses
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from concurrency import GIB, MIB, run_python, run_threads

from wink_decl.prompt import _parse, _typeinfo, serde, tool_schema
from wink_decl.prompt._typeinfo import TYPE_CACHE_LIMIT

REPOSITORY = Path(__file__).resolve().parents[2]

_ROUNDS = textwrap.dedent(
    """
    import gc, json, resource, sys, weakref
    from wink_decl.compiler import compile_loaded, make_params
    from wink_decl.loader import load_text
    from wink_decl.prompt.serde import dumps
    from wink_decl.prompt.tool_schema import params_json_schema

    WARM_UP, ROUNDS = int(sys.argv[1]), int(sys.argv[2])
    TYPES = (  # each type, its default as written, and as rendered
        ("string", '"x"', "x"), ("integer", "1", "1"), ("number", "1.5", "1.5"),
        ("boolean", "true", "True"),
    )
    KIB = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes there, KiB elsewhere

    def declaration(n):
        kind, default, _ = TYPES[n % 4]
        return (
            f"key: p{n}\\n"
            f"params:\\n  v{n}: {{type: {kind}, default: {default}}}\\n"
            f"sections:\\n  - {{key: s, title: S, template: 'value ${{v{n}}}'}}\\n"
        )

    def compile_and_render(n):
        # A new params class each round, through every cache keyed by a class: the params
        # parse, the tool schema and the dump. Its sections carry it (no class is made for them).
        loaded = load_text(declaration(n), path="p.wink.yaml", format="yaml")
        prompt = compile_loaded(loaded.file, file_path="p.wink.yaml", root=".").prompt
        params = make_params(prompt, {})
        text = prompt.template.render(*params).text
        assert text == f"## 1. S (s)\\n\\nvalue {TYPES[n % 4][2]}", text
        params_json_schema(prompt.params_type)
        dumps(params[0])
        return prompt

    def peak():
        gc.collect()
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * KIB

    first = compile_and_render(0)
    made = (weakref.ref(first.params_type), weakref.ref(first.template.sections[0]))
    del first
    for n in range(1, WARM_UP):
        compile_and_render(n)
    warm = peak()
    for n in range(WARM_UP, ROUNDS):
        compile_and_render(n)
    print(json.dumps({"grown": peak() - warm, "first alive": [m() is not None for m in made]}))
    """
)


def test_compiling_100000_distinct_declarations_keeps_memory_flat() -> None:
    """Before, each round kept its classes in caches keyed by class: ~4.4 KB a round, 350 MB
    over these 80,000 rounds. The child's address space is capped, so such a leak fails."""
    done = run_python(_ROUNDS, args=["20000", "100000"], cwd=REPOSITORY, timeout=300, memory=GIB)
    assert done.returncode == 0, done.stderr
    measured = json.loads(done.stdout)
    assert measured["first alive"] == [False, False]  # the first round's class and section freed
    assert measured["grown"] < 8 * MIB, measured


@pytest.mark.parametrize(
    "cache",
    [
        _typeinfo._dataclass_info,  # pyright: ignore[reportPrivateUsage]
        _parse._plan,  # pyright: ignore[reportPrivateUsage]
        tool_schema._cached_schema,  # pyright: ignore[reportPrivateUsage]
        serde._field_names,  # pyright: ignore[reportPrivateUsage]
    ],
    ids=["dataclass info", "parse plan", "tool schema", "dump field names"],
)
def test_each_cache_keyed_by_a_class_keeps_the_most_recent_classes_only(cache: Any) -> None:
    assert cache.cache_info().maxsize == TYPE_CACHE_LIMIT


def test_the_oldest_dumper_is_forgotten_when_the_dumpers_are_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(serde, "_DUMPERS", {})
    monkeypatch.setattr(serde, "TYPE_CACHE_LIMIT", 2)
    first, second, third = (
        dataclasses.make_dataclass(name, [("n", int)]) for name in ("First", "Second", "Third")
    )
    assert serde.dumps(first(1)) == '{"n": 1}'
    assert serde.dumps(second(2)) == '{"n": 2}'
    assert serde.dumps(first(3)) == '{"n": 3}'  # a hit adds nothing
    assert serde.dumps(third(4)) == '{"n": 4}'
    assert list(serde._DUMPERS) == [second, third]  # pyright: ignore[reportPrivateUsage]


def test_threads_dumping_many_types_while_dumpers_are_forgotten_get_every_value_right(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(serde, "_DUMPERS", {})
    monkeypatch.setattr(serde, "TYPE_CACHE_LIMIT", 3)
    kinds = [dataclasses.make_dataclass(f"Kind{n}", [("n", int)]) for n in range(8)]

    def body(thread: int) -> list[str]:
        return [serde.dumps(kinds[(thread + n) % 8](n)) for n in range(200)]

    assert run_threads(body, threads=16) == [[f'{{"n": {n}}}' for n in range(200)]] * 16
    assert len(serde._DUMPERS) == 3  # pyright: ignore[reportPrivateUsage]
