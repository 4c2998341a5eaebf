"""``wink-decl eval``: run eval files' suites through the real runtime, and report."""

from __future__ import annotations

import argparse
import importlib.util
import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from wink_decl._install_hint import install_hint
from wink_decl.cli._command import Console
from wink_decl.cli._commands import implemented
from wink_decl.cli._eval_progress import EvalProgress
from wink_decl.cli._model_option import model_from_text
from wink_decl.cli._overrides_folder import eval_settings
from wink_decl.cli._paths import write_output
from wink_decl.cli._prompt import add_limit_option, add_root_option, limits_from, report
from wink_decl.cli._secrets import secrets_from_environment
from wink_decl.cli._usage import UsageError
from wink_decl.diagnostics import DiagnosticError
from wink_decl.evals import (
    DEFAULT_TIMEOUT,
    JOURNAL_NAME,
    EvalReport,
    ModelSpec,
    RunOptions,
    Suite,
    SuiteRun,
    check_suite,
    default_out,
    run_suite,
)
from wink_decl.inputs import existing_path

if TYPE_CHECKING:
    from wink_decl.evals import CaseResult

__all__ = ["COMMAND"]

Format = Literal["table", "json", "junit"]
_WEEK = 7 * 24 * 3600


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="eval files (.wink-eval.yaml or .wink-eval.toml)"
    )
    parser.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="PROVIDER:MODEL",
        help="run on this model instead of the suite's (repeatable; its address comes from the "
        "provider's usual variable, such as OPENAI_BASE_URL)",
    )
    parser.add_argument(
        "--experiment",
        action="append",
        default=[],
        metavar="NAME",
        help="run the baseline and this experiment only (repeatable)",
    )
    parser.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="ID",
        help="run only the cases whose id matches, * and ? as wildcards (repeatable)",
    )
    parser.add_argument(
        "--concurrency",
        type=_whole(1, 1024),
        default=8,
        metavar="N",
        help="runs in flight at once (default: 8)",
    )
    parser.add_argument(
        "--repeat",
        type=_whole(1, 1000),
        metavar="N",
        help="run each case N times (default: its own repeat)",
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"stop a run after this long, more than 0 and at most {_WEEK} (a week); every "
        f"provider call gets the time left (default: {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--max-turns", type=_whole(1, 10_000), metavar="N", help="stop a run after N model turns"
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="where the results journal and the response cache are kept (default: "
        ".wink-eval/NAME beside the eval file); with several files, each gets NAME below DIR",
    )
    parser.add_argument(
        "--format",
        choices=("table", "json", "junit"),
        default="table",
        help="table: for a terminal; json: the documented report object (an array of them for "
        "several files); junit: JUnit XML for CI systems (default: table)",
    )
    parser.add_argument(
        "--html", metavar="FILE", help="also write the report as one self-contained page"
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="ask the models again, keeping no reply"
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the journal's results for the runs it holds and run only the rest",
    )
    parser.add_argument(
        "--replay",
        metavar="DIR",
        help="answer every request from the replies kept in DIR (an earlier run's cache "
        "folder) and ask no model; a request it has no reply for is that run's error",
    )
    parser.add_argument(
        "--executor",
        choices=("local", "ray"),
        default="local",
        help="local: run on threads of this process; ray: on the workers of a Ray cluster, "
        "with the same report (the [ray] extra; docs/evals.md) (default: local)",
    )
    parser.add_argument(
        "--ray-address",
        metavar="ADDR",
        help="the Ray cluster to run on with --executor ray (default: RAY_ADDRESS if set, as "
        "Ray itself does, else the cluster 'ray start' started on this machine, else one "
        "started for the run)",
    )
    add_root_option(parser)
    add_limit_option(parser)
    parser.add_argument(
        "--overrides",
        metavar="DIR",
        help="the overrides folder the experiments' tags are read from (default: as for "
        "render --tag)",
    )


def _whole(low: int, high: int) -> Callable[[str], int]:
    def convert(text: str) -> int:
        value = int(text) if text.isascii() and text.isdigit() else -1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"expected a whole number from {low} to {high}, not '{text}'"
            )
        return value

    return convert


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not (math.isfinite(value) and 0 < value <= _WEEK):
        raise argparse.ArgumentTypeError(f"'{text}' must be more than 0 and at most {_WEEK}")
    return value


def _run(args: argparse.Namespace, console: Console) -> int:
    files = [existing_path(text) for text in args.files]
    if args.html is not None and len(files) > 1:
        raise UsageError(
            "--html writes the page of one eval file, and several are given",
            hint="run one file at a time with --html, or leave --html out",
            command="eval",
        )
    _check_executor(args.executor, args.ray_address)
    models = tuple(_model_spec(text) for text in args.model)
    replay = None if args.replay is None else _folder(args.replay, "--replay")
    suites = _checked(args, console, files)
    if suites is None:
        return 1
    options = RunOptions(
        models=models,
        experiments=tuple(args.experiment),
        cases=tuple(args.filter),
        concurrency=args.concurrency,
        repeat=args.repeat,
        no_cache=args.no_cache,
        resume=args.resume,
        replay=replay,
        timeout=args.timeout,
        max_turns=args.max_turns,
        limits=limits_from(args),
        secrets=secrets_from_environment(),
        executor=args.executor,
        ray_address=args.ray_address,
    )
    reports: list[EvalReport] = []
    for suite in suites:
        out = _out(args.out, suite, several=len(suites) > 1)
        done = _run_one(console, suite, replace(options, out=out), out)
        if done is None:
            return 1
        reports.append(done.report)
    _write_reports(args, console, reports)
    return 0 if all(report.ok for report in reports) else 1


def _run_one(console: Console, suite: Suite, options: RunOptions, out: Path) -> SuiteRun | None:
    """Run one suite with a progress line on a terminal; None when its prompt failed.

    Ctrl-C (``KeyboardInterrupt``) keeps the runs in flight, says how to go on, and is raised
    again: the command ends with status 130.
    """
    progress: list[EvalProgress] = []
    kept: list[CaseResult] = []

    def planned(total: int) -> None:
        progress.append(EvalProgress(console.err if console.interactive else None, total))

    def finished(result: CaseResult) -> None:
        kept.append(result)
        progress[0].finished(result)

    def stopping(in_flight: int) -> None:
        progress[0].close()
        console.err.write(
            f"wink-decl: stopping: waiting for {in_flight} run{'s' * (in_flight != 1)} in "
            "flight to finish (Ctrl-C again to leave them)\n"
        )

    try:
        done = run_suite(
            suite, options, on_planned=planned, on_finished=finished, on_stopping=stopping
        )
    except DiagnosticError as error:
        report(console, error.diagnostics, error.sources)
        return None
    except KeyboardInterrupt:
        for bar in progress:  # the line the bar drew goes before the message
            bar.close()
        console.err.write(
            f"wink-decl: interrupted: {len(kept)} run{'s' * (len(kept) != 1)} kept in "
            f"{out / JOURNAL_NAME}\n  hint: run the same command with --resume to go on\n"
        )
        raise
    finally:
        for bar in progress:
            bar.close()
    driven = done.driven
    for note in driven.cache_notes:
        console.err.write(f"wink-decl: warning: {note}\n")
    console.err.write(
        f"{suite.path}: {done.runs} run{'s' * (done.runs != 1)} ({driven.resumed} from the "
        f"journal), {driven.requests} model request{'s' * (driven.requests != 1)}, "
        f"{driven.hits} repl{'ies' if driven.hits != 1 else 'y'} from the cache; kept in {out}\n"
    )
    return done


def _checked(
    args: argparse.Namespace, console: Console, files: Sequence[Path]
) -> list[Suite] | None:
    """Each eval file, checked as validate checks it; None (all reported) when one fails."""
    where = eval_settings(args)
    suites: list[Suite] = []
    failed = False
    for path in files:
        checked = check_suite(
            str(path),
            root=where.root,
            configured_root=where.configured_root,
            overrides=where.overrides,
            limits=limits_from(args),
        )
        report(console, checked.diagnostics, checked.sources)
        if checked.suite is None:
            failed = True
        else:
            suites.append(checked.suite)
    return None if failed else suites


def _check_executor(executor: str, address: str | None) -> None:
    """A usage error for Ray when it is not installed, or an address with no Ray to go to."""
    if executor == "ray" and importlib.util.find_spec("ray") is None:
        raise UsageError("--executor ray needs ray, not installed", hint=install_hint("ray"))
    if executor != "ray" and address is not None:
        raise UsageError(
            "--ray-address names the cluster of --executor ray, and the executor is local",
            hint="add --executor ray, or leave --ray-address out",
            command="eval",
        )


def _model_spec(text: str) -> ModelSpec:
    provider, model = model_from_text(text, command="eval")
    return ModelSpec(provider, model)


def _folder(text: str, option: str) -> Path:
    folder = existing_path(text)
    if not folder.is_dir():
        raise UsageError(f"{option} '{text}' is not a folder", command="eval")
    return folder


def _out(given: str | None, suite: Suite, *, several: bool) -> Path:
    if given is None:
        return default_out(suite.path)
    return Path(given) / default_out(suite.path).name if several else Path(given)


def _write_reports(args: argparse.Namespace, console: Console, reports: list[EvalReport]) -> None:
    # Each writer is imported only when its format is asked for (docs/evals.md, "Speed").
    chosen: Format = args.format
    if chosen == "json":
        from wink_decl.evals import render_json  # noqa: PLC0415

        texts = [render_json(report) for report in reports]
        console.out.write(texts[0] if len(texts) == 1 else _json_array(texts))
    elif chosen == "junit":
        console.out.write(_junit(reports))
    else:
        from wink_decl.evals import render_table  # noqa: PLC0415

        console.out.write("\n".join(render_table(report) for report in reports))
    if args.html is not None:  # one file: the command refuses --html with several
        from wink_decl.evals import render_html  # noqa: PLC0415

        (only,) = reports
        write_output(args.html, render_html(only, title=only.suite or "wink-decl eval"))


def _json_array(texts: Sequence[str]) -> str:
    """Several reports as one JSON array, each indented as it is alone."""
    inner = ",\n".join("  " + text.rstrip("\n").replace("\n", "\n  ") for text in texts)
    return f"[\n{inner}\n]\n"


def _junit(reports: Sequence[EvalReport]) -> str:
    """One JUnit document: every report's test suites under one ``testsuites``."""
    import xml.etree.ElementTree as ET  # noqa: PLC0415  # --format junit only

    from wink_decl.evals import render_junit  # noqa: PLC0415

    if len(reports) == 1:
        return render_junit(reports[0])
    roots = [ET.fromstring(render_junit(report).encode()) for report in reports]  # noqa: S314  # our own XML
    merged = ET.Element("testsuites", {"name": "wink-decl eval"})
    for root in roots:
        merged.extend(list(root))
    for name in ("tests", "failures", "errors"):
        merged.set(name, str(sum(int(root.get(name, "0")) for root in roots)))
    ET.indent(merged, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(merged, "unicode") + "\n"


COMMAND = implemented("eval", configure=_configure, run=_run)
