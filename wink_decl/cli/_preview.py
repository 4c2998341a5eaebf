"""``wink-decl preview``: a local page showing prompt files as a model receives them."""

from __future__ import annotations

import argparse
import errno
import importlib.util
import socket

from wink_decl._install_hint import install_hint
from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._overrides_folder import add_overrides_option, overrides_root
from wink_decl.cli._prompt import add_limit_option, add_root_option, limits_from
from wink_decl.cli._usage import UsageError
from wink_decl.compiler import PROMPT_SUFFIXES
from wink_decl.inputs import default_folder, existing_path, root_finder

__all__ = ["COMMAND", "EXTRA"]

EXTRA = ("starlette", "uvicorn", "watchfiles")
"""What the ``[preview]`` extra installs; the command needs each of them."""

_LOCAL = "127.0.0.1"
_LAST_PORT = 65535


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "path",
        nargs="?",
        metavar="PATH",
        help=f"a folder searched for {', '.join(PROMPT_SUFFIXES)} files, or one prompt file "
        "(default: [tool.wink-decl] root in the nearest pyproject.toml, else the current folder)",
    )
    add_root_option(parser)
    add_limit_option(parser)
    add_overrides_option(parser, tags=True)
    parser.add_argument(
        "--port",
        type=_port,
        default=8000,
        metavar="N",
        help="the port to listen on; 0 picks a free one (default: 8000)",
    )
    parser.add_argument(
        "--host",
        default=_LOCAL,
        metavar="H",
        help=f"the address to listen on (default: {_LOCAL}, this machine only; any other "
        "address lets other machines read these prompts and have them rendered here)",
    )
    parser.add_argument("--open", action="store_true", help="open the page in a web browser")


def _port(text: str) -> int:
    value = int(text) if text.isdigit() else -1
    if not 0 <= value <= _LAST_PORT:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to {_LAST_PORT}, not '{text}'")
    return value


def _run(args: argparse.Namespace, console: Console) -> int:
    missing = [name for name in EXTRA if importlib.util.find_spec(name) is None]
    if missing:
        names = " and ".join(missing)
        raise UsageError(f"preview needs {names}, not installed", hint=install_hint("preview"))
    target = existing_path(args.path) if args.path is not None else default_folder()
    root = root_finder(args.root)(target)
    # Imported only now: the rest of the command line never loads a web server.
    from wink_decl.preview.files import PromptFolder  # noqa: PLC0415
    from wink_decl.preview.server import serve  # noqa: PLC0415

    overrides = overrides_root(args, root)
    folder = PromptFolder(target, root, limits_from(args), overrides, args.strict)
    sock = _listen(args.host, args.port)
    serve(folder, sock, console.out, host=args.host, open_page=args.open)
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """The bound socket; a host that does not resolve or an address in use is a usage error."""
    from wink_decl.preview.server import listen  # noqa: PLC0415  # as serve, only now

    try:
        return listen(host, port)
    except (socket.gaierror, UnicodeError):  # idna refuses an empty or over-long label
        message = f"--host: no address found for '{host}'; give a name or address of this "
        raise UsageError(message + f"machine, such as {_LOCAL}") from None
    except OSError as error:
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        if error.errno == errno.EADDRINUSE:
            message = f"--port: {where} is in use; choose another port, or --port 0 for a free one"
            raise UsageError(message) from None
        raise UsageError(f"cannot listen on {where}: {error.strerror}") from None


COMMAND = implemented("preview", configure=_configure, run=_run)
