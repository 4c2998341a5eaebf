"""``wink-decl overrides repin``: list stale entries with their base change, re-pin the confirmed.

Re-pinning writes the new base hash of the entries named and changes nothing else in the
file: the edited texts, comments and layout stay (docs/overrides.md).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from wink_decl._atomic import write_atomically
from wink_decl.cli._inputs import prepared_from_args
from wink_decl.cli._prompt import add_file_options, limits_from, report
from wink_decl.cli._tagging import add_tag_options
from wink_decl.cli._usage import UsageError
from wink_decl.cli._writers._write_problems import not_written
from wink_decl.overrides import (
    LocalOverrideStore,
    OverrideFile,
    StaleEntry,
    apply_tag,
    repinned_text,
    stale_entries,
)
from wink_decl.suggestions import did_you_mean

if TYPE_CHECKING:
    from collections.abc import Mapping

    from wink_decl.cli._command import Console

__all__ = ["repin", "repin_options"]

_COMMAND = "overrides repin"


def repin_options(parser: argparse.ArgumentParser) -> None:
    """FILE, ``--tag`` and which stale entries to re-pin: none (list them), some, or all."""
    add_file_options(parser)
    add_tag_options(parser)
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument(
        "--entry",
        action="append",
        default=[],
        metavar="ENTRY",
        help="re-pin this stale entry, as listed (sections.task.template); repeatable",
    )
    chosen.add_argument("--all", action="store_true", help="re-pin every stale entry")


def repin(args: argparse.Namespace, console: Console) -> int:
    """List the tag's stale entries (exit 1 when any), or re-pin those asked for (exit 0)."""
    if args.tag is None:
        raise UsageError(f"{_COMMAND} needs --tag TAG", command=_COMMAND)
    prepared = prepared_from_args(args, console, plugins="render", params=False, tag=False)
    if prepared is None:
        return 1
    template = prepared.template
    store = LocalOverrideStore(prepared.location.overrides_folder, limits=limits_from(args))
    loaded = store.load(template.ns, template.key, args.tag)
    if loaded.file is None:
        found = (
            loaded.diagnostics
            or apply_tag(template, store, args.tag, strict=True, source=args.file).diagnostics
        )
        report(console, found, loaded.sources)
        return 1
    stale = stale_entries(template, loaded.file)
    if not (args.all or args.entry):
        return _list(args, console, loaded.file, stale)
    chosen = stale if args.all else _chosen(args.entry, loaded.file, stale)
    if not chosen:
        console.out.write(f"No stale entries in {loaded.file.path}; nothing was written.\n")
        return 0
    return _write(console, loaded.file, chosen, loaded.sources)


def _list(
    args: argparse.Namespace, console: Console, file: OverrideFile, stale: tuple[StaleEntry, ...]
) -> int:
    if not stale:
        console.out.write(f"No stale entries in {file.path}.\n")
        return 0
    for one in stale:
        console.out.write(_shown(file.path, one))
    command = f"wink-decl {_COMMAND} {args.file} --tag {args.tag}"
    console.out.write(
        f"{_entries(len(stale))} stale. After review, write the new "
        f"{'hash' if len(stale) == 1 else 'hashes'} (the texts stay as they are): "
        f"{command} --all, or --entry ENTRY for each.\n"
    )
    return 1


def _shown(path: str, stale: StaleEntry) -> str:
    """One stale entry: where, the hash it has, the base text now and the entry's own text."""
    entry = stale.entry
    span = entry.hash_span
    where = path if span is None else f"{path}:{span.line}:{span.column}"
    return (
        f"{where}: {entry.label} is stale: its base text has changed\n"
        f"  pinned:   {entry.hash} (the base text it was written for is not kept)\n"
        f"  base now: {stale.base_hash}\n"
        f"{_quoted(stale.base_text)}"
        "  override (kept):\n"
        f"{_quoted(entry.text)}"
    )


def _quoted(text: str) -> str:
    if not text:
        return "    (empty)\n"
    return "".join(f"    | {line}\n" for line in text.split("\n"))


def _chosen(
    names: list[str], file: OverrideFile, stale: tuple[StaleEntry, ...]
) -> tuple[StaleEntry, ...]:
    """The stale entries ``--entry`` names, in file order; a usage error for any other name."""
    by_label = {one.entry.label: one for one in stale}
    labels = [entry.label for entry in file.entries]
    for name in names:
        if name in by_label:
            continue
        if name in labels:
            raise UsageError(
                f"entry '{name}' of {file.path} is not stale: its hash is the base text's; "
                "nothing was written",
                hint=_stale_names(by_label),
                command=_COMMAND,
            )
        raise UsageError(
            f"{file.path} has no entry '{name}'; nothing was written",
            hint=did_you_mean(name, labels) or _stale_names(by_label),
            command=_COMMAND,
        )
    return tuple(one for one in stale if one.entry.label in names)


def _stale_names(by_label: dict[str, StaleEntry]) -> str:
    if not by_label:
        return "no entry of the file is stale"
    return f"the stale entries are {', '.join(by_label)}"


def _write(
    console: Console,
    file: OverrideFile,
    chosen: tuple[StaleEntry, ...],
    sources: Mapping[str, str],
) -> int:
    text, problems = repinned_text(file, chosen)
    if text is None:
        report(console, problems, sources)
        return 1
    try:
        # The store read the file only when its real path lies inside the overrides folder:
        # writing there keeps a link inside the folder a link.
        write_atomically(Path(os.path.realpath(file.path)), text)
    except OSError as error:
        report(console, [not_written(file.path, error)], {})
        return 1
    labels = ", ".join(one.entry.label for one in chosen)
    console.out.write(f"Re-pinned {_entries(len(chosen))} of {file.path}: {labels}\n")
    return 0


def _entries(count: int) -> str:
    return f"{count} {'entry' if count == 1 else 'entries'}"
