"""A peer's prompt file -> a wink-decl prompt document, the comments to write with it, warnings.

Inputs become typed params, messages become sections (a role's title and key), variables
``${name}``, conditions around whole paragraphs child sections with ``enabled``. What has no
equivalent is a warning at its place in the original and a comment beside its section.
"""

from __future__ import annotations

import json
import keyword
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span, sort_diagnostics
from wink_decl.importing._peer_files import read_peer_text
from wink_decl.importing._peer_formats import PeerInput, PeerKind, PeerPrompt, read_peer
from wink_decl.importing._peer_shapes import Cut, Part, Shaped, VarRef, shape
from wink_decl.importing._peer_tokens import Token, scan
from wink_decl.limits import DEFAULT_LIMITS
from wink_decl.loader import Limits

__all__ = ["ImportedPrompt", "import_peer_file", "peer_kind"]

_SUFFIXES: dict[str, PeerKind] = {
    ".prompty": "prompty",
    ".prompt": "dotprompt",
    ".json": "langchain",
    ".yaml": "langchain",
    ".yml": "langchain",
}
_NOT_KEY = re.compile(r"[^a-z0-9_-]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NOT_NAME = re.compile(r"[^a-z0-9_]+")
_SECRET = re.compile(r"key|secret|token|password", re.IGNORECASE)
_PROVIDERS = {"openai": "openai", "anthropic": "anthropic", "azure": "openai", "foundry": "openai"}


@dataclass(slots=True)
class ImportedPrompt:
    """The document to write, its comments, and what the import reports."""

    document: dict[str, object] | None
    """None when the file could not be read or is not a prompt of its kind."""
    diagnostics: list[Diagnostic]
    text: str | None
    """The original's text, to quote lines from; None when it was not read."""
    header: list[str] = field(default_factory=list[str])
    """Comment lines for the top of the file (settings with no place of their own)."""
    notes: dict[int, list[str]] = field(default_factory=dict[int, list[str]])
    """Comment lines to write before the section at each index: what to finish by hand."""
    renamed: dict[str, str] = field(default_factory=dict[str, str])
    """Each input whose name changed, with its param's name."""


def peer_kind(path: str) -> PeerKind | None:
    """The kind of peer file ``path`` names by its extension; None for another."""
    return _SUFFIXES.get(os.path.splitext(path)[1].lower())  # noqa: PTH122


def import_peer_file(
    path: str, *, shown: str | None = None, limits: Limits = DEFAULT_LIMITS
) -> ImportedPrompt:
    """Read the peer's file at ``path`` and turn it into a wink-decl prompt document."""
    shown = path if shown is None else shown
    kind = peer_kind(path)
    if kind is None:
        return ImportedPrompt(None, [_unknown_kind(shown)], None)
    text, problems = read_peer_text(path, shown, limits)
    if text is None or problems:
        return ImportedPrompt(None, problems, text)
    prompt, problems = read_peer(kind, text, shown, limits)
    if prompt is None:
        return ImportedPrompt(None, sort_diagnostics(problems), text)
    builder = _Builder(prompt, _key_of(path))
    imported = builder.build()
    imported.text = text
    return imported


def _key_of(path: str) -> str:
    stem = os.path.basename(path).split(".", 1)[0].lower()  # noqa: PTH119
    key = _NOT_KEY.sub("-", stem).strip("-_")[:64].rstrip("-_")
    return key if key and key[0].isalnum() else f"imported-{key}".rstrip("-")


@dataclass(slots=True)
class _Message:
    role: str
    shaped: Shaped


class _Builder:
    """Builds one document; collects warnings and comments on the way."""

    def __init__(self, prompt: PeerPrompt, key: str) -> None:
        self.prompt = prompt
        self.key = key
        self.result = ImportedPrompt(None, [], None)
        self.names: dict[str, str] = {}

    def build(self) -> ImportedPrompt:
        prompt = self.prompt
        messages = self._messages()
        params = self._params(messages)
        document: dict[str, object] = {"key": self.key}
        document["name"] = prompt.name or _title(self.key)
        if prompt.description:
            document["description"] = prompt.description
        if params:
            document["params"] = params
        document["sections"] = self._sections(messages)
        self._settings()
        self.result.document = document
        self.result.diagnostics = sort_diagnostics(self.result.diagnostics)
        self.result.renamed = {k: v for k, v in self.names.items() if k != v}
        return self.result

    # Messages and parts ---------------------------------------------------------------------

    def _messages(self) -> list[_Message]:
        prompt = self.prompt
        lists = {i.name for i in prompt.inputs if i.type == "array"}
        found: list[_Message] = []
        carried: list[Token] = []
        for message in prompt.messages:
            tokens = scan(prompt.source, message.start, message.end, prompt.syntax)
            for role, start, end, part in _by_role(
                tokens, message.role, message.start, message.end
            ):
                if _blank(part):  # the peers send no message for it; its comments go on
                    carried.extend(t for t in part if t.kind == "comment")
                    continue
                tokens_of = [*carried, *part]
                carried = []
                found.append(_Message(role, shape(tokens_of, prompt.source, (start, end), lists)))
        rest = shape(carried, prompt.source, (0, 0), lists)
        if not found:  # an empty template: one empty section, so that the file validates
            role = prompt.messages[0].role if prompt.messages else "user"
            return [_Message(role, rest)]
        found[-1].shaped.cuts.extend(rest.cuts)
        return found

    # Params ---------------------------------------------------------------------------------

    def _params(self, messages: list[_Message]) -> dict[str, object]:
        declared = {i.name: i for i in self.prompt.inputs}
        used: dict[str, VarRef] = {}
        tested: dict[str, VarRef] = {}
        for message in messages:
            for part in message.shaped.parts:
                for piece in part.pieces:
                    if isinstance(piece, VarRef):
                        used.setdefault(piece.name, piece)
            for ref in message.shaped.tested:
                tested.setdefault(ref.name, ref)
        inputs = list(self.prompt.inputs)
        for name, ref in [*used.items(), *tested.items()]:
            if name not in declared:
                place = self.prompt.locate.span(ref.start)
                boolean = name not in used
                spec = (
                    PeerInput(name, "boolean", place, default=False)
                    if boolean
                    else PeerInput(name, "string", place)
                )
                declared[name] = spec
                inputs.append(spec)
        params: dict[str, object] = {}
        for spec in inputs:
            name = self._name_of(spec.name, spec.place)
            params[name] = self._param(spec)
        return params

    def _name_of(self, original: str, place: Span | None) -> str:
        if original in self.names:
            return self.names[original]
        name = _NOT_NAME.sub("_", _CAMEL.sub("_", original).lower()).strip("_")[:60]
        if not name or not name[0].isalpha():
            name = f"p_{name}".rstrip("_")
        if keyword.iskeyword(name) or name == "section_key":
            name += "_"
        taken = set(self.names.values())
        base, number = name, 2
        while name in taken:
            name, number = f"{base}_{number}", number + 1
        self.names[original] = name
        if name != original:
            self._warn(
                place,
                DiagnosticCode.IMPORT_RENAMED,
                f"The input '{original}' is named '{name}' in wink-decl.",
                "a param name of lowercase letters, digits and '_', starting with a letter",
                f"Pass it as {name}=... when you render or run the imported prompt.",
            )
        return name

    def _param(self, spec: PeerInput) -> dict[str, object]:
        param: dict[str, object] = {"type": spec.type}
        if spec.items:
            param["items"] = {"type": spec.items}
        if spec.odd is not None:
            self._warn(
                spec.place,
                DiagnosticCode.IMPORT_UNSUPPORTED,
                f"The input '{spec.name}' is of type '{spec.odd}', which a param cannot be; "
                "it is imported as text.",
                "string, integer, number, boolean or a list of one of them",
                "Pass its value as text, or change the template to use simpler inputs.",
            )
        if spec.has_default and _fits(spec.default, spec.type, spec.items):
            param["default"] = spec.default
        elif spec.has_default and spec.default is not None:
            self._warn(
                spec.place,
                DiagnosticCode.IMPORT_UNSUPPORTED,
                f"The default of '{spec.name}' is not {_a_value_of(spec.type, spec.items)}; it is "
                "left out.",
                f"a default of type {spec.type}",
                "Write a default of the param's type by hand, or leave it required.",
            )
        if spec.description:
            param["description"] = spec.description
        return param

    # Sections -------------------------------------------------------------------------------

    def _sections(self, messages: list[_Message]) -> list[object]:
        sections: list[object] = []
        keys: set[str] = set()
        for message in messages:
            key = _unique(message.role, keys)
            section: dict[str, object] = {"key": key, "title": _title(message.role)}
            first, *rest = message.shaped.parts
            section["template"] = self._text(first)
            children = self._children(rest)
            if children:
                section["children"] = children
            self._cuts(len(sections), message.shaped.cuts)
            sections.append(section)
        return sections

    def _children(self, parts: list[Part]) -> list[object]:
        children: list[object] = []
        keys: set[str] = set()
        for part in parts:
            template = self._text(part)
            if part.condition is None and not template.strip():
                continue
            condition = self._condition(part.condition)
            key = _unique(_condition_key(condition), keys)
            child: dict[str, object] = {"key": key, "title": _condition_title(condition)}
            child["template"] = template
            if condition is not None:
                child["enabled"] = condition
            children.append(child)
        return children

    def _condition(self, condition: dict[str, object] | None) -> dict[str, object] | None:
        """``condition`` with its param renamed as the params are."""
        if condition is None:
            return None
        text = json.dumps(condition)
        renamed = cast("dict[str, object]", json.loads(text))
        _rename(renamed, self.names)
        return renamed

    def _text(self, part: Part) -> str:
        out: list[str] = []
        for piece in part.pieces:
            if isinstance(piece, VarRef):
                out.append("${" + self.names[piece.name] + "}")
            else:
                out.append(piece.replace("$", "$$"))
        return _tidy("".join(out))

    def _cuts(self, index: int, cuts: Iterable[Cut]) -> None:
        lines: list[str] = []
        locate = self.prompt.locate
        for cut in cuts:
            span = locate.span(cut.start, cut.end)
            where = f"{span.path}:{span.line}:{span.column}"
            original = self.prompt.source[cut.start : cut.end]
            if cut.warn:
                lines.append(f"To finish by hand: {cut.what} at {where}, as written there:")
                self._warn(
                    span,
                    DiagnosticCode.IMPORT_UNSUPPORTED,
                    f"{cut.what[:1].upper()}{cut.what[1:]} has no equivalent in wink-decl; "
                    "it is kept as a comment above the section.",
                    "variables, and conditions around whole paragraphs",
                    "Rewrite it by hand: a param for a computed value, a section with "
                    "'enabled:' for a condition.",
                )
            else:
                lines.append(f"{cut.what[:1].upper()}{cut.what[1:]} at {where}:")
            lines.extend(f"  {line}" for line in original.splitlines())
        if lines:
            self.result.notes[index] = lines

    # Settings -------------------------------------------------------------------------------

    def _settings(self) -> None:
        prompt = self.prompt
        header = self.result.header
        if prompt.model:
            header.append(f"Imported from {prompt.locate.shown} ({_PEER_NAMES[prompt.kind]}).")
            header.append("A prompt file has no place for model settings: pass the model to")
            header.append("`wink-decl run --model PROVIDER:MODEL`, or name it in an eval file.")
            header.extend(f"  {key}: {_shown(value)}" for key, value in prompt.model)
            suggestion = _model_option(prompt.model)
            if suggestion:
                header.append(f"  (for example: --model {suggestion})")
        for key, value, span in prompt.left:
            self._warn(
                span,
                DiagnosticCode.IMPORT_UNSUPPORTED,
                f"The setting '{key}' has no equivalent in a wink-decl prompt file; it is kept "
                "as a comment.",
                "name, description, inputs and model settings",
                "Carry it over by hand: tools go under tools: with a handler.",
            )
            header.append(f"Not imported, to finish by hand: {key}: {_shown(value)}")
        for what, value, span in prompt.dropped:
            self._warn(
                span,
                DiagnosticCode.IMPORT_UNSUPPORTED,
                f"LangChain's load_prompt reads only the first message of a chat file; {what} "
                "is not imported.",
                "one message",
                "Add it as a section by hand if the prompt needs it.",
            )
            header.append(f"Not read by LangChain either: {what}: {_shown(value)}")

    def _warn(
        self, span: Span | None, code: DiagnosticCode, message: str, expected: str, hint: str
    ) -> None:
        self.result.diagnostics.append(
            Diagnostic(
                message,
                span,
                code,
                "warning",
                expected,
                hint,
                path=None if span else self.prompt.locate.shown,
            )
        )


_PEER_NAMES: dict[PeerKind, str] = {
    "prompty": "Prompty",
    "dotprompt": "Dotprompt",
    "langchain": "LangChain",
}


def _by_role(
    tokens: list[Token], role: str, start: int, end: int
) -> Iterable[tuple[str, int, int, list[Token]]]:
    """The tokens split at Dotprompt's ``{{role "..."}}`` markers, each run with its role."""
    run: list[Token] = []
    for token in tokens:
        if token.kind == "role":
            yield role, start, token.start, run
            role, start, run = token.text, token.end, []
        else:
            run.append(token)
    yield role, start, end, run


def _blank(tokens: list[Token]) -> bool:
    """True when ``tokens`` hold nothing but blank text and template comments."""
    return all(t.kind == "comment" or (t.kind == "text" and not t.text.strip()) for t in tokens)


def _fits(value: object, wink_type: str, items: str | None) -> bool:
    checks: dict[str, type | tuple[type, ...]] = {
        "string": str,
        "integer": int,
        "number": (int, float),
        "boolean": bool,
    }
    if wink_type == "array":
        return isinstance(value, list) and all(
            _fits(item, items or "string", None) for item in cast("list[object]", value)
        )
    if isinstance(value, bool) and wink_type != "boolean":
        return False
    return isinstance(value, checks[wink_type])


def _a_value_of(wink_type: str, items: str | None) -> str:
    """'a string', 'an integer', 'a list of numbers'."""
    if wink_type == "array":
        return f"a list of {items}s"
    return f"{'an' if wink_type == 'integer' else 'a'} {wink_type}"


def _rename(node: object, names: dict[str, str]) -> None:
    if isinstance(node, dict):
        mapping = cast("dict[str, object]", node)
        if isinstance(mapping.get("param"), str):
            mapping["param"] = names.get(str(mapping["param"]), mapping["param"])
        for value in mapping.values():
            _rename(value, names)


def _condition_key(condition: dict[str, object] | None) -> str:
    if condition is None:
        return "continued"
    negated, name, value = _parts(condition)
    key = f"{'unless' if negated else 'if'}-{name}"
    if value is not None:
        key += "-is-" + _NOT_KEY.sub("-", str(value).lower()).strip("-")
    return key.replace("_", "-")[:64].rstrip("-_")


def _condition_title(condition: dict[str, object] | None) -> str:
    if condition is None:
        return "Continued"
    negated, name, value = _parts(condition)
    if value is None:
        return f"{'Unless' if negated else 'If'} {name}"
    shown = value if isinstance(value, str) else json.dumps(value)
    return f"If {name} is {'not ' if negated else ''}{shown}"


def _parts(condition: dict[str, object]) -> tuple[bool, str, object]:
    """Negated or not, the param, and the value compared with (None for truthiness)."""
    negated = "not" in condition
    inner = cast("dict[str, object]", condition["not"]) if negated else condition
    if "equals" in inner:
        equals = cast("dict[str, object]", inner["equals"])
        return negated, str(equals["param"]), equals["value"]
    return negated, str(inner["param"]), None


def _unique(key: str, keys: set[str]) -> str:
    found, number = key, 2
    while found in keys:
        found, number = f"{key}-{number}", number + 1
    keys.add(found)
    return found


def _title(key: str) -> str:
    words = key.replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def _tidy(text: str) -> str:
    """Blank runs of lines made one blank line, spaces at line ends dropped, ends stripped."""
    lines = [line.rstrip() for line in text.strip("\n").split("\n")]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip()


def _shown(value: object) -> str:
    return json.dumps(_without_secrets(value), ensure_ascii=False)


def _without_secrets(value: object) -> object:
    if isinstance(value, dict):
        mapping = cast("dict[str, object]", value)
        return {
            k: "[left out]" if _SECRET.search(k) else _without_secrets(v)
            for k, v in mapping.items()
        }
    if isinstance(value, list):
        return [_without_secrets(item) for item in cast("list[object]", value)]
    return value


def _model_option(settings: list[tuple[str, object]]) -> str | None:
    found = dict(settings)
    model_id, provider = found.get("id"), found.get("provider")
    if isinstance(model_id, str) and isinstance(provider, str) and provider in _PROVIDERS:
        return f"{_PROVIDERS[provider]}:{model_id}"
    name = found.get("model")
    if isinstance(name, str) and name.startswith(("openai/", "anthropic/")):
        return name.replace("/", ":", 1)
    return None


def _unknown_kind(shown: str) -> Diagnostic:
    return Diagnostic(
        message="This file is not a prompt file wink-decl can import: its name does not end "
        "in .prompty, .prompt, .json, .yaml or .yml.",
        span=None,
        code=DiagnosticCode.IMPORT_INVALID,
        expected="a Prompty (.prompty), Dotprompt (.prompt) or LangChain (.json, .yaml) file",
        hint="Rename the file to the extension of its format.",
        path=shown,
    )
