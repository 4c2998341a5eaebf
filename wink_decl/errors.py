"""The exception tree of wink-decl.

```
WinkDeclError
├── PromptError                      (section_path, dataclass_type, placeholder)
│   ├── PromptValidationError        a template or tool is malformed (construction time)
│   ├── PromptRenderError            rendering failed (missing param, bad visibility)
│   └── ToolValidationError          tool arguments or a tool result are invalid
├── VisibilityExpansionRequired      (prompt.expansion) the loop must restart, sections expanded
├── PromptEvaluationError            (prompt_name, phase) evaluation cannot continue
│   └── ProviderError                (kind, status, hint) the model provider refused or failed
├── DeadlineExceededError            + TimeoutError: a deadline passed before a tool could run
├── DiagnosticError                  + ValueError: (diagnostics) input has errors
├── LimitSettingError                + ValueError: (limits) a limit set to a wrong value
├── PluginLoadError                  (plugins) importing an entry point failed
├── InputError                       (inputs) a file or folder given to a front end is unusable
│   └── UsageError                   (cli) a command line that cannot be run: exit status 2
├── NullValueError                   + ValueError: (cli) TOML cannot write a null
├── NotAFileError                    + OSError: (loader) a prompt file that is not a regular file
├── FileTooLargeError                + OSError: (loader) a file past its byte limit
└── FilesystemError                  (runtime.filesystem) a tool's file operation failed
    ├── PathOutsideRootError         + ValueError: the path leaves the filesystem root
    └── FileNotFoundInFilesystemError  + LookupError: the file or folder does not exist
```

``+ X``: the built-in a caller would catch is mixed in. ``PromptError`` has none on purpose:
the runtime and the compiler catch ``ValueError`` around user code (dataclass constructors,
``inspect.signature``), and a prompt error raised there must not be taken for one.
The package's private signals (``Stop`` and the like) derive from ``WinkDeclError`` too, so
``except WinkDeclError`` never lets one of the package's own exceptions through.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, TypeAlias

__all__ = [
    "DeadlineExceededError",
    "EvaluationPhase",
    "InputError",
    "PromptError",
    "PromptEvaluationError",
    "PromptRenderError",
    "PromptValidationError",
    "ProviderError",
    "ProviderErrorKind",
    "SingleTurnUnsupportedError",
    "ToolValidationError",
    "WinkDeclError",
]


class WinkDeclError(Exception):
    """Base class of every error wink-decl raises on purpose."""


class InputError(WinkDeclError):
    """A file, folder or setting given to a front end that cannot be used.

    Not a mistake inside a prompt file (those are diagnostics with a span), but in what was
    asked for: the command line reports it as a usage error (exit status 2), the preview page
    and other front ends show ``message`` and ``hint`` as they show their own refusals.
    """

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class PromptError(WinkDeclError):
    """An error tied to a place in a prompt: the section, the params type, the placeholder."""

    def __init__(
        self,
        message: str,
        *,
        section_path: tuple[str, ...] = (),
        dataclass_type: type | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.section_path: tuple[str, ...] = tuple(section_path)
        self.dataclass_type = dataclass_type
        self.placeholder = placeholder


class PromptValidationError(PromptError):
    """A prompt, section or tool was declared in a way that can never work."""


class PromptRenderError(PromptError):
    """Rendering failed, for example because a required parameter has no value."""


class ToolValidationError(PromptError):
    """Tool arguments (or a tool's declared contract) did not validate."""


class EvaluationPhase(StrEnum):
    """Where an evaluation stopped (``PromptEvaluationError.phase``); values as written in JSON."""

    UNKNOWN = ""
    """Not said (the default)."""
    PROVIDER = "provider"
    """The model provider refused or failed."""
    TOOL = "tool"
    """A tool could not run, or ran past the deadline."""
    OUTPUT = "output"
    """The model's answer did not fit the declared output."""
    DEADLINE = "deadline"
    """The evaluation's deadline passed."""
    BUDGET = "budget"
    """The evaluation's budget (turns, tokens) was spent."""
    LOOP = "loop"
    """The loop ended without an answer."""
    DISCLOSURE = "disclosure"
    """Sections kept asking to be expanded."""


class PromptEvaluationError(WinkDeclError):
    """Evaluation of a prompt could not continue (provider failure, deadline, budget)."""

    def __init__(
        self,
        message: str,
        *,
        prompt_name: str = "",
        phase: EvaluationPhase = EvaluationPhase.UNKNOWN,
    ) -> None:
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
        super().__init__(message, prompt_name=prompt_name, phase=EvaluationPhase.PROVIDER)
        self.kind: ProviderErrorKind = kind
        self.status = status
        self.hint = hint


class DeadlineExceededError(WinkDeclError, TimeoutError):
    """The evaluation deadline passed."""


class SingleTurnUnsupportedError(WinkDeclError, NotImplementedError):
    """An adapter that runs the whole conversation itself was asked for a single turn.

    ``NotImplementedError`` is mixed in because that is what a caller probing an adapter for an
    optional capability catches.
    """
