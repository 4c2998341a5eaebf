"""Values a compiled prompt works out on first use are one object, whichever thread asks."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from compiler_support import compile_in, compiled
from concurrency import run_threads

from wink_decl.compiler import artifact_json
from wink_decl.compiler._once import computed_once
from wink_decl.plugins import PluginCatalog

PROMPT = """\
key: review
params:
  language: {type: string}
sections:
  - key: task
    title: Task
    template: Review the ${language} change.
"""


def test_threads_reading_a_new_artifact_at_once_get_one_object(
    here: Path, catalog: PluginCatalog
) -> None:
    """On Python 3.12+ cached_property let each thread keep its own artifact object."""
    alone = compiled(compile_in(here, PROMPT, catalog=catalog))
    shared = compiled(compile_in(here, PROMPT, catalog=catalog))

    seen = run_threads(lambda _: (shared.artifact, shared.content_hash), threads=16)

    assert all(artifact is seen[0][0] for artifact, _ in seen)
    assert {content_hash for _, content_hash in seen} == {alone.content_hash}
    assert artifact_json(seen[0][0]) == artifact_json(alone.artifact)


@dataclass(frozen=True)
class Slow:
    calls: list[int]

    @computed_once
    def value(self) -> object:
        """A new object per computation."""
        self.calls.append(1)
        time.sleep(0.01)  # threads meet here
        return object()


def test_the_first_value_kept_wins_and_later_reads_skip_the_computation() -> None:
    slow = Slow([])
    values = run_threads(lambda _: slow.value, threads=8)
    assert all(value is values[0] for value in values)
    assert slow.value is values[0]
    calls = len(slow.calls)
    assert slow.value is values[0]
    assert len(slow.calls) == calls  # kept in the instance: no second look at the descriptor
    assert isinstance(Slow.value, computed_once)
    assert Slow.value.__doc__ == "A new object per computation."
