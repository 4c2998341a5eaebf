"""Prompt files written to hurt, run through the real command in a process under limits.

Each case runs ``python -m wink_decl`` in a fresh interpreter capped in time and memory
(``run_python``) and checks the whole report: a hostile file gets a clear diagnostic, a
bounded report and the exit status of an invalid file, never an internal error.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from concurrency import MIB, run_python

CLI = "import runpy; runpy.run_module('wink_decl', run_name='__main__')"


def wink(cwd: Path, *argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``wink-decl ARGV`` in ``cwd``, in its own process: at most ``timeout`` s and 1 GiB."""
    return run_python(CLI, args=argv, cwd=cwd, timeout=timeout, memory=1024 * MIB)


def lines(*texts: str) -> str:
    return "".join(f"{text}\n" for text in texts)


def test_a_one_line_file_of_thousands_of_unknown_keys_gets_a_report_of_its_own_size(
    tmp_path: Path,
) -> None:
    keys = ", ".join(f"k{i}: 1" for i in range(6000))
    text = f"key: tiny\nsections: [{{key: task, title: Task, template: Do it., {keys}}}]\n"
    (tmp_path / "one.wink.yaml").write_text(text)
    assert len(text) > 55_000
    done = wink(tmp_path, "validate", "one.wink.yaml")
    assert (done.returncode, done.stdout) == (1, "")
    assert len(done.stderr) < len(text) / 10  # it was 529 MB: every error quoted the whole line
    expected = (
        "one of key, title, template, summary, summary_suffix, visibility, enabled, "
        "tools, policies, accepts_overrides, children"
    )
    line = "sections: [{key: task, title: Task, template: Do it., " + keys + "}]"
    blocks: list[str] = []
    for i in range(10):
        column = line.index(f" k{i}: ") + 2
        low = column - 1 - 40
        blocks.append(
            lines(
                f"one.wink.yaml:2:{column}: error: Unknown key 'k{i}' in section.",
                f"  expected: {expected}",
                f"   2 | ...{line[low : low + 100]}...",
                "     | " + " " * 43 + "^" * len(f"k{i}"),
            )
        )
    assert done.stderr == "".join(blocks) + lines(
        "  ... and 5,990 more unknown-key diagnostics on line 2 of one.wink.yaml "
        "(wink-decl validate --format json lists every one)",
        "1 file checked: 0 valid, 1 invalid (6000 errors, 0 warnings)",
    )
    as_json = wink(tmp_path, "validate", "one.wink.yaml", "--format", "json")
    assert as_json.returncode == 1
    assert as_json.stdout.count('"code": "unknown-key"') == 6000


def test_control_characters_in_keys_values_and_paths_are_escaped(tmp_path: Path) -> None:
    escapes = (
        'key: evil\nsections:\n  - {key: task, title: "T\\u202eT", "\\e[2J\\a": 1, '
        'template: x, visibility: "\\e[31m"}\n'
    )
    (tmp_path / "evil\x1b]0;owned\x07.wink.yaml").write_text(escapes)
    (tmp_path / "raw.wink.yaml").write_text("key: raw  # \x1b[2J\x07\x9b\nsections: []\n")
    toml = 'key = "evil"\n[[sections]]\nkey = "task"\ntitle = "Task"\n"\\u001b[2J" = 1\n'
    (tmp_path / "c.wink.toml").write_text(toml)
    done = wink(tmp_path, "validate", ".")
    assert (done.returncode, done.stdout) == (1, "")
    keys = (
        "one of key, title, template, summary, summary_suffix, visibility, enabled, tools, "
        "policies, accepts_overrides, children"
    )
    quoted = (
        '   3 |   - {key: task, title: "T\\u202eT", "\\e[2J\\a": 1, template: x, '
        'visibility: "\\e[31m"}'
    )
    assert done.stderr == lines(
        "c.wink.toml:5:1: error: Unknown key '\\x1b[2J' in section.",
        f"  expected: {keys}",
        '   5 | "\\u001b[2J" = 1',
        "     | ^^^^^^^^^^^",
        "evil\\x1b]0;owned\\x07.wink.yaml:3:36: error: Unknown key '\\x1b[2J\\x07' in section.",
        f"  expected: {keys}",
        quoted,
        "     |                                    ^^^^^^^^^",
        "evil\\x1b]0;owned\\x07.wink.yaml:3:75: error: 'visibility' must be one of full, "
        "summary, or {summary_when: ...}; found '\\x1b[31m'",
        quoted,
        "     |                                                                           ^^^^^^^^",
        "raw.wink.yaml:1:13: error: This file contains the character U+001B, which YAML does "
        "not allow.",
        "  expected: printable text",
        "   1 | key: raw  # \\x1b[2J\\x07\\x9b",
        "     |             ^^^^",
        "  hint: delete the character (most editors do not show it); to keep it in text, write "
        'it as the escape "\\u001B" inside double quotes',
        "3 files checked: 0 valid, 3 invalid (4 errors, 0 warnings)",
    )


def test_json_reports_escape_c1_controls_and_reordering_marks(tmp_path: Path) -> None:
    # JSON escapes C0 controls itself; C1 controls and bidirectional overrides are kept by
    # ensure_ascii=False unless escaped, and a log viewer would act on them.
    text = 'key: evil\nsections:\n  - {key: task, title: T, "\\u202eab\\x9bc\\u00e9": 1}\n'
    (tmp_path / "j.wink.yaml").write_text(text)
    done = wink(tmp_path, "validate", "j.wink.yaml", "--format", "json")
    assert (done.returncode, done.stderr) == (1, "")
    assert '"message": "Unknown key \'\\u202eab\\u009bc\u00e9\' in section.",' in done.stdout
    assert json.loads(done.stdout)[0]["message"] == "Unknown key '\u202eab\x9bc\u00e9' in section."


def test_a_param_named_like_python_machinery_is_a_diagnostic_not_an_internal_error(
    tmp_path: Path,
) -> None:
    text = (
        "key: t\nparams:\n  __slots__: {type: string, default: v}\n"
        "sections:\n  - {key: task, title: Task, template: 'x=${__slots__}'}\n"
    )
    (tmp_path / "slots.wink.yaml").write_text(text)
    for command in ("render", "compile"):
        done = wink(tmp_path, command, "slots.wink.yaml")
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr == lines(
            "slots.wink.yaml:3:3: error: '__slots__' is not a valid param name",
            "  expected: 1-64 lowercase letters, digits or '_', starting with a letter",
            "   3 |   __slots__: {type: string, default: v}",
            "     |   ^^^^^^^^^",
            "  hint: did you mean 'slots'?",
        )


def ten_by_ten(folder: Path, levels: int) -> None:
    """``f0`` .. ``f<levels-1>``: ten sections each, each including the next file's ten."""
    for level in range(levels):
        lines = [f"key: f{level}", "sections:"]
        for j in range(10):
            lines += [f"  - key: s{j}", "    title: S", f"    template: Level {level}."]
            if level < levels - 1:
                lines.append("    children:")
                lines += [f"      - include: f{level + 1}.wink.yaml#s{k}" for k in range(10)]
        (folder / f"f{level}.wink.yaml").write_text("\n".join(lines) + "\n")


def test_includes_that_multiply_stop_at_the_section_limit_before_they_expand(
    tmp_path: Path,
) -> None:
    ten_by_ten(tmp_path, 7)  # 20 KB of files; 11 million sections, expanded
    started = time.monotonic()
    done = wink(tmp_path, "validate", "--root", ".", "f0.wink.yaml", timeout=30)
    took = time.monotonic() - started
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == lines(
        "f0.wink.yaml:7:18: error: This include takes the prompt past the limit of 10,000 "
        "sections.",
        "  expected: at most 10,000 sections, includes expanded (max_sections)",
        "   7 |       - include: f1.wink.yaml#s0",
        "     |                  ^^^^^^^^^^^^^^^",
        "  hint: include fewer sections, or raise the limit: --limit max_sections=20000",
        "1 file checked: 0 valid, 1 invalid (1 error, 0 warnings)",
    )
    assert took < 15  # about 1 s; six levels (1.1 million sections) took 103 s and 1.1 GB before


def test_includes_nest_at_most_eight_deep_unless_the_limit_is_raised(tmp_path: Path) -> None:
    for level in range(1, 11):
        children = (
            f"    children:\n      - include: n{level + 1}.wink.yaml#s\n" if level < 10 else ""
        )
        (tmp_path / f"n{level}.wink.yaml").write_text(
            f"key: n{level}\nsections:\n  - key: s\n    title: S\n{children}"
        )
    (tmp_path / "main.wink.yaml").write_text("key: main\nsections:\n  - include: n1.wink.yaml#s\n")
    done = wink(tmp_path, "validate", "--root", ".", "main.wink.yaml")
    assert (done.returncode, done.stdout) == (1, "")
    chain = " -> ".join(f"n{level}.wink.yaml#s" for level in range(1, 10))
    assert done.stderr == lines(
        "main.wink.yaml:3:14: error: Included section 's' has errors (listed with it).",
        "   3 |   - include: n1.wink.yaml#s",
        "     |              ^^^^^^^^^^^^^^",
    ) + "".join(
        lines(
            f"n{level}.wink.yaml:6:18: error: Included section 's' has errors (listed with it).",
            f"   6 |       - include: n{level + 1}.wink.yaml#s",
            "     |                  ^^^^^^^^^^^^^^",
        )
        for level in range(1, 8)
    ) + lines(
        f"n8.wink.yaml:6:18: error: Includes nest more than 8 deep here: {chain}.",
        "  expected: includes at most 8 deep (max_include_depth)",
        "   6 |       - include: n9.wink.yaml#s",
        "     |                  ^^^^^^^^^^^^^^",
        "  hint: include the section from a file nearer the top, or raise the limit: "
        "--limit max_include_depth=16",
        "1 file checked: 0 valid, 1 invalid (9 errors, 0 warnings)",
    )
    raised = wink(
        tmp_path, "validate", "--root", ".", "main.wink.yaml", "--limit", "max_include_depth=16"
    )
    assert (raised.returncode, raised.stderr) == (0, "1 file checked: 1 valid, 0 invalid\n")


def test_an_include_through_a_loop_of_links_is_a_diagnostic(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    (tmp_path / "main.wink.yaml").write_text("key: main\nsections:\n  - include: a/x.wink.yaml#s\n")
    done = wink(tmp_path, "validate", "--root", ".", "main.wink.yaml")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == lines(  # an internal error (RuntimeError) on Python 3.11 and 3.12
        "main.wink.yaml:3:14: error: Included file 'a/x.wink.yaml' cannot be read: its path goes "
        "round a loop of symbolic links.",
        "   3 |   - include: a/x.wink.yaml#s",
        "     |              ^^^^^^^^^^^^^^^",
        "1 file checked: 0 valid, 1 invalid (1 error, 0 warnings)",
    )


def test_nan_infinity_and_huge_numbers_are_diagnostics_in_every_command(tmp_path: Path) -> None:
    huge = "0x" + "f" * 5000  # 6,021 decimal digits: Python cannot print it
    (tmp_path / "numbers.wink.yaml").write_text(
        f"key: {huge}\nparams:\n  x: {{type: number, default: .nan}}\n"
        "sections: [{title: T, template: '${x}'}]\n"
    )
    (tmp_path / "numbers.wink.toml").write_text(
        'key = "t"\n[params.x]\ntype = "number"\nenum = [1.5, inf]\n'
        '[[sections]]\ntitle = "T"\nenabled = {equals = {param = "x", value = 1e400}}\n'
    )
    toml_report = lines(
        "numbers.wink.toml:4:14: error: 'inf' (infinity) cannot be written in JSON.",
        "  expected: a finite number",
        "   4 | enum = [1.5, inf]",
        "     |              ^^^",
        "  hint: put it in quotes if it is meant as text",
        "numbers.wink.toml:7:43: error: '1e400' is too large: it reads as infinity, which JSON "
        "cannot write.",
        "  expected: a finite number",
        '   7 | enabled = {equals = {param = "x", value = 1e400}}',
        "     |                                           ^^^^^",
        "  hint: put it in quotes if it is meant as text",
    )
    yaml_report = lines(
        "numbers.wink.yaml:1:6: error: The whole number '0xfffffffffffffffffffffffffffffffffff...' "
        "is too large.",
        "  expected: a whole number from -9223372036854775808 to 9223372036854775807 (64 bits)",
        "   1 | key: " + huge[:95] + "...",
        "     |      " + "^" * 95,
        "  hint: put it in quotes if it is meant as text",
        "numbers.wink.yaml:3:30: error: '.nan' (not a number) cannot be written in JSON.",
        "  expected: a finite number",
        "   3 |   x: {type: number, default: .nan}",
        "     |                              ^^^^",
        "  hint: put it in quotes if it is meant as text",
    )
    done = wink(tmp_path, "validate", ".")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == toml_report + yaml_report + lines(
        "2 files checked: 0 valid, 2 invalid (4 errors, 0 warnings)"
    )
    for command in ("render", "compile", "tools"):
        for name, report in (
            ("numbers.wink.yaml", yaml_report),
            ("numbers.wink.toml", toml_report),
        ):
            done = wink(tmp_path, command, name)
            assert (done.returncode, done.stdout, done.stderr) == (1, "", report)


def test_hex_literals_that_fit_compile_to_plain_json_numbers(tmp_path: Path) -> None:
    (tmp_path / "hex.wink.toml").write_text(
        'key = "hex"\n[params.mask]\ntype = "integer"\ndefault = 0xff\n'
        '[[sections]]\ntitle = "T"\ntemplate = "mask ${mask}"\n'
    )
    done = wink(tmp_path, "compile", "hex.wink.toml")
    assert (done.returncode, done.stderr) == (0, "")
    assert '"default": 255,' in done.stdout
    assert "NaN" not in done.stdout
    assert "Infinity" not in done.stdout
    rendered = wink(tmp_path, "render", "hex.wink.toml")
    assert (rendered.returncode, rendered.stdout) == (
        0,
        "## 1. T (t)\n\nmask 255\n\ntools: (none)\n",
    )


def test_thousands_of_unknown_names_among_thousands_of_declared_ones_are_quick(
    tmp_path: Path,
) -> None:
    declared = "".join(f"  param_number_{i}: {{type: string, default: x}}\n" for i in range(3000))
    template = " ".join(f"${{zz_unknown_{i}}}" for i in range(3000))
    (tmp_path / "names.wink.yaml").write_text(
        f"key: t\nparams:\n{declared}sections:\n  - key: task\n    title: Task\n"
        f"    template: '{template}'\n"
    )
    started = time.monotonic()
    done = wink(tmp_path, "validate", "names.wink.yaml", timeout=30)
    took = time.monotonic() - started
    assert (done.returncode, done.stdout) == (1, "")
    line = f"    template: '{template}'"
    some = ", ".join(f"param_number_{i}" for i in range(20))
    blocks: list[str] = []
    for i in range(10):
        needle = f"${{zz_unknown_{i}}}"
        column = line.index(needle) + 1
        low = max(0, column - 1 - 40)
        blocks.append(
            lines(
                f"names.wink.yaml:3006:{column}: error: Placeholder '{needle}' is not a declared "
                "param.",
                f"  expected: a declared param ({some} and 2,980 more)",
                f"3006 | {'...' if low else ''}{line[low : low + 100]}...",
                "     | " + " " * (column - 1 - low + (3 if low else 0)) + "^" * len(needle),
                f"  hint: declare 'zz_unknown_{i}' under params:",
            )
        )
    assert done.stderr == "".join(blocks) + lines(
        "  ... and 2,990 more unknown-param diagnostics on line 3006 of names.wink.yaml "
        "(wink-decl validate --format json lists every one)",
        "1 file checked: 0 valid, 1 invalid (3000 errors, 0 warnings)",
    )
    assert took < 15  # about 1 s; a did-you-mean search per name took 22 s before
