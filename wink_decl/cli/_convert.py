"""``wink-decl convert FILE --to yaml|toml``: the same prompt, written in the other format."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from pathlib import Path
from typing import cast
from urllib.parse import urlsplit

from wink_decl._atomic import write_atomically
from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._writers._comments import comment_lines, find_schema_ref, schema_line
from wink_decl.cli._writers._toml_writer import NullValueError, to_toml
from wink_decl.cli._writers._write_problems import already_exists, not_written
from wink_decl.cli._writers._yaml_writer import to_yaml
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, render_text
from wink_decl.loader import LoadedFile, detect_format, load_file
from wink_decl.loader.api import Format

__all__ = ["COMMAND", "convert_text"]

_NAMES = {"yaml": "YAML", "toml": "TOML"}
_OTHER: dict[Format, Format] = {"yaml": "toml", "toml": "yaml"}


def convert_text(file: LoadedFile, to: Format, *, folder: Path | None = None) -> str:
    """The text of ``file`` in format ``to``: its schema line (translated), then its data.

    A relative schema path is rewritten to work from ``folder``, where the text will be
    written (by default the file's own folder, which keeps it as it is).

    Raises:
        NullValueError: ``to`` is TOML and the data holds a null, which TOML cannot write.
    """
    data = cast("Mapping[str, object]", file.data)  # the loader refuses anything else
    body = to_toml(data) if to == "toml" else to_yaml(data)
    found = find_schema_ref(file.text)
    if found is None:
        return body
    return schema_line(_moved(found[0], Path(file.path).parent, folder), to) + body


def _moved(ref: str, source: Path, folder: Path | None) -> str:
    """``ref``, relative to ``source``, made relative to ``folder`` (URLs stay as they are)."""
    if folder is None or urlsplit(ref).scheme or Path(ref).is_absolute():
        return ref
    if source.resolve() == folder.resolve():
        return ref
    return Path(os.path.relpath(source.resolve() / ref, folder.resolve())).as_posix()


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the prompt file to convert")
    parser.add_argument("--to", choices=("yaml", "toml"), required=True, help="the format to write")
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="where to write, or '-' for standard output; name it NAME.wink.toml or "
        "NAME.wink.yaml, as validate finds prompt files by those endings (default: beside "
        "FILE, with the other format's extension, such as review.wink.toml for "
        "review.wink.yaml)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite an existing file")


def _run(args: argparse.Namespace, console: Console) -> int:
    to: Format = args.to
    shown: str = args.file
    problem = _usage_problem(shown, to, args.output)
    if problem is not None:
        console.err.write(f"wink-decl convert: error: {problem}\n")
        return 2
    loaded = load_file(shown)
    if loaded.file is None:
        console.err.write(render_text(loaded.diagnostics, _readable(shown)) + "\n")
        return 1
    file = loaded.file
    target = _target(shown, to, args.output)
    try:
        text = convert_text(file, to, folder=None if target is None else target.parent)
    except NullValueError as error:
        found = [_null(file, path) for path in error.paths]
        console.err.write(render_text(found, {file.path: file.text}) + "\n")
        return 1
    if target is None:
        console.out.write(text)
    elif not _write(target, text, console, force=args.force):
        return 1
    else:
        console.out.write(f"Wrote {target}\n")
    console.err.write(_comments_note(file))
    return 0


def _write(target: Path, text: str, console: Console, *, force: bool) -> bool:
    """Write ``text`` to ``target``, or say on stderr why not and return False."""
    if target.exists() and not force:
        console.err.write(render_text([already_exists(str(target))]) + "\n")
        return False
    try:
        write_atomically(target, text, make_folder=True)
    except OSError as error:
        console.err.write(render_text([not_written(str(target), error)]) + "\n")
        return False
    return True


def _target(shown: str, to: Format, output: str | None) -> Path | None:
    """Where to write: ``--output``, else beside the input; None for standard output."""
    if output == "-":
        return None
    return Path(output) if output else Path(shown).with_suffix(f".{to}")


def _usage_problem(shown: str, to: Format, output: str | None) -> str | None:
    """Why the command line cannot work, before any file is read; None when it can."""
    if detect_format(shown) == to:
        other = _OTHER[to]
        return (
            f"'{shown}' is already {_NAMES[to]}; to write it as {_NAMES[other]}, use --to {other}."
        )
    if output not in (None, "-") and detect_format(output) != to:
        return (
            f"--output '{output}' does not end in .{to}, so it would not be read as "
            f"{_NAMES[to]}; name it like {_prompt_name(output, to)}."
        )
    return None


def _prompt_name(output: str, to: Format) -> str:
    """``output`` named as a prompt file of format ``to``: ``out`` -> ``out.wink.toml``.

    Validating a folder finds only ``*.wink.yaml`` and ``*.wink.toml``, so the suggestion
    keeps (or adds) the ``.wink`` part that a bare ``out.toml`` would lack.
    """
    stem = Path(output).stem.removesuffix(".wink")
    return str(Path(output).with_name(f"{stem}.wink.{to}"))


def _readable(shown: str) -> dict[str, str]:
    """The file's text for quoting lines in a report, even when it did not load."""
    try:
        return {shown: Path(shown).read_bytes().decode("utf-8", errors="replace")}
    except OSError:
        return {}


def _null(file: LoadedFile, path: tuple[str | int, ...]) -> Diagnostic:
    return Diagnostic(
        message="This value is empty (null), and TOML has no way to write an empty value.",
        span=file.source_map.value_span(path),
        code=DiagnosticCode.NULL_IN_TOML,
        expected="a text, number, true/false, list or mapping",
        hint="Write a value here, or remove the entry, then convert again.",
        path=file.path,
    )


def _comments_note(file: LoadedFile) -> str:
    """Comments cannot be carried over: say how many were left behind, if any."""
    lines = comment_lines(file.text, file.format)
    found = find_schema_ref(file.text)
    if found:
        lines.discard(found[1])  # the schema line is translated, not lost
    if not lines:
        return ""
    count = f"{len(lines)} comment line{'s' if len(lines) > 1 else ''}"
    return f"note: comments are not carried over ({count} in {file.path})\n"


COMMAND = implemented("convert", configure=_configure, run=_run)
