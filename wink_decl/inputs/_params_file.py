"""A params file (``--params-file``): YAML, TOML or JSON mapping param names to values, spans too.

It is read as a prompt file is: a regular file only (a pipe or a device is refused unopened),
at most ``max_params_file_bytes`` of it, within the same limits on nesting, values and keys,
and a key written twice is refused in every format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import accumulate
from typing import cast

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.errors import InputError
from wink_decl.inputs._roots import existing_path
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.loader import (
    FileKind,
    Holds,
    SourceMap,
    detect_format,
    load_text,
    read_bytes,
    read_problem,
)
from wink_decl.loader.limit_diagnostics import too_deep, too_long_key
from wink_decl.runtime.json_errors import same_on_every_python

__all__ = ["PARAMS_FILE", "ParamsFile", "load_params_file"]

_HOLDS = Holds(
    "a mapping such as 'language: Python', or a JSON object",
    must="map param names to their values",
)
PARAMS_FILE = FileKind(
    name="a params file",
    holds={"yaml": _HOLDS, "toml": _HOLDS, "json": _HOLDS},
    size_advice="Keep only the values this prompt needs in the file",
    values_advice="Split the prompt into several smaller files",
    size_limit="max_params_file_bytes",
    shape_code=DiagnosticCode.PARAMS_FILE,
)
"""How the loader words its diagnostics for a params file (JSON ones are read here alike)."""

_TOKEN = re.compile(
    r'(?P<key>"(?:[^"\\]++|\\.)*+")\s*+:|"(?:[^"\\]++|\\.)*+"|(?P<open>[\[{])|(?P<close>[\]}])'
)
"""JSON keys (a string and its ':'), other strings, and brackets."""
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"')
_BRACKET = re.compile(r"[\[\]{}]")
_STEPS = {"[": 1, "{": 1, "]": -1, "}": -1}


@dataclass(frozen=True)
class ParamsFile:
    """The values a params file holds, where each was written, and its problems."""

    path: str
    values: Mapping[str, object] = field(default_factory=dict[str, object])
    diagnostics: tuple[Diagnostic, ...] = ()
    sources: Mapping[str, str] = field(default_factory=dict[str, str])
    source_map: SourceMap | None = None

    def key_span(self, name: str) -> Span | None:
        """Where the name ``name`` was written (None in JSON files, which carry no spans)."""
        return None if self.source_map is None else self.source_map.key_span((name,))

    def value_span(self, name: str) -> Span | None:
        """Where the value of ``name`` was written (None in JSON files)."""
        return None if self.source_map is None else self.source_map.value_span((name,))


def load_params_file(text: str, limits: Limits = DEFAULT_LIMITS) -> ParamsFile:
    """Read ``text`` (a path); a missing file or an unknown kind of file is a usage error.

    ``limits.max_params_file_bytes`` bounds the file; its nesting, values and keys are bounded
    as in prompt files.
    """
    limits = replace(limits, max_bytes=limits.max_params_file_bytes)
    path = existing_path(text)
    shown = str(path)
    if path.is_dir():
        raise InputError(f"--params-file '{text}' is a folder, not a file")
    file_format = "json" if path.suffix.lower() == ".json" else detect_format(path)
    if file_format is None:
        raise InputError(
            f"--params-file '{text}' is neither YAML, TOML nor JSON",
            hint="use a file whose name ends in .yaml, .yml, .toml or .json",
        )
    try:
        content = read_bytes(path, limits)
    except OSError as error:
        return ParamsFile(shown, diagnostics=(read_problem(error, shown, kind=PARAMS_FILE),))
    if file_format == "json":
        return _load_json(content, shown, limits)
    loaded = load_text(content, path=shown, format=file_format, limits=limits, kind=PARAMS_FILE)
    sources = {} if loaded.text is None else {shown: loaded.text}
    if loaded.file is None:
        return ParamsFile(shown, diagnostics=loaded.diagnostics, sources=sources)
    file = loaded.file
    values = cast("dict[str, object]", file.data)  # the loader refuses anything but a mapping
    return ParamsFile(shown, values, sources=sources, source_map=file.source_map)


def _load_json(content: bytes, shown: str, limits: Limits) -> ParamsFile:
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as error:
        problem = Diagnostic(
            f"This file is not UTF-8 text: byte {error.start + 1} cannot be decoded.",
            None,
            DiagnosticCode.ENCODING,
            path=shown,
        )
        return ParamsFile(shown, diagnostics=(problem,))
    sources = {shown: text}
    problem = _json_too_deep(text, shown, limits.max_depth)
    if problem is not None:  # the json module would recurse until Python gives up
        return ParamsFile(shown, diagnostics=(problem,), sources=sources)
    keys = _KeyCheck(limits.max_key_length)
    try:
        data: object = json.loads(text, object_pairs_hook=keys)
    except json.JSONDecodeError as raised:
        error = same_on_every_python(raised)
        problem = Diagnostic(
            f"This file is not valid JSON: {error.msg[:1].lower()}{error.msg[1:]}.",
            Span(shown, error.lineno, error.colno),
            DiagnosticCode.JSON_SYNTAX,
        )
        return ParamsFile(shown, diagnostics=(problem,), sources=sources)
    if keys.failed:
        problem = _json_key_problem(text, shown, limits.max_key_length)
        return ParamsFile(shown, diagnostics=(problem,), sources=sources)
    if not isinstance(data, dict):
        found = "list" if isinstance(data, list) else "value"
        problem = PARAMS_FILE.not_a_mapping(Span(shown, 1, 1), found, "json")
        return ParamsFile(shown, diagnostics=(problem,), sources=sources)
    return ParamsFile(shown, cast("dict[str, object]", data), sources=sources)


class _KeyCheck:
    """An ``object_pairs_hook`` that notes a key written twice in an object, or too long.

    It only notes: :func:`_json_key_problem` finds where, once, after ``json`` is done.
    """

    def __init__(self, max_key_length: int) -> None:
        self.max_key_length = max_key_length
        self.failed = False

    def __call__(self, pairs: list[tuple[str, object]]) -> dict[str, object]:
        result = dict(pairs)
        if len(result) < len(pairs) or any(len(key) > self.max_key_length for key in result):
            self.failed = True
        return result


def _json_too_deep(text: str, shown: str, max_depth: int) -> Diagnostic | None:
    """Brackets outside strings nested deeper than ``max_depth``, found in C unless they are."""
    if text.count("[") + text.count("{") <= max_depth:
        return None
    steps = map(_STEPS.__getitem__, _BRACKET.findall(_STRING.sub("", text)))
    if max(accumulate(steps), default=0) <= max_depth:
        return None
    depth = 0
    for token in _TOKEN.finditer(text):
        if token.lastgroup == "open":
            depth += 1
            if depth > max_depth:
                return too_deep(_span(text, shown, token.start(), token.start()), max_depth)
        elif token.lastgroup == "close":
            depth -= 1
    raise AssertionError("unreachable: the count found brackets nested too deep")


def _json_key_problem(text: str, shown: str, max_key_length: int) -> Diagnostic:
    """The first key in ``text`` written twice in its object, or too long (text is valid)."""
    objects: list[dict[str, int] | None] = []  # the keys of each open object, and where
    for token in _TOKEN.finditer(text):
        kind, written = token.lastgroup, token.group()
        if kind == "open":
            objects.append({} if written == "{" else None)
        elif kind == "close":
            objects.pop()
        if kind != "key":
            continue
        written = token.group("key")
        start, end = token.start(), token.start() + len(written) - 1
        key: str = json.loads(written)
        if len(key) > max_key_length:
            return too_long_key(_span(text, shown, start, end), len(key), max_key_length)
        seen = cast("dict[str, int]", objects[-1])
        if key in seen:
            first_line = _span(text, shown, seen[key], seen[key]).line
            return Diagnostic(
                f"Key '{key}' appears twice in this object (first on line {first_line}).",
                _span(text, shown, start, end),
                DiagnosticCode.DUPLICATE_KEY,
                expected="each key once in an object",
                hint="Remove one of the two.",
            )
        seen[key] = start
    raise AssertionError("unreachable: json found a key written twice or too long")


def _span(text: str, shown: str, start: int, end: int) -> Span:
    """From index ``start`` to ``end`` (inclusive) on one line of ``text``."""
    line = text.count("\n", 0, start) + 1
    column = start - text.rfind("\n", 0, start)
    return Span(shown, line, column, line, column + end - start)
