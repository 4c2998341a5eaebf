"""Fixtures of the evaluation tests: the ``greet`` prompt, a model that answers by rule, and a
copy of the repository's prompts and evals."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from greet_prompt import GREET
from openai_replies import completion
from provider_server import ProviderServer, RecordedRequest, Reply
from repo_copy import copy_prompts_and_evals

from wink_decl.compiler import CompiledPrompt, compile_file


@pytest.fixture
def greet(tmp_path: Path) -> CompiledPrompt:
    """The compiled ``greet`` prompt: one required param, one summarized section."""
    (tmp_path / "greet.wink.yaml").write_text(GREET)
    result = compile_file(tmp_path / "greet.wink.yaml", root=tmp_path)
    assert result.prompt is not None
    return result.prompt


def _answer(request: RecordedRequest) -> Reply:
    """Greets the name asked for (loudly when told to); reads a section first for Dee; refuses
    Eve."""
    body = request.json
    system = body["messages"][0]["content"]
    name = re.search(r"Say hello to (\w+)\.", system)
    assert name is not None
    who = name.group(1)
    if who == "Eve":
        return Reply(status=400, json={"error": {"message": "Eve is not allowed"}})
    if who == "Dee" and len(body["messages"]) == 2:
        call = ("call_7", "read_section", json.dumps({"section_key": "manners"}))
        return Reply(json=completion(None, [call], usage=(30, 4)))
    greeting = f"Hello, {who}!"
    return Reply(
        json=completion(greeting.upper() if "Shout" in system else greeting, usage=(20, 3))
    )


@pytest.fixture
def server() -> Iterator[ProviderServer]:
    """The loopback model of the ``greet`` cases, answering by rule."""
    with ProviderServer(responder=_answer) as running:
        yield running


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the repository's prompts and evals, the working folder."""
    monkeypatch.chdir(copy_prompts_and_evals(tmp_path))
    return tmp_path
