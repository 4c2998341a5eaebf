"""``wink-decl mcp``: prompt files, and a prompt's tools, served to MCP clients."""

from __future__ import annotations

import argparse
import importlib.util
import socket
from pathlib import Path
from typing import TYPE_CHECKING

from wink_decl._install_hint import install_hint
from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._prompt import add_limit_option, add_root_option, limits_from, report
from wink_decl.cli._render import render_text_form
from wink_decl.cli._run import add_workspace_options, workspace_filesystem
from wink_decl.cli._tagging import add_tag_options
from wink_decl.cli._usage import UsageError
from wink_decl.compiler import PROMPT_SUFFIXES
from wink_decl.errors import InputError
from wink_decl.inputs import (
    PromptRequest,
    chosen_overrides,
    existing_path,
    overrides_folder,
    prepare,
    root_finder,
    split_param,
)

if TYPE_CHECKING:
    from wink_decl.limits import Limits
    from wink_decl.mcp import Agent, McpServer
    from wink_decl.runtime.filesystem import Filesystem

__all__ = ["COMMAND", "EXTRA"]

EXTRA = ("mcp", "watchfiles")
"""What the ``[mcp]`` extra installs; the command needs each of them."""
_LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
"""Addresses of this machine only: served over --http without a token."""


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "path",
        metavar="PATH",
        help=f"a folder searched for {', '.join(PROMPT_SUFFIXES)} files, or one prompt file: "
        "each is served as an MCP prompt named by its address (ns/key)",
    )
    add_root_option(parser)
    add_limit_option(parser)
    parser.add_argument(
        "--agent",
        metavar="FILE",
        help="a prompt file whose tools are served as MCP tools, rendered with --param and "
        "--params-file; each client gets a session of its own",
    )
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a param value of the --agent prompt, converted by its declared type (repeatable; "
        "wins over --params-file)",
    )
    parser.add_argument(
        "--params-file",
        metavar="FILE",
        help="a .yaml, .yml, .toml or .json file mapping the --agent prompt's params to values",
    )
    add_tag_options(parser)
    add_workspace_options(parser)
    parser.add_argument(
        "--http",
        type=_address,
        metavar="HOST:PORT",
        help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio; port 0 picks a "
        "free one, and the address is the first line on stdout. An address other than "
        "127.0.0.1, ::1 or localhost needs --token",
    )
    parser.add_argument(
        "--token",
        metavar="T",
        help="over --http, answer only requests carrying Authorization: Bearer T",
    )


_LAST_PORT = 65535


def _address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (an IPv6 host in brackets, such as [::1]:8765)."""
    host, colon, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    number = int(port) if port.isdigit() else -1
    if not colon or not host or not 0 <= number <= _LAST_PORT:
        message = f"expected HOST:PORT with a port from 0 to {_LAST_PORT}, not '{text}'"
        raise argparse.ArgumentTypeError(message)
    return host, number


def _run(args: argparse.Namespace, console: Console) -> int:
    missing = [name for name in EXTRA if importlib.util.find_spec(name) is None]
    if missing:
        names = " and ".join(missing)
        raise UsageError(f"mcp needs {names}, not installed", hint=install_hint("mcp"))
    if args.token is not None and args.http is None:
        raise UsageError("--token needs --http", hint="stdio has no tokens: the client starts it")
    if args.http is not None and args.http[0].lower() not in _LOOPBACK and args.token is None:
        raise UsageError(
            f"--http {args.http[0]}: serving other machines needs --token",
            hint="give --token T, and give clients the header Authorization: Bearer T",
        )
    target = existing_path(args.path)
    root = root_finder(args.root)(target)
    limits = limits_from(args)
    filesystem, host = workspace_filesystem(
        args.workspace, allow_writes=args.allow_writes, command="mcp"
    )
    try:
        agent = None if args.agent is None else _agent(args, console, limits, filesystem)
        if args.agent is not None and agent is None:
            return 1
        server = _server(args, console, (target, root, limits), agent)
        _serve(server, args, console, _watched(args, target, root))
    finally:
        if host is not None:
            host.close()
    return 0


def _agent(
    args: argparse.Namespace, console: Console, limits: Limits, filesystem: Filesystem
) -> Agent | None:
    """The ``--agent`` prompt prepared with its params; None (reported) when it has errors."""
    from wink_decl.mcp import Agent  # noqa: PLC0415  # the SDK loads only when serving

    request = PromptRequest(
        file=args.agent,
        root=args.root,
        limits=limits,
        params=tuple(split_param(text) for text in args.param),
        params_file=args.params_file,
        tag=args.tag,
        overrides=args.overrides,
        strict=args.strict,
    )
    prepared = prepare(request, plugins="all")
    for found in prepared.reports:
        report(console, found.diagnostics, found.sources)
    return Agent(prepared, filesystem) if prepared.ok else None


def _server(
    args: argparse.Namespace,
    console: Console,
    where: tuple[Path, Path, Limits],
    agent: Agent | None,
) -> McpServer:
    from wink_decl.mcp import McpServer, PromptCatalog, PromptServing  # noqa: PLC0415

    target, root, limits = where

    def write(text: str) -> None:
        console.err.write(text + "\n")
        console.err.flush()

    catalog = PromptCatalog(target, root, limits, write)
    catalog.refresh()
    # The folder render reads for this root: --overrides, else the configured one (a root the
    # catalog found is not a --root given, so the setting still counts), else the default.
    chosen = chosen_overrides(args.overrides, root_given=args.root is not None)
    prompts = PromptServing(
        catalog,
        limits,
        tag=args.tag,
        overrides=None if chosen is None or not chosen.is_dir() else str(chosen),
        strict=args.strict,
        render_text=render_text_form,
    )
    return McpServer(prompts, agent)


def _serve(
    server: McpServer, args: argparse.Namespace, console: Console, watched: list[Path]
) -> None:
    import anyio  # noqa: PLC0415  # as the SDK, only now

    from wink_decl.mcp import serve_http, serve_stdio  # noqa: PLC0415

    try:
        if args.http is None:
            anyio.run(serve_stdio, server, watched)
            return
        host, port = args.http
        sock = _listen(host, port)
        anyio.run(serve_http, server, sock, (host, args.token), watched, console.out)
    except* InputError as group:  # a folder that cannot be watched: told in one line
        raise _first(group) from None


def _first(group: BaseExceptionGroup[InputError]) -> InputError:
    """The error inside the task groups' groups (the watch fails before anything else runs)."""
    error: InputError | BaseExceptionGroup[InputError] = group
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


def _listen(host: str, port: int) -> socket.socket:
    """The bound socket; a host that does not resolve or an address in use is a usage error."""
    from wink_decl.preview.server import listen  # noqa: PLC0415  # only for --http

    try:
        return listen(host, port)
    except (socket.gaierror, UnicodeError):
        raise UsageError(f"--http: no address found for '{host}'") from None
    except OSError as error:  # a port in use, an address not of this machine
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        message = f"--http: cannot listen on {where}: {error.strerror}"
        raise UsageError(message, hint="choose another address, or port 0 for a free one") from None


def _watched(args: argparse.Namespace, target: Path, root: Path) -> list[Path]:
    """The served folder, the prompt root, and the overrides folder when it exists."""
    base = target if target.is_dir() else target.parent
    paths = {base.resolve(), root.resolve()}
    overrides = overrides_folder(args.overrides, root, root_given=args.root is not None)
    if overrides.is_dir():
        paths.add(overrides.resolve())
    return sorted(paths)


COMMAND = implemented("mcp", configure=_configure, run=_run)
