"""``wink-decl eval`` on the bundled suite, replayed: formats, choices, mistakes, interruption."""

from __future__ import annotations

import json
import os
import shutil
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from repo_copy import copy_prompts_and_evals

import wink_decl.evals._run_suite
import wink_decl.inputs._request
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic

REPO = Path(__file__).resolve().parents[2]
SUITE = "evals/code-review.wink-eval.yaml"
RECORDED = str(REPO / "evals" / "recorded")

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the repository's prompts and evals, the working folder."""
    monkeypatch.chdir(copy_prompts_and_evals(tmp_path))
    return tmp_path


def test_json_holds_every_run(here: Path, cli: Run) -> None:
    status, out, _ = cli("eval", SUITE, "--replay", RECORDED, "--format", "json")
    report = json.loads(out)
    assert (status, report["ok"], len(report["cases"])) == (0, True, 6)
    assert [(c["case"], c["experiment"], c["passed"]) for c in report["cases"]] == [
        ("add-bug", "baseline", True),
        ("off-by-one", "baseline", False),
        ("strict-errors", "baseline", True),
        ("add-bug", "bigger", True),
        ("off-by-one", "bigger", True),
        ("strict-errors", "bigger", True),
    ]


def test_several_files_give_one_document_each_format(here: Path, cli: Run) -> None:
    shutil.copy(here / SUITE, here / "evals" / "again.wink-eval.yaml")
    files = (SUITE, "evals/again.wink-eval.yaml")
    status, out, err = cli("eval", *files, "--replay", RECORDED, "--format", "json", "--out", "o")
    assert (status, [r["suite"] for r in json.loads(out)]) == (0, list(files))
    assert err.splitlines()[1] == (
        "evals/again.wink-eval.yaml: 6 runs (0 from the journal), 0 model requests, 8 replies "
        "from the cache; kept in o/again"
    )
    status, out, _ = cli("eval", *files, "--replay", RECORDED, "--format", "junit", "--out", "o")
    root = ET.fromstring(out)  # noqa: S314  # the command's own XML
    assert (status, root.get("tests"), root.get("failures"), len(root)) == (0, "12", "2", 4)
    status, out, _ = cli("eval", *files, "--replay", RECORDED, "--out", "o")
    assert (status, out.count("\nPASS\n")) == (0, 2)
    assert cli("eval", *files, "--replay", RECORDED, "--html", "r.html") == (
        2,
        "",
        "wink-decl: error: --html writes the page of one eval file, and several are given\n"
        "  hint: run one file at a time with --html, or leave --html out\n"
        "  run 'wink-decl eval --help' for its options\n",
    )
    status, _, _ = cli("eval", SUITE, "--replay", RECORDED, "--html", "r.html")
    page = (here / "r.html").read_text()
    assert (status, page[:15], f"<title>{SUITE}</title>" in page) == (0, "<!DOCTYPE html>", True)


def test_one_file_in_junit(here: Path, cli: Run) -> None:
    status, out, _ = cli("eval", SUITE, "--replay", RECORDED, "--format", "junit")
    root = ET.fromstring(out)  # noqa: S314  # the command's own XML
    assert (status, root.get("tests"), root.get("failures")) == (0, "6", "1")


def test_an_experiment_and_a_filter_choose_runs(here: Path, cli: Run) -> None:
    status, out, err = cli(
        "eval", SUITE, "--replay", RECORDED, "--experiment", "bigger", "--filter", "add-*"
    )
    assert (status, err) == (
        0,
        f"{SUITE}: 2 runs (0 from the journal), 0 model requests, 2 replies from the cache; "
        "kept in evals/.wink-eval/code-review\n",
    )
    assert out.endswith("\nPASS\n")


def test_a_recording_file_that_is_not_data_is_a_warning(here: Path, cli: Run) -> None:
    shutil.copytree(RECORDED, here / "recorded")
    os.mkfifo(here / "recorded" / "replies-pipe.jsonl")  # a reader of a pipe would wait forever
    status, _, err = cli(
        "eval", SUITE, "--replay", "recorded", "--experiment", "bigger", "--filter", "add-*"
    )
    assert (status, err) == (
        0,
        "wink-decl: warning: recorded/replies-pipe.jsonl: not read: it is a named pipe (FIFO), "
        "not a regular file\n"
        f"{SUITE}: 2 runs (0 from the journal), 0 model requests, 2 replies from the cache; "
        "kept in evals/.wink-eval/code-review\n",
    )


def test_a_model_given_replaces_the_suites_and_a_missing_reply_is_an_error(
    here: Path, cli: Run
) -> None:
    status, out, _ = cli("eval", SUITE, "--replay", RECORDED, "--model", "anthropic:claude-x")
    assert status == 1
    assert out.startswith(f"{SUITE}: 6 runs, 2 passed, 1 failed, 3 errors\n")
    assert out.endswith(
        "FAIL: threshold 0.60 not met by baseline x anthropic:claude-x (every run errored)\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--experiment", "smaller"],
            "wink-decl: error: --experiment smaller: the suite has no such experiment.\n"
            "  hint: its experiments: baseline, bigger\n",
        ),
        (
            ["--filter", "nothing-*"],
            "wink-decl: error: --filter nothing-*: no case of the suite has a matching id\n"
            "  hint: a pattern matches whole ids, with * and ? as wildcards, such as 'add-*'\n",
        ),
        (
            ["--model", "openia:gpt"],
            "wink-decl: error: --model openia:gpt: 'openia' is not a provider wink-decl knows "
            "(openai, anthropic, litellm, claude-agent)\n  hint: did you mean 'openai'?\n"
            "  run 'wink-decl eval --help' for its options\n",
        ),
        (
            ["--concurrency", "0"],
            "wink-decl: error: argument --concurrency: expected a whole number from 1 to 1024, "
            "not '0'\n  run 'wink-decl eval --help' for its options\n",
        ),
        (
            ["--timeout", "inf"],
            "wink-decl: error: argument --timeout: 'inf' must be more than 0 and at most 604800\n"
            "  run 'wink-decl eval --help' for its options\n",
        ),
        (
            ["--timeout", "soon"],
            "wink-decl: error: argument --timeout: 'soon' is not a number\n"
            "  run 'wink-decl eval --help' for its options\n",
        ),
        (
            ["--replay", SUITE],
            f"wink-decl: error: --replay '{SUITE}' is not a folder\n"
            "  run 'wink-decl eval --help' for its options\n",
        ),
        (
            ["--ray-address", "127.0.0.1:6379"],
            "wink-decl: error: --ray-address names the cluster of --executor ray, and the "
            "executor is local\n  hint: add --executor ray, or leave --ray-address out\n"
            "  run 'wink-decl eval --help' for its options\n",
        ),
        (
            ["--executor", "dask"],
            "wink-decl: error: --executor: 'dask' is not one of local, ray\n"
            "  run 'wink-decl eval --help' for its options\n",
        ),
    ],
    ids=[
        "experiment",
        "filter",
        "model",
        "concurrency",
        "timeout-inf",
        "timeout-text",
        "replay",
        "ray-address",
        "executor",
    ],
)
def test_usage_mistakes(here: Path, cli: Run, argv: list[str], message: str) -> None:
    replay = [] if "--replay" in argv else ["--replay", RECORDED]
    assert cli("eval", SUITE, *replay, *argv) == (2, "", message)


def test_an_eval_file_with_errors_runs_nothing(here: Path, cli: Run) -> None:
    (here / "evals" / "bad.wink-eval.yaml").write_text("prompt: missing.wink.yaml\nmodels: []\n")
    status, out, err = cli("eval", "evals/bad.wink-eval.yaml", SUITE, "--replay", RECORDED)
    assert (status, out) == (1, "")
    assert err.startswith("evals/bad.wink-eval.yaml:")
    assert not (here / "evals" / ".wink-eval").exists()


def test_a_prompt_that_cannot_be_prepared_is_reported(
    here: Path, cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    (here / "prompts" / "agents" / "code-review.wink.yaml").write_text(
        (here / "prompts" / "agents" / "code-review.wink.yaml")
        .read_text()
        .replace("handler: files.read_file", "handler: files.read_files")
    )
    status, out, err = cli("eval", SUITE, "--replay", RECORDED)
    assert (status, out) == (1, "")
    assert "files.read_files" in err


def test_ctrl_c_keeps_what_finished_and_says_how_to_go_on(
    here: Path, cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = wink_decl.evals._run_suite.drive

    def interrupted(*args: object, **kwargs: object) -> object:
        on_finished = kwargs["on_finished"]

        def stop_after_two(result: object) -> None:
            on_finished(result)  # type: ignore[operator]
            if stop_after_two.seen == 1:  # type: ignore[attr-defined]
                raise KeyboardInterrupt
            stop_after_two.seen += 1  # type: ignore[attr-defined]

        stop_after_two.seen = 0  # type: ignore[attr-defined]
        return real(*args, **{**kwargs, "on_finished": stop_after_two})  # type: ignore[arg-type]

    monkeypatch.setattr(wink_decl.evals._run_suite, "drive", interrupted)
    status, out, err = cli("eval", SUITE, "--replay", RECORDED, "--concurrency", "1")
    assert (status, out) == (130, "")
    assert err == (
        "wink-decl: stopping: waiting for 0 runs in flight to finish (Ctrl-C again to leave "
        "them)\n"
        "wink-decl: interrupted: 2 runs kept in evals/.wink-eval/code-review/results.jsonl\n"
        "  hint: run the same command with --resume to go on\n"
    )
    monkeypatch.setattr(wink_decl.evals._run_suite, "drive", real)
    status, _, err = cli("eval", SUITE, "--replay", RECORDED, "--resume")
    assert (status, err) == (
        0,
        f"{SUITE}: 6 runs (2 from the journal), 0 model requests, 6 replies from the cache; "
        "kept in evals/.wink-eval/code-review\n",
    )


def test_a_timeout_and_turns_given_are_used(here: Path, cli: Run) -> None:
    argv = ("eval", SUITE, "--replay", RECORDED, "--timeout", "30", "--max-turns", "2")
    status, out, _ = cli(*argv, "--repeat", "1")
    assert (status, out.endswith("\nPASS\n")) == (0, True)


def test_a_model_without_a_name_is_a_usage_error(here: Path, cli: Run) -> None:
    assert cli("eval", SUITE, "--model", "openai") == (
        2,
        "",
        "wink-decl: error: --model openai: no model named\n"
        "  hint: write it as openai:MODEL, such as openai:gpt-4.1-mini\n"
        "  run 'wink-decl eval --help' for its options\n",
    )


def test_a_plugin_that_cannot_bind_stops_the_suite_before_any_run(
    here: Path, cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    problem = Diagnostic("cannot import the handler", None, DiagnosticCode.HANDLER, path="p")

    def bind_plugins(*_args: object, **_options: object) -> list[Diagnostic]:
        return [problem]

    monkeypatch.setattr(wink_decl.inputs._request, "bind_plugins", bind_plugins)
    assert cli("eval", SUITE, "--replay", RECORDED) == (
        1,
        "",
        "p: error: cannot import the handler\n",
    )
    assert not (here / "evals" / ".wink-eval").exists()


def test_ray_without_its_extra_is_a_usage_error_naming_the_install_line(
    here: Path, cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # find_spec: None, as when not installed
    assert cli("eval", SUITE, "--replay", RECORDED, "--executor", "ray") == (
        2,
        "",
        "wink-decl: error: --executor ray needs ray, not installed\n"
        "  hint: pip install 'wink-decl[ray]'\n",
    )
    assert not (here / "evals" / ".wink-eval").exists()
