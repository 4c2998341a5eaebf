"""MCP prompts: each prompt file as a prompt, its params as arguments, rendered as render does."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

import mcp_types as types
from mcp.shared.exceptions import MCPError

from wink_decl.diagnostics import DiagnosticError, render_text
from wink_decl.inputs import Location, PromptRequest, prepare
from wink_decl.suggestions import did_you_mean_sentence

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from wink_decl.limits import Limits
    from wink_decl.mcp._mcp_catalog import Offered, PromptCatalog
    from wink_decl.prompt.template import RenderedPrompt
    from wink_decl.schema import ParamSpec

__all__ = ["MISSING_ARGUMENT", "PromptServing"]

MISSING_ARGUMENT = "pass the argument {name}, or give it a default"
"""How an MCP client is told to give a missing param: the command line's words, with the
argument for ``--param NAME=VALUE`` and without ``--params-file``, which MCP has no way to give."""
_MAX_COMPLETIONS = 100
"""The most values ``completion/complete`` may return (the protocol's bound)."""


@dataclass(frozen=True)
class PromptServing:
    """What every ``prompts/get`` renders with, besides its arguments: the command line's."""

    catalog: PromptCatalog
    limits: Limits
    tag: str | None
    overrides: str | None
    strict: bool
    render_text: Callable[[RenderedPrompt], str]
    """The rendered prompt as ``wink-decl render`` prints it."""

    def listing(self) -> types.ListPromptsResult:
        """Every prompt on offer, its arguments its declared params."""
        return types.ListPromptsResult(prompts=[_described(o) for o in self.catalog.offered()])

    def get(self, name: str, arguments: Mapping[str, str] | None) -> types.GetPromptResult:
        """The prompt rendered with ``arguments``; an MCP error in the CLI's words otherwise."""
        offered = self._offered(name)
        request = PromptRequest(
            file=str(offered.path),
            root=str(self.catalog.root),
            limits=self.limits,
            params=tuple((arguments or {}).items()),
            tag=self.tag,
            overrides=self.overrides,
            strict=self.strict,
            missing_hint=MISSING_ARGUMENT,
        )
        location = Location(request, offered.path, self.catalog.root)
        # Compiled already (and again only when the file changed): a get costs a render.
        prepared = prepare(request, location=location, compiled=offered.result)
        if not prepared.ok:
            raise _invalid(render_text(prepared.diagnostics, prepared.sources))
        try:
            rendered = prepared.render()
        except DiagnosticError as error:  # a predicate raised: the plugin's fault, told so
            raise _invalid(render_text(error.diagnostics, error.sources)) from None
        message = types.PromptMessage(
            role="user", content=types.TextContent(text=self.render_text(rendered))
        )
        description = offered.prompt.model.description
        return types.GetPromptResult(description=description, messages=[message])

    def complete(self, name: str, argument: str, value: str) -> types.CompleteResult:
        """The values of an ``enum`` param that start with ``value``; none for other params."""
        offered = self.catalog.find(name)
        spec = None if offered is None else offered.params.get(argument)
        choices = [] if spec is None or spec.enum is None else [_text(v) for v in spec.enum]
        matching = [choice for choice in choices if choice.startswith(value)]
        shown = matching[:_MAX_COMPLETIONS]
        return types.CompleteResult(
            completion=types.Completion(
                values=shown, total=len(matching), has_more=len(matching) > len(shown)
            )
        )

    def _offered(self, name: str) -> Offered:
        offered = self.catalog.find(name)
        if offered is not None:
            return offered
        addresses = [o.address for o in self.catalog.offered()]
        suggestion = did_you_mean_sentence(name, addresses)
        raise _invalid(f"No prompt '{name}'.{suggestion}")


def _described(offered: Offered) -> types.Prompt:
    model = offered.prompt.model
    return types.Prompt(
        name=offered.address,
        title=model.name,
        description=model.description,
        arguments=[_argument(name, spec) for name, spec in offered.params.items()],
    )


def _argument(name: str, spec: ParamSpec) -> types.PromptArgument:
    return types.PromptArgument(
        name=name, description=spec.description, required=spec.default is None
    )


def _text(value: object) -> str:
    """An enum value as an argument is written: a string as it is, a number as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def _invalid(message: str) -> MCPError:
    return MCPError(types.INVALID_PARAMS, message)
