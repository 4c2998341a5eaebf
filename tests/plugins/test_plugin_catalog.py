"""PluginCatalog: discovery, resolution with whole problem texts, lazy loading and its errors."""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from plugin_support import MemoryDistribution, memory_entries

from wink_decl.diagnostics import Diagnostic, Span, render_text
from wink_decl.plugins import (
    GROUPS,
    HANDLERS,
    POLICIES,
    PREDICATES,
    PluginCatalog,
    PluginEntry,
    PluginLoadError,
    PluginProblem,
    normalise_distribution,
)
from wink_decl.runtime.planning.tools import SETUP_PLAN_TOOL

FILES = memory_entries(
    "wink-decl-files",
    "1.0",
    {
        "files.read_file": "wink_decl_files.handlers:read_file",
        "files.write_file": "wink_decl_files.handlers:write_file",
        "files.list_dir": "wink_decl_files.handlers:list_dir",
    },
)
OTHER = memory_entries("other-files", "2.1", {"files.read_file": "other_files:read"})
STYLE = memory_entries(
    "wink-decl-style",
    "0.3",
    {"style.lookup_rule": "wink_decl_style:lookup_rule", "style.lookup_rules": "wink_decl_style:x"},
)

READ_FILE = PluginEntry(
    HANDLERS, "files.read_file", "wink_decl_files.handlers:read_file", "wink-decl-files", "1.0"
)
READ_OTHER = PluginEntry(HANDLERS, "files.read_file", "other_files:read", "other-files", "2.1")
WRITE_FILE = PluginEntry(
    HANDLERS, "files.write_file", "wink_decl_files.handlers:write_file", "wink-decl-files", "1.0"
)
LIST_HINT = "Run 'wink-decl plugins' to list what is installed."


def catalog() -> PluginCatalog:
    return PluginCatalog([*FILES, *OTHER, *STYLE])


# --- discovery -------------------------------------------------------------------------------


def test_names_are_sorted_and_kept_per_group() -> None:
    assert catalog().names(HANDLERS) == (
        "files.list_dir",
        "files.read_file",
        "files.write_file",
        "style.lookup_rule",
        "style.lookup_rules",
    )
    assert catalog().names(POLICIES) == ()
    assert catalog().names(PREDICATES) == ()


def test_entries_give_one_per_distribution_sorted_by_distribution() -> None:
    assert catalog().entries(HANDLERS, "files.read_file") == (READ_OTHER, READ_FILE)
    assert catalog().entries(HANDLERS, "files.write_file") == (WRITE_FILE,)
    assert catalog().entries(HANDLERS, "files.nothing") == ()
    assert catalog().entries(POLICIES, "files.read_file") == ()


def test_groups_are_the_four_wink_decl_groups() -> None:
    assert GROUPS == (
        "wink_decl.handlers",
        "wink_decl.policies",
        "wink_decl.predicates",
        "wink_decl.evaluators",
    )


def test_entry_points_of_other_groups_are_ignored() -> None:
    scripts = memory_entries("tool", "1.0", {"tool": "tool.cli:main"}, group="console_scripts")
    found = PluginCatalog(scripts)
    assert [found.names(group) for group in (*GROUPS, "console_scripts")] == [(), (), (), (), ()]


def test_one_name_in_two_groups_is_two_plugins() -> None:
    policy = memory_entries("wink-decl-files", "1.0", {"files.read_file": "p:x"}, group=POLICIES)
    found = PluginCatalog([*FILES, *policy])
    assert found.names(POLICIES) == ("files.read_file",)
    assert found.resolve(POLICIES, "files.read_file") == PluginEntry(
        POLICIES, "files.read_file", "p:x", "wink-decl-files", "1.0"
    )
    assert found.resolve(HANDLERS, "files.read_file") == READ_FILE


def test_conflicts_list_the_names_several_distributions_register() -> None:
    assert catalog().conflicts(HANDLERS) == {"files.read_file": (READ_OTHER, READ_FILE)}
    assert catalog().conflicts(POLICIES) == {}


def test_one_distribution_spelled_two_ways_counts_once_and_the_first_wins() -> None:
    first = memory_entries("plug_a", "1.0", {"x": "plug_a:x"})
    second = memory_entries("Plug.A", "0.9", {"x": "old_plug_a:x"})
    found = PluginCatalog([*first, *second])
    assert found.entries(HANDLERS, "x") == (
        PluginEntry(HANDLERS, "x", "plug_a:x", "plug_a", "1.0"),
    )
    assert found.conflicts(HANDLERS) == {}


def test_a_distributions_source_skips_shadowed_copies_of_one_distribution() -> None:
    found = PluginCatalog(
        distributions=[
            MemoryDistribution("plug_a", "1.0", {HANDLERS: {"x": "plug_a:x"}}),
            MemoryDistribution("Plug-A", "0.9", {HANDLERS: {"x": "old:x", "gone": "old:gone"}}),
            MemoryDistribution("plug-b", "2.0", {HANDLERS: {"y": "plug_b:y"}}),
        ]
    )
    assert found.names(HANDLERS) == ("x", "y")
    assert found.entries(HANDLERS, "x") == (
        PluginEntry(HANDLERS, "x", "plug_a:x", "plug_a", "1.0"),
    )


def test_entry_points_and_distributions_are_read_together() -> None:
    found = PluginCatalog(
        FILES, distributions=[MemoryDistribution("plug-b", "2.0", {HANDLERS: {"y": "b:y"}})]
    )
    assert found.names(HANDLERS) == ("files.list_dir", "files.read_file", "files.write_file", "y")


def write_dist_info(root: Path, folder: str, name: str, version: str, entry_points: str) -> None:
    info = root / folder
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def test_dist_info_folders_on_disk_keep_their_published_names(tmp_path: Path) -> None:
    # The folders use the escaped names (plug_a, not plug-a): importlib.metadata reads the
    # name from the folder, and 'plug-a-1.0' and 'plug-b-2.0' would both read as 'plug'.
    write_dist_info(
        tmp_path, "plug_a-1.0.dist-info", "plug-a", "1.0", "[wink_decl.handlers]\nx = a:x\n"
    )
    write_dist_info(
        tmp_path, "plug_b-2.0.dist-info", "Plug_B", "2.0", "[wink_decl.handlers]\nx = b:x\n"
    )
    found = PluginCatalog(distributions=importlib.metadata.distributions(path=[str(tmp_path)]))
    assert found.resolve(HANDLERS, "x") == PluginProblem(
        code="ambiguous-plugin",
        message="Handler 'x' is registered by two distributions: plug-a 1.0, Plug_B 2.0.",
        hint="Choose one: x@plug-a, x@Plug_B",
        suggestions=("x@plug-a", "x@Plug_B"),
    )
    assert found.resolve(HANDLERS, "x@plug_b") == PluginEntry(HANDLERS, "x", "b:x", "Plug_B", "2.0")


def test_an_entry_point_without_a_distribution_still_resolves() -> None:
    bare = EntryPoint(name="x", value="m:x", group=HANDLERS)
    entry = PluginCatalog([bare]).resolve(HANDLERS, "x")
    assert entry == PluginEntry(HANDLERS, "x", "m:x", "", "")
    assert isinstance(entry, PluginEntry)
    assert entry.label == "'x' (an unknown distribution, value 'm:x')"


def test_entry_reference_and_label() -> None:
    assert READ_FILE.reference == "files.read_file@wink-decl-files"
    assert READ_FILE.label == (
        "'files.read_file' (wink-decl-files 1.0, value 'wink_decl_files.handlers:read_file')"
    )


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("wink-decl-files", "wink-decl-files"),
        ("Wink_Decl.Files", "wink-decl-files"),
        ("plug__a", "plug-a"),
        ("plug-_.a", "plug-a"),
    ],
    ids=["already", "mixed", "run-of-one-kind", "run-of-mixed-kinds"],
)
def test_normalise_distribution_follows_pep_503(name: str, expected: str) -> None:
    assert normalise_distribution(name) == expected


# --- resolve ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        ("files.write_file", WRITE_FILE),
        ("files.read_file@wink-decl-files", READ_FILE),
        ("files.read_file@Wink_Decl.Files", READ_FILE),
        ("files.read_file@other-files", READ_OTHER),
        ("files.write_file@wink-decl-files", WRITE_FILE),
        (
            "style.lookup_rul",
            PluginProblem(
                code="unknown-plugin",
                message="No handler named 'style.lookup_rul' is installed.",
                hint=f"Did you mean 'style.lookup_rule' or 'style.lookup_rules'? {LIST_HINT}",
                suggestions=("style.lookup_rule", "style.lookup_rules"),
            ),
        ),
        (
            "files.read_fil@wink-decl-files",
            PluginProblem(
                code="unknown-plugin",
                message="No handler named 'files.read_fil' is installed.",
                hint=f"Did you mean 'files.read_file' or 'files.write_file'? {LIST_HINT}",
                suggestions=("files.read_file", "files.write_file"),
            ),
        ),
        (
            "release.deploy",
            PluginProblem(
                code="unknown-plugin",
                message="No handler named 'release.deploy' is installed.",
                hint=LIST_HINT,
            ),
        ),
        (
            "files.read_file",
            PluginProblem(
                code="ambiguous-plugin",
                message=(
                    "Handler 'files.read_file' is registered by two distributions: "
                    "other-files 2.1, wink-decl-files 1.0."
                ),
                hint="Choose one: files.read_file@other-files, files.read_file@wink-decl-files",
                suggestions=("files.read_file@other-files", "files.read_file@wink-decl-files"),
            ),
        ),
        (
            "files.read_file@wink-decl-flies",
            PluginProblem(
                code="unknown-distribution",
                message=(
                    "Handler 'files.read_file' is not registered by a distribution named "
                    "'wink-decl-flies'."
                ),
                hint=(
                    "Did you mean 'files.read_file@wink-decl-files'? It is registered by "
                    "other-files 2.1, wink-decl-files 1.0."
                ),
                suggestions=("files.read_file@wink-decl-files",),
            ),
        ),
        (
            "files.write_file@nobody",
            PluginProblem(
                code="unknown-distribution",
                message=(
                    "Handler 'files.write_file' is not registered by a distribution named 'nobody'."
                ),
                hint="It is registered by wink-decl-files 1.0.",
            ),
        ),
    ],
    ids=[
        "one-distribution",
        "chosen-distribution",
        "chosen-distribution-pep503",
        "chosen-other-distribution",
        "chosen-only-distribution",
        "unknown-two-suggestions",
        "unknown-name-with-distribution",
        "unknown-no-suggestion",
        "ambiguous",
        "unknown-distribution-suggested",
        "unknown-distribution-no-suggestion",
    ],
)
def test_resolve(reference: str, expected: PluginEntry | PluginProblem) -> None:
    assert catalog().resolve(HANDLERS, reference) == expected


def test_resolve_suggests_up_to_three_names() -> None:
    points = {"a.bcde1": "m:a", "a.bcde2": "m:b", "a.bcde3": "m:c", "a.bcde4": "m:d"}
    found = PluginCatalog(memory_entries("many", "1.0", points))
    problem = found.resolve(HANDLERS, "a.bcde")
    assert isinstance(problem, PluginProblem)
    assert problem.hint == (
        f"did you mean 'a.bcde1', 'a.bcde2' or 'a.bcde3'? {LIST_HINT.removesuffix('.')}"
    )


@pytest.mark.parametrize(
    ("group", "unknown", "ambiguous"),
    [
        (
            POLICIES,
            "No policy named 'y' is installed.",
            "Policy 'x' is registered by two distributions: a 1.0, b 2.0.",
        ),
        (
            PREDICATES,
            "No predicate named 'y' is installed.",
            "Predicate 'x' is registered by two distributions: a 1.0, b 2.0.",
        ),
    ],
    ids=["policy", "predicate"],
)
def test_messages_use_the_groups_noun(group: str, unknown: str, ambiguous: str) -> None:
    found = PluginCatalog(
        [
            *memory_entries("a", "1.0", {"x": "a:x"}, group),
            *memory_entries("b", "2.0", {"x": "b:x"}, group),
        ]
    )
    assert [found.resolve(group, "y"), found.resolve(group, "x")] == [
        PluginProblem("unknown-plugin", unknown, LIST_HINT),
        PluginProblem(
            "ambiguous-plugin", ambiguous, "Choose one: x@a, x@b", suggestions=("x@a", "x@b")
        ),
    ]


@pytest.mark.parametrize(
    ("count", "words"), [(3, "three"), (4, "four"), (5, "5")], ids=["three", "four", "digits"]
)
def test_ambiguous_names_count_the_distributions(count: int, words: str) -> None:
    points = [memory_entries(f"d{index}", "1.0", {"x": f"d{index}:x"}) for index in range(count)]
    problem = PluginCatalog([point for group in points for point in group]).resolve(HANDLERS, "x")
    assert isinstance(problem, PluginProblem)
    providers = ", ".join(f"d{index} 1.0" for index in range(count))
    assert problem.message == f"Handler 'x' is registered by {words} distributions: {providers}."


def test_a_problem_becomes_a_diagnostic_at_the_handler_value() -> None:
    problem = catalog().resolve(HANDLERS, "style.lookup_rul")
    assert isinstance(problem, PluginProblem)
    source = "tools:\n  lint:\n    handler: style.lookup_rul\n"
    diagnostic = problem.to_diagnostic(Span("review.yaml", 3, 14, 3, 29))
    assert render_text([diagnostic], {"review.yaml": source}) == (
        "review.yaml:3:14: error: No handler named 'style.lookup_rul' is installed.\n"
        "   3 |     handler: style.lookup_rul\n"
        "     |              ^^^^^^^^^^^^^^^^\n"
        "  hint: did you mean 'style.lookup_rule' or 'style.lookup_rules'? "
        "Run 'wink-decl plugins' to list what is installed"
    )
    assert diagnostic.suggestions == ("style.lookup_rule", "style.lookup_rules")
    assert problem.to_diagnostic(None, path="review.toml") == Diagnostic(
        message="No handler named 'style.lookup_rul' is installed.",
        span=None,
        code="unknown-plugin",
        hint=problem.hint,
        suggestions=problem.suggestions,
        path="review.toml",
    )


def prepend_to_path(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    monkeypatch.setattr(sys, "path", [str(folder), *sys.path])
    importlib.invalidate_caches()


# --- load ------------------------------------------------------------------------------------


def entry(value: str, group: str = HANDLERS) -> PluginEntry:
    return PluginEntry(group, "x", value, "plug-a", "1.0")


def test_load_imports_the_object_the_value_names() -> None:
    found = PluginCatalog([])
    value = "wink_decl.runtime.planning.tools:SETUP_PLAN_TOOL.handler"
    assert found.load(entry(value)) is SETUP_PLAN_TOOL.handler
    assert found.load(entry("json")) is json


def test_load_imports_once_per_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cached_plugin_module.py").write_text("TOKEN = object()\n", encoding="utf-8")
    prepend_to_path(monkeypatch, tmp_path)
    found = PluginCatalog([])
    first = found.load(entry("cached_plugin_module:TOKEN"))
    monkeypatch.delitem(sys.modules, "cached_plugin_module")
    assert found.load(entry("cached_plugin_module:TOKEN")) is first
    assert PluginCatalog([]).load(entry("cached_plugin_module:TOKEN")) is not first


@pytest.mark.parametrize(
    ("value", "group", "message"),
    [
        (
            "missing_plugin_module:read",
            HANDLERS,
            "Could not import handler 'x' (plug-a 1.0, value 'missing_plugin_module:read'): "
            "ModuleNotFoundError: No module named 'missing_plugin_module'",
        ),
        (
            "json:no_such_function",
            POLICIES,
            "Could not import policy 'x' (plug-a 1.0, value 'json:no_such_function'): "
            "AttributeError: module 'json' has no attribute 'no_such_function'",
        ),
        (
            "broken_plugin_module:x",
            PREDICATES,
            "Could not import predicate 'x' (plug-a 1.0, value 'broken_plugin_module:x'): "
            "RuntimeError: the plugin failed while importing",
        ),
        (
            "not a value!",
            HANDLERS,
            "Could not import handler 'x' (plug-a 1.0, value 'not a value!'): "
            "the value must have the form 'package.module:attribute'.",
        ),
    ],
    ids=["missing-module", "missing-attribute", "raises-on-import", "malformed-value"],
)
def test_load_failures_name_the_entry_point_distribution_and_error(
    value: str, group: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "broken_plugin_module.py").write_text(
        "raise RuntimeError('the plugin failed while importing')\n", encoding="utf-8"
    )
    prepend_to_path(monkeypatch, tmp_path)
    failing = entry(value, group)
    with pytest.raises(PluginLoadError) as caught:
        PluginCatalog([]).load(failing)
    assert str(caught.value) == message
    assert caught.value.message == message
    assert caught.value.entry == failing


def test_a_load_failure_keeps_the_original_exception_as_its_cause() -> None:
    with pytest.raises(PluginLoadError) as caught:
        PluginCatalog([]).load(entry("missing_plugin_module:read"))
    assert isinstance(caught.value.__cause__, ModuleNotFoundError)


def test_the_fingerprint_changes_exactly_when_the_installed_plugins_do() -> None:
    def catalog(*distributions: MemoryDistribution) -> PluginCatalog:
        return PluginCatalog(distributions=distributions)

    plug_a = MemoryDistribution("plug-a", "1.0", {HANDLERS: {"x": "plug_a:x"}})
    plug_b = MemoryDistribution("plug-b", "2.0", {POLICIES: {"y": "plug_b:y"}})
    upgraded = MemoryDistribution("plug-a", "1.1", {HANDLERS: {"x": "plug_a:x"}})
    moved = MemoryDistribution("plug-a", "1.0", {HANDLERS: {"x": "plug_a.new:x"}})
    baseline = catalog(plug_a, plug_b).fingerprint()
    assert catalog(plug_b, plug_a).fingerprint() == baseline  # the order found is irrelevant
    assert len(baseline) == 64
    others = [
        catalog(plug_a).fingerprint(),
        catalog(upgraded, plug_b).fingerprint(),
        catalog(moved, plug_b).fingerprint(),
        catalog().fingerprint(),
    ]
    assert len({baseline, *others}) == 5
