"""``wink-decl new NAME``: write a commented starter prompt that compiles as it is."""

from __future__ import annotations

import argparse
import os
import re
from importlib import resources
from pathlib import Path

from wink_decl._atomic import write_atomically, write_once
from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._starter import starter_text
from wink_decl.cli._writers._write_problems import already_exists, not_written
from wink_decl.diagnostics import render_text
from wink_decl.errors import WinkDeclError
from wink_decl.loader.api import Format
from wink_decl.prompt.keys import KEY_PATTERN
from wink_decl.schema import SCHEMA_FILE_NAME

__all__ = ["COMMAND", "SchemaNotWrittenError", "schema_ref_for", "write_schema_copy"]


_KEY_RULE = "use 1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit"
_NOT_KEY = re.compile(r"[^a-z0-9_-]+")
_CHECKOUT_MARKERS = (".git", ".hg", ".svn", ".jj", ".bzr")
"""Folders (or files) that mark the root of a version control checkout."""
_MOST_LEVELS = 64
"""How many folders up the search for a schema copy goes, at most."""
_PROMPT_SUFFIX = re.compile(r"(\.wink)?\.(ya?ml|toml)\Z", re.IGNORECASE)


def schema_ref_for(folder: Path, file_name: str = SCHEMA_FILE_NAME) -> str | None:
    """How a file in ``folder`` points at a schema: a relative path to the nearest copy.

    Each folder from ``folder`` up is searched for ``file_name`` (``wink-decl.schema.json``
    as ``new`` and ``wink-decl schema --output`` write it; the override files' schema for
    ``overrides seed``) and then ``schema/<file_name>`` (this repository's layout), up to the
    root of the version control checkout holding ``folder`` (or the file system's root, at
    most ``_MOST_LEVELS`` folders). None when no copy is found.
    """
    start = folder.resolve()
    for directory in (start, *start.parents)[:_MOST_LEVELS]:
        for candidate in (directory / file_name, directory / "schema" / file_name):
            if candidate.is_file():
                return Path(os.path.relpath(candidate, start)).as_posix()
        if any((directory / marker).exists() for marker in _CHECKOUT_MARKERS):
            return None  # a copy above the checkout is not the project's, nor shipped with it
    return None


def suggest_key(name: str) -> str | None:
    """A valid key close to ``name`` (``My Prompt`` gives ``my-prompt``), or None."""
    slug = _NOT_KEY.sub("-", _PROMPT_SUFFIX.sub("", name).lower()).strip("-_")
    slug = slug[:64].rstrip("-_")
    return slug if KEY_PATTERN.fullmatch(slug) else None


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the prompt's key, such as code-review")
    parser.add_argument(
        "--format",
        choices=("yaml", "toml"),
        default="yaml",
        help="write NAME.wink.yaml (the default) or NAME.wink.toml",
    )
    parser.add_argument(
        "--output",
        metavar="DIR",
        default=".",
        help="the folder to write to, made if missing (default: the current folder)",
    )
    parser.add_argument(
        "--schema",
        metavar="REF",
        help="what the first line points editors at (default: the relative path to the "
        "nearest wink-decl.schema.json or schema/wink-decl.schema.json in this folder or one "
        "above it, up to the checkout's root; without one, a copy of the schema is written "
        "beside the file as wink-decl.schema.json)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite an existing file")


def _run(args: argparse.Namespace, console: Console) -> int:
    name: str = args.name
    if not KEY_PATTERN.fullmatch(name):
        console.err.write(_bad_name(name))
        return 2
    file_format: Format = args.format
    folder = Path(args.output)
    if folder.exists() and not folder.is_dir():
        console.err.write(f"wink-decl new: error: --output '{folder}' is a file, not a folder.\n")
        return 2
    target = folder / f"{name}.wink.{file_format}"
    shown = str(target)
    if target.exists() and not args.force:
        console.err.write(render_text([already_exists(shown)]) + "\n")
        return 1
    schema_ref: str | None = args.schema or schema_ref_for(folder)
    try:
        if schema_ref is None:
            schema_ref = write_schema_copy(folder, console).name
        write_atomically(
            target, starter_text(name, file_format, schema_ref, target.name), make_folder=True
        )
    except SchemaNotWrittenError as failure:
        console.err.write(render_text([not_written(failure.shown, failure.error)]) + "\n")
        return 1
    except OSError as error:
        console.err.write(render_text([not_written(shown, error)]) + "\n")
        return 1
    console.out.write(f"Created {shown}\n")
    console.out.write(f"Next: edit it, then check it with: wink-decl validate {shown}\n")
    return 0


class SchemaNotWrittenError(WinkDeclError):
    """The schema copy could not be written; carries the OSError and the file it was about."""

    def __init__(self, shown: str, error: OSError) -> None:
        super().__init__(shown)
        self.shown = shown
        self.error = error


def write_schema_copy(
    folder: Path,
    console: Console,
    file_name: str = SCHEMA_FILE_NAME,
    package: str = "wink_decl.schema",
) -> Path:
    """Write the packaged schema ``file_name`` of ``package`` into ``folder``; its path.

    Editors then follow a schema line pointing at it offline, wherever the file is. The copy
    is made whole or not at all, and never over a file of that name: one made meanwhile is
    used as it is.
    """
    path = folder / file_name
    packaged = resources.files(package).joinpath(file_name).read_bytes()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if write_once(path, packaged, mode=0o666):  # the umask decides, as for any new file
            console.out.write(f"Created {path} (the schema the first line points at)\n")
    except OSError as error:
        raise SchemaNotWrittenError(str(path), error) from error
    return path


def _bad_name(name: str) -> str:
    suggestion = suggest_key(name)
    hint = (
        f"Did you mean '{suggestion}'? Run: wink-decl new {suggestion}"
        if suggestion
        else "For example: wink-decl new code-review"
    )
    problem = f"'{name}' is not a valid prompt name: {_KEY_RULE}."
    return f"wink-decl new: error: {problem}\n  hint: {hint}\n"


COMMAND = implemented("new", configure=_configure, run=_run)
