"""A suite's prompt by tag, prepared from its files in each process that runs its cases.

A compiled prompt cannot be sent to another process (it holds classes made as it compiled,
and locks): what is sent is what it is made of (the prompt file, its root, the overrides
folder, the tags and the limits), and each process prepares it once, on first use, as every
front end does (``wink_decl.inputs``; docs/evals.md, "Running on a Ray cluster").
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from wink_decl.diagnostics import DiagnosticError
from wink_decl.errors import PromptEvaluationError
from wink_decl.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from wink_decl.compiler import CompiledPrompt

    _MadeOf: TypeAlias = tuple[
        str, str, str, tuple[str | None, ...], Limits, Mapping[str | None, str]
    ]
    """``_tagged_prompts``'s arguments: the file, root, overrides, tags, limits, fingerprints."""

__all__ = ["TaggedPrompts"]


class TaggedPrompts(Mapping["str | None", "CompiledPrompt"]):
    """The prompt ``file`` (under ``root``) under each of ``tags`` (None: as written).

    A tag's override files are in the folder ``overrides``. Each is prepared on first use
    (compiled, every plugin bound, the tag applied) and kept. Pickled, it is its paths, tags
    and limits, and a fingerprint of each tag's prompt as this process prepared it: a
    process that finds other files there refuses to run them (every case says so) rather
    than run another prompt under the same name.
    """

    def __init__(
        self,
        file: str,
        *,
        root: str,
        overrides: str,
        tags: tuple[str | None, ...] = (None,),
        limits: Limits = DEFAULT_LIMITS,
        fingerprints: Mapping[str | None, str] | None = None,
    ) -> None:
        """The prompt at ``file`` under each of ``tags``; ``fingerprints``: what they must be."""
        self.file = file
        self.root = root
        self.overrides = overrides
        self.tags = tags
        self.limits = limits
        self._expected = fingerprints
        self._prepared: dict[str | None, CompiledPrompt] | None = None
        self._lock = threading.Lock()

    def __reduce__(self) -> tuple[Callable[..., TaggedPrompts], _MadeOf]:
        """What the prompts are made of, and their fingerprints (prepared here first)."""
        fingerprints = {tag: _fingerprint(prompt) for tag, prompt in self._prompts().items()}
        made_of = (self.file, self.root, self.overrides, self.tags, self.limits, fingerprints)
        return (_tagged_prompts, made_of)

    def __getitem__(self, tag: str | None) -> CompiledPrompt:
        """The prompt under ``tag``, prepared on first use.

        Raises:
            KeyError: ``tag`` is not one of the tags.
            DiagnosticError: the prompt (with a tag) cannot be prepared (every problem).
            PromptEvaluationError: the files differ from those the fingerprints were taken of.
        """
        return self._prompts()[tag]

    def __iter__(self) -> Iterator[str | None]:
        """Each tag; nothing is prepared."""
        return iter(self.tags)

    def __len__(self) -> int:
        """How many tags."""
        return len(self.tags)

    def digests(self) -> dict[str | None, str]:
        """What each tag's prompt (its texts, tools and params) comes to; prepares them."""
        return {tag: _digest(prompt) for tag, prompt in self._prompts().items()}

    def _prompts(self) -> dict[str | None, CompiledPrompt]:
        with self._lock:  # the threads of one worker prepare once between them
            if self._prepared is None:
                prepared = {tag: self._prepare(tag) for tag in self.tags}
                self._check(prepared)
                self._prepared = prepared
            return self._prepared

    def _prepare(self, tag: str | None) -> CompiledPrompt:
        """The prompt with ``tag`` applied, prepared as every front end prepares it."""
        from wink_decl.inputs import Location, PromptRequest, prepare  # noqa: PLC0415  # on a run

        request = PromptRequest(self.file, root=self.root, limits=self.limits, tag=tag)
        where = Location(request, Path(self.file), Path(self.root), Path(self.overrides))
        prepared = prepare(request, plugins="all", bind_params=False, location=where)
        if not prepared.ok or prepared.prompt is None:
            raise DiagnosticError(prepared.diagnostics, sources=prepared.sources)
        return prepared.prompt

    def _check(self, prepared: Mapping[str | None, CompiledPrompt]) -> None:
        expected = self._expected
        if expected is None:
            return
        if any(_fingerprint(prompt) != expected[tag] for tag, prompt in prepared.items()):
            raise PromptEvaluationError(
                f"The prompt files here differ from those the suite was started with "
                f"({self.file} under {self.root}, overrides in {self.overrides}): give every "
                "machine the same files (docs/evals.md, 'Running on a Ray cluster')."
            )


def _digest(prompt: CompiledPrompt) -> str:
    """What the prompt's texts (its tag's applied), tools and params come to."""
    from wink_decl.compiler import artifact_json  # noqa: PLC0415  # on a run

    return hashlib.sha256(artifact_json(prompt.artifact).encode()).hexdigest()


def _fingerprint(prompt: CompiledPrompt) -> str:
    """``_digest`` with every file's text but no path: the process's folder must not count.

    Included files are named relative to the folder a process works in.
    """
    from wink_decl.compiler import artifact_json  # noqa: PLC0415  # on a run

    artifact = dict(prompt.artifact)
    for named in ("source", "content_hash"):  # both name files by path
        del artifact[named]
    texts = sorted(prompt.sources.values())
    return hashlib.sha256(
        artifact_json({"artifact": artifact, "texts": texts}).encode()
    ).hexdigest()


def _tagged_prompts(
    file: str,
    root: str,
    overrides: str,
    tags: tuple[str | None, ...],
    limits: Limits,
    fingerprints: Mapping[str | None, str],
) -> TaggedPrompts:
    """``TaggedPrompts`` made again from what ``__reduce__`` gave (not yet prepared)."""
    return TaggedPrompts(
        file, root=root, overrides=overrides, tags=tags, limits=limits, fingerprints=fingerprints
    )
