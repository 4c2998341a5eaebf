"""The tests' provider server lets a client leave as a provider's server does."""

from __future__ import annotations

import socket
import struct
import time

import pytest
from provider_server import ProviderServer


def _reset_mid_request(url: str) -> None:
    """Connect, send half a request line, then reset the connection (SO_LINGER 0)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as client:
        client.sendall(b"POST /v1/chat")
        time.sleep(0.05)  # the server's thread is reading the request line
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def test_a_client_that_resets_its_connection_prints_nothing(
    capfd: pytest.CaptureFixture[str],
) -> None:
    with ProviderServer() as server:
        _reset_mid_request(server.url)
        time.sleep(0.1)  # the server's thread meets the reset
    assert (capfd.readouterr(), server.requests) == (("", ""), [])
