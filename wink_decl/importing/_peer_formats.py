"""What each peer's file says: its inputs, its messages, its settings, in one shape.

Prompty (``.prompty``): YAML front matter (``inputs`` as a list or a mapping, ``model``,
``template.format``), then a template whose lines ``system:``, ``user:``, ... start messages.
Dotprompt (``.prompt``): front matter with a Picoschema or JSON Schema ``input.schema`` and
``input.default``, then a Handlebars template with ``{{role "..."}}`` markers. LangChain
(``load_prompt`` JSON or YAML): ``_type: prompt`` or ``chat``, a template, its
``template_format``, ``input_variables`` and ``partial_variables``.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.importing._peer_files import split_front_matter
from wink_decl.importing._peer_tokens import Syntax
from wink_decl.loader import Limits, LoadedFile, load_text

__all__ = ["PeerInput", "PeerKind", "PeerMessage", "PeerPrompt", "read_peer"]

PeerKind = Literal["prompty", "dotprompt", "langchain"]

_MISSING = object()
_TYPES = {
    "string": "string",
    "str": "string",
    "integer": "integer",
    "int": "integer",
    "number": "number",
    "float": "number",
    "boolean": "boolean",
    "bool": "boolean",
    "array": "array",
    "list": "array",
}
_PROMPTY_ROLE = re.compile(
    r"[ \t]*#?[ \t]*(system|user|assistant|developer)(\[[^\]\n]*\])?[ \t]*:[ \t]*\r?$",
    re.IGNORECASE,
)
_PICO_KEY = re.compile(
    r"(?P<name>.*?)(?P<optional>\?)?(?:\((?P<kind>[^),]*)(?:,.*)?\))?\Z", re.DOTALL
)
"""``name``, ``name?``, ``name(kind)``, ``name?(kind, description)``; any other key is a name."""


@dataclass(frozen=True, slots=True)
class PeerInput:
    """One input: its name in the peer's file, wink-decl type, default and description."""

    name: str
    type: str
    """A wink-decl param type; ``string`` when the peer's had no equivalent (then ``odd``)."""
    place: Span | None
    default: object = _MISSING
    description: str | None = None
    items: str | None = None
    odd: str | None = None
    """The peer's type when wink-decl has none like it (an object, a thread)."""

    @property
    def has_default(self) -> bool:
        """True when the input has a default."""
        return self.default is not _MISSING


@dataclass(frozen=True, slots=True)
class PeerMessage:
    """A message: its role and the range of ``PeerPrompt.source`` holding its template."""

    role: str
    start: int
    end: int


@dataclass(slots=True)
class PeerPrompt:
    """A peer's prompt file, read: everything the import needs, with places."""

    kind: PeerKind
    syntax: Syntax
    source: str
    """The text the messages' ranges index (the file, or a LangChain template value)."""
    locate: Locator
    name: str | None = None
    description: str | None = None
    inputs: list[PeerInput] = field(default_factory=list[PeerInput])
    messages: list[PeerMessage] = field(default_factory=list[PeerMessage])
    model: list[tuple[str, object]] = field(default_factory=list[tuple[str, object]])
    """Model settings with no place in a prompt file: kept as a comment."""
    left: list[tuple[str, object, Span | None]] = field(
        default_factory=list[tuple[str, object, Span | None]]
    )
    """Other settings wink-decl has no place for: each kept as a comment, with a warning."""
    dropped: list[tuple[str, object, Span | None]] = field(
        default_factory=list[tuple[str, object, Span | None]]
    )
    """Messages the peer itself never reads (LangChain chat files past the first)."""


class Locator:
    """Offsets in a peer's source text -> file lines and columns."""

    def __init__(self, shown: str, text: str, places: Sequence[int] | None = None) -> None:
        """The source is ``text``, the file shown as ``shown``, or a value in it.

        For a value, ``places[i]`` is the offset in ``text`` of the value's ``i``-th character
        as the file writes it (an escape, a folded line), and its last item the value's end.
        """
        self.shown = shown
        self._breaks = [m.start() for m in re.finditer("\n", text)]
        self._places = places

    def span(self, start: int, end: int | None = None) -> Span:
        """The span of ``source[start:end]`` (its first line when it spans several)."""
        line, column = self._position(start)
        end_line, end_column = self._position(start if end is None else max(start, end - 1))
        if end is None or end <= start or end_line != line:
            return Span(self.shown, line, column)
        return Span(self.shown, line, column, end_line, end_column)

    def _position(self, offset: int) -> tuple[int, int]:
        if self._places is not None:
            offset = self._places[min(offset, len(self._places) - 1)]
        before = bisect_left(self._breaks, offset)
        line_start = self._breaks[before - 1] + 1 if before else 0
        return before + 1, offset - line_start + 1


def read_peer(
    kind: PeerKind, text: str, shown: str, limits: Limits
) -> tuple[PeerPrompt | None, list[Diagnostic]]:
    """What the peer's file in ``text`` says, or None and why it cannot be imported."""
    if kind == "langchain":
        loaded = load_text(text, path=shown, format="yaml", limits=limits)
        if loaded.file is None:
            return None, list(loaded.diagnostics)
        return _langchain(loaded.file, shown)
    front, problems = split_front_matter(text, shown, limits, comments=kind == "dotprompt")
    if front is None:
        return None, problems
    data = _mapping(front.file.data)
    place = _Places(front.file)
    locate = Locator(shown, text)
    if kind == "prompty":
        return _prompty(data, place, text, front.body_start, locate)
    return _dotprompt(data, place, text, front.body_start, locate)


class _Places:
    """Spans of the front matter's keys (of list items: their values)."""

    def __init__(self, file: LoadedFile) -> None:
        self._map = file.source_map

    def at(self, *path: str | int) -> Span:
        span = self._map.key_span(path) or self._map.value_span(path)
        assert span is not None  # noqa: S101 - the loader gives every key and value a span
        return span


def _mapping(value: object) -> dict[str, object]:
    return cast("dict[str, object]", value) if isinstance(value, dict) else {}


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


# Prompty ------------------------------------------------------------------------------------


def _prompty(
    data: dict[str, object], place: _Places, text: str, body: int, locate: Locator
) -> tuple[PeerPrompt | None, list[Diagnostic]]:
    template = _mapping(data.get("template"))
    written = template.get("format")  # a mapping with its kind, or the kind alone
    format_kind = _text(written) or _text(_mapping(written).get("kind"))
    format_kind = format_kind or _text(template.get("type"))
    syntax: Syntax = "mustache" if format_kind == "mustache" else "jinja2"
    prompt = PeerPrompt("prompty", syntax, text, locate)
    prompt.name = _text(data.get("name"))
    prompt.description = _text(data.get("description"))
    prompt.inputs = _prompty_inputs(data.get("inputs"), place)
    for key, value in data.items():
        if key in ("name", "description", "inputs"):
            continue
        if key == "model":
            prompt.model = _model_settings(value)
        elif key != "template" or set(template) - {"format", "parser", "type"}:
            prompt.left.append((key, value, place.at(key)))
    prompt.messages = _prompty_messages(text, body)
    return prompt, []


def _prompty_inputs(inputs: object, place: _Places) -> list[PeerInput]:
    found: list[PeerInput] = []
    if isinstance(inputs, list):
        for index, item in enumerate(cast("list[object]", inputs)):
            spec = _mapping(item)
            name = _text(spec.get("name"))
            if name is not None:
                found.append(_input(name, spec, place.at("inputs", index)))
    else:
        for name, item in _mapping(inputs).items():
            spec = _mapping(item) if isinstance(item, dict) else _shorthand(item)  # pyright: ignore[reportUnknownArgumentType]
            found.append(_input(name, spec, place.at("inputs", name)))
    return found


def _shorthand(value: object) -> dict[str, object]:
    """``name: value``: an input whose default is ``value``, of that value's type."""
    kinds: list[tuple[type, str]] = [(bool, "boolean"), (int, "integer"), (float, "number")]
    kinds.append((list, "array"))
    kind = next((k for t, k in kinds if isinstance(value, t)), "string")
    return {"kind": kind, "default": value}


def _input(name: str, spec: Mapping[str, object], where: Span | None) -> PeerInput:
    given = _text(spec.get("kind")) or _text(spec.get("type")) or "string"
    default = spec.get("default", _MISSING)
    wink_type = _TYPES.get(given.lower())
    items = None
    if wink_type == "array":
        item = _mapping(spec.get("items"))
        items = _TYPES.get(str(item.get("kind") or item.get("type") or "string"), "string")
    return PeerInput(
        name,
        wink_type or "string",
        where,
        default,
        _text(spec.get("description")),
        items,
        None if wink_type else given,
    )


def _model_settings(model: object) -> list[tuple[str, object]]:
    """The model's settings, a connection's left out: it may hold a key."""
    if not isinstance(model, dict):
        return [("model", model)]
    mapping = cast("dict[str, object]", model)
    return [(key, value) for key, value in mapping.items() if key != "connection"]


def _prompty_messages(text: str, body: int) -> list[PeerMessage]:
    messages: list[PeerMessage] = []
    role, start = "system", body
    position = body
    while position < len(text):
        end = text.find("\n", position)
        end = len(text) if end < 0 else end
        match = _PROMPTY_ROLE.fullmatch(text, position, end)
        if match is not None:
            messages.append(PeerMessage(role, start, position))
            role, start = match.group(1).lower(), end + 1
        position = end + 1
    messages.append(PeerMessage(role, start, len(text)))
    return [m for m in messages if text[m.start : m.end].strip() or m.role != "system"][:]


# Dotprompt ----------------------------------------------------------------------------------


def _dotprompt(
    data: dict[str, object], place: _Places, text: str, body: int, locate: Locator
) -> tuple[PeerPrompt | None, list[Diagnostic]]:
    prompt = PeerPrompt("dotprompt", "handlebars", text, locate)
    prompt.name = _text(data.get("name"))
    prompt.description = _text(data.get("description"))
    for key, value in data.items():
        if key in ("name", "description"):
            continue
        if key == "input":
            prompt.inputs = _dotprompt_inputs(_mapping(value), place)
        elif key in ("model", "config"):
            prompt.model.append((key, value))
        else:
            prompt.left.append((key, value, place.at(key)))
    prompt.messages = [PeerMessage("user", body, len(text))]
    return prompt, []


def _dotprompt_inputs(block: Mapping[str, object], place: _Places) -> list[PeerInput]:
    schema = block.get("schema")
    defaults = _mapping(block.get("default"))
    found: list[PeerInput] = []
    if isinstance(schema, dict) and "properties" in schema:
        properties = _mapping(cast("dict[str, object]", schema).get("properties"))
        for name, spec in properties.items():
            where = place.at("input", "schema", "properties", name)
            found.append(_json_schema_input(name, _mapping(spec), where, defaults))  # pyright: ignore[reportUnknownArgumentType]
        return found
    pico: dict[str, object] = _mapping(schema)  # pyright: ignore[reportUnknownArgumentType]
    for key, spec in pico.items():
        match = _PICO_KEY.match(key)
        assert match is not None  # noqa: S101 - every group of the pattern may be empty
        found.append(_picoschema_input(match, spec, place.at("input", "schema", key), defaults))
    return found


def _picoschema_input(
    match: re.Match[str], spec: object, where: Span | None, defaults: Mapping[str, object]
) -> PeerInput:
    name, kind = match.group("name"), (match.group("kind") or "").strip()
    given, _, description = (spec if isinstance(spec, str) else "").partition(",")
    given = given.strip()
    default = defaults.get(name, _MISSING)
    if kind == "array":
        items = _TYPES.get(given, "string")
        odd = None if given in _TYPES else f"array of {given or 'objects'}"
        return PeerInput(name, "array", where, default, description.strip() or None, items, odd)
    if kind:
        return PeerInput(name, "string", where, default, None, odd=kind)
    wink_type = _TYPES.get(given)
    if default is _MISSING and match.group("optional"):
        default = _EMPTY.get(wink_type or "", _MISSING)
    odd = None if wink_type else (given or "an object")
    return PeerInput(
        name, wink_type or "string", where, default, description.strip() or None, None, odd
    )


_EMPTY: dict[str, object] = {"string": "", "boolean": False}
"""What an optional input left out renders as in Handlebars, where wink-decl has a default."""


def _json_schema_input(
    name: str, spec: Mapping[str, object], where: Span | None, defaults: Mapping[str, object]
) -> PeerInput:
    given = _text(spec.get("type")) or "object"
    wink_type = _TYPES.get(given)
    default = defaults.get(name, spec.get("default", _MISSING))
    items = None
    if wink_type == "array":
        items = _TYPES.get(_text(_mapping(spec.get("items")).get("type")) or "string", "string")
    return PeerInput(
        name,
        wink_type or "string",
        where,
        default,
        _text(spec.get("description")),
        items,
        None if wink_type else given,
    )


# LangChain ----------------------------------------------------------------------------------

_LANGCHAIN_SYNTAX: dict[str, Syntax] = {
    "f-string": "f-string",
    "mustache": "mustache",
    "jinja2": "jinja2",
}


def _langchain(file: LoadedFile, shown: str) -> tuple[PeerPrompt | None, list[Diagnostic]]:
    data = _mapping(file.data)
    source_map = file.source_map
    kind = data.get("_type", "prompt")
    template: object = data.get("template")
    where: tuple[str | int, ...] = ("template",)
    extra: list[tuple[str, object, Span | None]] = []
    if kind == "chat":
        messages = data.get("messages")
        items = cast("list[object]", messages) if isinstance(messages, list) else []
        first = _mapping(_mapping(items[0]).get("prompt")) if items else {}
        template, where = first.get("template"), ("messages", 0, "prompt", "template")
        extra = [
            (f"message {n + 1}", items[n], source_map.value_span(("messages", n)))
            for n in range(1, len(items))
        ]
    if kind == "prompt" and template is None and "template_path" in data:
        return None, [_template_elsewhere(shown, source_map.value_span(("template_path",)))]
    if kind not in ("prompt", "chat") or not isinstance(template, str):
        return None, [_not_langchain(kind, shown, source_map.value_span(("_type",)))]
    written = _text(data.get("template_format")) or "f-string"
    syntax = _LANGCHAIN_SYNTAX.get(written)
    if syntax is None:
        span = source_map.value_span(("template_format",))
        return None, [_unknown_format(written, shown, span)]
    start = source_map.value_span(where)
    locate = _template_locator(file, shown, start, template)
    prompt = PeerPrompt("langchain", syntax, template, locate)
    role = "user" if kind == "chat" else "prompt"
    prompt.messages = [PeerMessage(role, 0, len(template))]
    partials = _mapping(data.get("partial_variables"))
    names = data.get("input_variables")
    for index, name in enumerate(cast("list[object]", names) if isinstance(names, list) else []):
        if isinstance(name, str):
            prompt.inputs.append(
                PeerInput(name, "string", source_map.value_span(("input_variables", index)))
            )
    for name, value in partials.items():
        span = source_map.value_span(("partial_variables", name))
        prompt.inputs.append(PeerInput(name, "string", span, str(value)))
    known = {
        "_type",
        "template",
        "template_format",
        "input_variables",
        "partial_variables",
        "messages",
        "validate_template",
        "name",
    }
    prompt.name = _text(data.get("name"))
    prompt.left = [(k, v, source_map.key_span((k,))) for k, v in data.items() if k not in known]
    prompt.dropped = extra
    return prompt, []


def _template_locator(file: LoadedFile, shown: str, start: Span | None, template: str) -> Locator:
    """Where each of the template's characters is written in the file, escapes and all."""
    start = start or Span(shown, 1, 1)  # the loader gives every value a span
    text = file.text
    at = sum(len(line) + 1 for line in text.split("\n", start.line)[: start.line - 1])
    at += start.column - 1
    if text.startswith(("|", ">"), at):  # a block's text starts on the line after its header
        at = text.find("\n", at) + 1
    quoted = text.startswith('"', at)
    return Locator(shown, text, _char_places(text, at + quoted, template, double_quoted=quoted))


_ESCAPE_LENGTHS = {"x": 4, "u": 6, "U": 10}
"""Characters a YAML or JSON escape takes in the file, its backslash included (else 2)."""


def _char_places(text: str, at: int, value: str, *, double_quoted: bool) -> list[int]:
    """The offset in ``text`` of each character of ``value``, written from ``at`` on.

    A value's characters appear in the file in order, with only indentation, quotes, line
    breaks folded into spaces and escapes between or instead of them; each is found at the
    first place it can be, an escape where its backslash is. One pass: a character not found
    (a file the value did not come from) ends the search, the rest placed at that point.
    """
    places: list[int] = []
    for char in value:
        if double_quoted and text.startswith("\\", at):
            places.append(at)
            at += _ESCAPE_LENGTHS.get(text[at + 1 : at + 2], 2)
            continue
        found = text.find(char, at)
        if found < 0:
            break
        places.append(found)
        at = found + 1
    places.extend([at] * (len(value) + 1 - len(places)))
    return places


def _not_langchain(kind: object, shown: str, span: Span | None) -> Diagnostic:
    return Diagnostic(
        message=f"This is not a LangChain prompt file: its _type is {json.dumps(kind)}."
        if kind not in ("prompt", "chat")
        else "This LangChain prompt file has no template text.",
        span=span,
        code=DiagnosticCode.IMPORT_INVALID,
        expected="_type: prompt with a template, or _type: chat with messages",
        hint="Import a file that LangChain's load_prompt reads.",
        path=None if span else shown,
    )


def _template_elsewhere(shown: str, span: Span | None) -> Diagnostic:
    return Diagnostic(
        message="This LangChain prompt file reads its template from another file "
        "(template_path); wink-decl imports a template written in the file itself.",
        span=span,
        code=DiagnosticCode.IMPORT_INVALID,
        expected="template: the template's text",
        hint="Copy the text of that file into the file as 'template:', then import it.",
        path=None if span else shown,
    )


def _unknown_format(written: str, shown: str, span: Span | None) -> Diagnostic:
    return Diagnostic(
        message=f"'{written}' is not a template format LangChain knows.",
        span=span,
        code=DiagnosticCode.IMPORT_INVALID,
        expected="one of f-string, mustache, jinja2",
        hint="Write the template_format the template is written in.",
        path=None if span else shown,
    )
