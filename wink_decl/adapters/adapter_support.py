"""What every provider adapter needs: its SDK or a clear install line, and safe error texts."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterable
from types import ModuleType

from wink_decl._install_hint import install_hint
from wink_decl.errors import ProviderError, ProviderErrorKind
from wink_decl.runtime.redaction import REDACTED, redact

__all__ = [
    "REDACTED",
    "anthropic_root",
    "check_sdk",
    "kind_of_status",
    "openai_root",
    "provider_error",
    "redact",
    "require_sdk",
]

_VERSION = "/v1"
"""The API version both SDK families put in every path, in the base URL or after it."""


def anthropic_root(base_url: str) -> str:
    """An Anthropic API root as its SDK (and Claude Code) wants it: without ``/v1``.

    They add ``/v1/messages`` themselves, so ``http://host/v1`` would ask for
    ``/v1/v1/messages``; people copy the URL either way (docs/adapters/anthropic.md).
    """
    trimmed = base_url.rstrip("/")
    return trimmed.removesuffix(_VERSION) if trimmed.endswith(_VERSION) else base_url


def openai_root(base_url: str) -> str:
    """An OpenAI-compatible API root as its SDK wants it: a bare host gets ``/v1``.

    The SDK adds only ``/chat/completions``; OpenAI and the servers compatible with it (vLLM,
    Ollama, llama.cpp) serve it under ``/v1``. A URL with any other path is kept as given
    (docs/adapters/openai.md).
    """
    scheme, separator, rest = base_url.partition("://")
    if separator and "/" not in rest.rstrip("/"):
        return f"{scheme}://{rest.rstrip('/')}{_VERSION}"
    return base_url


def require_sdk(module: str, *, extra: str, adapter: str) -> ModuleType:
    """Import a provider SDK, or say which install line brings it.

    Raises:
        ProviderError: ``kind="unavailable"`` when the SDK is not installed.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name is None or error.name.split(".")[0] != module.split(".")[0]:
            raise  # the SDK is there but something it needs is broken: show that
        raise _not_installed(module, extra, adapter) from None


def check_sdk(module: str, *, extra: str, adapter: str) -> None:
    """Say which install line brings a provider SDK that is not installed, without importing it.

    For an adapter that imports its SDK on first use (importing one can take most of a second).

    Raises:
        ProviderError: ``kind="unavailable"`` when the SDK is not installed.
    """
    if importlib.util.find_spec(module) is None:
        raise _not_installed(module, extra, adapter)


def _not_installed(module: str, extra: str, adapter: str) -> ProviderError:
    return ProviderError(
        f"{adapter} needs the '{module}' package, which is not installed.",
        kind="unavailable",
        hint=install_hint(extra),
    )


def kind_of_status(status: int) -> ProviderErrorKind:
    """The kind of failure an HTTP status reports."""
    kinds: dict[int, ProviderErrorKind] = {
        400: "bad_request",
        401: "authentication",
        403: "permission",
        404: "not_found",
        408: "timeout",
        413: "bad_request",
        422: "bad_request",
        429: "rate_limit",
    }
    if status in kinds:
        return kinds[status]
    return "server" if status >= 500 else "other"  # noqa: PLR2004  # 5xx: the provider's side


_HINTS: dict[ProviderErrorKind, str] = {
    "authentication": "check the API key the provider expects",
    "permission": "check that the API key may use this model",
    "not_found": "check the model name and the base URL",
    "rate_limit": "wait a little and run again, or ask the provider for a higher limit",
    "timeout": "allow more time with --timeout, or try again",
    "connection": "check the base URL and that the server is running",
    "server": "the provider failed; try again later",
}


def provider_error(
    message: str,
    *,
    kind: ProviderErrorKind,
    status: int | None = None,
    secrets: Iterable[str | None] = (),
    hint: str | None = None,
) -> ProviderError:
    """A ``ProviderError`` whose message and hint never contain ``secrets``."""
    kept = tuple(secrets)
    chosen = hint if hint is not None else _HINTS.get(kind)
    return ProviderError(
        redact(message, kept),
        kind=kind,
        status=status,
        hint=None if chosen is None else redact(chosen, kept),
    )
