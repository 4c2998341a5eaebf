"""``wink-decl overrides seed|check|repin|diff``: write, check, re-pin, compare tagged variants."""

from __future__ import annotations

import argparse
import difflib
import os
from pathlib import Path
from typing import Literal

from wink_decl._atomic import write_atomically
from wink_decl.cli._app import _Parser, _PrintAction  # pyright: ignore[reportPrivateUsage]
from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._inputs import add_render_options, prepared_from_args, render_prepared
from wink_decl.cli._new import SchemaNotWrittenError, schema_ref_for, write_schema_copy
from wink_decl.cli._overrides_folder import add_overrides_option, overrides_root
from wink_decl.cli._overrides_repin import repin, repin_options
from wink_decl.cli._prompt import (
    add_file_options,
    add_limit_option,
    add_root_option,
    limits_from,
    report,
)
from wink_decl.cli._render import render_text_form
from wink_decl.cli._tagging import add_tag_options
from wink_decl.cli._usage import UsageError
from wink_decl.cli._writers._comments import schema_line
from wink_decl.cli._writers._toml_writer import to_toml
from wink_decl.cli._writers._write_problems import already_exists, not_written
from wink_decl.cli._writers._yaml_writer import to_yaml
from wink_decl.compiler import compile_file, find_prompt_files
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, render_text, sort_diagnostics
from wink_decl.inputs import default_folder, existing_path, root_finder
from wink_decl.loader.api import Format
from wink_decl.overrides import LocalOverrideStore, override_problems, seed_data
from wink_decl.overrides.schema import OVERRIDE_SCHEMA_FILE_NAME
from wink_decl.overrides.store import OVERRIDE_SUFFIXES
from wink_decl.suggestions import did_you_mean_sentence

__all__ = ["COMMAND"]

_HELP = "show this help and exit"


def _configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(
        dest="action", metavar="ACTION", required=True, parser_class=_Parser
    )
    for name, about, configure in (
        ("seed", "write an override file holding the prompt's current texts", _seed_options),
        ("check", "report stale, unknown and refused entries of every tag", _check_options),
        (
            "repin",
            "list a tag's stale entries with their base texts, or re-pin them keeping the texts",
            repin_options,
        ),
        ("diff", "show the rendered prompt without and with a tag, as a diff", _diff_options),
    ):
        action: _Parser = actions.add_parser(
            name,
            command=f"overrides {name}",
            prog=f"wink-decl overrides {name}",
            help=about,
            description=about[:1].upper() + about[1:] + ".",
            add_help=False,
            allow_abbrev=False,
        )
        action.add_argument("-h", "--help", action=_PrintAction, help=_HELP)
        configure(action)


def _seed_options(parser: argparse.ArgumentParser) -> None:
    add_file_options(parser)
    add_tag_options(parser)
    parser.add_argument(
        "--format",
        choices=("yaml", "toml"),
        default="yaml",
        help="the file's format (default: yaml)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite an existing file")


def _check_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="prompt files or folders (default: [tool.wink-decl] root, else the current folder)",
    )
    add_root_option(parser)
    add_limit_option(parser)
    add_overrides_option(parser)


def _diff_options(parser: argparse.ArgumentParser) -> None:
    add_render_options(parser)
    parser.add_argument(
        "--context",
        type=_context_lines,
        default=3,
        metavar="N",
        help="lines of context, 0 or more (default: 3)",
    )


def _context_lines(text: str) -> int:
    """``--context``: a whole number of lines, 0 or more (difflib takes -1 and prints it)."""
    value = int(text) if text.isascii() and text.isdigit() else -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 0, not '{text}'")
    return value


def _run(args: argparse.Namespace, console: Console) -> int:
    action: Literal["seed", "check", "repin", "diff"] = args.action
    if action == "seed":
        return _seed(args, console)
    if action == "check":
        return _check(args, console)
    if action == "repin":
        return repin(args, console)
    return _diff(args, console)


# -- seed ---------------------------------------------------------------------------------------


def _seed(args: argparse.Namespace, console: Console) -> int:
    if args.tag is None:
        raise UsageError("overrides seed needs --tag TAG", command="overrides seed")
    # The texts as written are seeded: no tag is applied, and no params are needed.
    prepared = prepared_from_args(args, console, plugins="render", params=False, tag=False)
    if prepared is None:
        return 1
    template = prepared.template
    store = LocalOverrideStore(prepared.location.overrides_folder)
    suffix = OVERRIDE_SUFFIXES[0] if args.format == "yaml" else OVERRIDE_SUFFIXES[1]
    target = store.path_for(template.ns, template.key, args.tag, suffix=suffix)
    shown = os.path.relpath(target)
    other = store.path_for(
        template.ns,
        template.key,
        args.tag,
        suffix=next(x for x in OVERRIDE_SUFFIXES if x != suffix),
    )
    if os.path.lexists(other):
        console.err.write(render_text([_other_format(os.path.relpath(other))]) + "\n")
        return 1
    if os.path.lexists(target) and not args.force:
        console.err.write(render_text([already_exists(shown)]) + "\n")
        return 1
    data = seed_data(template)
    body = to_yaml(data) if args.format == "yaml" else to_toml(data)
    overrides = Path(os.path.relpath(store.root))
    return _write_seed(target, shown, body, overrides, args.format, console)


def _write_seed(
    target: Path, shown: str, body: str, overrides: Path, file_format: Format, console: Console
) -> int:
    """Write the seeded file (and the override schema, when none is near); the exit status."""
    try:
        text = schema_line(_schema_ref(target.parent, overrides, console), file_format) + body
        write_atomically(target, text, make_folder=True)
    except SchemaNotWrittenError as failure:
        problem = not_written(failure.shown, failure.error)
    except OSError as error:
        problem = not_written(shown, error)
    else:
        console.out.write(f"Created {shown}\n")
        return 0
    console.err.write(render_text([problem]) + "\n")
    return 1


def _other_format(shown: str) -> Diagnostic:
    return Diagnostic(
        message="This tag has this override file already, in the other format; nothing was "
        "written.",
        span=None,
        code=DiagnosticCode.FILE_EXISTS,
        hint="Edit that file, or delete it first to seed the tag in this format.",
        path=shown,
    )


def _schema_ref(folder: Path, overrides: Path, console: Console) -> str:
    """The relative path from ``folder`` to the nearest override schema.

    Without a copy in ``folder`` or above it (up to the checkout's root), the packaged one is
    written at the top of the overrides folder, where every later seed finds it: editors follow
    the line offline.
    """
    found = schema_ref_for(folder, OVERRIDE_SCHEMA_FILE_NAME)
    if found is not None:
        return found
    copy = write_schema_copy(overrides, console, OVERRIDE_SCHEMA_FILE_NAME, "wink_decl.overrides")
    return Path(os.path.relpath(copy, folder)).as_posix()


# -- check --------------------------------------------------------------------------------------


def _check(args: argparse.Namespace, console: Console) -> int:
    targets = [existing_path(text) for text in args.paths] or [default_folder()]
    find_root = root_finder(args.root)
    limits = limits_from(args)
    found: list[Diagnostic] = []
    sources: dict[str, str] = {}
    checked = 0
    counted: set[tuple[str, str]] = set()
    """Each overrides folder and address whose files were counted: two prompt files of one
    address (``x.wink.yaml`` and ``x.wink.toml``) are both checked against the same files."""
    for target in targets:
        root = find_root(target)
        store = LocalOverrideStore(overrides_root(args, root), limits=limits)
        folder = os.path.realpath(store.root)
        addresses: set[str] | None = set()
        for file in find_prompt_files(target) if target.is_dir() else [target]:
            shown = str(file)
            result = compile_file(shown, root=root, display_path=shown, limits=limits)
            sources.update(result.sources)
            if result.prompt is None:
                found.extend(result.diagnostics)
                addresses = None  # its address is unknown: its files are not orphans
                continue
            template = result.prompt.template
            address = template.label
            if addresses is not None:
                addresses.add(address)
            problems, texts, count = override_problems(template, store, strict=args.strict)
            found.extend(problems)
            sources.update(texts)
            if (folder, address) not in counted:
                counted.add((folder, address))
                checked += count
        if addresses is not None and _whole_root(target, root):
            found.extend(_orphans(store, addresses))
    # A problem both such files find in the one override file is shown, and counted, once.
    shown = sort_diagnostics(found)
    report(console, shown, sources)
    errors = sum(d.severity == "error" for d in shown)
    warnings = len(shown) - errors
    console.err.write(
        f"{checked} override file{'s' * (checked != 1)} checked "
        f"({errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)})\n"
    )
    return 1 if errors else 0


def _whole_root(target: Path, root: Path) -> bool:
    """Whether ``target`` is the prompt root itself: only then is every prompt seen."""
    return target.is_dir() and os.path.realpath(target) == os.path.realpath(root)


def _orphans(store: LocalOverrideStore, addresses: set[str]) -> list[Diagnostic]:
    """An error for each override file whose folder names no prompt in ``addresses``."""
    found: list[Diagnostic] = []
    for address, files in store.files_by_address().items():
        if address in addresses:
            continue
        suggestion = did_you_mean_sentence(address, addresses)
        found.extend(
            Diagnostic(
                f"No prompt '{address}' for this override file: it applies to nothing.{suggestion}",
                None,
                DiagnosticCode.OVERRIDE_UNKNOWN,
                expected="a file in the folder of a prompt: <overrides>/<ns>/<key>/<tag>",
                hint="move it to the folder of the prompt it is for, or delete it",
                path=os.path.relpath(file),
            )
            for file in files
        )
    return found


# -- diff ---------------------------------------------------------------------------------------


def _diff(args: argparse.Namespace, console: Console) -> int:
    if args.tag is None:
        raise UsageError("overrides diff needs --tag TAG", command="overrides diff")
    prepared = prepared_from_args(args, console, plugins="render")
    if prepared is None:
        return 1
    base = render_prepared(console, prepared, tagged=False)
    with_tag = None if base is None else render_prepared(console, prepared)
    if base is None or with_tag is None:
        return 1
    lines = difflib.unified_diff(
        render_text_form(base).splitlines(keepends=True),
        render_text_form(with_tag).splitlines(keepends=True),
        fromfile=args.file,
        tofile=f"{args.file} --tag {args.tag}",
        n=args.context,
    )
    console.out.write("".join(lines))
    return 0


COMMAND = implemented("overrides", configure=_configure, run=_run)
