"""AnthropicAdapter failures: each SDK error becomes a ProviderError people understand."""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Iterator
from typing import Any

import anthropic
import pytest
from anthropic_prompts import KEY, MODEL, PLAIN_TEMPLATE, evaluate
from anthropic_replies import error_reply, message, message_events, reply
from provider_server import ProviderServer, Reply

from wink_decl import Prompt, ProviderError, Session
from wink_decl.adapters import AnthropicAdapter
from wink_decl.runtime.loop import MainLoop

# The SDK waits its own backoff (about half a second) when retry-after is 0; a millisecond
# keeps these tests fast while still going through its retry loop.
SOON = {"retry-after-ms": "1"}


def failure(server: ProviderServer, **options: Any) -> ProviderError:
    with pytest.raises(ProviderError) as info:
        evaluate(server, PLAIN_TEMPLATE, **options)
    return info.value


def described(error: ProviderError) -> tuple[str, str, int | None, str | None]:
    return str(error), error.kind, error.status, error.hint


@pytest.mark.parametrize(
    ("replies", "retries", "expected"),
    [
        (
            [error_reply(401, "authentication_error", "invalid x-api-key")],
            0,
            (
                "The provider refused the API key (401): invalid x-api-key.",
                "authentication",
                401,
                "check the API key in ANTHROPIC_API_KEY",
            ),
        ),
        (
            [
                error_reply(
                    403,
                    "permission_error",
                    "Your API key does not have permission to use the specified resource.",
                )
            ],
            0,
            (
                "The provider refused access to model 'claude-test' (403): Your API key does not "
                "have permission to use the specified resource.",
                "permission",
                403,
                "check that the API key may use this model",
            ),
        ),
        (
            [error_reply(404, "not_found_error", "model: claude-test")],
            0,
            (
                "Model 'claude-test' was not found (404): model: claude-test.",
                "not_found",
                404,
                "check the model name and the base URL",
            ),
        ),
        (
            [error_reply(400, "invalid_request_error", "messages.0.content: Field required")],
            0,
            (
                "The provider rejected the request (400): messages.0.content: Field required.",
                "bad_request",
                400,
                None,
            ),
        ),
        (
            [error_reply(429, "rate_limit_error", "Too many requests.", SOON)] * 2,
            1,
            (
                "The provider's rate limit was reached (429) after 2 attempts: Too many requests.",
                "rate_limit",
                429,
                "wait a little and run again, or ask the provider for a higher limit",
            ),
        ),
        (
            [error_reply(529, "overloaded_error", "Overloaded", SOON)] * 3,
            2,
            (
                "The provider failed (529) after 3 attempts: Overloaded.",
                "server",
                529,
                "the provider failed; try again later",
            ),
        ),
        (
            [error_reply(529, "overloaded_error", "Overloaded", {"x-should-retry": "false"})],
            2,
            (
                "The provider failed (529): Overloaded.",
                "server",
                529,
                "the provider failed; try again later",
            ),
        ),
        (
            [error_reply(500, "api_error", "Internal server error", SOON)] * 2,
            1,
            (
                "The provider failed (500) after 2 attempts: Internal server error.",
                "server",
                500,
                "the provider failed; try again later",
            ),
        ),
        (
            [Reply(status=502, body=b"<html>Bad gateway</html>")],
            0,
            (
                "The provider failed (502): Bad Gateway.",
                "server",
                502,
                "the provider failed; try again later",
            ),
        ),
        (
            [error_reply(418, "teapot_error", "I am short and stout")],
            0,
            ("The provider answered 418: I am short and stout.", "other", 418, None),
        ),
    ],
    ids=[
        "401",
        "403",
        "404",
        "400",
        "429-retried",
        "529-retried",
        "529-not-to-be-retried",
        "500-retried",
        "502-html",
        "418",
    ],
)
def test_an_error_status_becomes_one_clear_provider_error(
    replies: list[Reply], retries: int, expected: tuple[str, str, int, str | None]
) -> None:
    with ProviderServer(replies) as server:
        error = failure(server, max_retries=retries)

    assert described(error) == expected
    assert error.phase == "provider"
    assert len(server.requests) == len(replies)  # the SDK's retries, and nothing more
    assert error.__cause__ is None


def test_a_rate_limit_is_retried_by_the_sdk_after_retry_after() -> None:
    replies = [
        error_reply(429, "rate_limit_error", "Too many requests.", {"retry-after": "0"}),
        reply("Clear."),
    ]
    with ProviderServer(replies) as server:
        response = evaluate(server, PLAIN_TEMPLATE)

    assert response.text == "Clear."
    assert [r.headers["x-stainless-retry-count"] for r in server.requests] == ["0", "1"]


def test_the_api_key_appears_nowhere(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # the SDK's and the HTTP client's debug logs too
    echoed = error_reply(401, "authentication_error", f"invalid x-api-key: {KEY}")
    with ProviderServer([echoed]) as server:
        error = failure(server, max_retries=0)

    assert str(error) == "The provider refused the API key (401): invalid x-api-key: [redacted]."
    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"
    shown = [str(error), repr(error), error.hint or "", caplog.text]
    assert [KEY in text for text in shown] == [False] * 4
    assert error.__context__ is not None
    assert error.__suppress_context__  # the SDK's error, holding the request, is not shown


def test_a_server_slower_than_the_timeout_is_a_timeout() -> None:
    with ProviderServer([Reply(json=message("Late."), delay=2)]) as server:
        error = failure(server, timeout=0.2, max_retries=0)

    assert described(error) == (
        "The request timed out after 0.2 seconds.",
        "timeout",
        None,
        "allow more time with --timeout, or try again",
    )


def test_a_timeout_retried_counts_its_attempts_as_the_other_failures_do() -> None:
    late = Reply(json=message("Late."), delay=2)
    with ProviderServer([late, late]) as server:
        error = failure(server, timeout=0.2, max_retries=1)

    assert described(error) == (
        "The request timed out after 2 attempts (0.2 seconds each).",
        "timeout",
        None,
        "allow more time with --timeout, or try again",
    )
    assert [r.headers["x-stainless-retry-count"] for r in server.requests] == ["0", "1"]


def test_a_timeout_the_client_chose_is_reported_without_a_number() -> None:
    with ProviderServer([Reply(json=message("Late."), delay=2)]) as server:
        client = anthropic.Anthropic(api_key=KEY, base_url=server.url, timeout=0.2, max_retries=0)
        adapter = AnthropicAdapter(MODEL, client=client)
        with client, pytest.raises(ProviderError) as info:
            MainLoop(adapter=adapter).execute(Prompt(PLAIN_TEMPLATE), session=Session())

    assert (str(info.value), info.value.kind) == ("The request timed out.", "timeout")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_a_refused_connection_names_the_url_and_the_attempts() -> None:
    port = free_port()
    adapter = AnthropicAdapter(
        MODEL, api_key=KEY, base_url=f"http://127.0.0.1:{port}", max_retries=1
    )
    with adapter, pytest.raises(ProviderError) as info:
        MainLoop(adapter=adapter).execute(Prompt(PLAIN_TEMPLATE), session=Session())

    assert described(info.value) == (
        f"Could not connect to http://127.0.0.1:{port} after 2 attempts: connection refused.",
        "connection",
        None,
        "check the base URL and that the server is running",
    )


@pytest.fixture
def hanging_up() -> Iterator[str]:
    """The URL of a server that reads each request and closes the connection unanswered."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return  # the listener was closed: the test is over
            with connection:
                _read_request(connection)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    host, port = listener.getsockname()
    yield f"http://{host}:{port}"
    listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept(); close() alone does not
    listener.close()
    thread.join(timeout=5)


def _read_request(connection: socket.socket) -> None:
    """Read the whole request: closing with bytes unread would reset the connection instead."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        0,
    )
    while len(body) < length:
        chunk = connection.recv(65536)
        if not chunk:
            return
        body += chunk


def test_a_server_that_hangs_up_is_a_connection_failure(hanging_up: str) -> None:
    adapter = AnthropicAdapter(MODEL, api_key=KEY, base_url=hanging_up, max_retries=0)
    with adapter, pytest.raises(ProviderError) as info:
        MainLoop(adapter=adapter).execute(Prompt(PLAIN_TEMPLATE), session=Session())

    assert (str(info.value), info.value.kind) == (
        f"Could not connect to {hanging_up}: server disconnected without sending a response.",
        "connection",
    )


def test_an_error_event_inside_a_stream_is_a_provider_error() -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    events = [*message_events("It is")[:3], ("error", overloaded)]
    with ProviderServer([Reply(events=events)]) as server:
        error = failure(server, stream=True)

    assert described(error) == (
        "The provider failed while streaming (overloaded_error): Overloaded.",
        "server",
        None,
        "the provider failed; try again later",
    )


def test_any_other_sdk_failure_is_a_provider_error_too() -> None:
    with ProviderServer([Reply(json={"not": "a message"})]) as server:
        client = anthropic.Anthropic(
            api_key=KEY, base_url=server.url, max_retries=0, _strict_response_validation=True
        )
        adapter = AnthropicAdapter(MODEL, client=client)
        with client, pytest.raises(ProviderError) as info:
            MainLoop(adapter=adapter).execute(Prompt(PLAIN_TEMPLATE), session=Session())

    assert (str(info.value), info.value.kind, info.value.hint) == (
        "The Anthropic SDK failed: APIResponseValidationError: Data returned by API invalid "
        "for expected schema.",
        "other",
        None,
    )


@pytest.mark.parametrize(
    ("replies", "options", "expected", "sent"),
    [
        (
            [Reply(body=b"<html>Welcome to the proxy</html>")],
            {},
            "The Anthropic SDK failed: JSONDecodeError: Expecting value: line 1 column 1 (char 0).",
            1,
        ),
        (
            [],
            {"max_tokens": 64000},
            "The Anthropic SDK failed: ValueError: Streaming is required for operations that may "
            "take longer than 10 minutes. See https://platform.claude.com/docs/en/cli-sdks-"
            "libraries/sdks/python#long-requests for more details.",
            0,
        ),
    ],
    ids=["answer-not-json", "refused-before-sending"],
)
def test_a_value_error_of_the_sdk_is_a_provider_error(
    replies: list[Reply], options: dict[str, Any], expected: str, sent: int
) -> None:
    with ProviderServer(replies) as server:
        error = failure(server, max_retries=0, **options)

    assert (str(error), error.kind, error.hint) == (expected, "other", None)
    assert len(server.requests) == sent
