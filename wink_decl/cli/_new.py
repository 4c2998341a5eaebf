"""``wink-decl new NAME``: write a commented starter prompt that compiles as it is."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

from wink_decl._atomic import write_atomically
from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._starter import starter_text
from wink_decl.cli._writers._write_problems import already_exists, not_written
from wink_decl.diagnostics import render_text
from wink_decl.loader.api import Format
from wink_decl.prompt.keys import KEY_PATTERN
from wink_decl.schema import SCHEMA_FILE_NAME, SCHEMA_URL

__all__ = ["COMMAND", "schema_ref_for"]


_KEY_RULE = "use 1-64 lowercase letters, digits, '_' or '-', starting with a letter or digit"
_NOT_KEY = re.compile(r"[^a-z0-9_-]+")
_PROMPT_SUFFIX = re.compile(r"(\.wink)?\.(ya?ml|toml)\Z", re.IGNORECASE)


def schema_ref_for(folder: Path) -> str:
    """How a file in ``folder`` points at the schema: a relative path to the nearest copy.

    Each folder from ``folder`` up is searched for ``wink-decl.schema.json`` (as written by
    ``wink-decl schema --output``) and then ``schema/wink-decl.schema.json`` (this
    repository's layout). Without either, the published ``SCHEMA_URL``.
    """
    start = folder.resolve()
    for directory in (start, *start.parents):
        for candidate in (directory / SCHEMA_FILE_NAME, directory / "schema" / SCHEMA_FILE_NAME):
            if candidate.is_file():
                return Path(os.path.relpath(candidate, start)).as_posix()
    return SCHEMA_URL


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
        "nearest schema/wink-decl.schema.json, else the published schema's address)",
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
    schema_ref: str = args.schema or schema_ref_for(folder)
    try:
        write_atomically(
            target, starter_text(name, file_format, schema_ref, target.name), make_folder=True
        )
    except OSError as error:
        console.err.write(render_text([not_written(shown, error)]) + "\n")
        return 1
    console.out.write(f"Created {shown}\n")
    console.out.write(f"Next: edit it, then check it with: wink-decl validate {shown}\n")
    return 0


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
