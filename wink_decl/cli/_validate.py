"""``wink-decl validate``: check prompt and eval files and folders, reporting every problem."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from wink_decl._checking import (
    PARALLEL_MIN_FILES,
    EvalSettings,
    Job,
    Overrides,
    available_cpus,
    check_all,
    is_eval_file,
    overrides_in,
    with_unserved,
)
from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._overrides_folder import add_overrides_option, eval_settings, overrides_root
from wink_decl.cli._progress import Progress
from wink_decl.cli._prompt import add_limit_option, add_root_option, limits_from, report
from wink_decl.cli._usage import UsageError
from wink_decl.compiler import EVAL_SUFFIXES, PROMPT_SUFFIXES, prompt_entries
from wink_decl.diagnostics import render_json_array, sort_diagnostics
from wink_decl.inputs import existing_path, root_finder
from wink_decl.limits import Limits

__all__ = ["COMMAND", "PROGRESS_MIN_FILES"]

PROGRESS_MIN_FILES = 20
"""Fewer files are checked before a bar could be read, so none is drawn."""


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help=f"a prompt or eval file, or a folder searched for {', '.join(PROMPT_SUFFIXES)} "
        f"and {', '.join(EVAL_SUFFIXES)} files (hidden folders are skipped)",
    )
    add_root_option(parser)
    add_limit_option(parser)
    add_overrides_option(parser)
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: diagnostics with the lines quoted, then a summary, on stderr; json: one "
        "array of diagnostic objects on stdout (default: text)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=_positive,
        metavar="N",
        help=f"worker processes (default: one per CPU from {PARALLEL_MIN_FILES} files on, else 1)",
    )
    parser.add_argument(
        "--import-plugins",
        action="store_true",
        help="also import every handler, predicate and policy the files name and check each "
        "against its use, as compile does (installed plugin code runs, chosen by the files; "
        "with --cache-dir every file is still compiled)",
    )
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="keep each file's result in DIR (JSON, created if missing): a file, its includes, "
        "wink-decl and the installed plugins all unchanged, it is not checked again",
    )


def _positive(text: str) -> int:
    value = int(text) if text.isdigit() else 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not '{text}'")
    return value


def _run(args: argparse.Namespace, console: Console) -> int:
    cache_dir = _usable_cache(args.cache_dir, console)
    jobs = _gather(
        args,
        cache_dir,
        limits_from(args),
        lambda root: overrides_in(overrides_root(args, root), strict=args.strict),
    )
    workers = args.jobs or (available_cpus() if len(jobs) >= PARALLEL_MIN_FILES else 1)
    show = console.interactive and args.format == "text" and len(jobs) >= PROGRESS_MIN_FILES
    progress = Progress(console.err if show else None, len(jobs))
    try:
        with _without_pydantic_plugins():
            each = check_all(jobs, min(workers, len(jobs)), progress.advance)
    finally:
        progress.close()
    results = with_unserved(jobs, each)  # once all are checked: files of one address compared
    # An eval file reports its prompt's diagnostics too: once each, when both are checked.
    found = dict.fromkeys(d for checked in results for d in checked.diagnostics)
    diagnostics = sort_diagnostics(found)
    sources = {name: text for checked in results for name, text in checked.sources.items()}
    if args.format == "json":
        console.out.write(render_json_array(diagnostics))
        if console.verbose:  # stdout stays one JSON array: tracebacks go with their text form
            report(console, [d for d in diagnostics if d.cause is not None], sources)
    else:
        report(console, diagnostics, sources)
        invalid = sum(not checked.ok for checked in results)
        errors = sum(d.severity == "error" for d in diagnostics)
        summary = (
            f"{_count(len(results), 'file')} checked: "
            f"{len(results) - invalid} valid, {invalid} invalid"
        )
        if diagnostics:
            warnings = len(diagnostics) - errors
            summary += f" ({_count(errors, 'error')}, {_count(warnings, 'warning')})"
        console.err.write(summary + "\n")
    return 0 if all(checked.ok for checked in results) else 1


def _usable_cache(cache_dir: str | None, console: Console) -> str | None:
    """``--cache-dir`` when it can keep results; otherwise None, said in one note.

    An unusable cache changes nothing but the time taken: the run goes on without it.
    """
    if cache_dir is None:
        return None
    from wink_decl.compiler import cache_problem  # noqa: PLC0415  # --cache-dir only

    problem = cache_problem(cache_dir)
    if problem is None:
        return cache_dir
    console.err.write(f"wink-decl: note: not using --cache-dir '{cache_dir}': {problem}\n")
    return None


@contextmanager
def _without_pydantic_plugins() -> Iterator[None]:
    """Pydantic looks for no plugins of its own while files are checked (unless told which).

    On building its first model, pydantic reads every installed package's metadata for
    plugins that watch validation (milliseconds). The models it builds here are wink-decl's
    own, checking prompt files: nothing a plugin was installed to watch. Its documented
    switch is an environment variable; worker processes started meanwhile inherit it.
    """
    if _PYDANTIC_PLUGINS in os.environ:  # the user chose: left as it is
        yield
        return
    os.environ[_PYDANTIC_PLUGINS] = "__all__"
    try:
        yield
    finally:
        del os.environ[_PYDANTIC_PLUGINS]


_PYDANTIC_PLUGINS = "PYDANTIC_DISABLE_PLUGINS"


def _gather(
    args: argparse.Namespace,
    cache_dir: str | None,
    limits: Limits,
    overrides_for: Callable[[Path], Overrides | None],
) -> list[Job]:
    """Every prompt and eval file named or found under a folder, once each, in the order given.

    ``overrides_for`` gives a prompt root's override files, asked once per root.
    """
    paths: Sequence[str] = args.paths
    find_root = root_finder(args.root)
    real_path = _RealPaths()
    overrides: dict[str, Overrides | None] = {}
    seen: set[str] = set()
    jobs: list[Job] = []
    evals: EvalSettings | None = None  # worked out at the first eval file (most runs have none)
    for text in paths:
        target = existing_path(text)
        found_root = find_root(target)
        prompt_root = str(found_root)
        if prompt_root not in overrides:
            overrides[prompt_root] = overrides_for(found_root)
        root_overrides = overrides[prompt_root]
        files: Sequence[tuple[str, bool | None]]  # each with whether it is a link, if known
        if target.is_dir():
            files = prompt_entries(target, PROMPT_SUFFIXES + EVAL_SUFFIXES)
        else:
            files = [(str(target), None)]
        if not files:
            raise UsageError(
                f"no prompt files under '{text}'",
                hint=f"prompt file names end in {', '.join(PROMPT_SUFFIXES)}",
            )
        for file, is_link in files:
            key = real_path(file, is_link)
            if key in seen:
                continue
            seen.add(key)
            job = Job(file, prompt_root, cache_dir, limits, args.import_plugins, root_overrides)
            if is_eval_file(file):
                evals = evals or eval_settings(args)
                job = job._replace(evals=evals)
            jobs.append(job)
    return jobs


class _RealPaths:
    """``os.path.realpath`` of many files in few folders, each folder resolved once.

    realpath looks up every part of a path (a system call each); a file that is not a link
    adds only its name to its folder's real path. Keys only: which files were named twice.
    """

    def __init__(self) -> None:
        self._folders: dict[str, str] = {}

    def __call__(self, file: str, is_link: bool | None = None) -> str:
        """``file``'s real path; ``is_link`` as a folder listing told it, None: look now."""
        folder, name = os.path.split(file)
        if is_link is None:
            is_link = os.path.islink(file)  # noqa: PTH114
        if name in ("", os.curdir, os.pardir) or is_link:
            return os.path.normcase(os.path.realpath(file))  # not resolve(): loops raise there
        real = self._folders.get(folder)
        if real is None:
            real = self._folders[folder] = os.path.realpath(folder or os.curdir)
        # normcase: on Windows realpath spells names as on disk, not as split off here.
        return os.path.normcase(os.path.join(real, name))  # noqa: PTH118


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


COMMAND = implemented("validate", configure=_configure, run=_run)
