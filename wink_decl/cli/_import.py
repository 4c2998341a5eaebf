"""``wink-decl import FILE``: a Prompty, Dotprompt or LangChain prompt as a prompt file."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import cast

from wink_decl._atomic import write_atomically
from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._new import schema_ref_for
from wink_decl.cli._prompt import add_limit_option, limits_from, report
from wink_decl.cli._usage import UsageError
from wink_decl.cli._writers._imported_text import imported_text
from wink_decl.cli._writers._write_problems import already_exists, not_written
from wink_decl.importing import import_peer_file
from wink_decl.loader.api import Format

__all__ = ["COMMAND"]

_ENDINGS: dict[str, Format] = {".wink.yaml": "yaml", ".wink.toml": "toml"}


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        metavar="FILE",
        help="the prompt to import: .prompty, .prompt, or LangChain .json/.yaml",
    )
    parser.add_argument(
        "--output",
        metavar="NAME",
        help="the file to write, in FILE's folder (a path below it works too), ending in "
        ".wink.yaml or .wink.toml; '-' for standard output (default: FILE's name with "
        ".wink.yaml, or .wink.toml with --to toml)",
    )
    parser.add_argument(
        "--to", choices=("yaml", "toml"), help="the format to write (default: NAME's, else yaml)"
    )
    parser.add_argument("--force", action="store_true", help="overwrite an existing file")
    add_limit_option(parser)


def _run(args: argparse.Namespace, console: Console) -> int:
    limits = limits_from(args)
    shown: str = args.file
    to = _format(args.to, args.output)
    folder = Path(shown).parent
    imported = import_peer_file(shown, limits=limits)
    sources = {shown: imported.text} if imported.text is not None else {}
    report(console, imported.diagnostics, sources)
    if imported.document is None:
        return 1
    target = _target(folder, shown, to, args.output, imported.document)
    schema_ref = schema_ref_for(folder if target is None else target.parent)
    text = imported_text(imported, to, schema_ref)
    if target is None:
        console.out.write(text)
        return 0
    if target.exists() and not args.force:
        console.err.write(render_exists(str(target)))
        return 1
    try:
        write_atomically(target, text, make_folder=True)
    except OSError as error:
        report(console, [not_written(str(target), error)], {})
        return 1
    console.out.write(f"Wrote {target}\nNext: check it with: wink-decl validate {target}\n")
    return 0


def render_exists(shown: str) -> str:
    """The refusal to overwrite ``shown``, as ``new`` and ``convert`` word it."""
    from wink_decl.diagnostics import render_text  # noqa: PLC0415

    return render_text([already_exists(shown)]) + "\n"


def _format(to: Format | None, output: str | None) -> Format:
    """``--to``, else what ``--output`` ends in, else YAML; a contradiction is a usage error."""
    named = next((f for end, f in _ENDINGS.items() if (output or "").lower().endswith(end)), None)
    if output not in (None, "-") and named is None:
        raise UsageError(
            f"--output '{output}' does not end in .wink.yaml or .wink.toml, so validate would "
            "not find it",
            hint=f"name it like {Path(output or '').stem.split('.')[0]}.wink.{to or 'yaml'}",
        )
    if to is not None and named is not None and named != to:
        raise UsageError(f"--output '{output}' is {named.upper()} but --to says {to}")
    return cast("Format", to or named or "yaml")


def _target(
    folder: Path, shown: str, to: Format, output: str | None, document: dict[str, object]
) -> Path | None:
    """Where to write, inside ``folder``; None for standard output."""
    if output == "-":
        return None
    if output is None:
        return folder / f"{document['key']}.wink.{to}"
    target = folder / output
    real_folder = os.path.realpath(folder)
    real_parent = os.path.realpath(target.parent)
    inside = real_parent == real_folder or real_parent.startswith(real_folder + os.sep)
    if Path(output).is_absolute() or ".." in Path(output).parts or not inside:
        raise UsageError(
            f"--output '{output}' is not inside the folder of '{shown}', and import writes "
            "only there",
            hint="name a file in that folder, such as "
            f"{document['key']}.wink.{to}; move it afterwards if you want it elsewhere",
        )
    return target


COMMAND = implemented("import", configure=_configure, run=_run)
