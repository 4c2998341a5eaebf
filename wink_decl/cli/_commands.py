"""Every ``wink-decl`` command's name and help; its code is imported only when it is used.

Parsing a command line, ``--help`` and ``--version`` need the names and the help alone: each
command's module (``wink_decl.cli._<name>``) and what it imports load the first time that
command configures its options or runs, so a command pays only for its own imports.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
from collections.abc import Callable
from typing import cast

from wink_decl._install_hint import install_hint
from wink_decl.cli._command import Command, Console

__all__ = ["COMMANDS", "implemented"]


@dataclasses.dataclass(frozen=True)
class _Deferred:
    """A command's code, imported from its module the first time it is needed."""

    name: str

    def configure(self, parser: argparse.ArgumentParser) -> None:
        """Add the command's options to ``parser``."""
        self._code().configure(parser)

    def run(self, args: argparse.Namespace, console: Console) -> int:
        """Run the command; its exit status."""
        return self._code().run(args, console)

    def _code(self) -> Command:
        module = importlib.import_module(f"wink_decl.cli._{self.name}")
        return cast("Command", module.COMMAND)


def _deferred(*, name: str, summary: str, description: str, examples: tuple[str, ...]) -> Command:
    code = _Deferred(name)
    return Command(name, summary, description, examples, code.configure, code.run)


COMMANDS: tuple[Command, ...] = (
    _deferred(
        name="validate",
        summary="Check prompt files and folders, reporting every problem with its line.",
        description=(
            "Load and check prompt files: syntax, the schema, references between sections, tools, "
            "params and includes, and that every handler, predicate and policy is installed. "
            "Plugins are looked up in package metadata only: no plugin code is imported. What "
            "needs a plugin's code is checked by compile, render, tools and run, or here with "
            "--import-plugins: signatures and, for a tool that leaves its params to its handler, "
            "those params and its reads:, writes: and examples. Every problem of "
            "every file is reported, sorted by file and line; where an overrides folder "
            "exists, each valid prompt's override files are checked too (stale, unknown and "
            "refused entries). Eval files found beside them are checked too: their prompt, "
            "models, params, checks and dataset (docs/evals.md). Exit status: 0 every file is "
            "valid (warnings allowed), 1 a file has errors, 2 usage error."
        ),
        examples=(
            "wink-decl validate prompts/",
            "wink-decl validate prompts/ evals/",
            "wink-decl validate prompts/agents/code-review.wink.yaml --format json",
            "wink-decl validate prompts/ --cache-dir .wink-decl-cache",
            "wink-decl validate prompts/ --import-plugins",
        ),
    ),
    _deferred(
        name="render",
        summary="Render a prompt file as a model receives it: the text, then the tools.",
        description=(
            "Compile one prompt file, bind its params and render it: the text a model receives, "
            "then the tools it may call, in order. Summarized sections stay summarized unless "
            "--open names them. Imports the plugin code a render needs, and only that: every "
            "predicate the file names, and the handler of each tool that leaves its params (or "
            "its result) to the handler, whose schema comes from it; other handlers and policies "
            "are not imported. Exit status: 0 rendered, 1 the file, a plugin or the params have "
            "errors (reported on stderr), 2 usage error."
        ),
        examples=(
            "wink-decl render prompts/agents/code-review.wink.yaml"
            ' --param language=Python --param change="$(git diff)"',
            "wink-decl render prompts/research/assistant.wink.yaml --params-file question.yaml"
            " --open methods.finding",
            "wink-decl render prompts/release/pipeline.wink.toml --param version=1.4.0"
            " --format json",
        ),
    ),
    _deferred(
        name="run",
        summary="Run a prompt file against a model, executing the tools it calls, to an answer.",
        description=(
            "Compile one prompt file, bind its params, import and check every handler, predicate "
            "and policy it names (plugin code runs), and run it against a model until it "
            "answers: every tool the model calls "
            "runs under the prompt's policies, read_section opens summarized sections, and the "
            "answer is printed on stdout (a declared output as one line of JSON). While it runs, "
            "each turn and tool call is shown on stderr when stderr is a terminal. API keys come "
            "from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...) and are never shown. "
            "Exit status: 0 answered, 1 the file, the params or the provider failed (one line "
            "saying why), 2 usage error."
        ),
        examples=(
            "wink-decl run prompts/agents/code-review.wink.yaml --model openai:gpt-4.1-mini"
            ' --param language=Python --param change="$(git diff)"',
            "wink-decl run prompts/release/pipeline.wink.toml --model anthropic:claude-sonnet-4-5"
            " --param version=1.4.0 --workspace . --transcript run.jsonl",
            "wink-decl run review.wink.yaml --model openai:qwen3 --base-url http://127.0.0.1:8000/v1",
        ),
    ),
    _deferred(
        name="eval",
        summary="Run an eval file's cases under its experiments and models, and report.",
        description=(
            "Check each eval file (as validate does), then run every case under every "
            "experiment (the baseline and each override tag or model) and model, each "
            "repetition apart, through the real runtime: tools run under the prompt's policies, "
            "read_section opens summarized sections, and every answer is checked. At most "
            "--concurrency runs are in flight at once. Every finished run is appended to the "
            "journal in --out as it finishes (--resume goes on from it after Ctrl-C or a kill), "
            "and every model reply is kept in a response cache there, so an unchanged suite runs "
            "again without a request (--no-cache asks again; --replay DIR answers from recorded "
            "replies and asks no model). The report gives each experiment and model's pass "
            "rate, mean score, errors, latency and tokens, and each experiment against the "
            "baseline on the same cases (the change with its 95% interval, McNemar's exact "
            "test): as a table, JSON or JUnit XML, and with --html as one self-contained page "
            "(docs/evals.md). Exit status: 0 every experiment and model reaches the suite's "
            "threshold, 1 one does not (or a file has errors), 2 usage error, 130 interrupted."
        ),
        examples=(
            "wink-decl eval evals/code-review.wink-eval.yaml",
            "wink-decl eval evals/code-review.wink-eval.yaml --replay evals/recorded",
            "wink-decl eval suite.wink-eval.yaml --model openai:gpt-4.1-mini --concurrency 16"
            " --format junit > eval.xml",
            "wink-decl eval suite.wink-eval.yaml --experiment concise --filter 'add-*' --resume",
        ),
    ),
    _deferred(
        name="tools",
        summary="Print the tools a rendered prompt offers, as JSON Schema or provider JSON.",
        description=(
            "Compile and render one prompt file like 'wink-decl render' and print only its tools, "
            "in the order the model receives them. Tools depend on what is shown: a summarized "
            "section adds read_section, and --open reveals the tools of the sections it opens. "
            "Only the params that decide which tools appear must be given (those read by the "
            "enabled: or summary_when: of a section with tools); the others may be left out. "
            "Imports the plugin code render imports: every predicate the file names, and the "
            "handler of each tool that leaves its params (or its result) to the handler. Exit "
            "status: 0 printed, 1 the file, a plugin or the params have errors, 2 usage error."
        ),
        examples=(
            "wink-decl tools prompts/agents/code-review.wink.yaml --param language=Python"
            ' --param change="$(git diff)"',
            "wink-decl tools prompts/release/pipeline.wink.toml --param version=1.4.0"
            " --format openai --open notes",
        ),
    ),
    _deferred(
        name="preview",
        summary="Serve a local page that shows prompt files as a model receives them, live.",
        description=(
            "Serves a page, on this machine only unless --host says otherwise, for the prompt "
            "files under PATH: each file with its problems (validate's checks), and for the "
            "chosen one a form for its params, the rendered text with each section's "
            "visibility switchable and summarized sections readable as read_section reads "
            "them, the tools offered in the OpenAI or Anthropic format, and the size of each "
            "section, with any tag of the prompt's override files applied (the overrides folder "
            "as render --tag finds it). Saving a prompt or override file updates the page. Like "
            "render, it imports the plugin code a render needs (every predicate the file names, "
            "and the handler of each tool that leaves its params or its result to the handler). "
            "The address is the first line on stdout. Needs the preview extra: "
            f"{install_hint('preview')}. Stop it with Ctrl-C."
        ),
        examples=(
            "wink-decl preview prompts/",
            "wink-decl preview prompts/ --port 0 --open",
        ),
    ),
    _deferred(
        name="mcp",
        summary="Serve prompt files, and a prompt's tools, to MCP clients over stdio or HTTP.",
        description=(
            "Serves every prompt file under PATH as an MCP prompt, named by its address (ns/key), "
            "its params as arguments; getting one returns the text 'wink-decl render' prints for "
            "those arguments (and --tag). With --agent, that prompt's tools are served too: every "
            "call runs under the prompt's policies in a session of the client's own, and "
            "read_section reveals tools as it does in a run. Adding, changing or removing a file "
            "tells clients the list changed; a file with errors is left out and reported on "
            "stderr. Over stdio (the default) stdout carries nothing but the protocol; --http "
            "serves streamable HTTP. Both the initialize handshake and the stateless 2026-07-28 "
            "protocol are spoken (docs/mcp.md). Needs the mcp extra: "
            f"{install_hint('mcp')}. Stop it by closing its stdin, or with Ctrl-C."
        ),
        examples=(
            "wink-decl mcp prompts/",
            "wink-decl mcp prompts/ --agent prompts/agents/code-review.wink.yaml"
            " --param language=Python --workspace .",
            "wink-decl mcp prompts/ --http 127.0.0.1:8765",
        ),
    ),
    _deferred(
        name="compile",
        summary="Compile a prompt file to its JSON artifact, importing and checking its plugins.",
        description=(
            "Compile one prompt file and print its artifact: the resolved section tree, each "
            "tool's parameter and result schemas, handler and policies, as canonical JSON (sorted "
            "keys, two-space indent), equal for equal input. Unlike validate, this imports every "
            "handler, predicate and policy the file names (plugin code runs) and checks each "
            "against its use: signatures, params, and the tools that take their params from "
            "their handler. Exit status: 0 compiled, 1 the file or a plugin has errors, 2 usage "
            "error."
        ),
        examples=(
            "wink-decl compile prompts/agents/code-review.wink.yaml",
            "wink-decl compile prompts/release/pipeline.wink.toml --output build/pipeline.json",
        ),
    ),
    _deferred(
        name="schema",
        summary="Print the JSON Schema of prompt files, or write it to a file.",
        description=(
            "Print the JSON Schema (draft 2020-12) that prompt files follow, as shipped in this "
            "version of wink-decl. Editors that read JSON Schema use it to complete and check "
            "prompt files while you type."
        ),
        examples=(
            "wink-decl schema --output schema/wink-decl.schema.json",
            "wink-decl schema | less",
        ),
    ),
    _deferred(
        name="plugins",
        summary="List the handlers, policies, predicates and evaluators: installed and built in.",
        description=(
            "Lists every handler, policy, predicate and evaluator that installed packages "
            "register, with the package (distribution) and version providing it and the code it "
            "points at, "
            "under the signature each kind must have; then the tool, policies and conditions "
            "built into wink-decl, marked built in (docs/plugins.md shows how to write each "
            "kind). "
            "Only package metadata is read: no plugin code is imported. When two packages "
            "register the same name, both are listed as name@package, the form a prompt file "
            "uses to choose one, and a warning says so; the exit status is still 0."
        ),
        examples=("wink-decl plugins", "wink-decl plugins --format json"),
    ),
    _deferred(
        name="new",
        summary="Write a starter prompt file to edit.",
        description=(
            "Writes NAME.wink.yaml (or NAME.wink.toml with --format toml): a small prompt with "
            "params, sections, a summarized section with a child, planning tools and a "
            "commented-out policy, each part explained by a comment. It compiles as it is. Its "
            "first line points editors at the JSON Schema, for completion and checks as you type, "
            "by a relative path that works offline: to the nearest copy in the folder or above "
            "it, else to a copy written beside the file (wink-decl.schema.json). An existing "
            "file is left alone unless --force is given."
        ),
        examples=(
            "wink-decl new code-review",
            "wink-decl new release-notes --format toml --output prompts/release",
        ),
    ),
    _deferred(
        name="convert",
        summary="Convert a prompt file between YAML and TOML.",
        description=(
            "Writes the prompt in FILE in the other format, keeping the order of its keys as "
            "far as the format allows, and translating the first line that points editors at "
            "the schema. Other comments cannot be carried over; a note says how many were "
            "left. By default the new file goes beside FILE (review.wink.yaml becomes "
            "review.wink.toml), and an existing file is left alone unless --force is given."
        ),
        examples=(
            "wink-decl convert prompts/review.wink.yaml --to toml",
            "wink-decl convert prompts/release.wink.toml --to yaml --output -",
        ),
    ),
    _deferred(
        name="import",
        summary="Import a Prompty, Dotprompt or LangChain prompt as a wink-decl prompt file.",
        description=(
            "Reads FILE (.prompty, .prompt, or a LangChain load_prompt .json/.yaml) as every "
            "file is read (bounded, a regular file inside its folder) and writes a commented "
            "prompt file beside it: inputs become typed params, messages become sections, "
            "variables ${name}, a condition around whole paragraphs a section with enabled:. "
            "What has no equivalent (loops, filters, helpers, partials) is a warning at its "
            "line and is kept as a comment to finish by hand; model settings are kept as a "
            "comment. An existing file is left alone unless --force is given; nothing is "
            "written outside FILE's folder (docs/importing.md). Exit status: 0 written "
            "(warnings allowed), 1 FILE cannot be imported or the file cannot be written, 2 "
            "usage error."
        ),
        examples=(
            "wink-decl import prompts/greeting.prompty",
            "wink-decl import prompts/summarize.prompt --to toml",
            "wink-decl import prompts/qa.json --output qa.wink.yaml --force",
        ),
    ),
    _deferred(
        name="overrides",
        summary="Seed, check, re-pin and compare a prompt's overrides: tagged variants of its "
        "texts.",
        description=(
            "Override files hold tagged variants of a prompt's texts (section templates, "
            "summaries and visibility, tool and param descriptions), one file per prompt and tag "
            "under the overrides folder: NS/PROMPT-KEY/TAG.wink-override.yaml (or .toml). Each "
            "entry records the hash of the text it replaces; render, tools, compile and run "
            "apply a tag with --tag. 'seed' writes a file holding the current texts and hashes; "
            "'check' reports stale, unknown and refused entries of every tag of every prompt "
            "(exit status: 0 no errors, warnings allowed; 1 errors; 2 usage error); 'repin' "
            "lists a tag's stale entries with the base text each now replaces (exit status 1 "
            "when any is stale) and, with --all or --entry, writes their new hashes, keeping "
            "the texts; 'diff' "
            "shows the rendered prompt without and with a tag. docs/overrides.md has the details."
        ),
        examples=(
            "wink-decl overrides seed prompts/agents/code-review.wink.yaml --tag concise",
            "wink-decl overrides check prompts/ --strict",
            "wink-decl overrides repin prompts/agents/code-review.wink.yaml --tag concise --all",
            "wink-decl overrides diff prompts/agents/code-review.wink.yaml --tag concise"
            " --param language=Python",
        ),
    ),
)
"""Every command, in the order ``wink-decl --help`` lists them."""


def implemented(
    name: str,
    *,
    configure: Callable[[argparse.ArgumentParser], None],
    run: Callable[[argparse.Namespace, Console], int],
) -> Command:
    """The command ``name`` as its own module defines it: the help from here, its code given."""
    about = next(command for command in COMMANDS if command.name == name)
    return dataclasses.replace(about, configure=configure, run=run)
