"""``--model PROVIDER:MODEL``, as ``run`` and ``eval`` take it: checked against the providers."""

from __future__ import annotations

from wink_decl.adapters.providers import PROVIDERS
from wink_decl.cli._usage import UsageError
from wink_decl.suggestions import did_you_mean

__all__ = ["model_from_text"]


def model_from_text(spec: str, *, command: str) -> tuple[str, str]:
    """The provider and the model ``spec`` names; a usage error of ``command`` otherwise."""
    provider, colon, model = spec.partition(":")
    if provider not in PROVIDERS:
        names = ", ".join(PROVIDERS)
        raise UsageError(
            f"--model {spec}: '{provider}' is not a provider wink-decl knows ({names})",
            hint=did_you_mean(provider, PROVIDERS)
            or f"write it as PROVIDER:MODEL, such as openai:{PROVIDERS['openai'].example}",
            command=command,
        )
    if not colon or not model:
        raise UsageError(
            f"--model {spec}: no model named",
            hint=f"write it as {provider}:MODEL, such as {provider}:{PROVIDERS[provider].example}",
            command=command,
        )
    return provider, model
