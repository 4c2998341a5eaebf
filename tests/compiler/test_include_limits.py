"""Includes bounded: depth, files read, sections after expansion, loops of links, and the cost
of including one file many times."""

# pyright: reportPrivateUsage=false

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from compiler_support import compiled, make_catalog, report, write

from wink_decl.compiler import CompileResult, compile_file
from wink_decl.compiler import _includes as includes_module
from wink_decl.compiler import _tool_compiler as tool_compiler_module
from wink_decl.limits import Limits
from wink_decl.plugins import PluginCatalog


def compile_with(
    text: str, limits: Limits | None = None, catalog: PluginCatalog | None = None
) -> CompileResult:
    write(Path(), "prompt.wink.yaml", text)
    return compile_file(
        "prompt.wink.yaml", root=".", catalog=catalog or make_catalog(), limits=limits or Limits()
    )


def chain(here: Path, length: int) -> None:
    """``n1``'s section ``s`` includes ``n2#s``, which includes ``n3#s``, ... to ``n<length>``."""
    for level in range(1, length + 1):
        children = (
            f"    children:\n      - include: n{level + 1}.wink.yaml#s\n" if level < length else ""
        )
        write(
            here,
            f"n{level}.wink.yaml",
            f"key: n{level}\nsections:\n  - key: s\n    title: S\n{children}",
        )


def test_includes_nest_at_most_max_include_depth(here: Path) -> None:
    chain(here, 4)
    text = "key: main\nsections:\n  - include: n1.wink.yaml#s\n"
    assert report(compile_with(text, Limits(max_include_depth=3))) == (
        "n1.wink.yaml:6:18: error: Included section 's' has errors (listed with it).\n"
        "   6 |       - include: n2.wink.yaml#s\n"
        "     |                  ^^^^^^^^^^^^^^\n"
        "n2.wink.yaml:6:18: error: Included section 's' has errors (listed with it).\n"
        "   6 |       - include: n3.wink.yaml#s\n"
        "     |                  ^^^^^^^^^^^^^^\n"
        "n3.wink.yaml:6:18: error: Includes nest more than 3 deep here: n1.wink.yaml#s -> "
        "n2.wink.yaml#s -> n3.wink.yaml#s -> n4.wink.yaml#s.\n"
        "  expected: includes at most 3 deep (max_include_depth)\n"
        "   6 |       - include: n4.wink.yaml#s\n"
        "     |                  ^^^^^^^^^^^^^^\n"
        "  hint: include the section from a file nearer the top, or raise the limit: "
        "--limit max_include_depth=6\n"
        "prompt.wink.yaml:3:14: error: Included section 's' has errors (listed with it).\n"
        "   3 |   - include: n1.wink.yaml#s\n"
        "     |              ^^^^^^^^^^^^^^"
    )
    result = compile_with(text, Limits(max_include_depth=3))
    assert [d.code for d in result.diagnostics].count("include-depth") == 1
    assert compile_with(text, Limits(max_include_depth=4)).ok


def test_a_cycle_written_two_ways_is_still_a_cycle(here: Path) -> None:
    write(
        here,
        "a.wink.yaml",
        "key: a\nsections:\n  - key: s\n    title: S\n    children:\n"
        "      - include: ./a.wink.yaml#s\n",
    )
    result = compile_with("key: main\nsections:\n  - include: a.wink.yaml#s\n")
    assert [d.code for d in result.diagnostics] == ["include-cycle", "include-invalid"]
    assert result.diagnostics[0].message == (
        "Includes form a cycle: a.wink.yaml#s -> ./a.wink.yaml#s."
    )


def test_includes_read_at_most_max_include_files(here: Path) -> None:
    for name in "abc":
        write(here, f"{name}.wink.yaml", f"key: {name}\nsections:\n  - {{key: x, title: X}}\n")
    text = (
        "key: main\nsections:\n"
        "  - {key: one, title: One, children: [{include: a.wink.yaml#x}]}\n"
        "  - {key: two, title: Two, children: [{include: b.wink.yaml#x}]}\n"
        "  - {key: three, title: Three, children: [{include: c.wink.yaml#x}]}\n"
        "  - {key: four, title: Four, children: [{include: a.wink.yaml#x}]}\n"
        "  - {key: five, title: Five, children: [{include: missing.wink.yaml#x}]}\n"
    )
    result = compile_with(text, Limits(max_include_files=2))
    assert report(result) == (
        "prompt.wink.yaml:5:53: error: Included file 'c.wink.yaml' would be file 3 that this "
        "prompt's includes read, past the limit of 2.\n"
        "  expected: at most 2 files read through includes (max_include_files)\n"
        "   5 |   - {key: three, title: Three, children: [{include: c.wink.yaml#x}]}\n"
        "     |                                                     ^^^^^^^^^^^^^\n"
        "  hint: include sections from fewer files, or raise the limit: "
        "--limit max_include_files=4\n"
        "prompt.wink.yaml:7:51: error: Included file 'missing.wink.yaml' would be file 3 that "
        "this prompt's includes read, past the limit of 2.\n"
        "  expected: at most 2 files read through includes (max_include_files)\n"
        "   7 |   - {key: five, title: Five, children: [{include: missing.wink.yaml#x}]}\n"
        "     |                                                   ^^^^^^^^^^^^^^^^^^^\n"
        "  hint: include sections from fewer files, or raise the limit: "
        "--limit max_include_files=4"
    )
    assert [path.name for path in result.includes] == ["a.wink.yaml", "b.wink.yaml"]
    assert compile_with(text.replace("missing", "c"), Limits(max_include_files=3)).ok


def test_sections_of_the_prompt_itself_count_against_max_sections(here: Path) -> None:
    del here
    text = "key: main\nsections:\n" + "".join(f"  - {{key: s{i}, title: S}}\n" for i in range(5))
    assert report(compile_with(text, Limits(max_sections=3))) == (
        "prompt.wink.yaml:6:5: error: This section is past the limit of 3 sections per prompt.\n"
        "  expected: at most 3 sections, includes expanded (max_sections)\n"
        "   6 |   - {key: s3, title: S}\n"
        "     |     ^^^^^^^^^^^^^^^^^^^\n"
        "  hint: split the prompt, or raise the limit: --limit max_sections=6"
    )
    assert compile_with(text, Limits(max_sections=5)).ok


def test_children_count_too_and_the_limit_is_reported_at_the_include_in_the_prompt(
    here: Path,
) -> None:
    write(
        here,
        "big.wink.yaml",
        "key: big\nsections:\n  - key: s\n    title: S\n    children:\n"
        + "".join(f"      - {{key: c{i}, title: C}}\n" for i in range(4))
        + "      - include: more.wink.yaml#m\n",
    )
    write(here, "more.wink.yaml", "key: more\nsections:\n  - {key: m, title: M}\n")
    text = (
        "key: main\nsections:\n  - key: top\n    title: Top\n    children:\n"
        "      - include: big.wink.yaml#s\n      - {key: after, title: After}\n"
    )
    result = compile_with(text, Limits(max_sections=5))
    assert report(result) == (
        "prompt.wink.yaml:6:18: error: This include takes the prompt past the limit of 5 "
        "sections.\n"
        "  expected: at most 5 sections, includes expanded (max_sections)\n"
        "   6 |       - include: big.wink.yaml#s\n"
        "     |                  ^^^^^^^^^^^^^^^\n"
        "  hint: include fewer sections, or raise the limit: --limit max_sections=10"
    )
    assert compile_with(text, Limits(max_sections=8)).ok
    assert not compile_with(text, Limits(max_sections=7)).ok


def ten_by_ten(here: Path, levels: int) -> None:
    """``f0`` .. ``f<levels-1>``: ten sections each, each including the next file's ten."""
    for level in range(levels):
        lines = [f"key: f{level}", "sections:"]
        for j in range(10):
            lines += [f"  - key: s{j}", "    title: S"]
            if level < levels - 1:
                lines.append("    children:")
                lines += [f"      - include: f{level + 1}.wink.yaml#s{k}" for k in range(10)]
        write(here, f"f{level}.wink.yaml", "\n".join(lines) + "\n")


def test_once_the_limit_is_passed_nothing_more_is_compiled(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ten_by_ten(here, 6)  # a million sections, expanded
    calls: list[str] = []
    real = includes_module.compile_section

    def counted(*args: Any) -> Any:
        calls.append("section")
        return real(*args)

    monkeypatch.setattr(includes_module, "compile_section", counted)
    result = compile_with(
        "key: main\nsections:\n  - include: f0.wink.yaml#s0\n", Limits(max_sections=50)
    )
    assert report(result) == (
        "prompt.wink.yaml:3:14: error: This include takes the prompt past the limit of 50 "
        "sections.\n"
        "  expected: at most 50 sections, includes expanded (max_sections)\n"
        "   3 |   - include: f0.wink.yaml#s0\n"
        "     |              ^^^^^^^^^^^^^^^\n"
        "  hint: include fewer sections, or raise the limit: --limit max_sections=100"
    )
    assert len(calls) == 50  # one per entry that took its place; none after the limit
    assert [path.name for path in result.includes] == [f"f{i}.wink.yaml" for i in range(6)]


def test_an_included_file_is_searched_and_its_tools_compiled_once(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tools = "".join(f"  t{i}: {{description: Tool {i}., handler: test.lookup}}\n" for i in range(3))
    write(here, "lib.wink.yaml", f"key: lib\nsections:\n  - {{key: a, title: A}}\ntools:\n{tools}")
    compiled_tools: list[str] = []
    real = tool_compiler_module.compile_tool  # imported where a file has tools

    def counted(ctx: Any, path: Any, name: str, spec: Any, catalog: Any) -> Any:
        compiled_tools.append(name)
        return real(ctx, path, name, spec, catalog)

    monkeypatch.setattr(tool_compiler_module, "compile_tool", counted)
    write(
        here,
        "mid.wink.yaml",
        "key: mid\nsections:\n  - {key: m, title: M, children: [{include: lib.wink.yaml#a}]}\n",
    )
    text = "key: main\nsections:\n  - include: mid.wink.yaml#m\n" + "".join(
        f"  - {{key: s{i}, title: S, children: [{{include: lib.wink.yaml#a}}, "
        "{include: lib.wink.yaml#nope}]}\n"
        for i in range(20)
    )
    result = compile_with(text)  # lib's tools seen from two scopes: the prompt's and mid's
    assert sorted(compiled_tools) == ["t0", "t1", "t2"]
    assert [d.code for d in result.diagnostics] == ["include-section"] * 20


def test_a_problem_in_an_included_section_points_at_that_section(here: Path) -> None:
    write(
        here,
        "lib.wink.yaml",
        "key: lib\nsections:\n  - {key: a, title: A, template: ok}\n"
        "  - {key: b, title: B, template: 'hi ${nope}'}\n",
    )
    result = compile_with("key: main\nsections:\n  - include: lib.wink.yaml#b\n")
    assert report(result) == (
        "lib.wink.yaml:4:38: error: Placeholder '${nope}' is not a declared param.\n"
        "  expected: a declared param (none are declared)\n"
        "   4 |   - {key: b, title: B, template: 'hi ${nope}'}\n"
        "     |                                      ^^^^^^^\n"
        "  hint: declare 'nope' under params:\n"
        "prompt.wink.yaml:3:14: error: Included section 'b' has errors (listed with it).\n"
        "   3 |   - include: lib.wink.yaml#b\n"
        "     |              ^^^^^^^^^^^^^^^"
    )


def test_a_loop_of_links_is_named(here: Path) -> None:
    (here / "loop").symlink_to(here / "loop")
    (here / "a").symlink_to(here / "b")
    (here / "b").symlink_to(here / "a")
    text = "key: main\nsections:\n  - include: loop/x.wink.yaml#s\n  - include: a/x.wink.yaml#s\n"
    assert report(compile_with(text)) == (
        "prompt.wink.yaml:3:14: error: Included file 'loop/x.wink.yaml' cannot be read: its path "
        "goes round a loop of symbolic links.\n"
        "   3 |   - include: loop/x.wink.yaml#s\n"
        "     |              ^^^^^^^^^^^^^^^^^^\n"
        "prompt.wink.yaml:4:14: error: Included file 'a/x.wink.yaml' cannot be read: its path "
        "goes round a loop of symbolic links.\n"
        "   4 |   - include: a/x.wink.yaml#s\n"
        "     |              ^^^^^^^^^^^^^^^"
    )


def test_a_limit_that_is_not_reached_changes_nothing(here: Path) -> None:
    chain(here, 3)
    result = compile_with("key: main\nsections:\n  - include: n1.wink.yaml#s\n")
    assert [node.dotted for node in compiled(result).template.nodes] == ["s", "s.s", "s.s.s"]


def test_a_limit_of_one_section_is_said_in_the_singular(here: Path) -> None:
    del here
    text = "key: main\nsections:\n" + "".join(f"  - {{key: s{i}, title: S}}\n" for i in range(2))
    assert report(compile_with(text, Limits(max_sections=1))) == (
        "prompt.wink.yaml:4:5: error: This section is past the limit of 1 section per prompt.\n"
        "  expected: at most 1 section, includes expanded (max_sections)\n"
        "   4 |   - {key: s1, title: S}\n"
        "     |     ^^^^^^^^^^^^^^^^^^^\n"
        "  hint: split the prompt, or raise the limit: --limit max_sections=2"
    )
