"""Golden import cases: each folder of ``tests/importing/cases`` holds one peer file and the
whole answer of ``wink-decl import FILE --output -`` to it (``expected.txt``).

Adding a case is adding a folder; ``WINK_UPDATE_GOLDEN=1`` rewrites the answers (read the diff).
An imported file is also checked: ``wink-decl validate`` finds nothing in it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from golden import updating_golden

from wink_decl.cli import main

CASES = Path(__file__).parent / "cases"
ANSWER = "expected.txt"


def _peer_file(case: Path) -> Path:
    (found,) = (p for p in case.iterdir() if p.name != ANSWER)
    return found


def _answer(code: int, out: str, err: str) -> str:
    return f"exit {code}\n----- stdout\n{out}----- stderr\n{err}"


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir()))
def test_the_import_answers_as_the_golden_file_says(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    peer = _peer_file(CASES / case)
    shutil.copy(peer, tmp_path / peer.name)
    monkeypatch.chdir(tmp_path)
    code = main(["import", peer.name, "--output", "-"])
    out, err = capsys.readouterr()
    golden = CASES / case / ANSWER
    if updating_golden():
        golden.write_text(_answer(code, out, err), encoding="utf-8")
    assert _answer(code, out, err) == golden.read_text(encoding="utf-8")
    if code == 0:
        (tmp_path / "imported.wink.yaml").write_text(out, encoding="utf-8")
        status = main(["validate", "imported.wink.yaml"])
        assert (status, capsys.readouterr().err) == (0, "1 file checked: 1 valid, 0 invalid\n")
