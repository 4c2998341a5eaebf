"""The MCP server driven by the ``mcp`` SDK's own client, in this process, in both protocol eras.

``legacy`` is the initialize handshake over the SDK's stream loop; ``2026-07-28`` is the
stateless protocol (``server/discover``, changes only through ``subscriptions/listen``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import compiler_plugins
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.session import IncomingMessage
from mcp.shared.exceptions import MCPError
from mcp_fixtures import GREET, GREET_TEXT, build_server, prompt_folder, served
from plugin_support import MemoryDistribution

from wink_decl.cli import main
from wink_decl.compiler import registry as registry_module
from wink_decl.limits import DEFAULT_LIMITS
from wink_decl.mcp import McpServer, PromptCatalog, watch_prompts
from wink_decl.plugins import PREDICATES, PluginCatalog

ERAS = ["legacy", "2026-07-28"]
TIMEOUT = 30.0

GREET_PROMPT = types.Prompt(
    name="team/greet",
    title="Greeting",
    description="Greets someone.",
    arguments=[
        types.PromptArgument(name="who", description="Who to greet.", required=True),
        types.PromptArgument(name="mood", description="The tone.", required=False),
        types.PromptArgument(name="times", required=False),
    ],
)
FLAKY = """\
key: flaky
sections:
  - {key: main, title: Main, template: Hello., enabled: {predicate: flaky.raises}}
"""

HELPER_PROMPT = types.Prompt(
    name="agents/helper",
    description="Helps with files.",
    arguments=[types.PromptArgument(name="topic", required=True)],
)


def serve(
    prompts: Path,
    mode: str,
    work: Path | None,
    body: Callable[[Client, McpServer], Awaitable[None]],
    *,
    notes: list[str] | None = None,
) -> None:
    """Run ``body`` with a client of a fresh server (a watch on ``prompts`` beside it)."""
    server, _log = build_server(prompts, work)

    async def handle(message: IncomingMessage) -> None:
        if notes is not None and isinstance(message, types.ServerNotification):
            notes.append(message.method)
        await anyio.lowlevel.checkpoint()

    async def run() -> None:
        with anyio.fail_after(TIMEOUT):
            async with anyio.create_task_group() as tasks:
                stop = anyio.Event()
                await tasks.start(watch_prompts, server, [prompts], stop)
                async with Client(served(server), mode=mode, message_handler=handle) as client:
                    await body(client, server)
                server.close()
                stop.set()

    anyio.run(run)


def text_of(result: types.CallToolResult | types.GetPromptResult) -> tuple[str, bool]:
    """A call's one text block and whether it is an error (a prompt's: False)."""
    if isinstance(result, types.GetPromptResult):
        (message,) = result.messages
        content = message.content
        failed = False
    else:
        (content,) = result.content
        failed = result.is_error
    assert isinstance(content, types.TextContent)
    return content.text, failed


@pytest.mark.parametrize("mode", ERAS)
def test_every_prompt_file_is_a_prompt_with_its_params_as_arguments(
    tmp_path: Path, mode: str
) -> None:
    prompts = prompt_folder(tmp_path)
    seen: list[list[types.Prompt]] = []

    async def body(client: Client, _server: McpServer) -> None:
        seen.append((await client.list_prompts()).prompts)

    serve(prompts, mode, None, body)
    assert seen == [[HELPER_PROMPT, GREET_PROMPT]]


@pytest.mark.parametrize("mode", ERAS)
def test_get_returns_the_text_render_prints(
    tmp_path: Path, mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts = prompt_folder(tmp_path)
    got: list[types.GetPromptResult] = []

    async def body(client: Client, _server: McpServer) -> None:
        arguments = {"who": "Ada", "mood": "glad", "times": "2"}
        got.append(await client.get_prompt("team/greet", arguments))

    serve(prompts, mode, None, body)
    (result,) = got
    assert result.description == "Greets someone."
    assert [m.role for m in result.messages] == ["user"]
    assert text_of(result) == (GREET_TEXT, False)
    greet = str(prompts / "team" / "greet.wink.yaml")
    args = ["render", greet, "--root", str(prompts), "--param", "who=Ada"]
    status = main([*args, "--param", "mood=glad", "--param", "times=2"])
    assert (status, capsys.readouterr().out) == (0, GREET_TEXT)


@pytest.mark.parametrize("mode", ERAS)
def test_wrong_arguments_are_errors_in_the_cli_words(tmp_path: Path, mode: str) -> None:
    prompts = prompt_folder(tmp_path)
    errors: list[tuple[int, str]] = []

    async def body(client: Client, _server: McpServer) -> None:
        for name, arguments in [
            ("team/greet", {"mood": "glad"}),
            ("team/greet", {"who": "Ada", "times": "many", "mood": "glum"}),
            ("team/greeting", {}),
        ]:
            with pytest.raises(MCPError) as raised:
                await client.get_prompt(name, arguments)
            errors.append((raised.value.code, raised.value.message))

    serve(prompts, mode, None, body)
    greet = prompts / "team" / "greet.wink.yaml"
    assert errors == [
        (
            types.INVALID_PARAMS,
            f"{greet}:5:3: error: Param 'who' has no value and no default.\n"
            "   5 |   who: {type: string, description: Who to greet.}\n"
            "     |   ^^^\n"
            "  hint: pass the argument who, or give it a default",
        ),
        (
            types.INVALID_PARAMS,
            f"{greet}: error: --param mood=glum: expected one of glad, calm, careful\n"
            f"{greet}: error: --param times=many: expected a whole number",
        ),
        (types.INVALID_PARAMS, "No prompt 'team/greeting'. Did you mean 'team/greet'?"),
    ]


def test_a_missing_argument_is_told_in_the_words_render_uses_for_a_missing_param(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts = prompt_folder(tmp_path)
    errors: list[str] = []

    async def body(client: Client, _server: McpServer) -> None:
        with pytest.raises(MCPError) as raised:
            await client.get_prompt("team/greet", {"mood": "glad"})
        errors.append(raised.value.message)

    serve(prompts, "legacy", None, body)
    greet = str(prompts / "team" / "greet.wink.yaml")
    status = main(["render", greet, "--root", str(prompts), "--param", "mood=glad"])
    said = capsys.readouterr().err
    cli_hint = "  hint: pass --param who=VALUE or put it in --params-file, or give it a default\n"
    assert (status, said.endswith(cli_hint)) == (1, True)
    # The same diagnostic; only the way to give the value names MCP's argument, not the flags.
    mcp_hint = "  hint: pass the argument who, or give it a default"
    assert errors == [said.removesuffix(cli_hint) + mcp_hint]


@pytest.mark.parametrize("mode", ERAS)
def test_completion_offers_an_enum_params_values(tmp_path: Path, mode: str) -> None:
    prompts = prompt_folder(tmp_path)
    found: list[tuple[list[str], int | None, bool | None]] = []

    async def body(client: Client, _server: McpServer) -> None:
        ref = types.PromptReference(name="team/greet")
        for argument in ({"name": "mood", "value": "c"}, {"name": "who", "value": ""}):
            completion = (await client.complete(ref, argument)).completion
            found.append((completion.values, completion.total, completion.has_more))
        missing = types.PromptReference(name="team/nothing")
        completion = (await client.complete(missing, {"name": "mood", "value": ""})).completion
        found.append((completion.values, completion.total, completion.has_more))

    serve(prompts, mode, None, body)
    assert found == [(["calm", "careful"], 2, False), ([], 0, False), ([], 0, False)]


def test_a_hundred_values_at_most_are_offered(tmp_path: Path) -> None:
    prompts = prompt_folder(tmp_path)
    values = ", ".join(f"v{n:03}" for n in range(150))
    many = GREET.replace("enum: [glad, calm, careful], default: calm", f"enum: [{values}]")
    (prompts / "team" / "greet.wink.yaml").write_text(many)
    found: list[types.Completion] = []

    async def body(client: Client, _server: McpServer) -> None:
        ref = types.PromptReference(name="team/greet")
        found.append((await client.complete(ref, {"name": "mood", "value": "v"})).completion)

    serve(prompts, "legacy", None, body)
    (completion,) = found
    expected = [f"v{n:03}" for n in range(100)]
    assert (completion.values, completion.total, completion.has_more) == (expected, 150, True)


@pytest.mark.parametrize("mode", ERAS)
def test_tools_are_those_the_agent_offers_with_the_tools_command_schemas(
    tmp_path: Path, mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts = prompt_folder(tmp_path)
    listed: list[list[types.Tool]] = []

    async def body(client: Client, _server: McpServer) -> None:
        listed.append((await client.list_tools()).tools)

    serve(prompts, mode, tmp_path / "work", body)
    helper = str(prompts / "agents" / "helper.wink.yaml")
    args = ["tools", helper, "--root", str(prompts), "--param", "topic=notes"]
    assert main(args) == 0
    schemas: dict[str, Any] = json.loads(capsys.readouterr().out)
    (tools,) = listed
    assert [(t.name, t.description, t.input_schema) for t in tools] == [
        ("list_dir", "List a folder of the workspace.", schemas["list_dir"]),
        ("read_file", "Read one file of the workspace.", schemas["read_file"]),
        ("read_section", tools[2].description, schemas["read_section"]),
    ]
    assert list(schemas) == ["list_dir", "read_file", "read_section"]


@pytest.mark.parametrize("mode", ERAS)
def test_calls_go_through_the_executor_denials_and_failures_are_errors(
    tmp_path: Path, mode: str
) -> None:
    prompts = prompt_folder(tmp_path)
    results: list[tuple[str, bool]] = []

    async def body(client: Client, _server: McpServer) -> None:
        for name, arguments in [
            ("read_file", {"path": "a.txt"}),  # the sequential policy: list_dir first
            ("list_dir", {"path": "."}),
            ("read_file", {"path": "a.txt"}),
            ("read_file", {"path": "a.txt", "extra": 1}),
            ("read_file", {"path": "missing.txt"}),
            ("delete_all", {}),
        ]:
            results.append(text_of(await client.call_tool(name, arguments)))

    serve(prompts, mode, tmp_path / "work", body)
    assert results == [
        ("Tool 'read_file' requires: list_dir", True),
        ('\'.\' has 1 entry.\n\n{"path": ".", "entries": ["a.txt"]}', False),
        ('Read \'a.txt\' (6 characters).\n\n{"path": "a.txt", "text": "alpha\\n"}', False),
        (
            "Invalid arguments for tool 'read_file': Unknown field 'extra' (allowed: path).",
            True,
        ),
        ("File 'missing.txt' does not exist.", True),
        (
            "Unknown tool 'delete_all'. Available tools: list_dir, read_file, read_section.",
            True,
        ),
    ]


@pytest.mark.parametrize("mode", ERAS)
def test_a_read_that_reveals_tools_tells_the_client(tmp_path: Path, mode: str) -> None:
    prompts = prompt_folder(tmp_path)
    notes: list[str] = []
    names: list[list[str]] = []
    results: list[tuple[str, bool]] = []

    async def body(client: Client, _server: McpServer) -> None:
        async def read() -> None:
            names.append([t.name for t in (await client.list_tools()).tools])
            arguments = {"section_key": "notes"}
            results.append(text_of(await client.call_tool("read_section", arguments)))
            names.append([t.name for t in (await client.list_tools()).tools])
            results.append(text_of(await client.call_tool("write_file", {"path": "b", "text": ""})))

        if mode == "legacy":
            await read()
            return
        async with client.listen(tools_list_changed=True) as subscription:
            await read()
            with anyio.fail_after(5):
                async for event in subscription:
                    notes.append(type(event).__name__)
                    break

    serve(prompts, mode, tmp_path / "work", body, notes=notes)
    assert names == [
        ["list_dir", "read_file", "read_section"],
        ["list_dir", "read_file", "write_file"],
    ]
    # The stateless protocol's notification comes on the listen stream, as a typed event too.
    changed = [] if mode == "legacy" else ["ToolsListChanged"]
    assert notes == ["notifications/tools/list_changed", *changed]
    assert results[0] == (
        "Content of section 'notes':\n\n## 2. Notes (notes)\n\nWrite notes with care.",
        False,
    )
    assert results[1][1] is True  # the workspace is read-only
    assert not (tmp_path / "work" / "b").exists()


def test_a_result_that_revealed_tools_waits_until_the_new_listing_is_answered(
    tmp_path: Path,
) -> None:
    prompts = prompt_folder(tmp_path)
    built, _log = build_server(prompts, tmp_path / "work")
    # Only the listing can release the result in time: the clock would take longer than the test.
    server = McpServer(built.prompts, built.agent, hold=TIMEOUT * 2)
    order: list[str] = []

    async def call(client: Client) -> None:
        result = await client.call_tool("read_section", {"section_key": "notes"})
        order.append(f"result, error: {result.is_error}")

    async def run() -> None:
        with anyio.fail_after(TIMEOUT):
            async with (
                Client(served(server), mode="2026-07-28") as client,
                client.listen(tools_list_changed=True) as events,
                anyio.create_task_group() as tasks,
            ):
                tasks.start_soon(call, client)
                async for event in events:  # as Claude Code does: list again when told
                    order.append(type(event).__name__)
                    order.append(" ".join(t.name for t in (await client.list_tools()).tools))
                    break

    anyio.run(run)
    assert order == [
        "ToolsListChanged",
        "list_dir read_file write_file",
        "result, error: False",
    ]


def test_without_a_listener_a_revealing_result_is_not_held(tmp_path: Path) -> None:
    prompts = prompt_folder(tmp_path)
    built, _log = build_server(prompts, tmp_path / "work")
    # No client listens for tools/list_changed, so none will list again: nothing to wait for.
    server = McpServer(built.prompts, built.agent, hold=TIMEOUT * 2)
    names: list[str] = []

    async def run() -> None:
        with anyio.fail_after(TIMEOUT):
            async with Client(served(server), mode="2026-07-28") as client:
                await client.call_tool("read_section", {"section_key": "notes"})
                names.extend(t.name for t in (await client.list_tools()).tools)

    anyio.run(run)
    assert names == ["list_dir", "read_file", "write_file"]  # over stdio, the state is kept


def test_each_client_has_a_session_of_its_own(tmp_path: Path) -> None:
    prompts = prompt_folder(tmp_path)
    server, _log = build_server(prompts, tmp_path / "work")
    names: list[list[str]] = []

    async def run() -> None:
        with anyio.fail_after(TIMEOUT):
            async with (
                Client(server.server, mode="legacy") as first,
                Client(server.server, mode="legacy") as second,
            ):
                await first.call_tool("read_section", {"section_key": "notes"})
                names.extend(
                    [
                        [t.name for t in (await client.list_tools()).tools]
                        for client in (first, second)
                    ]
                )
                # What the first read is kept for it alone; a new client starts afresh.
            async with Client(server.server, mode="legacy") as third:
                names.append([t.name for t in (await third.list_tools()).tools])

    anyio.run(run)
    assert names == [
        ["list_dir", "read_file", "write_file"],
        ["list_dir", "read_file", "read_section"],
        ["list_dir", "read_file", "read_section"],
    ]


@pytest.mark.parametrize("mode", ERAS)
def test_adding_changing_and_removing_files_changes_the_list(tmp_path: Path, mode: str) -> None:
    prompts = prompt_folder(tmp_path)
    notes: list[str] = []
    lists: list[list[str]] = []

    async def changed(client: Client, events: Any) -> None:
        with anyio.fail_after(10):
            if events is None:
                while not notes:  # noqa: ASYNC110  # the message handler appends; polled briefly
                    await anyio.sleep(0.02)
                notes.clear()
            else:
                async for _event in events:
                    break
        lists.append([p.name for p in (await client.list_prompts()).prompts])

    async def steps(client: Client, events: Any) -> None:
        extra = prompts / "team" / "extra.wink.yaml"
        extra.write_text(GREET.replace("key: greet", "key: extra"))
        await changed(client, events)
        extra.write_text(GREET.replace("key: greet", "key: other"))
        await changed(client, events)
        extra.unlink()
        await changed(client, events)

    async def body(client: Client, _server: McpServer) -> None:
        await client.list_prompts()  # the server knows this client from now on
        if mode == "legacy":
            await steps(client, None)
            return
        async with client.listen(prompts_list_changed=True) as subscription:
            await steps(client, subscription)

    serve(prompts, mode, None, body, notes=notes)
    assert lists == [
        ["agents/helper", "team/extra", "team/greet"],
        ["agents/helper", "team/greet", "team/other"],
        ["agents/helper", "team/greet"],
    ]


def test_a_broken_file_is_left_out_and_reported(tmp_path: Path) -> None:
    prompts = prompt_folder(tmp_path)
    broken = prompts / "team" / "broken.wink.yaml"
    broken.write_text("key: broken\nsections: []\n")
    twin = prompts / "team" / "twin.wink.yaml"
    twin.write_text(GREET)  # the address team/greet again
    server, log = build_server(prompts)
    assert [o.address for o in server.prompts.catalog.offered()] == ["agents/helper", "team/greet"]
    assert log.getvalue() == (
        f"{broken}:2:11: error: 'sections' needs at least 1 item; found none\n"
        "   2 | sections: []\n"
        "     |           ^^\n"
        f"{twin}: error: Prompt 'team/greet' is served from {prompts / 'team' / 'greet.wink.yaml'}"
        "; this file is left out.\n"
    )
    assert server.prompts.catalog.refresh() is False
    assert log.getvalue().count("error") == 2  # an unchanged problem is not reported again


def test_numbers_are_offered_as_json_and_a_file_can_be_served_alone(tmp_path: Path) -> None:
    prompts = prompt_folder(tmp_path)
    levels = GREET.replace(
        "times: {type: integer, default: 1}", "times: {type: integer, enum: [1, 2, 10]}"
    )
    (prompts / "team" / "greet.wink.yaml").write_text(levels)
    server, _log = build_server(prompts)
    catalog = PromptCatalog(prompts / "team" / "greet.wink.yaml", prompts, DEFAULT_LIMITS, print)
    assert catalog.refresh() is True
    assert [o.address for o in catalog.offered()] == ["team/greet"]
    completion = server.prompts.complete("team/greet", "times", "1").completion
    assert (completion.values, completion.total) == (["1", "10"], 2)


def test_a_raising_predicate_is_an_error_naming_the_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    points = {PREDICATES: {"flaky.raises": "compiler_plugins:raising"}}
    flaky = PluginCatalog(distributions=[MemoryDistribution("flaky-plugins", "2.0", points)])
    monkeypatch.setattr(registry_module, "default_catalog", lambda: flaky)
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    (prompts / "flaky.wink.yaml").write_text(FLAKY)
    compiler_plugins.failures[:] = [KeyError("weather")]
    server, _log = build_server(prompts)
    with pytest.raises(MCPError) as raised:
        server.prompts.get("prompts/flaky", {})  # a file at the root: ns is its name
    assert raised.value.message == (
        f"{prompts / 'flaky.wink.yaml'}:3:69: error: Predicate 'flaky.raises' (entry point in "
        "wink_decl.predicates, from flaky-plugins 2.0, value 'compiler_plugins:raising') raised "
        "KeyError: 'weather'.\n"
        "  expected: a function (params, *, session) that returns true or false without raising\n"
        "   3 |   - {key: main, title: Main, template: Hello., "
        "enabled: {predicate: flaky.raises}}\n"
        "     |                                                                     ^^^^^^^^^^^^\n"
        "  hint: the fault is in the plugin's distribution (flaky-plugins), not in this file: fix "
        "or upgrade it, or name another predicate"
    )


class _Gone:
    """A handshake connection whose client has gone: telling it anything fails."""

    async def send_prompt_list_changed(self) -> None:
        raise anyio.ClosedResourceError


def test_a_client_gone_does_not_stop_the_others_hearing_of_changes(tmp_path: Path) -> None:
    prompts = prompt_folder(tmp_path)
    notes: list[str] = []

    async def body(client: Client, server: McpServer) -> None:
        await client.list_prompts()
        gone = _Gone()
        server._connections.add(gone)  # pyright: ignore[reportPrivateUsage, reportArgumentType]
        await server.prompts_changed()
        while not notes:  # noqa: ASYNC110  # the message handler appends
            await anyio.sleep(0.02)

    serve(prompts, "legacy", None, body, notes=notes)
    assert notes == ["notifications/prompts/list_changed"]


def test_a_change_that_leaves_the_list_as_it_was_tells_nobody(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts = prompt_folder(tmp_path)
    notes: list[str] = []
    answers: list[bool] = []

    async def body(client: Client, server: McpServer) -> None:
        catalog = server.prompts.catalog
        real = catalog.refresh

        def refresh() -> bool:
            answers.append(real())
            return answers[-1]

        monkeypatch.setattr(catalog, "refresh", refresh)
        await client.list_prompts()
        (prompts / "notes.txt").write_text("not a prompt file\n")
        while not answers:  # noqa: ASYNC110  # the watch's thread appends
            await anyio.sleep(0.02)

    serve(prompts, "legacy", None, body, notes=notes)
    assert (answers[:1], notes) == ([False], [])


def test_a_hostile_folder_is_served_as_far_as_it_is_sound(tmp_path: Path) -> None:
    """As validate has them: a link out of the root, a huge file, a deep one, a folder link."""
    prompts = prompt_folder(tmp_path)
    outside = tmp_path / "secret.wink.yaml"
    outside.write_text("key: secret\nsections:\n  - {key: a, title: A, template: secret}\n")
    team = prompts / "team"
    (team / "link.wink.yaml").symlink_to(outside)
    (team / "deep.wink.yaml").write_text("key: deep\nx: " + "[" * 5000 + "]" * 5000 + "\n")
    (team / "big.wink.yaml").write_text("key: big\n# " + "x" * 3_000_000 + "\n")
    (prompts / "elsewhere").symlink_to(tmp_path)  # a link to a folder is not entered
    with ThreadPoolExecutor(1) as pool:  # bounded: a regression fails here, it never hangs
        server, log = pool.submit(build_server, prompts).result(timeout=TIMEOUT)
    assert [o.address for o in server.prompts.catalog.offered()] == ["agents/helper", "team/greet"]
    assert log.getvalue() == (
        f"{team / 'big.wink.yaml'}:1:1: error: This file is 3,000,012 bytes long, more than the "
        "limit of 1,000,000 bytes.\n"
        "  expected: a file of at most 1,000,000 bytes\n"
        "  hint: split the prompt into several smaller files, or allow more with --limit "
        "max_bytes=4000000\n"
        f"{team / 'deep.wink.yaml'}:2:67: error: Values are nested more than 64 levels deep "
        "here.\n"
        "  expected: at most 64 levels of nested mappings and lists\n"
        "   2 | ..." + "[" * 100 + "...\n"
        "     |" + " " * 44 + "^\n"
        "  hint: flatten the structure: nest mappings and lists less deeply, or allow more with "
        "--limit max_depth=128\n"
        f"{team / 'link.wink.yaml'}: error: This file is a symbolic link to a file outside the "
        "prompt root, so it is not read.\n"
        "  expected: a prompt file whose real path lies inside the prompt root\n"
        "  hint: replace the link with the file itself, or choose a prompt root that holds what "
        "it links to (--root)\n"
    )
