"""Plugins named by a compiled prompt are imported and built once, whichever threads use them."""

# pyright: reportPrivateUsage=false

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, cast

import compiler_plugins
import pytest
from compiler_support import call, compile_in, compiled, executor
from concurrency import AnnouncingLock, run_threads

from wink_decl.compiler import CompiledPrompt, bind_plugins
from wink_decl.compiler._lazy import LazyPolicy
from wink_decl.plugins import PluginCatalog

PROMPT = """\
key: policies
sections:
  - key: task
    title: Task
    tools: [lookup]
    enabled: {predicate: test.record}
    policies:
      - plugin: {name: test.call_limit, config: {limit: 1000}}
policies:
  - plugin: {name: test.call_limit, config: {limit: 2000}}
tools:
  lookup: {description: Look up a rule., handler: test.lookup}
"""


class Factory:
    """Counts the policies the factory builds; slow, so threads meet inside it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.built: list[int] = []
        self.during: Any = None
        real = compiler_plugins.call_limit

        def factory(*, limit: int) -> compiler_plugins.CallLimit:
            self.built.append(limit)
            if self.during is not None:
                self.during()
            else:
                time.sleep(0.01)
            return real(limit=limit)

        monkeypatch.setattr(compiler_plugins, "call_limit", factory)


@pytest.fixture
def factory(monkeypatch: pytest.MonkeyPatch) -> Factory:
    return Factory(monkeypatch)


def lazy_policies(prompt: CompiledPrompt) -> list[LazyPolicy]:
    policies = list(prompt.template.policies_for("lookup"))
    assert all(isinstance(policy, LazyPolicy) for policy in policies)
    return policies  # pyright: ignore[reportReturnType]


def test_threads_calling_a_tool_first_build_each_policy_once(
    here: Path, catalog: PluginCatalog, factory: Factory
) -> None:
    """Each thread once built its own policy object: a stateful policy lost counts."""
    prompt = compiled(compile_in(here, PROMPT, catalog=catalog))

    def use(thread: int) -> tuple[bool, str, str]:
        outcome = call(executor(prompt), "lookup", rule_id=f"E{thread}")
        return outcome.success, outcome.result.message, str(outcome.message.content)

    outcomes = run_threads(use, threads=16)

    assert sorted(factory.built) == [1000, 2000]
    assert outcomes == [
        (True, "", f'{{"rule_id": "E{n}", "text": "Rule E{n}."}}') for n in range(16)
    ]
    built = (policy._policy() for policy in lazy_policies(prompt))
    section, whole = (cast("compiler_plugins.CallLimit", policy) for policy in built)
    assert (section.limit, whole.limit) == (1000, 2000)
    assert len(compiler_plugins.recorded) == 16  # the predicate, imported once, ran for all


def test_a_thread_that_waited_for_a_build_uses_what_was_built(
    here: Path, catalog: PluginCatalog, factory: Factory
) -> None:
    """Exactly the interleaving the lock is for, made to happen every time."""
    prompt = compiled(compile_in(here, PROMPT, catalog=catalog))
    policy = lazy_policies(prompt)[0]
    lock = AnnouncingLock()
    policy._lock = lock  # pyright: ignore[reportAttributeAccessIssue]

    def hold() -> None:  # hold the build until the other thread waits for the lock
        assert lock.waiting.acquire(timeout=20), "the other thread never waited for the lock"

    factory.during = hold

    problems = run_threads(lambda _: policy.resolve(), threads=2)

    assert problems == [None, None]
    assert factory.built == [1000]


def test_binding_for_a_render_builds_no_policy(
    here: Path, catalog: PluginCatalog, factory: Factory
) -> None:
    prompt = compiled(compile_in(here, PROMPT, catalog=catalog))
    assert bind_plugins(prompt, rendering_only=True) == []
    assert factory.built == []  # a render calls no tool: policies wait for the first call
    assert bind_plugins(prompt) == []
    assert sorted(factory.built) == [1000, 2000]
