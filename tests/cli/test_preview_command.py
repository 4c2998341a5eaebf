"""``wink-decl preview``: its help, its arguments, the missing extra, and serving in-process."""

from __future__ import annotations

import contextlib
import io
import json
import socket
import subprocess
import sys
import threading
import time
import webbrowser
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from wink_decl.cli import _app
from wink_decl.cli._command import Console

Run = Callable[..., tuple[int, str, str]]

HELP = """\
usage: wink-decl preview [-h] [-v] [--root DIR] [--limit NAME=VALUE] [--overrides DIR] [--strict]
                         [--port N] [--host H] [--open]
                         [PATH]

Serves a page, on this machine only unless --host says otherwise, for the prompt files under PATH:
each file with its problems (validate's checks), and for the chosen one a form for its params, the
rendered text with each section's visibility switchable and summarized sections readable as
read_section reads them, the tools offered in the OpenAI or Anthropic format, and the size of each
section, with any tag of the prompt's override files applied (the overrides folder as render --tag
finds it). Saving a prompt or override file updates the page. Like render, it imports the plugin
code a render needs (every predicate the file names, and the handler of each tool that leaves its
params or its result to the handler). The address is the first line on stdout. Needs the preview
extra: pip install 'wink-decl[preview]'. Stop it with Ctrl-C.

positional arguments:
  PATH                a folder searched for .wink.yaml, .wink.yml, .wink.toml files, or one prompt
                      file (default: [tool.wink-decl] root in the nearest pyproject.toml, else the
                      current folder)

options:
  -h, --help          show this help and exit
  -v, --verbose       show the traceback when wink-decl or a plugin fails unexpectedly
  --root DIR          the prompt root: includes resolve against it and the default ns is the
                      file's folder below it (default: [tool.wink-decl] root in the nearest
                      pyproject.toml, else the file's folder)
  --limit NAME=VALUE  change a bound on the work prompt files may cause, such as max_bytes=5000000
                      (repeatable; docs/security.md lists every limit and its default)
  --overrides DIR     the overrides folder, holding NS/PROMPT-KEY/TAG.wink-override.yaml (or
                      .toml) (default: [tool.wink-decl] overrides in the nearest pyproject.toml
                      unless --root is given, else 'overrides' beside the prompt root)
  --strict            count a stale override (one whose base text has changed), and a tag the
                      prompt has no override file for, as an error, not a warning
  --port N            the port to listen on; 0 picks a free one (default: 8000)
  --host H            the address to listen on (default: 127.0.0.1, this machine only; any other
                      address lets other machines read these prompts and have them rendered here)
  --open              open the page in a web browser

examples:
  wink-decl preview prompts/
  wink-decl preview prompts/ --port 0 --open
"""


def test_help(cli: Run) -> None:
    status, out, err = cli("preview", "--help")
    assert (status, err) == (0, "")
    assert out == HELP


def test_the_help_and_the_frame_load_no_web_server() -> None:
    code = (
        "import json, sys\nfrom wink_decl.cli import main\nmain(['preview', '--help'])\n"
        "print(json.dumps(sorted(m for m in ('starlette', 'uvicorn', 'watchfiles', "
        "'wink_decl.preview') if m in sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(done.stdout.splitlines()[-1]) == []


@pytest.mark.parametrize("missing", [["starlette"], ["uvicorn", "watchfiles"]], ids=["one", "two"])
def test_without_the_extra_it_says_what_to_install(
    cli: Run, project: Path, monkeypatch: pytest.MonkeyPatch, missing: list[str]
) -> None:
    for name in missing:
        monkeypatch.setitem(sys.modules, name, None)  # find_spec: None, as when not installed
    names = " and ".join(missing)
    assert cli("preview") == (
        2,
        "",
        f"wink-decl: error: preview needs {names}, not installed\n"
        "  hint: pip install 'wink-decl[preview]'\n",
    )


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (
            ["--port", "70000"],
            "wink-decl: error: argument --port: expected a port from 0 to 65535, not '70000'\n"
            "  run 'wink-decl preview --help' for its options\n",
        ),
        (
            ["--port", "-1"],
            "wink-decl: error: argument --port: expected a port from 0 to 65535, not '-1'\n"
            "  run 'wink-decl preview --help' for its options\n",
        ),
        (
            ["prompt"],
            "wink-decl: error: no such file or folder: 'prompt'\n  hint: did you mean 'prompts'?\n",
        ),
    ],
    ids=["port-too-high", "port-negative", "no-such-path"],
)
def test_wrong_arguments_are_usage_errors(
    cli: Run, project: Path, argv: list[str], error: str
) -> None:
    assert cli("preview", *argv) == (2, "", error)


@pytest.mark.parametrize("open_page", [True, False], ids=["open", "no-open"])
def test_it_serves_the_default_root_until_stopped(
    project: Path, monkeypatch: pytest.MonkeyPatch, open_page: bool
) -> None:
    servers: list[uvicorn.Server] = []
    serve = uvicorn.Server.run

    def recorded(server: uvicorn.Server, sockets: list[object] | None = None) -> None:
        servers.append(server)
        serve(server, sockets=sockets)  # pyright: ignore[reportArgumentType]

    monkeypatch.setattr(uvicorn.Server, "run", recorded)
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", opened.append)
    out, err = io.StringIO(), io.StringIO()
    statuses: list[int] = []
    argv = ["preview", "--port", "0", *(["--open"] if open_page else [])]
    thread = threading.Thread(target=lambda: statuses.append(_app.run(argv, Console(out, err))))
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not (servers and servers[0].started) and time.monotonic() < deadline:
            time.sleep(0.05)
        address = out.getvalue().splitlines()[0]
        files = httpx.get(address + "api/files", timeout=10).json()["html"]
    finally:
        for server in servers:
            server.should_exit = True
        thread.join(20)
    assert opened == ([address] if open_page else [])
    assert address.startswith("http://127.0.0.1:")
    assert files.count("<li>") == 4
    assert 'data-file="research/assistant.wink.yaml"' in files
    assert (statuses, out.getvalue(), err.getvalue()) == ([0], address + "\n", "")


@pytest.mark.parametrize(
    ("argv", "overrides", "strict"),
    [
        ([], "{project}/overrides", False),
        (["--overrides", "variants", "--strict"], "variants", True),
    ],
    ids=["beside-the-root", "given"],
)
def test_the_page_reads_the_overrides_folder_render_would(
    cli: Run,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    overrides: str,
    strict: bool,
) -> None:
    from wink_decl.limits import DEFAULT_LIMITS  # noqa: PLC0415
    from wink_decl.preview import server  # noqa: PLC0415
    from wink_decl.preview.files import PromptFolder  # noqa: PLC0415

    (project / "variants").mkdir()
    served: list[PromptFolder] = []

    def serve(folder: PromptFolder, *_args: object, **_kwargs: object) -> None:
        served.append(folder)

    def listen(_host: str, _port: int) -> object:
        return object()  # no socket: nothing is served

    monkeypatch.setattr(server, "listen", listen)
    monkeypatch.setattr(server, "serve", serve)
    assert cli("preview", *argv) == (0, "", "")
    prompts = project / "prompts"  # the configured root, made absolute when it is read
    folder = Path(overrides.format(project=project))
    assert served == [PromptFolder(prompts, prompts, DEFAULT_LIMITS, folder, strict)]


@contextlib.contextmanager
def taken_port() -> Iterator[int]:
    """A port on 127.0.0.1 that another socket listens on."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


BUSY = (
    "wink-decl: error: --port: 127.0.0.1:{port} is in use; choose another port, or --port 0 "
    "for a free one\n"
)
UNKNOWN_HOST = (
    "wink-decl: error: --host: no address found for '{host}'; give a name or address of this "
    "machine, such as 127.0.0.1\n"
)


def test_a_busy_port_is_a_usage_error(cli: Run, project: Path) -> None:
    with taken_port() as port:
        assert cli("preview", "--port", str(port)) == (2, "", BUSY.format(port=port))


@pytest.mark.parametrize(
    "host",
    ["no-such-host.invalid", "a..b", "x" * 64],
    ids=["unknown", "empty-label", "label-too-long"],
)
def test_a_host_without_an_address_is_a_usage_error(cli: Run, project: Path, host: str) -> None:
    """An empty or over-long label is refused before any lookup (idna); the others by it."""
    assert cli("preview", "--host", host) == (2, "", UNKNOWN_HOST.format(host=host))


def test_an_address_of_no_interface_is_a_usage_error(cli: Run, project: Path) -> None:
    """0.0.0.1 is no address of any machine: the system refuses to bind it."""
    assert cli("preview", "--host", "0.0.0.1") == (
        2,
        "",
        "wink-decl: error: cannot listen on 0.0.0.1:8000: Cannot assign requested address\n",
    )


def wink_decl(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real command in its own process, killed (and the test failed) after 60 s."""
    return subprocess.run(
        [sys.executable, "-m", "wink_decl", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        check=False,
    )


def test_the_command_reports_a_busy_port_in_one_line(project: Path) -> None:
    """Nothing before it on stdout, no traceback: the socket is bound before the address shows."""
    with taken_port() as port:
        done = wink_decl("preview", "--port", str(port), cwd=project)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", BUSY.format(port=port))


def test_the_command_reports_an_unknown_host_in_one_line(project: Path) -> None:
    done = wink_decl("preview", "--host", "no-such-host.invalid", cwd=project)
    expected = UNKNOWN_HOST.format(host="no-such-host.invalid")
    assert (done.returncode, done.stdout, done.stderr) == (2, "", expected)
