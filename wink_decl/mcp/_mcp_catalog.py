"""The prompt files an MCP server offers: each file under PATH that compiles, by its address."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from wink_decl.compiler import PromptRegistry, find_prompt_files, unserved_files
from wink_decl.diagnostics import render_text

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from wink_decl.compiler import CompiledPrompt, CompileResult
    from wink_decl.limits import Limits
    from wink_decl.schema import ParamSpec

__all__ = ["Offered", "PromptCatalog"]


@dataclass(frozen=True)
class Offered:
    """One prompt on offer: its file and its compile (which the list describes)."""

    path: Path
    result: CompileResult

    @property
    def prompt(self) -> CompiledPrompt:
        """The compiled prompt (only a file that compiles is offered)."""
        prompt = self.result.prompt
        assert prompt is not None  # noqa: S101  # refresh offers only compiled files
        return prompt

    @property
    def address(self) -> str:
        """``ns/key``: the prompt's name over MCP."""
        return self.prompt.address

    @property
    def params(self) -> Mapping[str, ParamSpec]:
        """The declared params: the prompt's arguments over MCP."""
        return self.prompt.model.params


class PromptCatalog:
    """Every prompt file under ``target``, compiled under ``root``; rescanned on ``refresh``.

    A file that does not compile is left out and its diagnostics are written by ``report``
    (the server's stderr), as validate words them; the others keep being offered. Two files
    of one address: the first in sorted order is offered, the second is reported.
    """

    def __init__(
        self, target: Path, root: Path, limits: Limits, report: Callable[[str], None]
    ) -> None:
        """Scan nothing yet: ``refresh`` does."""
        self.target = target
        self.root = root
        self._registry = PromptRegistry(root, limits=limits)
        self._report = report
        self._offered: dict[str, Offered] = {}
        self._lock = threading.Lock()
        self._problems: dict[Path, str] = {}
        """What each broken file's report said last: a file is reported again only when it
        says something new."""

    def _served(self, compiled: Mapping[Path, CompileResult]) -> dict[str, Path]:
        """The file each address is served from: the registry's choice (``unserved_files``)."""
        found = [
            (str(path), cast("CompiledPrompt", r.prompt).address) for path, r in compiled.items()
        ]
        left_out = {Path(str(d.path)) for d in unserved_files(found, self.root)}
        return {address: Path(path) for path, address in found if Path(path) not in left_out}

    def files(self) -> list[Path]:
        """The prompt files under ``target`` (``target`` itself when it is a file)."""
        if self.target.is_dir():
            return find_prompt_files(self.target)
        return [self.target] if self.target.is_file() else []

    def refresh(self) -> bool:
        """Compile the files again (unchanged ones cost a ``stat``); whether the list changed."""
        with self._lock:
            offered: dict[str, Offered] = {}
            problems: dict[Path, str] = {}
            compiled: dict[Path, CompileResult] = {}
            for path in self.files():
                found = self._registry.compile(path)
                if found.prompt is None:
                    problems[path] = render_text(found.diagnostics, found.sources)
                else:
                    compiled[path] = found
            served = self._served(compiled)
            for path, found in compiled.items():
                prompt = cast("CompiledPrompt", found.prompt)
                first = served[prompt.address]
                if first != path:
                    problems[path] = (
                        f"{path}: error: Prompt '{prompt.address}' is served from {first}; "
                        "this file is left out."
                    )
                else:
                    offered[prompt.address] = Offered(path, found)
            for path, text in problems.items():
                if self._problems.get(path) != text:
                    self._report(text)
            self._problems = problems
            changed = _summary(offered) != _summary(self._offered)
            self._offered = offered
            return changed

    def offered(self) -> list[Offered]:
        """The prompts on offer, by address."""
        return [self._offered[address] for address in sorted(self._offered)]

    def find(self, address: str) -> Offered | None:
        """The prompt at ``address``, or None."""
        return self._offered.get(address)


def _summary(offered: Mapping[str, Offered]) -> dict[str, tuple[Path, str]]:
    """What the list shows of each prompt: a change here is a change of the list."""
    return {address: (o.path, o.prompt.content_hash) for address, o in offered.items()}
