"""Fixtures of every adapter test: no key or base URL from the environment, no network."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from chat_adapters import block_the_network

_PROVIDER_VARIABLES = (
    "OPENAI_API_KEY",
    "OPENAI_ADMIN_KEY",
    "OPENAI_BASE_URL",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
)
"""What the SDKs read when an adapter is given no key or base URL of its own."""


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The provider variables unset, and no host name beyond this machine looked up.

    An SDK that fetches something of its own swallows the refusal and goes on: the lookups it
    tried are asserted to be none after the test.
    """
    for name in _PROVIDER_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    attempts = block_the_network(monkeypatch)
    yield
    assert attempts == []
