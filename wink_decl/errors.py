"""The exception tree of wink-decl.

```
WinkDeclError
├── PromptError                      (section_path, dataclass_type, placeholder)
│   ├── PromptValidationError        a template or tool is malformed (construction time)
│   ├── PromptRenderError            rendering failed (missing param, bad visibility)
│   └── ToolValidationError          tool arguments or a tool result are invalid
├── VisibilityExpansionRequired      the loop must restart with sections expanded
├── PromptEvaluationError            evaluation cannot continue (provider, deadline)
│   └── ProviderError                (kind, status, hint) the model provider refused or failed
├── DeadlineExceededError            a deadline passed before a tool could run
└── FilesystemError                  (runtime.filesystem) a tool's file operation failed
    ├── PathOutsideRootError         the path leaves the filesystem root
    └── FileNotFoundInFilesystemError
```
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, TypeAlias

if TYPE_CHECKING:
    from wink_decl.runtime.visibility import SectionPath, SectionVisibility

__all__ = [
    "DeadlineExceededError",
    "PromptError",
    "PromptEvaluationError",
    "PromptRenderError",
    "PromptValidationError",
    "ProviderError",
    "ProviderErrorKind",
    "ToolValidationError",
    "VisibilityExpansionRequired",
    "WinkDeclError",
]


class WinkDeclError(Exception):
    """Base class of every error wink-decl raises on purpose."""


class PromptError(WinkDeclError):
    """An error tied to a place in a prompt: the section, the params type, the placeholder."""

    def __init__(
        self,
        message: str,
        *,
        section_path: SectionPath = (),
        dataclass_type: type | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.section_path: SectionPath = tuple(section_path)
        self.dataclass_type = dataclass_type
        self.placeholder = placeholder


class PromptValidationError(PromptError):
    """A prompt, section or tool was declared in a way that can never work."""


class PromptRenderError(PromptError):
    """Rendering failed, for example because a required parameter has no value."""


class ToolValidationError(PromptError):
    """Tool arguments (or a tool's declared contract) did not validate."""


class VisibilityExpansionRequired(WinkDeclError):  # noqa: N818  # the spec's name
    """Raised when sections must be expanded and the evaluation restarted.

    The adapter cannot add tools mid-conversation, so the caller persists
    ``requested_overrides`` and renders the prompt again.
    """

    def __init__(
        self,
        message: str,
        *,
        requested_overrides: Mapping[SectionPath, SectionVisibility],
        reason: str,
        section_keys: tuple[str, ...],
    ) -> None:
        super().__init__(message)
        self.message = message
        self.requested_overrides: Mapping[SectionPath, SectionVisibility] = MappingProxyType(
            dict(requested_overrides)
        )
        self.reason = reason
        self.section_keys = section_keys


class PromptEvaluationError(WinkDeclError):
    """Evaluation of a prompt could not continue (provider failure, deadline, budget)."""

    def __init__(self, message: str, *, prompt_name: str = "", phase: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.prompt_name = prompt_name
        self.phase = phase


ProviderErrorKind: TypeAlias = Literal[
    "authentication",
    "permission",
    "not_found",
    "rate_limit",
    "timeout",
    "connection",
    "bad_request",
    "server",
    "output",
    "unavailable",
    "other",
]
"""What went wrong with a provider, so callers (and the command line) can say what to do."""


class ProviderError(PromptEvaluationError):
    """The model provider refused a request or could not be reached.

    ``message`` is one line for people and never contains an API key; ``hint`` says what to
    try; ``status`` is the HTTP status when there was one.
    """

    def __init__(
        self,
        message: str,
        *,
        kind: ProviderErrorKind,
        status: int | None = None,
        hint: str | None = None,
        prompt_name: str = "",
    ) -> None:
        super().__init__(message, prompt_name=prompt_name, phase="provider")
        self.kind: ProviderErrorKind = kind
        self.status = status
        self.hint = hint


class DeadlineExceededError(WinkDeclError):
    """The evaluation deadline passed."""
