"""``Dataset.load``: the cases of a JSONL, CSV or YAML file, and each check's label."""

from __future__ import annotations

from pathlib import Path

import pytest

from wink_decl.diagnostics import DiagnosticError, Span
from wink_decl.evals import Dataset, LimitCheck, Sample, SuiteCase, TextCheck, ToolCalledCheck
from wink_decl.evals._labels import label_of
from wink_decl.limits import Limits
from wink_decl.schema.eval_model import CaseDoc
from wink_decl.schema.model import ParamSpec

PARAMS = {
    "change": ParamSpec(type="string"),
    "count": ParamSpec(type="integer", default=1),
    "tags": ParamSpec.model_validate({"type": "array", "items": {"type": "string"}, "default": []}),
}
CONTAINS = TextCheck(kind="contains", value="x", label="contains: x")
CASES = {
    "cases.jsonl": '{"id": "a", "params": {"change": "x", "count": 2}, "assert": [{"contains": '
    '"x"}]}\n\n{"params": {"change": "y"}, "expected": "z", "repeat": 2}\n',
    "cases.csv": 'id,change,count,tags,expected\na,x,2,"[""t""]",\n,y,,,z\n',
    "cases.yaml": "- id: a\n  params: {change: x, count: 2}\n  assert: [{contains: x}]\n"
    "- params: {change: y}\n  expected: z\n  repeat: 2\n",
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_format_gives_the_same_cases(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text(CASES[name])
    dataset = Dataset.load(tmp_path / name, params=PARAMS)
    first = {"change": "x", "count": 2, **({"tags": ["t"]} if name == "cases.csv" else {})}
    checks = () if name == "cases.csv" else (CONTAINS,)
    line = {"cases.jsonl": 3, "cases.csv": 3, "cases.yaml": 4}[name]
    repeat = 1 if name == "cases.csv" else 2
    assert dataset == Dataset(
        str(tmp_path / name),
        (
            SuiteCase(Sample("a", first), checks, 1),
            SuiteCase(Sample(f"line-{line}", {"change": "y"}, "z"), (), repeat),
        ),
    )
    assert [sample.id for sample in dataset.samples] == ["a", f"line-{line}"]


def test_without_params_a_csv_keeps_its_cells_as_text(tmp_path: Path) -> None:
    (tmp_path / "cases.csv").write_text("change,count\nx,2\n")
    dataset = Dataset.load(tmp_path / "cases.csv")
    assert dataset.samples == (Sample("line-2", {"change": "x", "count": "2"}),)


def test_a_dataset_with_errors_raises_them_all_with_its_lines(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text('{"params": {"cnt": 2}}\n{"params": {"change": "x", "count": true}}\n')
    with pytest.raises(DiagnosticError) as raised:
        Dataset.load(path, params=PARAMS)
    shown = str(path)
    assert str(raised.value) == (
        f"{shown}:1:1: error: Case 'line-1' has no value for param 'change', which has no "
        "default.\n"
        '   1 | {"params": {"cnt": 2}}\n'
        "     | ^^^^^^^^^^^^^^^^^^^^^^\n"
        "  hint: add 'change' to the case's params, or to defaults: params:\n"
        f"{shown}:1:1: error: Unknown param 'cnt'. Did you mean 'count'?\n"
        "  expected: one of the declared params (change, count, tags)\n"
        '   1 | {"params": {"cnt": 2}}\n'
        "     | ^^^^^^^^^^^^^^^^^^^^^^\n"
        f"{shown}:2:1: error: Param 'count' must be a whole number, not true.\n"
        '   2 | {"params": {"change": "x", "count": true}}\n'
        "     | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"
    )


@pytest.mark.parametrize(
    ("name", "setup", "message"),
    [
        ("missing.jsonl", None, "There is no dataset file '{path}'."),
        ("cases.txt", "file", "'{path}' is not a dataset file: a dataset is JSONL, CSV or YAML."),
        (
            "folder.jsonl",
            "folder",
            "The dataset '{path}' cannot be read: it is a folder, not a regular file.",
        ),
        (
            "dangling.jsonl",
            "link",
            "The dataset '{path}' cannot be read: no such file or directory.",
        ),
    ],
    ids=["missing", "format", "folder", "dangling-link"],
)
def test_a_file_that_cannot_be_read_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, setup: str | None, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    path = Path(name)
    if setup == "folder":
        path.mkdir()
    elif setup == "link":
        path.symlink_to(Path("gone") / name)
    elif setup == "file":
        path.write_text("{}\n")
    with pytest.raises(DiagnosticError) as raised:
        Dataset.load(path)
    (problem,) = raised.value.diagnostics
    assert (problem.message, problem.path, problem.span) == (
        message.format(path=path),
        str(path),
        None,
    )


def test_warnings_do_not_stop_a_dataset(tmp_path: Path) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text("- params: {change: x}\n  assert: [{tool_called: read_file}, {max_turns: 2}]\n")
    dataset = Dataset.load(path, params=PARAMS)
    assert dataset.cases[0].checks == (
        ToolCalledCheck(name="read_file", label="tool_called: read_file"),
        LimitCheck(kind="max_turns", limit=2.0, label="max_turns: 2"),
    )


@pytest.mark.parametrize(
    ("written", "label"),
    [
        ({"contains": "a + b"}, "contains: a + b"),
        ({"contains": "a: b"}, 'contains: "a: b"'),
        ({"contains": "ends:"}, 'contains: "ends:"'),
        ({"contains": "yes"}, 'contains: "yes"'),
        ({"contains": "12"}, 'contains: "12"'),
        ({"contains": ""}, 'contains: ""'),
        ({"contains": "café"}, "contains: café"),
        ({"contains": "x" * 90}, "contains: " + "x" * 77 + "..."),
        ({"equals": None, "negate": False}, "equals: null, negate: false"),
        ({"regex": "line \\d+", "weight": 0.5}, 'regex: "line \\\\d+", weight: 0.5'),
        ({"max_latency_ms": 1500.5}, "max_latency_ms: 1500.5"),
        ({"json_schema": {"enum": [1, True, None]}}, "json_schema: {enum: [1, true, null]}"),
        (
            {"plugin": {"name": "a.b", "args": {"k, v": 1}}},
            'plugin: {name: a.b, args: {"k, v": 1}}',
        ),
        (
            {"all": [{"contains": "a"}, {"contains": "b", "weight": 2}]},
            "all: [{contains: a}, {contains: b, weight: 2}]",
        ),
        (
            {"all": [{"contains": "y" * 70}] * 3},
            ("all: [" + ", ".join(["{contains: " + "y" * 70 + "}"] * 3) + "]")[:197] + "...",
        ),
    ],
    ids=[
        "plain",
        "colon-space",
        "colon-at-end",
        "boolean-word",
        "number",
        "empty",
        "letters",
        "long-text",
        "null-and-negate",
        "escapes-and-weight",
        "decimal",
        "values",
        "quoted-key",
        "nested",
        "long-label",
    ],
)
def test_a_label_is_the_check_as_written_on_one_line(
    written: dict[str, object], label: str
) -> None:
    (check,) = CaseDoc.model_validate({"id": "x", "assert": [written]}).assert_
    assert label_of(check) == label


def problems(tmp_path: Path, name: str, text: str | bytes, **limits: int) -> list[str]:
    """``line:column: code: message`` of each problem ``Dataset.load`` finds in the file."""
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    with pytest.raises(DiagnosticError) as raised:
        Dataset.load(path, params=PARAMS, limits=Limits(**limits))
    return [
        f"{d.span.line}:{d.span.column}: {d.code}: {d.message}" if d.span else d.message
        for d in raised.value.diagnostics
    ]


def test_jsonl_lines_past_the_limits_on_depth_keys_and_digits(tmp_path: Path) -> None:
    text = (
        '{"params": {"change": "[[[[{{{{", "count": 1.5}}\n'
        '{"params": {"change": [["x"]]}}\n'
        '{"params": {"changes": "x"}}\n'
        '{"params": {"count": ' + "9" * 5000 + "}}\n"
    )
    assert problems(tmp_path, "cases.jsonl", text, max_depth=3, max_key_length=6) == [
        "1:1: param-value: Param 'count' must be a whole number, not 1.5.",
        "2:24: too-deep: Values are nested more than 3 levels deep here.",
        "3:1: too-long: This key is 7 characters long, more than the limit of 6.",
        "4:1: dataset: Line 4 holds a number too large to read.",
    ]


def test_a_dataset_must_be_utf8_without_a_byte_order_mark(tmp_path: Path) -> None:
    assert problems(tmp_path, "cases.jsonl", b"\xef\xbb\xbf{}\n") == [
        "1:1: bom: The file starts with a byte-order mark; save it as UTF-8 without BOM."
    ]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("", ["1:1: dataset: This CSV file has no header row."]),
        ("id,,change\n", ["1:4: dataset: The header has an empty column name."]),
        (
            "id,changes\n",
            ["1:4: too-long: This key is 7 characters long, more than the limit of 6."],
        ),
        (
            "x" * 200_000 + "\n",
            ["1:1: dataset: Line 1 is not a CSV row: field larger than field limit (131072)."],
        ),
        (
            "change\n\nx\n\n" + "y" * 200_000 + "\n",
            ["5:1: dataset: Line 5 is not a CSV row: field larger than field limit (131072)."],
        ),
    ],
    ids=["empty", "empty-column-name", "long-column-name", "header-too-large", "row-too-large"],
)
def test_csv_files_that_cannot_be_read(tmp_path: Path, text: str, found: list[str]) -> None:
    assert problems(tmp_path, "cases.csv", text, max_key_length=6) == found


def test_blank_csv_lines_are_passed_over(tmp_path: Path) -> None:
    (tmp_path / "cases.csv").write_text("change\n\nx\n\ny\n")
    dataset = Dataset.load(tmp_path / "cases.csv", params=PARAMS)
    assert [sample.id for sample in dataset.samples] == ["line-3", "line-5"]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("- {params: {change: x}\n", "yaml-syntax"),
        ("- params: {count: .inf}\n", "number"),
        ("", "dataset"),
    ],
    ids=["syntax", "number", "empty"],
)
def test_yaml_datasets_are_read_as_prompt_files_are(tmp_path: Path, text: str, found: str) -> None:
    assert [line.split(": ")[1] for line in problems(tmp_path, "cases.yaml", text)] == [found]


def test_places_name_their_files(tmp_path: Path) -> None:
    from wink_decl.evals._places import LinePlace, MapPlace  # noqa: PLC0415  # private parts
    from wink_decl.loader import load_text  # noqa: PLC0415

    loaded = load_text("a: 1\n", path="f.yaml", format="yaml")
    assert loaded.file is not None
    assert MapPlace(loaded.file.source_map).path == "f.yaml"
    assert LinePlace(Span("g.jsonl", 2, 1)).path == "g.jsonl"
