"""What every diagnostic code means, an example that causes it and the fix: one table.

``docs/diagnostics.md`` is written from the table (``python -m wink_decl.diagnostic_docs
--write``), and a test runs every example to check it gives its code, so the page cannot lie.
The table is long by nature (one entry a code); it stays in one file so it reads as one list.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from wink_decl.diagnostic_codes import DiagnosticCode

__all__ = ["CODE_DOCS", "DOC_PATH", "CodeDoc", "main", "markdown"]


@dataclass(frozen=True, slots=True)
class CodeDoc:
    """What a code means, an example that causes it and the fix (``docs/diagnostics.md``)."""

    meaning: str
    fix: str
    files: Mapping[str, str] = field(default_factory=dict[str, str])
    r"""The example's files by name, the prompt file first; a file named ``x/`` is a folder.
    Text is written as UTF-8 with surrogate escapes, so ``\udce9`` is the byte 0xE9."""
    run: str = "wink-decl validate prompt.wink.yaml"
    """How the example is run, in its folder: a command line, or Python code whose last line
    gives the diagnostics or raises ``DiagnosticError``; empty when no file reaches the code."""
    links: Mapping[str, str] = field(default_factory=dict[str, str])
    """Symbolic links the example makes, by name: what each points at."""
    also: tuple[DiagnosticCode, ...] = ()
    """Codes the example cannot help reporting too (an include's own errors)."""


_C = DiagnosticCode
_SAFETY_NET = (
    "The checks before compiling should have reported the problem with a code of its own; if "
    "this one appears, please report it with the file."
)
_PROMPT = (
    "key: review\nsections:\n  - key: intro\n    title: Intro\n    template: Review the change.\n"
)
"""A valid prompt file the examples build on."""
_TOOL = "tools:\n  read_plan: {description: Read the plan., handler: planning.read_plan}\n"
_PARAMS = "params:\n  topic: {type: string}\n"
_PARAM_PROMPT = (
    "key: review\n" + _PARAMS + "sections:\n  - key: intro\n    title: Intro\n"
    "    template: Review ${topic}.\n"
)
_OVERRIDE_FILE = "overrides/docs/review/exp.wink-override.yaml"
_OVERRIDE_RUN = (
    "import wink_decl\nfrom wink_decl.overrides import LocalOverrideStore\n"
    "wink_decl.load('prompt.wink.yaml', tag='exp', overrides=LocalOverrideStore('overrides'))"
)
_INTRO_HASH = "sha256:946939f8aec08ec8199e147028b5dd7e51ee2d07a26a2d5f98282aa652a25d43"
"""The hash of the intro's template in ``_PROMPT``."""
_EVAL = (
    "prompt: prompt.wink.yaml\nmodels:\n  - openai:gpt-4.1-mini\ncases:\n  - id: first\n"
    "    params: {topic: tests}\n"
)
"""A valid eval file for ``_PARAM_PROMPT``, which the eval examples build on."""
_EVAL_RUN = "wink-decl validate review.wink-eval.yaml"
_DIST = "Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n"
_SHOUT = "[wink_decl.handlers]\nshout = {name}:shout\n"

CODE_DOCS: Final[Mapping[DiagnosticCode, CodeDoc]] = {
    _C.AMBIGUOUS_PLUGIN: CodeDoc(
        "Two installed distributions register an entry point of the same name, and the file "
        "names it without saying which.",
        "Write the name with the distribution it should come from: `shout@shouting-a`.",
        {
            "prompt.wink.yaml": "key: review\nsections:\n  - key: intro\n    title: Intro\n"
            "    template: Shout.\n    tools: [shout]\n"
            "tools:\n  shout: {description: Shout., handler: shout}\n",
            "site/shouting_a-1.0.dist-info/METADATA": _DIST.format(name="shouting-a"),
            "site/shouting_a-1.0.dist-info/entry_points.txt": _SHOUT.format(name="a"),
            "site/shouting_b-1.0.dist-info/METADATA": _DIST.format(name="shouting-b"),
            "site/shouting_b-1.0.dist-info/entry_points.txt": _SHOUT.format(name="b"),
        },
        "PYTHONPATH=site wink-decl validate prompt.wink.yaml",
    ),
    _C.BOM: CodeDoc(
        "The file starts with a byte-order mark, which some editors add to UTF-8 files.",
        "Save the file as UTF-8 without BOM.",
        {"prompt.wink.yaml": "\ufeff" + _PROMPT},
    ),
    _C.DATASET: CodeDoc(
        "An eval file's dataset cannot be used: it is missing, outside the eval file's folder, "
        "not a regular file, or a line or row of it is not a case (a JSONL line that is not "
        "JSON, a CSV row with too few cells, a YAML item that is not a mapping).",
        "Correct the dataset at the line shown; docs/evals.md describes each format.",
        {
            "review.wink-eval.yaml": _EVAL + "dataset: cases.jsonl\n",
            "prompt.wink.yaml": _PARAM_PROMPT,
            "cases.jsonl": '{"params": {"topic": "docs"}\n',
        },
        _EVAL_RUN,
    ),
    _C.DUPLICATE_ADDRESS: CodeDoc(
        "Two prompt files under one root have the same address `ns/key` (`x.wink.yaml` and "
        "`x.wink.toml`, say, or one `key:` in two files of a folder), and validate checked "
        "both. A warning on each file but the one the registry serves: the first in sorted "
        "order. Every command given a file's path uses that file, so each still renders and "
        "runs; only what looks a prompt up by its address (`PromptRegistry.get`, an eval file's "
        "`prompt: ns/key`) never reaches the others, and both share the address's override files.",
        "Give the file a `key:` (or `ns:`) of its own, or delete the copy not in use (`convert` "
        "writes the other format beside the file it converts).",
        {
            "prompt.wink.yaml": _PROMPT,
            "prompt.wink.toml": 'key = "review"\n\n[[sections]]\nkey = "intro"\n'
            'title = "Intro"\ntemplate = "Review the change."\n',
        },
        "wink-decl validate prompt.wink.yaml prompt.wink.toml",
    ),
    _C.DUPLICATE_CASE: CodeDoc(
        "Two cases of an eval file (its own or its dataset's) have the same id.",
        "Give each case an id of its own.",
        {
            "review.wink-eval.yaml": _EVAL + "  - id: first\n    params: {topic: docs}\n",
            "prompt.wink.yaml": _PARAM_PROMPT,
        },
        _EVAL_RUN,
    ),
    _C.DUPLICATE_KEY: CodeDoc(
        "A mapping has the same key twice (in a prompt file or in a params file).",
        "Remove one of the two, or merge their values.",
        {"prompt.wink.yaml": "key: review\nkey: check\n" + _PROMPT.split("\n", 1)[1]},
    ),
    _C.DUPLICATE_SECTION: CodeDoc(
        "Two sections side by side have the same key.",
        "Give each section its own key.",
        {"prompt.wink.yaml": _PROMPT + "  - key: intro\n    title: Again\n    template: Again.\n"},
    ),
    _C.DUPLICATE_TOOL: CodeDoc(
        "A tool is listed twice in a section, or offered by two sections.",
        "List each tool once, in the section where the model reads about it.",
        {"prompt.wink.yaml": _PROMPT + "    tools: [read_plan, read_plan]\n" + _TOOL},
    ),
    _C.ENCODING: CodeDoc(
        "The file (or a params file) is not UTF-8 text.",
        "Save the file as UTF-8.",
        {"prompt.wink.yaml": _PROMPT.replace("Intro", "Caf\udce9")},
    ),
    _C.ENUM: CodeDoc(
        "A value has the right type but is not one of the values allowed there.",
        "Write one of the values the message lists (the hint names the nearest).",
        {"prompt.wink.yaml": _PROMPT + "    visibility: ful\n"},
    ),
    _C.EXAMPLE: CodeDoc(
        "A tool's example does not fit the tool: an input for a tool without params, an "
        "output for one without a result, or fields the tool does not declare.",
        "Make the example match the tool's params and result, or remove it.",
        {
            "prompt.wink.yaml": _PROMPT
            + "    tools: [read_plan]\n"
            + _TOOL.replace(
                "}\n", ",\n    examples: [{description: Read it., input: {step: 1}}]}\n"
            )
        },
        "wink-decl validate --import-plugins prompt.wink.yaml",
    ),
    _C.FILE_EXISTS: CodeDoc(
        "`wink-decl new` or `convert` would write a file that already exists.",
        "Choose another name, or remove the file first.",
        {"review.wink.yaml": _PROMPT},
        "wink-decl new review",
    ),
    _C.FOREIGN_SYNTAX: CodeDoc(
        "A template, summary or summary suffix holds the syntax of another template language, "
        "which the model would read as written (a warning). Reported: `{{name}}` and "
        "`{{ name | filter }}` (Mustache, Handlebars, Jinja); blocks `{% ... %}`, `{{#if x}}`, "
        "`{{/if}}`, `{{else}}`; comments `{# ... #}`; and `{name}` (f-strings, LangChain) only "
        "when `name` is a declared param, since `{id}` in a route, JSON such as "
        '`{"a": 1}`, code such as `return {}` and CSS such as `a { color: red }` are '
        "ordinary text. `${name}` and `$${name}` are never reported.",
        "Write `${name}` for a param. Conditions go in `enabled:`: put the text an `if` "
        "guards in a section of its own with `enabled: {param: name}`. A loop or filter has no "
        "equivalent: write the text out, or pass the value ready to use.",
        {"prompt.wink.yaml": _PARAM_PROMPT.replace("${topic}", "{{topic}}")},
    ),
    _C.HANDLER: CodeDoc(
        "A tool's handler cannot serve it: it is not importable, takes the wrong arguments, "
        "or declares other params than the file.",
        "Point the tool at a handler that takes `(params, *, context)` with the params "
        "the file declares.",
        {
            "prompt.wink.yaml": _PROMPT + "    tools: [read_plan]\n"
            "tools:\n  read_plan:\n    description: Read the plan.\n"
            "    handler: planning.read_plan\n    params: {step: {type: integer}}\n"
        },
        "wink-decl compile prompt.wink.yaml",
    ),
    _C.IMPORT_INVALID: CodeDoc(
        "`wink-decl import` met a file that is not a prompt of the kind its name says: front "
        "matter never closed, a LangChain file without a template, an unknown template format.",
        "Correct the file so that its own tool reads it, then import it again.",
        {"greeting.prompty": "---\nname: greeting\nsystem:\nSay hello.\n"},
        "wink-decl import greeting.prompty",
    ),
    _C.IMPORT_RENAMED: CodeDoc(
        "An imported input's name is not a valid param name (`userName`), so the param has "
        "another (`user_name`); a warning, and the file is written.",
        "Pass the value under the new name when you render or run the imported prompt.",
        {
            "greeting.prompty": "---\ninputs:\n  userName: {kind: string}\n---\n"
            "user:\nSay hello to {{userName}}.\n"
        },
        "wink-decl import greeting.prompty",
    ),
    _C.IMPORT_UNSUPPORTED: CodeDoc(
        "An imported template or setting has no equivalent in a prompt file (a loop, a filter, "
        "a helper, a partial, a condition inside a paragraph, tools); a warning: it is kept as "
        "a comment to finish by hand.",
        "Rewrite what the comment holds by hand: a param for a computed value, a section with "
        "`enabled:` for a condition (docs/importing.md).",
        {
            "list.prompty": "---\ninputs:\n  items: {kind: array}\n---\n"
            "user:\n{% for item in items %}\n- {{ item }}\n{% endfor %}\n"
        },
        "wink-decl import list.prompty",
    ),
    _C.INCLUDE_CYCLE: CodeDoc(
        "Includes lead back to the section that includes them.",
        "Break the cycle: one of the sections must hold its text instead of including it.",
        {"prompt.wink.yaml": _PROMPT + "    children:\n      - include: prompt.wink.yaml#intro\n"},
        also=(DiagnosticCode.INCLUDE_INVALID,),
    ),
    _C.INCLUDE_DEPTH: CodeDoc(
        "Includes nest deeper than `max_include_depth`.",
        "Include the section from a file nearer the top, or raise the limit.",
        {
            "prompt.wink.yaml": "key: review\nsections:\n  - include: a.wink.yaml#s\n",
            "a.wink.yaml": "key: a\nsections:\n  - {key: s, title: S, template: S., children: "
            "[{include: b.wink.yaml#s}]}\n",
            "b.wink.yaml": "key: b\nsections:\n  - {key: s, title: S, template: S.}\n",
        },
        "wink-decl validate --limit max_include_depth=1 prompt.wink.yaml",
        also=(DiagnosticCode.INCLUDE_INVALID,),
    ),
    _C.INCLUDE_FILES: CodeDoc(
        "A prompt's includes read more files than `max_include_files`.",
        "Include sections from fewer files, or raise the limit.",
        {
            "prompt.wink.yaml": "key: review\nsections:\n  - include: a.wink.yaml#s\n"
            "  - include: b.wink.yaml#s\n",
            "a.wink.yaml": "key: a\nsections:\n  - {key: s, title: S, template: S.}\n",
            "b.wink.yaml": "key: b\nsections:\n  - {key: s, title: S, template: S.}\n",
        },
        "wink-decl validate --limit max_include_files=1 prompt.wink.yaml",
    ),
    _C.INCLUDE_INVALID: CodeDoc(
        "An included file or section has errors of its own (they are listed with it).",
        "Fix the errors listed for the included file.",
        {
            "prompt.wink.yaml": "key: review\nsections:\n  - include: shared.wink.yaml#tone\n",
            "shared.wink.yaml": "key: shared\nsections:\n  - {key: tone, title: Tone, titel: T}\n",
        },
        also=(DiagnosticCode.UNKNOWN_KEY,),
    ),
    _C.INCLUDE_MISSING: CodeDoc(
        "An include names a file that does not exist (or is not a regular file).",
        "Correct the path; it is relative to the prompt root.",
        {"prompt.wink.yaml": "key: review\nsections:\n  - include: common/tone.wink.yaml#tone\n"},
    ),
    _C.INCLUDE_OUTSIDE_ROOT: CodeDoc(
        "An include points outside the prompt root.",
        "Move the included file under the prompt root, or choose a wider root (`--root`).",
        {"prompt.wink.yaml": "key: review\nsections:\n  - include: ../tone.wink.yaml#tone\n"},
    ),
    _C.INCLUDE_SECTION: CodeDoc(
        "The included file has no section with the dotted key after `#`.",
        "Name a section the file has (the hint names the nearest).",
        {
            "prompt.wink.yaml": "key: review\nsections:\n  - include: shared.wink.yaml#tnoe\n",
            "shared.wink.yaml": "key: shared\nsections:\n  - {key: tone, title: Tone, "
            "template: Be kind.}\n",
        },
    ),
    _C.JSON_SCHEMA: CodeDoc(
        "A `json_schema` check of an eval file is not a valid JSON Schema (draft 2020-12).",
        "Correct the schema at the place shown, such as `{type: object}`.",
        {
            "review.wink-eval.yaml": _EVAL + "    assert:\n      - json_schema: {type: objekt}\n",
            "prompt.wink.yaml": _PARAM_PROMPT,
        },
        _EVAL_RUN,
    ),
    _C.JSON_SYNTAX: CodeDoc(
        "A JSON params file cannot be read as JSON.",
        "Correct the JSON at the place shown.",
        {"prompt.wink.yaml": _PARAM_PROMPT, "params.json": '{"topic": "tests",}\n'},
        "wink-decl render prompt.wink.yaml --params-file params.json",
    ),
    _C.KEY_TYPE: CodeDoc(
        "A YAML key is not text: a number, true or false, null, or a list or mapping.",
        "Put the key in quotes, or use a name.",
        {"prompt.wink.yaml": _PROMPT + "    1: one\n"},
    ),
    _C.MISSING_KEY: CodeDoc(
        "A required key is missing.",
        "Add the key (the hint gives an example value).",
        {"prompt.wink.yaml": _PROMPT.split("\n", 1)[1]},
    ),
    _C.MISSING_PARAM: CodeDoc(
        "A param without a default was given no value (when rendering, or by an eval case).",
        "Give it a value (`--param`, `--params-file`), or declare a default.",
        {"prompt.wink.yaml": _PARAM_PROMPT},
        "wink-decl render prompt.wink.yaml",
    ),
    _C.MODEL: CodeDoc(
        "An eval file names a model whose provider wink-decl does not know.",
        "Write `provider:model` with a provider `wink-decl run --model` takes (the hint names "
        "the nearest).",
        {
            "review.wink-eval.yaml": _EVAL.replace("openai:", "opneai:"),
            "prompt.wink.yaml": _PARAM_PROMPT,
        },
        _EVAL_RUN,
    ),
    _C.MULTIPLE_DOCUMENTS: CodeDoc(
        "The YAML file holds more than one document (a `---` line after the first).",
        "Keep one document per file.",
        {"prompt.wink.yaml": _PROMPT + "---\n" + _PROMPT},
    ),
    _C.NOT_A_MAPPING: CodeDoc(
        "The file (or a params file) holds a list, a text or nothing, not a mapping.",
        "Write the prompt as `key: value` lines.",
        {"prompt.wink.yaml": "- key: review\n"},
    ),
    _C.NS: CodeDoc(
        "The prompt has no `ns:` and the folder it lies in cannot serve as one.",
        "Rename the folder with lower-case letters, digits, `_` and `-`, or write `ns:`.",
        {"My Prompts/prompt.wink.yaml": _PROMPT},
        "wink-decl validate --root . 'My Prompts/prompt.wink.yaml'",
    ),
    _C.NULL_IN_TOML: CodeDoc(
        "`convert --to toml` met an empty value (null), which TOML cannot write.",
        "Write a value there, or remove the entry, then convert again.",
        {"prompt.wink.yaml": _PROMPT + "    summary:\n"},
        "wink-decl convert prompt.wink.yaml --to toml",
    ),
    _C.NUMBER: CodeDoc(
        "A number that JSON cannot carry: infinity, not-a-number, or a whole number past 64 bits.",
        "Write a finite number, or the value as text in quotes.",
        {
            "prompt.wink.yaml": "key: review\nparams:\n  size: {type: number, default: .inf}\n"
            + _PROMPT.split("\n", 1)[1]
        },
    ),
    _C.OUTSIDE_ROOT: CodeDoc(
        "The prompt file is a symbolic link to a file outside the prompt root; it is not read.",
        "Replace the link with the file, or choose a root that holds what it links to.",
        {"elsewhere/prompt.wink.yaml": _PROMPT, "prompts/": ""},
        "wink-decl validate prompts",
        links={"prompts/prompt.wink.yaml": "../elsewhere/prompt.wink.yaml"},
    ),
    _C.OVERRIDE_INVALID: CodeDoc(
        "An override file is not of the shape its schema gives (an unknown key, an entry "
        "without `hash:` or `text:`, a short hash), or an override text could not stand where "
        "it goes (a placeholder the section does not have). Nothing of the file is applied when "
        "its shape is wrong; an invalid text leaves the base text in place.",
        "Correct the file at the place shown; `wink-decl overrides seed` writes a valid one.",
        {
            "prompt.wink.yaml": "ns: docs\n" + _PROMPT,
            _OVERRIDE_FILE: "sections:\n  intro:\n"
            "    template: {hash: 'sha256:abc', text: Review it.}\n",
        },
        _OVERRIDE_RUN,
    ),
    _C.OVERRIDE_REFUSED: CodeDoc(
        "An override file has an entry for a section or tool that does not accept overrides "
        "(`accepts_overrides: false`), or for wink-decl's own `read_section`.",
        "Remove the entry, or let the section or tool accept overrides.",
        {
            "prompt.wink.yaml": "ns: docs\n" + _PROMPT + "    accepts_overrides: false\n",
            _OVERRIDE_FILE: "sections:\n  intro:\n    template:\n"
            f"      hash: {_INTRO_HASH}\n      text: Review it.\n",
        },
        _OVERRIDE_RUN,
    ),
    _C.OVERRIDE_STALE: CodeDoc(
        "The text an override entry replaces has changed since the entry was written: its "
        "hash no longer matches. The base text is used. A warning; an error with `--strict`.",
        "Compare the override with the new base text, then re-pin the entry: `wink-decl "
        "overrides repin FILE --tag TAG` shows each stale entry's base text, and with `--all` "
        "or `--entry ENTRY` writes the new hashes, keeping the texts.",
        {
            "prompt.wink.yaml": "ns: docs\n" + _PROMPT.replace("Review the", "Review all the"),
            _OVERRIDE_FILE: "sections:\n  intro:\n    template:\n"
            f"      hash: {_INTRO_HASH}\n      text: Review it.\n",
        },
        _OVERRIDE_RUN.replace("'exp'", "'exp', strict=True"),
    ),
    _C.OVERRIDE_UNKNOWN: CodeDoc(
        "An override file has an entry for a section, tool or param the prompt does not have "
        "(or a summary for a section without one).",
        "Name a part the prompt has (the hint names the nearest), or remove the entry.",
        {
            "prompt.wink.yaml": "ns: docs\n" + _PROMPT,
            _OVERRIDE_FILE: "sections:\n  intr:\n    template:\n"
            f"      hash: {_INTRO_HASH}\n      text: Review it.\n",
        },
        _OVERRIDE_RUN,
    ),
    _C.PARAM: CodeDoc(
        "The params given do not fit their declarations.",
        "Give each param a value of its declared type.",
        {"prompt.wink.yaml": _PARAM_PROMPT},
        "from wink_decl.compiler import compile_file, make_params\n"
        "make_params(compile_file('prompt.wink.yaml').prompt, {'topic': 5})",
    ),
    _C.PARAM_TYPE: CodeDoc(
        "A tool's `reads:` or `writes:` names a param that is not a string.",
        "Name a string param: the one that holds the path.",
        {
            "prompt.wink.yaml": _PROMPT + "    tools: [read_plan]\n"
            "tools:\n  read_plan:\n    description: Read the plan.\n"
            "    handler: planning.read_plan\n    params: {step: {type: integer}}\n"
            "    reads: step\n"
        },
    ),
    _C.PARAM_VALUE: CodeDoc(
        "A `--param` value, or an eval case's, does not fit the param's declared type or values.",
        "Give a value of the declared type (the message says which).",
        {
            "prompt.wink.yaml": "key: review\nparams:\n  count: {type: integer}\n"
            "sections:\n  - key: intro\n    title: Intro\n    template: Review $count files.\n"
        },
        "wink-decl render prompt.wink.yaml --param count=many",
    ),
    _C.PARAMS_FILE: CodeDoc(
        "A params file does not map param names to values.",
        "Write the params file as one mapping: `topic: tests`.",
        {"prompt.wink.yaml": _PARAM_PROMPT, "params.json": '["tests"]\n'},
        "wink-decl render prompt.wink.yaml --params-file params.json",
    ),
    _C.PATTERN: CodeDoc(
        "A key, name or reference is not written as its rule requires.",
        "Follow the rule in `expected:` (the hint gives a corrected value).",
        {"prompt.wink.yaml": _PROMPT.replace("key: intro", "key: Intro Part")},
    ),
    _C.PLACEHOLDER: CodeDoc(
        "A `$` in a template does not start a placeholder.",
        "Write `$name` or `${name}` for a param, `$$` for a literal `$`.",
        {"prompt.wink.yaml": _PROMPT.replace("the change.", "the $ amount.")},
    ),
    _C.POLICY: CodeDoc(
        "A policy plugin the file names cannot be imported or does not fit.",
        "Check that the plugin's version matches the prompt, or name another entry point.",
        {
            "prompt.wink.yaml": "key: review\npolicies:\n  - plugin: {name: broken}\n"
            + _PROMPT.split("\n", 1)[1],
            "site/broken-1.0.dist-info/METADATA": _DIST.format(name="broken"),
            "site/broken-1.0.dist-info/entry_points.txt": "[wink_decl.policies]\n"
            "broken = no_such_module:policy\n",
        },
        "PYTHONPATH=site wink-decl compile prompt.wink.yaml",
    ),
    _C.PREDICATE: CodeDoc(
        "A predicate plugin the file names cannot be imported or does not fit.",
        "Check that the plugin's version matches the prompt, or name another entry point.",
        {
            "prompt.wink.yaml": _PROMPT + "    enabled: {predicate: broken}\n",
            "site/broken-1.0.dist-info/METADATA": _DIST.format(name="broken"),
            "site/broken-1.0.dist-info/entry_points.txt": "[wink_decl.predicates]\n"
            "broken = no_such_module:predicate\n",
        },
        "PYTHONPATH=site wink-decl compile prompt.wink.yaml",
    ),
    _C.PROMPT: CodeDoc("The runtime refused the prompt as a whole.", _SAFETY_NET, run=""),
    _C.PROMPT_INVALID: CodeDoc(
        "The prompt an eval file names has errors of its own (they are listed with it), so the "
        "cases cannot be checked against it.",
        "Fix the errors listed for the prompt file.",
        {
            "review.wink-eval.yaml": _EVAL,
            "prompt.wink.yaml": _PARAM_PROMPT + "    titel: Intro\n",
        },
        _EVAL_RUN,
        also=(DiagnosticCode.UNKNOWN_KEY,),
    ),
    _C.REGEX: CodeDoc(
        "A `regex` check of an eval file does not compile, or is longer than 1,000 characters.",
        "Correct the regular expression; in YAML, write it in single quotes.",
        {
            "review.wink-eval.yaml": _EVAL + "    assert:\n      - regex: 'line (\\d+'\n",
            "prompt.wink.yaml": _PARAM_PROMPT,
        },
        _EVAL_RUN,
    ),
    _C.SCHEMA: CodeDoc(
        "The value breaks a rule of the schema that has no more precise code.",
        "Change the value to what the message asks for. Every rule a file can break has a "
        "code of its own today; this one stays for a rule added without one.",
        run="",
    ),
    _C.SECTION: CodeDoc("The runtime refused a section.", _SAFETY_NET, run=""),
    _C.TAB: CodeDoc(
        "A tab character indents YAML, which YAML does not allow.",
        "Indent with spaces.",
        {"prompt.wink.yaml": _PROMPT.replace("    title", "\ttitle")},
    ),
    _C.TOML_SYNTAX: CodeDoc(
        "The TOML file cannot be read as TOML.",
        "Correct the TOML at the place shown.",
        {"prompt.wink.toml": 'key = "review\n'},
        "wink-decl validate prompt.wink.toml",
    ),
    _C.TOO_DEEP: CodeDoc(
        "Values nest more levels deep than `max_depth`.",
        "Nest mappings and lists less deeply, or raise the limit.",
        {"prompt.wink.yaml": _PROMPT},
        "wink-decl validate --limit max_depth=2 prompt.wink.yaml",
    ),
    _C.TOO_LARGE: CodeDoc(
        "The file has more bytes (`max_bytes`; a dataset `max_dataset_bytes`) or values "
        "(`max_nodes`) than allowed.",
        "Split the prompt into smaller files, or raise the limit.",
        {"prompt.wink.yaml": _PROMPT},
        "wink-decl validate --limit max_bytes=50 prompt.wink.yaml",
    ),
    _C.TOO_LONG: CodeDoc(
        "A key is longer than `max_key_length`.",
        "Use a shorter key, or raise the limit.",
        {"prompt.wink.yaml": _PROMPT},
        "wink-decl validate --limit max_key_length=5 prompt.wink.yaml",
    ),
    _C.TOO_MANY_CASES: CodeDoc(
        "An eval file has more cases than `max_cases`, its own and its dataset's together.",
        "Split the cases into several eval files, or raise the limit.",
        {
            "review.wink-eval.yaml": _EVAL + "  - id: second\n    params: {topic: docs}\n",
            "prompt.wink.yaml": _PARAM_PROMPT,
        },
        "wink-decl validate --limit max_cases=1 review.wink-eval.yaml",
    ),
    _C.TOO_MANY_SECTIONS: CodeDoc(
        "The prompt has more sections than `max_sections`, includes expanded.",
        "Split the prompt, or raise the limit.",
        {"prompt.wink.yaml": _PROMPT + "  - {key: more, title: More, template: More.}\n"},
        "wink-decl validate --limit max_sections=1 prompt.wink.yaml",
    ),
    _C.TOOL: CodeDoc("The runtime refused a tool.", _SAFETY_NET, run=""),
    _C.TYPE: CodeDoc(
        "A value has the wrong type: a list where text belongs, a number for a mapping.",
        "Write a value of the type the message names.",
        {"prompt.wink.yaml": _PROMPT.replace("Review the change.", "[Review, it]")},
    ),
    _C.UNKNOWN_DISTRIBUTION: CodeDoc(
        "A reference `name@distribution` names a distribution that is not installed, or "
        "that does not register the name.",
        "Install the distribution, or name one that registers the entry point.",
        {
            "prompt.wink.yaml": _PROMPT
            + "    tools: [read_plan]\n"
            + _TOOL.replace("planning.read_plan", "planning.read_plan@wink-decl-nope")
        },
    ),
    _C.UNKNOWN_EXTENSION: CodeDoc(
        "The file's name ends in neither `.yaml`, `.yml` nor `.toml`.",
        "Rename the file so that it ends in `.wink.yaml` or `.wink.toml`.",
        {"prompt.txt": _PROMPT},
        "from wink_decl.loader import load_file\nload_file('prompt.txt').diagnostics",
    ),
    _C.UNKNOWN_KEY: CodeDoc(
        "A key that is not allowed where it is written.",
        "Remove the key, or correct its spelling (the hint names the nearest).",
        {"prompt.wink.yaml": _PROMPT + "    titel: Intro\n"},
    ),
    _C.UNKNOWN_PARAM: CodeDoc(
        "A placeholder, condition, `--param` or eval case names a param the prompt does not "
        "declare.",
        "Declare the param under `params:`, or correct the name.",
        {"prompt.wink.yaml": _PROMPT.replace("the change.", "$change.")},
    ),
    _C.UNKNOWN_PLUGIN: CodeDoc(
        "No installed distribution registers the handler, predicate, policy or evaluator the "
        "file names.",
        "Install the plugin, or correct the name (`wink-decl plugins` lists them).",
        {
            "prompt.wink.yaml": _PROMPT
            + "    tools: [read_plan]\n"
            + _TOOL.replace("planning.read_plan", "planning.read_plna")
        },
    ),
    _C.UNKNOWN_PROMPT: CodeDoc(
        "`PromptRegistry.get` was asked for an address no prompt under the root has, or an eval "
        "file names a prompt (a file or an address) that cannot be found.",
        "Ask for an address the registry lists (`ns/key`).",
        {"prompts/agents/review.wink.yaml": _PROMPT},
        "from wink_decl.compiler import PromptRegistry\n"
        "PromptRegistry('prompts').get('agents/reveiw')",
    ),
    _C.UNKNOWN_SECTION: CodeDoc(
        "`--open` names a section the prompt does not have.",
        "Name a section by its dotted key (the message names the nearest).",
        {"prompt.wink.yaml": _PROMPT},
        "wink-decl render prompt.wink.yaml --open intor",
    ),
    _C.UNKNOWN_TAG: CodeDoc(
        "The prompt has no override file for the tag asked for (`--tag`, `tag=`, or an "
        "experiment of an eval file): it is used as written. The message lists the tags it "
        "has. A warning; an error with `--strict`.",
        "Name a tag the prompt has (the hint names the nearest), or write a file for the tag "
        "with `wink-decl overrides seed`.",
        {
            "prompt.wink.yaml": "ns: docs\n" + _PROMPT,
            _OVERRIDE_FILE.replace("exp", "concise"): "sections:\n  intro:\n    template:\n"
            f"      hash: {_INTRO_HASH}\n      text: Review it.\n",
        },
        "wink-decl render prompt.wink.yaml --tag concize --overrides overrides",
    ),
    _C.UNKNOWN_TOOL: CodeDoc(
        "A section or policy names a tool that is not declared under `tools:` (or an eval "
        "file's check expects a call of a tool the prompt does not offer: a warning).",
        "Declare the tool, or correct the name (the hint names the nearest).",
        {"prompt.wink.yaml": _PROMPT + "    tools: [read_plan, read_plna]\n" + _TOOL},
    ),
    _C.UNREADABLE: CodeDoc(
        "The file cannot be read: it is a folder, a pipe or a device, or access is denied.",
        "Check the path and the file's permissions.",
        {"prompt.wink.yaml/": ""},
        "from wink_decl.loader import load_file\nload_file('prompt.wink.yaml').diagnostics",
    ),
    _C.UNUSED_POLICY: CodeDoc(
        "A policy, or an entry of one, can never refuse a call: it watches tools the prompt "
        "does not declare, `read_before_write` watches no tool that writes, or a `sequential` "
        "entry makes its tool wait for none (`{deploy: []}`) (a warning).",
        "Name the tools the policy should watch, or list what each tool waits for; or remove it.",
        {
            "prompt.wink.yaml": "key: review\npolicies:\n  - read_before_write: {}\n"
            + _PROMPT.split("\n", 1)[1]
        },
    ),
    _C.UNUSED_TOOL: CodeDoc(
        "A tool is declared but no section offers it (a warning).",
        "List the tool under `tools:` of the section that explains it, or remove it.",
        {"prompt.wink.yaml": _PROMPT + _TOOL},
    ),
    _C.UNWRITABLE: CodeDoc(
        "`wink-decl new` or `convert` could not write its file.",
        "Check that the folder exists and can be written to.",
        {"prompt.wink.yaml": _PROMPT},
        "wink-decl convert prompt.wink.yaml --to toml --output prompt.wink.yaml/prompt.wink.toml",
    ),
    _C.VALUE: CodeDoc(
        "A value breaks a rule about values: too long, too few items, a default outside its "
        "choices, or two keys where one is allowed.",
        "Change the value as the message says.",
        {"prompt.wink.yaml": "key: review\nsections: []\n"},
    ),
    _C.YAML_ALIAS: CodeDoc(
        "A YAML alias is used inside the value it names, so it never ends.",
        "Move the alias out of the value its anchor marks.",
        {"prompt.wink.yaml": _PROMPT + "    summary: &loop [*loop]\n"},
    ),
    _C.YAML_MERGE: CodeDoc(
        "A YAML merge key (`<<`) is used; prompt files do not support it.",
        "Copy the keys into the mapping instead of merging them.",
        {"prompt.wink.yaml": _PROMPT + "    <<: {summary: Short.}\n"},
    ),
    _C.YAML_SYNTAX: CodeDoc(
        "The YAML file cannot be read as YAML.",
        "Look for a missing `:`, an unclosed quote or bracket, or a wrongly indented line.",
        {"prompt.wink.yaml": _PROMPT.replace("title: Intro", 'title: "Intro')},
    ),
    _C.YAML_TAG: CodeDoc(
        "A YAML tag (`!name`) is used; prompt files do not allow them.",
        "Remove the tag; if the `!` belongs to the text, put the value in quotes.",
        {"prompt.wink.yaml": _PROMPT.replace("Review the change.", "!shout Review it.")},
    ),
}
"""Every code, in the order of the enum; ``docs/diagnostics.md`` is written from it."""


# -- docs/diagnostics.md ---------------------------------------------------------------------------

DOC_PATH: Final = Path(__file__).resolve().parents[1] / "docs" / "diagnostics.md"
"""Where ``--write`` puts the page (in a checkout; an installed package only prints it)."""
_INTRO: Final = """\
# Diagnostic codes

Every problem wink-decl reports has a stable code: `wink-decl validate --format json` writes it
as `"code"`, and tools and tests match on it. This page lists every code, what it means, an
example that causes it and the fix. It is generated from `wink_decl/diagnostic_docs.py`
(`python -m wink_decl.diagnostic_docs --write`), and a test runs every example and checks that
it reports its code and no other, so the page cannot drift from the code.

"""
_FENCES: Final = {".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".json": "json"}


def markdown() -> str:
    """The text of ``docs/diagnostics.md``."""
    rows = [f"| [`{code}`](#{code}) | {CODE_DOCS[code].meaning} |" for code in DiagnosticCode]
    parts = [_INTRO, "| code | meaning |\n| --- | --- |\n", "\n".join(rows), "\n"]
    parts.extend(_section(code, CODE_DOCS[code]) for code in DiagnosticCode)
    return "".join(parts)


def _section(code: DiagnosticCode, doc: CodeDoc) -> str:
    lines = ["", f"## `{code}`", "", doc.meaning, ""]
    if not doc.run:
        lines += ["No prompt file reaches this code.", ""]
    for name, text in doc.files.items():
        if name.endswith("/"):
            lines += [f"`{name}` is a folder.", ""]
            continue
        fence = _FENCES.get(Path(name).suffix, "text")
        lines += [f"`{name}`:", "", f"```{fence}", _shown(text).rstrip("\n"), "```", ""]
    lines += [f"`{name}` is a symbolic link to `{target}`." for name, target in doc.links.items()]
    lines += [""] if doc.links else []
    if doc.run.startswith(("wink-decl ", "PYTHONPATH=")):
        lines += ["Run:", "", "```console", f"$ {doc.run}", "```", ""]
    elif doc.run:
        lines += ["Run:", "", "```python", doc.run, "```", ""]
    if doc.also:
        also = ", ".join(f"`{other}`" for other in doc.also)
        lines += [f"It is reported together with {also}.", ""]
    lines += [f"**Fix:** {doc.fix}"]
    return "\n".join(lines) + "\n"


def _shown(text: str) -> str:
    r"""``text`` with what would not show on the page escaped, as Python writes it.

    A byte that is not UTF-8 shows as ``\xe9``, a byte-order mark as ``\ufeff``, a tab as
    ``\t``.
    """
    raw = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return "".join(
        char if char == "\n" or (char.isprintable() and char != "\t") else _escaped(char)
        for char in raw
    )


def _escaped(char: str) -> str:
    return char.encode("unicode_escape").decode("ascii")


def main(argv: Sequence[str]) -> int:
    """Print the page, or with ``--write`` write it to ``docs/diagnostics.md``."""
    if list(argv) == ["--write"]:
        DOC_PATH.write_text(markdown(), encoding="utf-8")
        sys.stdout.write(f"wrote {DOC_PATH}\n")
        return 0
    if argv:
        sys.stderr.write("usage: python -m wink_decl.diagnostic_docs [--write]\n")
        return 2
    sys.stdout.write(markdown())
    return 0


if __name__ == "__main__":  # pragma: no cover - exercised through main()
    raise SystemExit(main(sys.argv[1:]))
