"""A suite's prompt as written and under each tag, compiled from its files in each process.

A compiled prompt cannot be sent to another process (it holds classes made as it compiled,
and locks): what is sent is what it is made of, the paths, tags and limits, and each process
compiles once, on first use (docs/evals.md, "Running on a Ray cluster").
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from wink_decl.diagnostics import DiagnosticError
from wink_decl.errors import PromptEvaluationError
from wink_decl.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from wink_decl.compiler import CompiledPrompt

__all__ = ["TaggedPrompts"]


class TaggedPrompts(Mapping["str | None", "CompiledPrompt"]):
    """The prompt file ``path`` (under ``root``) by tag: None as written, else tag overridden.

    The tags' override files are in the folder ``overrides`` (default: the root's). Compiled
    on first use, plugins bound, and kept. Pickled, it is the paths, tags and limits, and the
    digest of the files as this process compiled them: a process that finds other files
    there refuses to run them (every case says so) rather than run another prompt under the
    same name. Relative paths are taken from each process's working directory.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        root: str | os.PathLike[str],
        overrides: str | os.PathLike[str] | None = None,
        tags: tuple[str, ...] = (),
        limits: Limits = DEFAULT_LIMITS,
        digest: str | None = None,
    ) -> None:
        """The prompt at ``path`` as written and under each of ``tags``.

        ``digest``: the ``content_hash`` its files must have (None: any).
        """
        self.path = os.fspath(path)
        self.root = os.fspath(root)
        self.overrides = None if overrides is None else os.fspath(overrides)
        self.tags = tags
        self.limits = limits
        self._digest = digest
        self._compiled: dict[str | None, CompiledPrompt] | None = None
        self._lock = threading.Lock()

    def __reduce__(self) -> tuple[Any, ...]:
        """What the prompt is made of, and the digest of its files (compiled here first)."""
        digest = self._prompts()[None].content_hash
        made_of = (self.path, self.root, self.overrides, self.tags, self.limits, digest)
        return (_tagged_prompts, made_of)

    def __getitem__(self, tag: str | None) -> CompiledPrompt:
        """The prompt under ``tag`` (None: as written), compiled on first use.

        Raises:
            KeyError: ``tag`` is not one of the tags.
            DiagnosticError: the file does not compile, a plugin does not bind, or a tag's
                overrides cannot be applied.
            PromptEvaluationError: the files differ from those the digest was taken of.
        """
        return self._prompts()[tag]

    def __iter__(self) -> Iterator[str | None]:
        """None, then each tag; nothing is compiled."""
        return iter((None, *self.tags))

    def __len__(self) -> int:
        """One more than the tags."""
        return 1 + len(self.tags)

    def _prompts(self) -> dict[str | None, CompiledPrompt]:
        with self._lock:  # the threads of one worker compile once between them
            if self._compiled is None:
                self._compiled = self._compile()
            return self._compiled

    def _compile(self) -> dict[str | None, CompiledPrompt]:
        # Imported on first use: sending the prompts needs none of it.
        from wink_decl.compiler import bind_plugins, compile_file  # noqa: PLC0415
        from wink_decl.overrides import (  # noqa: PLC0415
            LocalOverrideStore,
            apply_tag,
            default_overrides_root,
        )

        result = compile_file(self.path, root=self.root, limits=self.limits)
        prompt = result.prompt
        if prompt is None:
            raise DiagnosticError(result.diagnostics, sources=result.sources)
        if self._digest is not None and prompt.content_hash != self._digest:
            raise PromptEvaluationError(
                f"The prompt files here differ from those the suite was started with "
                f"({self.path} under {self.root}): give every machine the same files "
                "(docs/evals.md, 'Running on a Ray cluster')."
            )
        bound = bind_plugins(prompt)
        if any(d.severity == "error" for d in bound):  # warnings were shown by the checks
            raise DiagnosticError(bound, sources=result.sources)
        prompts: dict[str | None, CompiledPrompt] = {None: prompt}
        folder = self.overrides or default_overrides_root(self.root)
        store = LocalOverrideStore(folder, limits=self.limits)
        for tag in self.tags:
            tagged = apply_tag(prompt.template, store, tag, source=prompt.source)
            if not tagged.ok:
                raise DiagnosticError(tagged.diagnostics, sources=tagged.sources)
            prompts[tag] = dataclasses.replace(prompt, template=tagged.template)
        return prompts


def _tagged_prompts(
    path: str,
    root: str,
    overrides: str | None,
    tags: tuple[str, ...],
    limits: Limits,
    digest: str | None,
) -> TaggedPrompts:
    """``TaggedPrompts`` made again from what ``__reduce__`` gave (not yet compiled)."""
    return TaggedPrompts(
        path, root=root, overrides=overrides, tags=tags, limits=limits, digest=digest
    )
