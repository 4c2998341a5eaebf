"""Every TOML mistake an author can make comes back as whole, exact diagnostic text."""

import importlib.metadata
import importlib.util
from pathlib import Path

import pytest
import tomli

from wink_decl.diagnostics import render_text
from wink_decl.loader import Limits, load_text

REPO = Path(__file__).resolve().parents[2]

PATH = "review.wink.toml"


def lines(*parts: str) -> str:
    return "\n".join(parts)


TOML_MISTAKES = [
    pytest.param(
        'key = "review"\ntitle "Code review"\n',
        Limits(),
        lines(
            "review.wink.toml:2:7: error: This line has a key but no '=' after it.",
            '  expected: key = value, such as title = "Review"',
            '   2 | title "Code review"',
            "     |       ^",
            "  hint: write '=' between the key and its value, and put text in double quotes",
        ),
        id="missing-equals",
    ),
    pytest.param(
        'key = "review"\ntitle\n',
        Limits(),
        lines(
            "review.wink.toml:2:6: error: This line has a key but no '=' after it.",
            '  expected: key = value, such as title = "Review"',
            "   2 | title",
            "     |      ^",
            "  hint: write '=' between the key and its value, and put text in double quotes",
        ),
        id="missing-equals-at-line-end",
    ),
    pytest.param(
        'title = "Code review\nkey = "review"\n',
        Limits(),
        lines(
            "review.wink.toml:1:9: error: This text is missing its closing quote.",
            '  expected: a closing " at the end of the text',
            '   1 | title = "Code review',
            "     |         ^",
            '  hint: close the text with " on the same line; for text over several lines use """',
        ),
        id="unterminated-string",
    ),
    pytest.param(
        "title = 'Code review\n",
        Limits(),
        lines(
            "review.wink.toml:1:9: error: This text is missing its closing quote.",
            "  expected: a closing ' at the end of the text",
            "   1 | title = 'Code review",
            "     |         ^",
            '  hint: close the text with \' on the same line; for text over several lines use """',
        ),
        id="unterminated-literal-string",
    ),
    pytest.param(
        'template = """\nReview the change.\n\nkey = "review"\n',
        Limits(),
        lines(
            'review.wink.toml:1:12: error: This text is missing its closing """.',
            '  expected: a closing """ at the end of the text',
            '   1 | template = """',
            "     |            ^",
            '  hint: close the text with """ after its last line',
        ),
        id="unterminated-multiline-string",
    ),
    pytest.param(
        "template = '''\nReview the change.\n",
        Limits(),
        lines(
            "review.wink.toml:1:12: error: This text is missing its closing '''.",
            "  expected: a closing ''' at the end of the text",
            "   1 | template = '''",
            "     |            ^",
            "  hint: close the text with ''' after its last line",
        ),
        id="unterminated-multiline-literal",
    ),
    pytest.param(
        'key = "review"\ntitle = "Review"\ntitle = "Code review"\n',
        Limits(),
        lines(
            "review.wink.toml:3:1: error: Key 'title' appears twice in this table "
            "(first on line 2).",
            "  expected: each key and each table once",
            '   3 | title = "Code review"',
            "     | ^^^^^",
            "  hint: remove one of the two, or merge them into the first",
        ),
        id="duplicate-key",
    ),
    pytest.param(
        '[[sections]]\nkey = "task"\nkey = "notes"\n',
        Limits(),
        lines(
            "review.wink.toml:3:1: error: Key 'key' appears twice in this table (first on line 2).",
            "  expected: each key and each table once",
            '   3 | key = "notes"',
            "     | ^^^",
            "  hint: every key after a header belongs to that table, here [sections]: if it "
            "starts a new item, write [[sections]] on the line above it; if it belongs to the "
            "file itself, move it above the first header; otherwise remove one of the two",
        ),
        id="duplicate-key-in-array-of-tables",
    ),
    pytest.param(
        '[tools.lookup]\ndescription = "Look up."\ndescription = "Find."\n',
        Limits(),
        lines(
            "review.wink.toml:3:1: error: Key 'description' appears twice in this table "
            "(first on line 2).",
            "  expected: each key and each table once",
            '   3 | description = "Find."',
            "     | ^^^^^^^^^^^",
            "  hint: every key after a header belongs to that table, here [tools.lookup]: if it "
            "belongs to the file itself, move it above the first header; otherwise remove one "
            "of the two",
        ),
        id="duplicate-key-under-a-header",
    ),
    pytest.param(
        'key = "review"\n\n[[sections]]\nkey = "task"\ntitle = \'Task\ntemplate = "Do it."\n',
        Limits(),
        lines(
            "review.wink.toml:5:9: error: This text is missing its closing quote.",
            "  expected: a closing ' at the end of the text",
            "   5 | title = 'Task",
            "     |         ^",
            '  hint: close the text with \' on the same line; for text over several lines use """',
        ),
        id="single-quote-left-open-before-closed-text",
    ),
    pytest.param(
        '[tools.read_file]\nhandler = "files.read"\n\n[tools.read_file]\nhandler = "files.read2"\n',
        Limits(),
        lines(
            "review.wink.toml:4:2: error: The table [tools.read_file] is declared "
            "twice (first on line 1).",
            "  expected: each key and each table once",
            "   4 | [tools.read_file]",
            "     |  ^^^^^^^^^^^^^^^",
            "  hint: if each [tools.read_file] starts an item of a list, write "
            "[[tools.read_file]] above each one: [tools.read_file] makes one table, "
            "[[tools.read_file]] adds an item to the list; otherwise remove one of the two, "
            "or merge them into the first",
        ),
        id="duplicate-table",
    ),
    pytest.param(
        'tools = "none"\n[tools]\n',
        Limits(),
        lines(
            "review.wink.toml:2:2: error: 'tools' is already defined on line 1, so "
            "[tools] cannot start a table here.",
            "  expected: each key and each table once",
            "   2 | [tools]",
            "     |  ^^^^^",
            "  hint: remove one of the two, or merge them into the first",
        ),
        id="table-over-value",
    ),
    pytest.param(
        "[sections]\n[[sections]]\n",
        Limits(),
        lines(
            "review.wink.toml:2:3: error: 'sections' is already defined on line 1, "
            "so [[sections]] cannot start a table here.",
            "  expected: each key and each table once",
            "   2 | [[sections]]",
            "     |   ^^^^^^^^",
            "  hint: write [[sections]] above the first item too: [sections] makes one table, "
            "[[sections]] adds an item to the list",
        ),
        id="array-of-tables-over-table",
    ),
    pytest.param(
        '[sections]\nkey = "task"\n\n[sections]\nkey = "notes"\n',
        Limits(),
        lines(
            "review.wink.toml:4:2: error: The table [sections] is declared twice "
            "(first on line 1).",
            "  expected: each key and each table once",
            "   4 | [sections]",
            "     |  ^^^^^^^^",
            "  hint: if each [sections] starts an item of a list, write [[sections]] above "
            "each one: [sections] makes one table, [[sections]] adds an item to the list; "
            "otherwise remove one of the two, or merge them into the first",
        ),
        id="two-tables-for-a-list",
    ),
    pytest.param(
        "sections = 1\n[[sections]]\n",
        Limits(),
        lines(
            "review.wink.toml:2:3: error: 'sections' is already defined on line 1, "
            "so [[sections]] cannot start a table here.",
            "  expected: each key and each table once",
            "   2 | [[sections]]",
            "     |   ^^^^^^^^",
            "  hint: remove one of the two, or merge them into the first",
        ),
        id="array-of-tables-over-value",
    ),
    pytest.param(
        'params = { language = "python" }\nparams.strict = true\n',
        Limits(),
        lines(
            "review.wink.toml:2:1: error: 'params' was written in full on line 1; "
            "it cannot be extended here.",
            "  expected: every key of 'params' where it is first written",
            "   2 | params.strict = true",
            "     | ^^^^^^^^^^^^^",
            "  hint: move this key to where 'params' is written, or write all of "
            "its keys under one [params] header",
        ),
        id="inline-table-extended",
    ),
    pytest.param(
        '[params.language]\n[params]\nlanguage.type = "string"\n',
        Limits(),
        lines(
            "review.wink.toml:3:1: error: 'params.language' was written in full on "
            "line 1; it cannot be extended here.",
            "  expected: every key of 'params.language' where it is first written",
            '   3 | language.type = "string"',
            "     | ^^^^^^^^^^^^^",
            "  hint: move this key to where 'params.language' is written, or write "
            "all of its keys under one [params.language] header",
        ),
        id="table-extended-by-dotted-key",
    ),
    pytest.param(
        'enabled = { param = "strict", param = "fast" }\n',
        Limits(),
        lines(
            "review.wink.toml:1:31: error: Key 'param' appears twice in this table "
            "(first on line 1).",
            "  expected: each key and each table once",
            '   1 | enabled = { param = "strict", param = "fast" }',
            "     |                               ^^^^^",
            "  hint: remove one of the two, or merge them into the first",
        ),
        id="duplicate-inline-key",
    ),
    pytest.param(
        "params = 1\nparams.strict = true\n",
        Limits(),
        lines(
            "review.wink.toml:2:1: error: 'params' already has a value on line 1, "
            "so 'params.strict' cannot be set.",
            "  expected: each key and each table once",
            "   2 | params.strict = true",
            "     | ^^^^^^^^^^^^^",
            "  hint: remove one of the two, or merge them into the first",
        ),
        id="dotted-key-over-value",
    ),
    pytest.param(
        "title = Code review\n",
        Limits(),
        lines(
            "review.wink.toml:1:9: error: This value is not valid TOML.",
            "  expected: text in quotes, a number, true or false, a date, a [list] "
            "or an {inline table}",
            "   1 | title = Code review",
            "     |         ^",
            '  hint: put text in double quotes, such as title = "Code review"',
        ),
        id="text-without-quotes",
    ),
    pytest.param(
        'title = "Code" "review"\n',
        Limits(),
        lines(
            "review.wink.toml:1:16: error: There is more on this line after the value.",
            "  expected: one key = value pair per line",
            '   1 | title = "Code" "review"',
            "     |                ^",
            "  hint: start a new line for the next pair; if the value is text, put "
            "all of it in quotes",
        ),
        id="text-after-value",
    ),
    pytest.param(
        '= "review"\n',
        Limits(),
        lines(
            "review.wink.toml:1:1: error: This line is neither a key = value pair "
            "nor a [table] header.",
            '  expected: a line such as title = "Review" or [tools]',
            '   1 | = "review"',
            "     | ^",
            "  hint: start the line with a key, or with '[' for a table header",
        ),
        id="line-without-key",
    ),
    pytest.param(
        'key = "review"\n@owner = "alice"\n',
        Limits(),
        lines(
            "review.wink.toml:2:1: error: This line is neither a key = value pair "
            "nor a [table] header.",
            '  expected: a line such as title = "Review" or [tools]',
            '   2 | @owner = "alice"',
            "     | ^",
            "  hint: start the line with a key, or with '[' for a table header",
        ),
        id="key-starts-oddly",
    ),
    pytest.param(
        'tools = ["read_file", "list_dir"\nkey = "review"\n',
        Limits(),
        lines(
            "review.wink.toml:2:1: error: This list is missing a ',' between items "
            "or its closing ']'.",
            "  expected: ',' or ']'",
            '   2 | key = "review"',
            "     | ^",
            "  hint: separate the items with commas and close the list with ']'",
        ),
        id="unclosed-array",
    ),
    pytest.param(
        'key = "review"\ntools = [\n  "read_file",\n  "list_dir",\n# the end\n',
        Limits(),
        lines(
            "review.wink.toml:2:9: error: This list is never closed: the file ends before its ']'.",
            "  expected: ']' after the last item",
            "   2 | tools = [",
            "     |         ^",
            "  hint: add ']' after the last item, or remove the '[' if it was typed by mistake",
        ),
        id="list-never-closed",
    ),
    pytest.param(
        # Brackets in text and comments are not brackets: the list that is open is the outer one.
        'tools = ["[x", # {\n  { a = "]" },\n',
        Limits(),
        lines(
            "review.wink.toml:1:9: error: This list is never closed: the file ends before its ']'.",
            "  expected: ']' after the last item",
            '   1 | tools = ["[x", # {',
            "     |         ^",
            "  hint: add ']' after the last item, or remove the '[' if it was typed by mistake",
        ),
        id="list-never-closed-around-brackets-in-text",
    ),
    pytest.param(
        'enabled = { param = "strict"',
        Limits(),
        lines(
            "review.wink.toml:1:11: error: This inline table is never closed: the file ends "
            "before its '}'.",
            "  expected: '}' after the last entry",
            '   1 | enabled = { param = "strict"',
            "     |           ^",
            "  hint: add '}' after the last entry, or remove the '{' if it was typed by mistake",
        ),
        id="inline-table-never-closed",
    ),
    pytest.param(
        'enabled = { param = "strict"\n',
        Limits(),
        lines(
            "review.wink.toml:1:29: error: This inline table is missing a ',' "
            "between entries or its closing '}'.",
            "  expected: ',' or '}'",
            '   1 | enabled = { param = "strict"',
            "     |                             ^",
            "  hint: separate the entries with commas and close the table with '}' "
            "on the same line",
        ),
        id="unclosed-inline-table",
    ),
    pytest.param(
        'path = "C:\\q"\n',
        Limits(),
        lines(
            "review.wink.toml:1:13: error: This backslash does not start a valid escape.",
            '  expected: an escape such as \\n, \\t, \\" or \\\\',
            '   1 | path = "C:\\q"',
            "     |             ^",
            "  hint: write a backslash as \\\\, or put text with backslashes in single quotes",
        ),
        id="bad-escape",
    ),
    pytest.param(
        'title = "caf\\u00e"\n',
        Limits(),
        lines(
            "review.wink.toml:1:15: error: This \\u escape needs 4 hexadecimal "
            "digits (\\U needs 8).",
            "  expected: an escape such as \\u00E9",
            '   1 | title = "caf\\u00e"',
            "     |               ^",
            "  hint: write the code point with 4 (or 8) digits 0-9 and A-F",
        ),
        id="bad-unicode-escape",
    ),
    pytest.param(
        'title = "\\uD800"\n',
        Limits(),
        lines(
            "review.wink.toml:1:16: error: This escape does not name a Unicode character.",
            "  expected: an escape such as \\u00E9",
            '   1 | title = "\\uD800"',
            "     |                ^",
            "  hint: check the code point; U+D800 to U+DFFF are not characters",
        ),
        id="surrogate-escape",
    ),
    pytest.param(
        'title = "Code\x01review"\n',
        Limits(),
        lines(
            "review.wink.toml:1:14: error: The control character U+0001 is not allowed here.",
            "  expected: printable text",
            '   1 | title = "Code\\x01review"',
            "     |              ^^^^",
            '  hint: delete it (most editors do not show it); inside text write it as "\\u0001"',
        ),
        id="control-character-in-text",
    ),
    pytest.param(
        '# note\x01\nkey = "review"\n',
        Limits(),
        lines(
            "review.wink.toml:1:7: error: The control character U+0001 is not allowed here.",
            "  expected: printable text",
            "   1 | # note\\x01",
            "     |       ^^^^",
            '  hint: delete it (most editors do not show it); inside text write it as "\\u0001"',
        ),
        id="control-character-in-comment",
    ),
    pytest.param(
        '[params\ntype = "string"\n',
        Limits(),
        lines(
            "review.wink.toml:1:8: error: This table header is missing its closing ']'.",
            "  expected: [table] or [[array.of.tables]]",
            "   1 | [params",
            "     |        ^",
            "  hint: close the header with ']' ( ']]' for an array of tables ) at "
            "the end of the name",
        ),
        id="unclosed-table-header",
    ),
    pytest.param(
        '[[sections]\nkey = "task"\n',
        Limits(),
        lines(
            "review.wink.toml:1:11: error: This table header is missing its closing ']'.",
            "  expected: [table] or [[array.of.tables]]",
            "   1 | [[sections]",
            "     |           ^",
            "  hint: close the header with ']' ( ']]' for an array of tables ) at "
            "the end of the name",
        ),
        id="unclosed-array-of-tables-header",
    ),
    pytest.param(
        "released = 2024-02-30\n",
        Limits(),
        lines(
            "review.wink.toml:1:12: error: This date is not a real date.",
            "  expected: a date such as 2024-05-31 or 2024-05-31T09:30:00Z",
            "   1 | released = 2024-02-30",
            "     |            ^",
            "  hint: check the month and the day, or put the value in quotes to keep it as text",
        ),
        id="invalid-date",
    ),
    pytest.param(
        "released = 2024-05-31T25:00:00Z\n",
        Limits(),
        lines(
            "review.wink.toml:1:12: error: This date is not a real date.",
            "  expected: a date such as 2024-05-31 or 2024-05-31T09:30:00Z",
            "   1 | released = 2024-05-31T25:00:00Z",
            "     |            ^",
            "  hint: check the month and the day, or put the value in quotes to keep it as text",
        ),
        id="invalid-date-time",
    ),
    pytest.param(
        "dates = [2024-02-30]\n",
        Limits(),
        lines(
            "review.wink.toml:1:10: error: This date is not a real date.",
            "  expected: a date such as 2024-05-31 or 2024-05-31T09:30:00Z",
            "   1 | dates = [2024-02-30]",
            "     |          ^",
            "  hint: check the month and the day, or put the value in quotes to keep it as text",
        ),
        id="invalid-date-in-list",
    ),
    pytest.param(
        "key =",
        Limits(),
        lines(
            "review.wink.toml:1:6: error: This value is not valid TOML.",
            "  expected: text in quotes, a number, true or false, a date, a [list] "
            "or an {inline table}",
            "   1 | key =",
            "     |      ^",
            '  hint: put text in double quotes, such as title = "Code review"',
        ),
        id="value-missing-at-end",
    ),
    pytest.param(
        "",
        Limits(),
        lines(
            "review.wink.toml:1:1: error: This file is empty; a prompt file must "
            "be a table of keys such as 'key', 'title' and 'sections'.",
            "  expected: a table of keys such as 'key', 'title' and 'sections'",
            '  hint: start the file with lines such as key = "review" and title = "Review"',
        ),
        id="empty-file",
    ),
    pytest.param(
        "# nothing here yet\n",
        Limits(),
        lines(
            "review.wink.toml:1:1: error: This file is empty; a prompt file must "
            "be a table of keys such as 'key', 'title' and 'sections'.",
            "  expected: a table of keys such as 'key', 'title' and 'sections'",
            "   1 | # nothing here yet",
            "     | ^",
            '  hint: start the file with lines such as key = "review" and title = "Review"',
        ),
        id="comments-only",
    ),
    pytest.param(
        "a = [[[[1]]]]\n",
        Limits(max_depth=3),
        lines(
            "review.wink.toml:1:7: error: Values are nested more than 3 levels deep here.",
            "  expected: at most 3 levels of nested mappings and lists",
            "   1 | a = [[[[1]]]]",
            "     |       ^",
            "  hint: flatten the structure: nest mappings and lists less deeply"
            ", or allow more with --limit max_depth=6",
        ),
        id="too-deep-brackets",
    ),
    pytest.param(
        "a.b.c.d = 1\n",
        Limits(max_depth=3),
        lines(
            "review.wink.toml:1:5: error: Values are nested more than 3 levels deep here.",
            "  expected: at most 3 levels of nested mappings and lists",
            "   1 | a.b.c.d = 1",
            "     |     ^",
            "  hint: flatten the structure: nest mappings and lists less deeply"
            ", or allow more with --limit max_depth=6",
        ),
        id="too-deep-tables",
    ),
    pytest.param(
        "[a.b]\nc = [[1]]\n",
        Limits(max_depth=3),
        lines(
            "review.wink.toml:2:5: error: Values are nested more than 3 levels deep here.",
            "  expected: at most 3 levels of nested mappings and lists",
            "   2 | c = [[1]]",
            "     |     ^^^^^",
            "  hint: flatten the structure: nest mappings and lists less deeply"
            ", or allow more with --limit max_depth=6",
        ),
        id="too-deep-headers",
    ),
    pytest.param(
        "a = [1, 2, 3]\nb = 4\n",
        Limits(max_nodes=3),
        lines(
            "review.wink.toml:1:12: error: This file holds more than 3 values.",
            "  expected: at most 3 values",
            "   1 | a = [1, 2, 3]",
            "     |            ^",
            "  hint: split the prompt into several smaller files"
            ", or allow more with --limit max_nodes=6",
        ),
        id="values-over-limit",
    ),
    pytest.param(
        'key = "review"\n',
        Limits(max_bytes=8),
        lines(
            "review.wink.toml:1:1: error: This file is 15 bytes long, more than "
            "the limit of 8 bytes.",
            "  expected: a file of at most 8 bytes",
            '   1 | key = "review"',
            "     | ^",
            "  hint: split the prompt into several smaller files"
            ", or allow more with --limit max_bytes=16",
        ),
        id="too-large",
    ),
    pytest.param(
        'tools = ["read_file", "list_dir\n',
        Limits(),
        lines(
            "review.wink.toml:1:23: error: This text is missing its closing quote.",
            '  expected: a closing " at the end of the text',
            '   1 | tools = ["read_file", "list_dir',
            "     |                       ^",
            '  hint: close the text with " on the same line; for text over several lines use """',
        ),
        id="unterminated-string-in-list",
    ),
]


@pytest.mark.parametrize(("text", "limits", "expected"), TOML_MISTAKES)
def test_toml_mistake_is_reported_in_full(text: str, limits: Limits, expected: str) -> None:
    result = load_text(text, path=PATH, format="toml", limits=limits)
    assert result.file is None
    assert render_text(result.diagnostics, {PATH: text}) == expected


def test_brackets_too_deep_for_tomllib_are_found_first() -> None:
    text = "a = " + "[" * 1500 + "]" * 1500 + "\n"
    result = load_text(text, path=PATH, format="toml")
    assert render_text(result.diagnostics, {PATH: text}) == lines(
        "review.wink.toml:1:68: error: Values are nested more than 64 levels deep here.",
        "  expected: at most 64 levels of nested mappings and lists",
        f"   1 | ...{text[27:127]}...",  # a window of the line, the caret 40 characters in
        "     | " + " " * 43 + "^",
        "  hint: flatten the structure: nest mappings and lists less deeply"
        ", or allow more with --limit max_depth=128",
    )


def test_brackets_inside_strings_and_comments_do_not_count() -> None:
    text = 'a = "[[[[[[" # {{{{{{\nb = [[1]]\n'
    result = load_text(text, path=PATH, format="toml", limits=Limits(max_depth=3))
    assert result.diagnostics == ()
    assert result.file is not None
    assert result.file.data == {"a": "[[[[[[", "b": [[1]]}


def test_toml_is_read_by_the_pinned_compiled_tomli_on_every_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One TOML 1.0 reader on 3.11-3.13 (the standard library's differs between versions)."""
    read: list[str] = []
    real = tomli.loads

    def counted(text: str) -> dict[str, object]:
        read.append(text)
        return real(text)

    monkeypatch.setattr(tomli, "loads", counted)
    text = 'key = "review"\nweight = 0.5\n'  # not plain enough for the quick reader
    assert load_text(text, path=PATH, format="toml").file is not None
    assert read == [text]
    pyproject = tomli.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    pin = f"tomli=={importlib.metadata.version('tomli')}"
    assert pin in pyproject["project"]["dependencies"]
    parser = importlib.util.find_spec("tomli._parser")
    assert parser is not None
    assert parser.origin is not None
    assert Path(parser.origin).suffix == ".so"  # the compiled wheel, not its pure-Python source
