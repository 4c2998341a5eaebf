"""Golden eval files: a folder per case, holding an eval file and the whole report of validate.

``tests/cases/evals/<case>/``: ``review.wink-eval.yaml`` (or ``.toml``), the prompt it names,
any dataset, optional ``args.txt`` (more arguments for validate, one a line) and
``expected.txt``: exactly what ``wink-decl validate`` writes on stderr, run in a copy of the
folder. Adding a case is adding a folder. ``WINK_UPDATE_GOLDEN=1`` rewrites the expected files.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from wink_decl.cli import main

CASES = Path(__file__).resolve().parent.parent / "cases" / "evals"


def case_dirs() -> list[Path]:
    return sorted(p for p in CASES.iterdir() if p.is_dir())


def eval_file(case: Path) -> str:
    (found,) = [p.name for p in case.iterdir() if ".wink-eval." in p.name]
    return found


@pytest.mark.parametrize("case", case_dirs(), ids=lambda p: p.name)
def test_eval_case(
    case: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    copy = tmp_path / case.name
    shutil.copytree(case, copy)
    monkeypatch.chdir(copy)
    args = case / "args.txt"
    extra = args.read_text().split() if args.exists() else []
    status = main(["validate", *extra, eval_file(case)])
    out, err = capsys.readouterr()
    expected = case / "expected.txt"
    if os.environ.get("WINK_UPDATE_GOLDEN"):
        expected.write_text(err)
    assert (status, out, err) == (0 if ", 0 invalid" in err else 1, "", expected.read_text())


def test_every_case_has_its_report() -> None:
    cases = case_dirs()
    assert len(cases) > 10
    assert [case.name for case in cases if not (case / "expected.txt").exists()] == []
