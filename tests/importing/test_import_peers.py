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
    # The peers' own files (corpus/README.md says where each comes from).
    ("prompty-tests-basic.prompty", {}, {}),
    (
        "prompty-tests-basic.prompty",
        {"firstName": "Al", "question": "Why?"},
        {"first_name": "Al", "question": "Why?"},
    ),
    ("prompty-spec-summarize.prompty", {"text": "A long text."}, None),
    ("prompty-spec-summarize.prompty", {"text": "A long text.", "context": "Notes"}, None),
    ("prompty-tests-threaded.prompty", {"question": "Hi"}, {"question": "Hi", "conversation": ""}),
    ("prompty-spec-structured.prompty", {}, None),
    ("prompty-tests-tools-function.prompty", {"question": "Weather?"}, None),
    ("prompty-docs-hello.prompty", {"input": "Hi", "chat_history": []}, {"input": "Hi"}),
    (
        "prompty-docs-basic.prompty",
        {"firstName": "Seth", "context": "Tents cost $5.", "question": "Any tents?"},
        {"first_name": "Seth", "context": "Tents cost $5.", "question": "Any tents?"},
    ),
    ("prompty-vscode-test-sample.prompty", {"question": "Why?", "context": "Sky"}, None),
    ("prompty-tests-shorthand-quick.prompty", {}, None),
    ("prompty-tests-shorthand-quick.prompty", {"topic": "Rust"}, None),
    ("prompty-docs-chat-agent.prompty", {}, None),
    ("dotprompt-go-example.prompt", {"text": "A long story."}, None),
    ("dotprompt-monaco-basic.prompt", {"question": "Why?", "context": "Sky"}, None),
    ("dotprompt-monaco-basic.prompt", {"question": "Why?"}, {"question": "Why?", "context": ""}),
    (
        "dotprompt-monaco-multilingual-unicode.prompt",
        {"sourceLanguage": "en", "targetLanguage": "ja", "text": "Hello 👋"},
        {"source_language": "en", "target_language": "ja", "text": "Hello 👋"},
    ),
    ("langchain-tests-simple-prompt.yaml", {"adjective": "funny"}, None),
    ("langchain-tests-simple-prompt.yaml", {"adjective": "funny", "content": "cats"}, None),
]


@pytest.mark.parametrize(("name", "inputs", "params"), CASES, ids=lambda v: str(v)[:40])
def test_the_imported_prompt_renders_what_the_peer_renders(
    name: str,
    inputs: dict[str, object],
    params: dict[str, object] | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for variable in ("OPENAI_API_KEY", "AZURE_OPENAI_API_KEY"):
        monkeypatch.setenv(variable, "not-a-key")  # Prompty resolves ${env:...} on load
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", "http://127.0.0.1:9")
    file = CORPUS / name
    assert wink_messages(file, tmp_path, inputs if params is None else params) == peer_messages(
        file, inputs
    )


WARNINGS: dict[str, list[str]] = {
    "dotprompt-go-example.prompt": [
        "13:1 import-unsupported The setting 'output' has no equivalent in a wink-decl prompt "
        "file; it is kept as a comment.",
    ],
    "dotprompt-monaco-basic.prompt": [],
    "dotprompt-readme-extract.prompt": [
        "6:1 import-unsupported The setting 'output' has no equivalent in a wink-decl prompt "
        "file; it is kept as a comment.",
    ],
    "dotprompt-monaco-multilingual-unicode.prompt": [
        "23:5 import-renamed The input 'sourceLanguage' is named 'source_language' in wink-decl.",
        "24:5 import-renamed The input 'targetLanguage' is named 'target_language' in wink-decl.",
        "26:5 import-renamed The input 'preserveEmoji' is named 'preserve_emoji' in wink-decl.",
        "62:1 import-unsupported A condition inside a paragraph has no equivalent in wink-decl; "
        "it is kept as a comment above the section.",
    ],
    "langchain-tests-simple-prompt.yaml": [],
    "prompty-docs-basic.prompty": [
        "4:1 import-unsupported The setting 'authors' has no equivalent in a wink-decl prompt "
        "file; it is kept as a comment.",
        "15:1 import-unsupported The setting 'sample' has no equivalent in a wink-decl prompt "
        "file; it is kept as a comment.",
        "32:17 import-renamed The input 'firstName' is named 'first_name' in wink-decl.",
    ],
    "prompty-docs-chat-agent.prompty": [
        "18:1 import-unsupported The setting 'tools' has no equivalent in a wink-decl prompt "
        "file; it is kept as a comment.",
    ],
    "prompty-docs-hello.prompty": [
        "4:1 import-unsupported The setting 'authors' has no equivalent in a wink-decl prompt "
        "file; it is kept as a comment.",
        "11:1 import-unsupported The setting 'sample' has no equivalent in a wink-decl prompt "
        "file; it is kept as a comment.",
        "23:1 import-unsupported A loop has no equivalent in wink-decl; it is kept as a comment "
        "above the section.",
    ],
    "prompty-readme-greeting.prompty": [],
    "prompty-spec-structured.prompty": [
        "10:1 import-unsupported The setting 'outputs' has no equivalent in a wink-decl prompt "
        "file; it is kept as a comment.",
    ],
    "prompty-spec-summarize.prompty": [],
    "prompty-tests-basic.prompty": [
        "4:1 import-unsupported The setting 'metadata' has no equivalent in a wink-decl prompt "
        "file; it is kept as a comment.",
        "19:5 import-renamed The input 'firstName' is named 'first_name' in wink-decl.",
        "22:5 import-renamed The input 'lastName' is named 'last_name' in wink-decl.",
    ],
    "prompty-tests-shorthand-quick.prompty": [],
    "prompty-tests-threaded.prompty": [
        "10:5 import-unsupported The input 'conversation' is of type 'thread', which a param "
        "cannot be; it is imported as text.",
    ],
    "prompty-tests-tools-function.prompty": [
        "6:1 import-unsupported The setting 'tools' has no equivalent in a wink-decl prompt "
        "file; it is kept as a comment.",
    ],
    "prompty-vscode-test-sample.prompty": [
        "8:1 import-unsupported The setting 'metadata' has no equivalent in a wink-decl prompt "
        "file; it is kept as a comment.",
        "14:1 import-unsupported The setting 'inputSchema' has no equivalent in a wink-decl "
        "prompt file; it is kept as a comment.",
    ],
}
"""Every warning the import of each peer's own file gives, with its line and column."""


def diagnostics_of(file: Path) -> list[str]:
    """The import's diagnostics for ``file``: line:column code message."""
    found = import_peer_file(str(file)).diagnostics
    return [f"{d.span.line}:{d.span.column} {d.code} {d.message}" for d in found if d.span]


def test_every_peer_file_of_the_corpus_is_rendered_and_its_warnings_listed() -> None:
    peers = {p.name for p in CORPUS.iterdir() if p.name.startswith(("prompty-", "dotprompt-"))}
    peers |= {p.name for p in CORPUS.iterdir() if p.name.startswith("langchain-tests-")}
    refused = {name for name, _ in REFUSED}
    assert peers == set(WARNINGS) | refused
    assert set(WARNINGS) <= {n for n, _, _ in CASES}


@pytest.mark.parametrize("name", sorted(WARNINGS))
def test_the_import_of_a_peer_file_warns_exactly_of_what_it_cannot_express(name: str) -> None:
    assert diagnostics_of(CORPUS / name) == WARNINGS[name]


REFUSED: list[tuple[str, list[str]]] = [
    (
        "dotprompt-monaco-schema-and-config.prompt",
        [
            "31:24 yaml-syntax YAML cannot read this: did not find expected comment or line "
            "break (while scanning a block scalar, which starts on line 31).",
        ],
    ),
    (
        "langchain-tests-jinja-injection-prompt.yaml",
        [
            "5:28 import-unsupported An expression has no equivalent in wink-decl; it is kept "
            "as a comment above the section.",
        ],
    ),
]
"""Files the peer's own library refuses to read, with what the import says of each."""


@pytest.mark.parametrize(("name", "expected"), REFUSED, ids=[n for n, _ in REFUSED])
def test_a_file_the_peer_refuses_is_refused_or_imported_without_its_expression(
    name: str, expected: list[str]
) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - each library raises its own ValueError
        peer_messages(CORPUS / name, {"prompt": "joke"})
    assert diagnostics_of(CORPUS / name) == expected
