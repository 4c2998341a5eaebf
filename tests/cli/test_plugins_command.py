"""``wink-decl plugins``: whole listings (text and JSON), conflict warnings, exit status."""

from __future__ import annotations

import argparse
import io
import json
from importlib.metadata import EntryPoint

import pytest
from plugin_support import MemoryDistribution

from wink_decl.cli._command import Console
from wink_decl.cli._plugins import (
    BUILT_IN,
    COMMAND,
    ReportFormat,
    plugin_report,
    plugin_warnings,
)
from wink_decl.plugins import (
    EVALUATORS,
    HANDLERS,
    POLICIES,
    PREDICATES,
    PluginCatalog,
    PluginProblem,
)

FILES = MemoryDistribution(
    "wink-decl-files",
    "1.0",
    {
        HANDLERS: {
            "files.read_file": "wink_decl_files.handlers:read_file",
            "files.list_dir": "wink_decl_files.handlers:list_dir",
        }
    },
)
FORK = MemoryDistribution("files-fork", "2.1", {HANDLERS: {"files.read_file": "files_fork:read"}})
GUARDS = MemoryDistribution(
    "wink-decl-guards",
    "0.3.1",
    {
        POLICIES: {"guards.call_limit": "wink_decl_guards.policies:CallLimit"},
        PREDICATES: {
            "guards.is_weekday": "wink_decl_guards.when:is_weekday",
            "guards.has_budget": "wink_decl_guards.when:has_budget",
        },
    },
)
GRADERS = MemoryDistribution(
    "wink-decl-graders",
    "2.0",
    {EVALUATORS: {"graders.polite": "wink_decl_graders:polite"}},
)
BROKEN = MemoryDistribution(
    "broken-plugin", "0.1", {HANDLERS: {"broken.tool": "not a module path"}}
)


HANDLERS_HEAD = "handlers: handler(params, *, context) -> ToolResult, a def function (not async)\n"
POLICIES_HEAD = (
    "policies: factory(**config) -> an object with check(tool, params, *, context) -> "
    "PolicyDecision and on_result(tool, params, result, *, context) -> None\n"
)
PREDICATES_HEAD = "predicates: predicate(params, *, session) -> bool\n"
EVALUATORS_HEAD = "evaluators: factory(**args) -> an evaluator(outcome, sample) -> Score\n"
BUILT_IN_TEXT = (
    "\n"
    "built in: part of wink-decl, written in prompt files by name\n"
    "  read_section       tool       read_section(section_key: str): offered while a section "
    "is summarized\n"
    "  sequential         policy     {sequential: {TOOL: [TOOL, ...]}}: a tool runs after the "
    "listed ones\n"
    "  read_before_write  policy     {read_before_write: {read_tools, write_tools, "
    "path_field}}: change a file only after reading it\n"
    "  param              condition  {param: NAME}: true when the param is truthy\n"
    "  equals             condition  {equals: {param: NAME, value: VALUE}}\n"
    "  not / all / any    condition  {not: C}, {all: [C, ...]}, {any: [C, ...]}\n"
)


def catalog(*distributions: MemoryDistribution) -> PluginCatalog:
    return PluginCatalog(distributions=distributions)


def run(*argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="wink-decl plugins")
    COMMAND.configure(parser)
    out, err = io.StringIO(), io.StringIO()
    status = COMMAND.run(parser.parse_args(list(argv)), Console(out=out, err=err))
    return status, out.getvalue(), err.getvalue()


def test_text_lists_every_kind_sorted_with_distribution_and_target() -> None:
    assert plugin_report(catalog(FILES, GUARDS, GRADERS), "text") == (
        HANDLERS_HEAD
        + "  files.list_dir     wink-decl-files 1.0     wink_decl_files.handlers:list_dir\n"
        "  files.read_file    wink-decl-files 1.0     wink_decl_files.handlers:read_file\n"
        "\n"
        + POLICIES_HEAD
        + "  guards.call_limit  wink-decl-guards 0.3.1  wink_decl_guards.policies:CallLimit\n"
        "\n"
        + PREDICATES_HEAD
        + "  guards.has_budget  wink-decl-guards 0.3.1  wink_decl_guards.when:has_budget\n"
        "  guards.is_weekday  wink-decl-guards 0.3.1  wink_decl_guards.when:is_weekday\n"
        "\n"
        + EVALUATORS_HEAD
        + "  graders.polite     wink-decl-graders 2.0   wink_decl_graders:polite\n"
        + BUILT_IN_TEXT
    )


def test_a_conflict_lists_each_entry_by_the_reference_that_picks_it() -> None:
    assert plugin_report(catalog(FILES, FORK), "text") == (
        HANDLERS_HEAD + "  files.list_dir                   wink-decl-files 1.0  "
        "wink_decl_files.handlers:list_dir\n"
        "  files.read_file@files-fork       files-fork 2.1       files_fork:read\n"
        "  files.read_file@wink-decl-files  wink-decl-files 1.0  "
        "wink_decl_files.handlers:read_file\n"
        "\n" + POLICIES_HEAD + "  (none installed)\n"
        "\n" + PREDICATES_HEAD + "  (none installed)\n"
        "\n" + EVALUATORS_HEAD + "  (none installed)\n" + BUILT_IN_TEXT
    )


def test_a_conflict_warns_in_the_words_of_the_compiler() -> None:
    problem = catalog(FILES, FORK).resolve(HANDLERS, "files.read_file")
    assert isinstance(problem, PluginProblem)
    expected = (
        "warning: Handler 'files.read_file' is registered by two distributions: "
        "files-fork 2.1, wink-decl-files 1.0.\n"
        "  hint: choose one: files.read_file@files-fork, files.read_file@wink-decl-files\n"
    )
    assert plugin_warnings(catalog(FILES, FORK)) == expected
    assert expected == f"warning: {problem.message}\n  hint: {problem.hint}\n"


def test_no_conflict_no_warning() -> None:
    assert plugin_warnings(catalog(FILES, GUARDS)) == ""


def test_an_empty_catalog_says_none_installed_for_each_kind() -> None:
    assert plugin_report(catalog(), "text") == (
        HANDLERS_HEAD
        + "  (none installed)\n\n"
        + POLICIES_HEAD
        + "  (none installed)\n\n"
        + PREDICATES_HEAD
        + "  (none installed)\n\n"
        + EVALUATORS_HEAD
        + "  (none installed)\n"
        + BUILT_IN_TEXT
    )


def test_a_target_that_cannot_be_imported_is_listed_all_the_same() -> None:
    assert plugin_report(catalog(BROKEN), "text").splitlines()[1] == (
        "  broken.tool  broken-plugin 0.1  not a module path"
    )


def test_an_entry_without_a_distribution_is_shown_as_unknown() -> None:
    bare = EntryPoint(name="loose.tool", value="loose:tool", group=HANDLERS)
    report = plugin_report(PluginCatalog([bare]), "text")
    assert report.splitlines()[1] == "  loose.tool  (unknown distribution)  loose:tool"
    loaded = json.loads(plugin_report(PluginCatalog([bare]), "json"))
    assert loaded["handlers"] == [
        {
            "name": "loose.tool",
            "reference": "loose.tool",
            "distribution": None,
            "version": None,
            "target": "loose:tool",
        }
    ]


def test_json_is_one_object_with_every_kind_and_the_conflicts() -> None:
    assert plugin_report(catalog(FILES, FORK, GUARDS, GRADERS), "json") == (
        json.dumps(
            {
                "handlers": [
                    {
                        "name": "files.list_dir",
                        "reference": "files.list_dir",
                        "distribution": "wink-decl-files",
                        "version": "1.0",
                        "target": "wink_decl_files.handlers:list_dir",
                    },
                    {
                        "name": "files.read_file",
                        "reference": "files.read_file@files-fork",
                        "distribution": "files-fork",
                        "version": "2.1",
                        "target": "files_fork:read",
                    },
                    {
                        "name": "files.read_file",
                        "reference": "files.read_file@wink-decl-files",
                        "distribution": "wink-decl-files",
                        "version": "1.0",
                        "target": "wink_decl_files.handlers:read_file",
                    },
                ],
                "policies": [
                    {
                        "name": "guards.call_limit",
                        "reference": "guards.call_limit",
                        "distribution": "wink-decl-guards",
                        "version": "0.3.1",
                        "target": "wink_decl_guards.policies:CallLimit",
                    }
                ],
                "predicates": [
                    {
                        "name": "guards.has_budget",
                        "reference": "guards.has_budget",
                        "distribution": "wink-decl-guards",
                        "version": "0.3.1",
                        "target": "wink_decl_guards.when:has_budget",
                    },
                    {
                        "name": "guards.is_weekday",
                        "reference": "guards.is_weekday",
                        "distribution": "wink-decl-guards",
                        "version": "0.3.1",
                        "target": "wink_decl_guards.when:is_weekday",
                    },
                ],
                "evaluators": [
                    {
                        "name": "graders.polite",
                        "reference": "graders.polite",
                        "distribution": "wink-decl-graders",
                        "version": "2.0",
                        "target": "wink_decl_graders:polite",
                    }
                ],
                "signatures": {
                    "handlers": HANDLERS_HEAD.removeprefix("handlers: ").rstrip(),
                    "policies": POLICIES_HEAD.removeprefix("policies: ").rstrip(),
                    "predicates": PREDICATES_HEAD.removeprefix("predicates: ").rstrip(),
                    "evaluators": EVALUATORS_HEAD.removeprefix("evaluators: ").rstrip(),
                },
                "built_in": [
                    {"name": name, "kind": kind, "written": written, "distribution": "built in"}
                    for name, kind, written in BUILT_IN
                ],
                "conflicts": [
                    {
                        "kind": "handler",
                        "name": "files.read_file",
                        "message": "Handler 'files.read_file' is registered by two "
                        "distributions: files-fork 2.1, wink-decl-files 1.0.",
                        "hint": "choose one: files.read_file@files-fork, "
                        "files.read_file@wink-decl-files",
                        "choices": [
                            "files.read_file@files-fork",
                            "files.read_file@wink-decl-files",
                        ],
                    }
                ],
            },
            indent=2,
        )
        + "\n"
    )


@pytest.mark.parametrize(
    ("argv", "report_format"), [((), "text"), (("--format", "json"), "json")], ids=["text", "json"]
)
def test_run_reports_the_installed_catalog_and_exits_zero(
    argv: tuple[str, ...], report_format: ReportFormat
) -> None:
    installed = PluginCatalog()
    expected = (0, plugin_report(installed, report_format), plugin_warnings(installed))
    assert run(*argv) == expected


def test_run_exits_zero_and_warns_when_names_conflict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("wink_decl.cli._plugins.PluginCatalog", lambda: catalog(FILES, FORK))
    status, out, err = run()
    assert (status, out, err) == (
        0,
        plugin_report(catalog(FILES, FORK), "text"),
        plugin_warnings(catalog(FILES, FORK)),
    )
    assert err.startswith("warning: Handler 'files.read_file' is registered by two")


def test_the_command_describes_itself() -> None:
    assert COMMAND.name == "plugins"
    assert COMMAND.examples == ("wink-decl plugins", "wink-decl plugins --format json")
