"""The imported prompt renders what the peer's own library renders from the original."""

from __future__ import annotations

import asyncio
import re
import warnings
from pathlib import Path
from typing import Any, cast

import prompty  # pyright: ignore[reportMissingTypeStubs]
import pytest
from dotpromptz import DataArgument, Dotprompt
from langchain_core.prompts import ChatPromptTemplate, PromptTemplate
from langchain_core.prompts.loading import load_prompt

from wink_decl.cli._writers._imported_text import imported_text
from wink_decl.compiler import compile_file, make_params
from wink_decl.importing import import_peer_file

CORPUS = Path(__file__).parent / "corpus"
_HEADING = re.compile(r"^## \d+\. .* \((?P<key>[a-z0-9_-]+)\)$")
_CHILD_HEADING = re.compile(r"^###+ [\d.]+ .*$")

Messages = list[tuple[str, str]]


def tidy(text: str) -> str:
    """Whitespace as wink-decl lays it out: no spaces at line ends, one blank line at most."""
    lines = [line.rstrip() for line in text.strip().split("\n")]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip()


def peer_messages(file: Path, inputs: dict[str, object]) -> Messages:
    """The messages the peer's library renders from ``file`` for ``inputs``."""
    if file.suffix == ".prompty":
        agent = prompty.load(str(file))  # pyright: ignore[reportUnknownMemberType]
        found = cast("list[Any]", prompty.prepare(agent, inputs=inputs))  # pyright: ignore[reportUnknownMemberType]
        return [(str(m.role), tidy(str(m.parts[0].value))) for m in found]
    if file.suffix == ".prompt":
        data: DataArgument[Any] = DataArgument(input=inputs)
        rendered = cast("Any", asyncio.run(Dotprompt().render(file.read_text(), data)))  # pyright: ignore[reportUnknownArgumentType]
        messages: list[Any] = rendered.messages
        return [
            (str(m.role.value), tidy("".join(str(p.text) for p in m.content))) for m in messages
        ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # load_prompt is deprecated, and still what files use
        template = load_prompt(file)
    if isinstance(template, ChatPromptTemplate):
        return [("user", tidy(str(m.content))) for m in template.format_messages(**inputs)]
    assert isinstance(template, PromptTemplate)
    return [("prompt", tidy(template.format(**inputs)))]


def wink_messages(file: Path, folder: Path, params: dict[str, object]) -> Messages:
    """The imported prompt's top-level sections as rendered, child headings left out."""
    imported = import_peer_file(str(file))
    target = folder / "imported.wink.yaml"
    target.write_text(imported_text(imported, "yaml", None), encoding="utf-8")
    compiled = compile_file(target, root=folder).prompt
    assert compiled is not None
    text = compiled.template.render(*make_params(compiled, params)).text
    found: list[tuple[str, list[str]]] = []
    for line in text.split("\n"):
        heading = _HEADING.match(line)
        if heading:
            found.append((heading.group("key").rstrip("-0123456789"), []))
        elif not _CHILD_HEADING.match(line) and found:
            found[-1][1].append(line)
    return [(key, tidy("\n".join(lines))) for key, lines in found]


CASES: list[tuple[str, dict[str, object], dict[str, object] | None]] = [
    ("prompty-readme-greeting.prompty", {"name": "Jane"}, {"name": "Jane"}),
    ("prompty-readme-greeting.prompty", {}, {}),
    ("dotprompt-readme-extract.prompt", {"text": "Ada, 36, a mathematician."}, None),
    ("langchain-docs-joke.json", {"adjective": "funny", "content": "chickens"}, None),
    (
        "own-review.prompty",
        {"language": "Python", "strict": True, "userName": "Al"},
        {"language": "Python", "strict": True, "user_name": "Al"},
    ),
    ("own-review.prompty", {"language": "Go"}, {"language": "Go"}),
    ("own-roles.prompt", {"topic": "bees"}, None),
    ("own-roles.prompt", {"topic": "bees", "short": True, "tone": "dry"}, None),
    ("own-mustache.yaml", {"question": "Where is it?"}, None),
    ("own-mustache.yaml", {"question": ""}, None),
    ("own-chat.yaml", {"topic": "tides"}, None),
    ("own-fstring-braces.json", {"topic": "tides"}, None),
    ("own-conditions.prompty", {}, None),
    ("own-conditions.prompty", {"lang": "rust", "level": 3}, None),
    ("own-json-schema.prompt", {"topic": "bees"}, None),
    ("own-json-schema.prompt", {"topic": "bees", "count": 5}, None),
]


@pytest.mark.parametrize(("name", "inputs", "params"), CASES, ids=lambda v: str(v)[:40])
def test_the_imported_prompt_renders_what_the_peer_renders(
    name: str,
    inputs: dict[str, object],
    params: dict[str, object] | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "not-a-key")  # Prompty resolves ${env:...} on load
    file = CORPUS / name
    assert wink_messages(file, tmp_path, inputs if params is None else params) == peer_messages(
        file, inputs
    )
