"""Dataset files: JSONL, CSV or YAML cases, read as untrusted input, each case with its place.

A dataset is read like a prompt file: a regular file only (a pipe or a device is refused
unopened), at most ``max_dataset_bytes`` of UTF-8 text, within ``max_depth`` and
``max_key_length``, and no more than ``max_cases`` cases. Every problem names its line.

- JSONL: one case object a line (blank lines skipped), the fields of an eval file's case;
- CSV: a header row, then a case a row; the columns are params, except ``id`` and
  ``expected``; a param's cell is text converted by its declared type, an empty cell gives
  no value;
- YAML: a list of cases.

A case without an ``id`` is named by the line it starts on: ``line-3``.
"""

from __future__ import annotations

import csv
import json
import math
import os
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Final, NamedTuple, cast

from wink_decl.compiler import number_problems
from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, JSONPath, Span, clip
from wink_decl.errors import WinkDeclError
from wink_decl.evals._places import LinePlace, MapPlace, Place
from wink_decl.loader import FileKind, Holds, decode, load_text
from wink_decl.loader.limit_diagnostics import or_raise, too_deep, too_long_key
from wink_decl.runtime.json_errors import same_on_every_python
from wink_decl.schema.eval_validate import validate_dataset_case

if TYPE_CHECKING:
    from wink_decl.limits import Limits
    from wink_decl.schema.eval_model import CaseDoc

__all__ = ["DATASET_FILE", "DATASET_SUFFIXES", "RawCase", "Read", "parse_dataset"]

DATASET_SUFFIXES: Final = (".jsonl", ".csv", ".yaml", ".yml")

_SPLIT = "Split the cases into several eval files"
DATASET_FILE: Final = FileKind(
    name="a dataset",
    holds={
        "yaml": Holds(
            "a list of cases, each a mapping such as '- id: first'", must="be a list of cases"
        )
    },
    size_advice=_SPLIT,
    values_advice=_SPLIT,
    size_limit="max_dataset_bytes",
    shape_code=DiagnosticCode.DATASET,
    holds_list=True,
)
"""How the loader words its diagnostics for a YAML dataset."""

_CSV_COLUMNS: Final = ("id", "expected")
"""The CSV columns that are not params."""


class RawCase(NamedTuple):
    """One case as read: validated by the schema, where it is, and its name by position.

    ``texts`` are a CSV row's params, still text (converted once the prompt's types are known);
    an empty cell gives no value.
    """

    case: CaseDoc
    """The case (a dataset's may have no ``id``: a ``DatasetCaseDoc``)."""
    place: Place
    default_id: str
    texts: dict[str, str] = {}  # noqa: RUF012  # never changed: a NamedTuple's default


class Read(NamedTuple):
    """What a dataset held: its cases, every problem found, and its text to quote."""

    cases: list[RawCase]
    diagnostics: list[Diagnostic]
    text: str | None
    path: str = ""
    """The dataset file, as its diagnostics name it."""


def parse_dataset(content: bytes, shown: str, limits: Limits, budget: int) -> Read:
    """The cases of ``content`` (the dataset ``shown``, in the format its name ends in).

    At most ``budget`` cases are read: the one past it is reported (``max_cases``).
    """
    text, problems = decode(
        content, path=shown, max_bytes=limits.max_dataset_bytes, kind=DATASET_FILE
    )
    if text is None or problems:
        return Read([], problems, text)
    suffix = os.path.splitext(shown)[1].lower()  # noqa: PTH122
    if suffix == ".jsonl":
        return _limited(_jsonl(text, shown, limits), text, limits, budget)
    if suffix == ".csv":
        return _limited(_csv(text, shown, limits), text, limits, budget)
    return _yaml(text, shown, limits, budget)


def _limited(found: Iterator[RawCase | Diagnostic], text: str, limits: Limits, budget: int) -> Read:
    cases: list[RawCase] = []
    problems: list[Diagnostic] = []
    for item in found:
        if isinstance(item, Diagnostic):
            problems.append(item)
            continue
        if len(cases) == budget:
            problems.append(too_many_cases(item.place.value(), limits.max_cases))
            break
        cases.append(item)
    return Read(cases, problems, text)


def too_many_cases(span: Span, limit: int) -> Diagnostic:
    """The case at ``span`` is past ``max_cases`` (inline cases and the dataset's together)."""
    cases = f"{limit:,} case" + ("" if limit == 1 else "s")
    return Diagnostic(
        f"This case is past the limit of {cases} per eval file.",
        span,
        DiagnosticCode.TOO_MANY_CASES,
        expected=f"at most {cases}, the eval file's and its dataset's together",
        hint=or_raise(_SPLIT, "max_cases", limit),
    )


# -- JSONL ----------------------------------------------------------------------------------------


class _RefusedError(WinkDeclError, ValueError):
    """A JSON value the dataset may not hold: the message says why.

    ``key_length`` is set for a key longer than ``max_key_length`` (its own diagnostic).
    """

    def __init__(self, reason: str, key_length: int | None = None) -> None:
        super().__init__(reason)
        self.key_length = key_length


def _jsonl(text: str, shown: str, limits: Limits) -> Iterator[RawCase | Diagnostic]:
    for index, raw in enumerate(text.split("\n")):
        line = raw.removesuffix("\r")
        if not line.strip():
            continue
        number = index + 1
        span = Span(shown, number, 1, number, max(len(line), 1))
        problem = _too_deep(line, number, shown, limits.max_depth)
        if problem is not None:
            yield problem
            continue
        try:
            data = _json_line(line, limits.max_key_length)
        except json.JSONDecodeError as raised:
            error = same_on_every_python(raised)
            message = f"{error.msg[:1].lower()}{error.msg[1:]}"
            where = Span(shown, number, error.colno)
            yield _problem(f"Line {number} is not valid JSON: {message}.", where)
            continue
        except _RefusedError as refused:
            yield _refused(refused, span, limits.max_key_length)
            continue
        except ValueError:  # a whole number of more digits than Python reads
            yield _problem(f"Line {number} holds a number too large to read.", span)
            continue
        yield from _case(data, LinePlace(span), f"line-{number}", "line")


def _json_line(line: str, max_key_length: int) -> object:
    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        found: dict[str, object] = {}
        for key, value in items:
            if key in found:
                raise _RefusedError(f"the key '{clip(key)}' twice in one object")
            if len(key) > max_key_length:
                raise _RefusedError("a key too long", len(key))
            found[key] = value
        return found

    return json.loads(
        line,
        object_pairs_hook=pairs,
        parse_constant=_no_constant,
        parse_float=_finite,
        parse_int=_whole,
    )


def _no_constant(name: str) -> object:
    raise _RefusedError(f"{name}, which is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _RefusedError(f"the number {clip(text)}, too large to be finite")
    return value


def _whole(text: str) -> int:
    value = int(text)
    if not -(2**63) <= value < 2**63:
        raise _RefusedError(f"the whole number {clip(text)}, which does not fit in 64 bits")
    return value


def _refused(refused: _RefusedError, span: Span, max_key_length: int) -> Diagnostic:
    if refused.key_length is not None:
        return too_long_key(span, refused.key_length, max_key_length)
    return _problem(f"Line {span.line} holds {refused}.", span)


def _too_deep(line: str, number: int, shown: str, max_depth: int) -> Diagnostic | None:
    """Brackets nested deeper than ``max_depth`` (before ``json``, which would recurse)."""
    if line.count("[") + line.count("{") <= max_depth:
        return None
    depth = 0
    in_text = escaped = False
    for column, char in enumerate(line, 1):
        if in_text:
            escaped = not escaped and char == "\\"
            in_text = escaped or char != '"'
        elif char == '"':
            in_text = True
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                return too_deep(Span(shown, number, column), max_depth)
        elif char in "]}":
            depth -= 1
    return None


# -- CSV -------------------------------------------------------------------------------------------


def _csv(text: str, shown: str, limits: Limits) -> Iterator[RawCase | Diagnostic]:
    lines = text.splitlines(keepends=True)
    rows = csv.reader(lines)
    try:
        header = next(rows, None)
    except csv.Error as error:
        yield _problem(f"Line 1 is not a CSV row: {error}.", Span(shown, 1, 1))
        return
    if not header:
        yield _problem("This CSV file has no header row.", Span(shown, 1, 1))
        return
    names = _header_spans(header, lines[0], shown)
    problem = _header_problem(header, names, limits)
    if problem is not None:
        yield problem
        return
    start = rows.line_num + 1
    while True:
        try:
            row = next(rows, None)
        except csv.Error as error:
            yield _problem(f"Line {start} is not a CSV row: {error}.", Span(shown, start, 1))
            return
        if row is None:
            return
        if row:
            written = lines[start - 1] if rows.line_num == start else '"'  # one line, or more
            cells = _cell_spans(row, written, Span(shown, start, 1))
            yield from _csv_case(header, row, cells, names)
        start = rows.line_num + 1


def _header_spans(header: list[str], line: str, shown: str) -> dict[str, Span]:
    """Each header cell's span (the line's start when the header has quotes)."""
    return dict(zip(header, _cell_spans(header, line, Span(shown, 1, 1)), strict=True))


def _cell_spans(cells: list[str], line: str, start: Span) -> list[Span]:
    """The span of each cell of a row written on one line without quotes, else the line's."""
    if '"' in line:
        return [start] * len(cells)
    spans: list[Span] = []
    column = 1
    for cell in cells:
        spans.append(
            Span(start.path, start.line, column, start.line, column + max(len(cell), 1) - 1)
        )
        column += len(cell) + 1
    return spans


def _header_problem(header: list[str], names: dict[str, Span], limits: Limits) -> Diagnostic | None:
    seen: set[str] = set()
    for name in header:
        if len(name) > limits.max_key_length:
            return too_long_key(names[name], len(name), limits.max_key_length)
        if name in seen:
            return _problem(f"The header names the column '{clip(name)}' twice.", names[name])
        if not name:
            return _problem("The header has an empty column name.", names[name])
        seen.add(name)
    return None


def _csv_case(
    header: list[str], row: list[str], cells_at: list[Span], names: dict[str, Span]
) -> Iterator[RawCase | Diagnostic]:
    span = Span(cells_at[0].path, cells_at[0].line, 1)
    if len(row) != len(header):
        yield _problem(
            f"The row on line {span.line} has {len(row)} cells; the header has {len(header)}.",
            span,
        )
        return
    cells = dict(zip(header, row, strict=True))
    data: dict[str, object] = {
        name: cells[name] for name in _CSV_COLUMNS if cells.get(name, "") != ""
    }
    texts = {name: text for name, text in cells.items() if name not in _CSV_COLUMNS}
    keys: dict[JSONPath, Span] = {("params", name): names[name] for name in texts}
    keys.update({(name,): names[name] for name in data})
    at = dict(zip(header, cells_at, strict=True))
    values: dict[JSONPath, Span] = {("params", name): at[name] for name in texts}
    values.update({(name,): at[name] for name in data})
    place = LinePlace(span, values, keys)
    for found in _case(data, place, f"line-{span.line}", "row"):
        yield found if isinstance(found, Diagnostic) else found._replace(texts=texts)


# -- YAML ------------------------------------------------------------------------------------------


def _yaml(text: str, shown: str, limits: Limits, budget: int) -> Read:
    bounded = replace(limits, max_bytes=limits.max_dataset_bytes)
    loaded = load_text(text, path=shown, format="yaml", limits=bounded, kind=DATASET_FILE)
    if loaded.file is None:
        return Read([], list(loaded.diagnostics), text)
    numbers = number_problems(loaded.file)
    if numbers:
        return Read([], numbers, text)
    source_map = loaded.file.source_map
    data: object = loaded.file.data
    if not isinstance(data, list):
        problem = _problem(
            "This file holds a mapping; a YAML dataset is a list of cases.",
            source_map.nearest(()),
        )
        return Read([], [problem], text)
    items = cast("list[object]", data)

    def cases() -> Iterator[RawCase | Diagnostic]:
        for index, item in enumerate(items):
            place = MapPlace(source_map, (index,))
            yield from _case(item, place, f"line-{place.value().line}", "item")

    return _limited(cases(), text, limits, budget)


# -- every format ----------------------------------------------------------------------------------


def _case(data: object, place: Place, default_id: str, what: str) -> Iterator[RawCase | Diagnostic]:
    if not isinstance(data, dict):
        found = "a list" if isinstance(data, list) else "a single value"
        yield _problem(
            f"This {what} holds {found}; a case is a mapping such as "
            '{"id": "first", "params": {...}}.',
            place.value(),
        )
        return
    case, problems = validate_dataset_case(cast("dict[str, object]", data), place)
    yield from problems
    if case is not None:
        yield RawCase(case, place, default_id)


def _problem(message: str, span: Span) -> Diagnostic:
    return Diagnostic(message, span, DiagnosticCode.DATASET)
