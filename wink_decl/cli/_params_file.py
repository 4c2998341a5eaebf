"""``--params-file``: a YAML, TOML or JSON file mapping param names to values, with spans."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from wink_decl.cli._paths import existing_path
from wink_decl.cli._usage import UsageError
from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.limits import DEFAULT_LIMITS, Limits
from wink_decl.loader import SourceMap, detect_format, load_file
from wink_decl.runtime._json import same_on_every_python

__all__ = ["ParamsFile", "load_params_file"]


@dataclass(frozen=True)
class ParamsFile:
    """The values a params file holds, where each was written, and its problems."""

    path: str
    values: Mapping[str, Any] = field(default_factory=dict[str, Any])
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

    ``limits.max_params_file_bytes`` bounds the file (and its nesting, its values as for
    prompt files).
    """
    limits = replace(limits, max_bytes=limits.max_params_file_bytes)
    path = existing_path(text)
    shown = str(path)
    if path.is_dir():
        raise UsageError(f"--params-file '{text}' is a folder, not a file")
    if path.suffix.lower() == ".json":
        return _load_json(path, shown)
    if detect_format(path) is None:
        raise UsageError(
            f"--params-file '{text}' is neither YAML, TOML nor JSON",
            hint="use a file whose name ends in .yaml, .yml, .toml or .json",
        )
    loaded = load_file(path, display_path=shown, limits=limits)
    if loaded.file is None:
        problems = tuple(_for_params(d) for d in loaded.diagnostics)
        return ParamsFile(shown, diagnostics=problems, sources=_text_of(path, shown))
    file = loaded.file
    values = cast("dict[str, Any]", file.data)  # the loader refuses anything but a mapping
    return ParamsFile(shown, values, sources={shown: file.text}, source_map=file.source_map)


def _for_params(diagnostic: Diagnostic) -> Diagnostic:
    """The loader words "not a mapping" for prompt files; say what a params file needs."""
    if diagnostic.code != "not-a-mapping":
        return diagnostic
    found = diagnostic.message.split(";", 1)[0]
    return _not_a_mapping(diagnostic.file, diagnostic.span, found)


def _load_json(path: Path, shown: str) -> ParamsFile:
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        problem = Diagnostic(
            f"This file is not UTF-8 text: byte {error.start + 1} cannot be decoded.",
            None,
            "encoding",
            path=shown,
        )
        return ParamsFile(shown, diagnostics=(problem,))
    sources = {shown: text}
    try:
        data: object = json.loads(text)
    except json.JSONDecodeError as raised:
        error = same_on_every_python(raised)
        problem = Diagnostic(
            f"This file is not valid JSON: {error.msg[:1].lower()}{error.msg[1:]}.",
            Span(shown, error.lineno, error.colno),
            "json-syntax",
        )
        return ParamsFile(shown, diagnostics=(problem,), sources=sources)
    if not isinstance(data, dict):
        found = f"This file holds {'a list' if isinstance(data, list) else 'a single value'}"
        problem = _not_a_mapping(shown, Span(shown, 1, 1), found)
        return ParamsFile(shown, diagnostics=(problem,), sources=sources)
    return ParamsFile(shown, cast("dict[str, Any]", data), sources=sources)


def _not_a_mapping(shown: str, span: Span | None, found: str) -> Diagnostic:
    return Diagnostic(
        f"{found}; a params file must map param names to their values.",
        span,
        "params-file",
        expected="a mapping such as 'language: Python', or a JSON object",
        path=shown,
    )


def _text_of(path: Path, shown: str) -> dict[str, str]:
    try:
        return {shown: path.read_text(encoding="utf-8")}
    except (OSError, UnicodeDecodeError):
        return {}
