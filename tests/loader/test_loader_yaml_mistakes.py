"""Every YAML mistake an author can make comes back as whole, exact diagnostic text."""

import pytest

from wink_decl.diagnostics import render_text
from wink_decl.loader import Limits, load_text

PATH = "review.wink.yaml"


def lines(*parts: str) -> str:
    return "\n".join(parts)


YAML_MISTAKES = [
    pytest.param(
        'title: "Code review\ndescription: Reviews a change.\n',
        Limits(),
        lines(
            "review.wink.yaml:1:8: error: This quoted text is never closed.",
            '  expected: a closing " at the end of the text',
            '   1 | title: "Code review',
            "     |        ^",
            "  hint: add the closing \" at the end of the text; inside '...' write a quote "
            'as \'\', inside "..." as \\"',
        ),
        id="unclosed-quote",
    ),
    pytest.param(
        "key: review\ntitle: 'Code review\n\nsections: []\n",
        Limits(),
        lines(
            "review.wink.yaml:2:8: error: This quoted text is never closed.",
            "  expected: a closing ' at the end of the text",
            "   2 | title: 'Code review",
            "     |        ^",
            "  hint: add the closing ' at the end of the text; inside '...' write a quote "
            'as \'\', inside "..." as \\"',
        ),
        id="unclosed-single-quote",
    ),
    pytest.param(
        "params:\n  language: python\n strict: true\n",
        Limits(),
        lines(
            "review.wink.yaml:3:2: error: This line is indented differently from "
            "the lines around it.",
            "  expected: a key lined up with the keys above it",
            "   3 |  strict: true",
            "     |  ^",
            "  hint: indent the keys of one mapping by the same number of spaces, "
            "and a nested value further than its key",
        ),
        id="key-indented-less",
    ),
    pytest.param(
        "params:\n  language: python\n    strict: true\n",
        Limits(),
        lines(
            "review.wink.yaml:3:11: error: A ': ' here would start a new key, but "
            "a key cannot start here.",
            "  expected: one key per line, lined up with the keys above it",
            "   3 |     strict: true",
            "     |           ^",
            "  hint: if this is text, put the whole value in quotes; if it is a "
            "new key, start it on its own line, lined up with the other keys",
        ),
        id="key-indented-more",
    ),
    pytest.param(
        "key: review\ntitle Code review\nsections: []\n",
        Limits(),
        lines(
            "review.wink.yaml:2:1: error: This line has no ':' after its key.",
            "  expected: key: value",
            "   2 | title Code review",
            "     | ^",
            "  hint: add ': ' after the key, or indent the line further if it continues "
            "the text above",
        ),
        id="missing-colon",
    ),
    pytest.param(
        "key: review\ntitle: Review: the change\n",
        Limits(),
        lines(
            "review.wink.yaml:2:14: error: A ': ' here would start a new key, but "
            "a key cannot start here.",
            "  expected: one key per line, lined up with the keys above it",
            "   2 | title: Review: the change",
            "     |              ^",
            "  hint: if this is text, put the whole value in quotes; if it is a "
            "new key, start it on its own line, lined up with the other keys",
        ),
        id="colon-inside-value",
    ),
    pytest.param(
        "key: review\n- title: Task\n",
        Limits(),
        lines(
            "review.wink.yaml:2:1: error: This list item is not inside a list: the "
            "lines above it are keys.",
            "  expected: a key lined up with the keys above it",
            "   2 | - title: Task",
            "     | ^",
            "  hint: to write a list, put it under a key and indent it, as in "
            "'items:' then '  - first'",
        ),
        id="list-item-among-keys",
    ),
    pytest.param(
        "sections:\n  - key: task\n  title: Task\n",
        Limits(),
        lines(
            "review.wink.yaml:3:3: error: This line is indented differently from "
            "the list items around it.",
            "  expected: a list item ('- ') lined up with the items above it",
            "   3 |   title: Task",
            "     |   ^",
            "  hint: if this line belongs to the item above, indent it like that item's keys; "
            "if it starts a new item, begin it with '- ' at the column of the '- ' above",
        ),
        id="list-item-not-lined-up",
    ),
    pytest.param(
        "tools: [list_dir, read_file\nkey: review\n",
        Limits(),
        lines(
            "review.wink.yaml:2:4: error: This list is missing a ',' between items "
            "or its closing ']'.",
            "  expected: ',' or ']'",
            "   2 | key: review",
            "     |    ^",
            "  hint: the list opens with '[' on line 1; separate its items with "
            "commas and close it with ']'",
        ),
        id="unclosed-flow-list",
    ),
    pytest.param(
        "enabled: {param: strict\n",
        Limits(),
        lines(
            "review.wink.yaml:1:24: error: This mapping is missing a ',' between "
            "entries or its closing '}'.",
            "  expected: ',' or '}'",
            "   1 | enabled: {param: strict",
            "     |                        ^",
            "  hint: the mapping opens with '{' on line 1; separate its entries "
            "with commas and close it with '}'",
        ),
        id="unclosed-flow-mapping",
    ),
    pytest.param(
        "tools: [list_dir, read_file]]\n",
        Limits(),
        lines(
            "review.wink.yaml:1:29: error: This ']' closes a bracket that was never opened.",
            "  expected: a key, or the end of the file",
            "   1 | tools: [list_dir, read_file]]",
            "     |                             ^",
            "  hint: remove the ']', or add the opening bracket that it closes",
        ),
        id="stray-closing-bracket",
    ),
    pytest.param(
        "key: review\nowner: @alice\n",
        Limits(),
        lines(
            "review.wink.yaml:2:8: error: A value cannot start with '@'.",
            "  expected: text, a number, true or false, a list or a mapping",
            "   2 | owner: @alice",
            "     |        ^",
            "  hint: put the value in quotes if the '@' belongs to the text",
        ),
        id="value-starts-with-at",
    ),
    pytest.param(
        "key: ]\n",
        Limits(),
        lines(
            "review.wink.yaml:1:6: error: A value is missing here, or it starts "
            "with a character that needs quotes.",
            "  expected: a value",
            "   1 | key: ]",
            "     |      ^",
            "  hint: put text that starts with a character such as , [ ] { } # & * "
            "! | > % @ in quotes",
        ),
        id="missing-value-before-bracket",
    ),
    pytest.param(
        'template: "C:\\new\\q"\n',
        Limits(),
        lines(
            "review.wink.yaml:1:18: error: '\\q' is not a valid escape in double-quoted text.",
            '  expected: an escape such as \\n, \\t, \\" or \\\\',
            '   1 | template: "C:\\new\\q"',
            "     |                  ^",
            "  hint: put text with backslashes in single quotes, or write each "
            "backslash twice (\\\\)",
        ),
        id="bad-escape",
    ),
    pytest.param(
        "template: |x\n  text\n",
        Limits(),
        lines(
            "review.wink.yaml:1:12: error: YAML cannot read this: did not find "
            "expected comment or line break (while scanning a block scalar, which "
            "starts on line 1).",
            "  expected: valid YAML",
            "   1 | template: |x",
            "     |            ^",
            "  hint: look for a missing ':', an unclosed quote or bracket, or a "
            "line that is not lined up with the lines around it",
        ),
        id="block-scalar-header",
    ),
    pytest.param(
        "key: review\ntitle: *name\n",
        Limits(),
        lines(
            "review.wink.yaml:2:8: error: The alias '*name' refers to an anchor "
            "'&name' that is not defined above it.",
            "  expected: an anchor '&name' on a value earlier in the file",
            "   2 | title: *name",
            "     |        ^",
            "  hint: mark a value above with '&name'; if the '*' belongs to your "
            "text, put it in quotes",
        ),
        id="undefined-alias",
    ),
    pytest.param(
        "a: &x one\nb: &x two\n",
        Limits(),
        lines(
            "review.wink.yaml:2:4: error: The anchor '&x' is defined twice (first on line 1).",
            "  expected: each anchor name once",
            "   2 | b: &x two",
            "     |    ^",
            "  hint: give each anchor its own name",
        ),
        id="duplicate-anchor",
    ),
    pytest.param(
        "%YAML 2.0\n---\nkey: review\n",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: YAML cannot read this: found incompatible YAML document.",
            "  expected: valid YAML",
            "   1 | %YAML 2.0",
            "     | ^",
            "  hint: look for a missing ':', an unclosed quote or bracket, or a "
            "line that is not lined up with the lines around it",
        ),
        id="unsupported-version",
    ),
    pytest.param(
        "key: review\ntitle: Code\x0c review\n",
        Limits(),
        lines(
            "review.wink.yaml:2:12: error: This file contains the character "
            "U+000C, which YAML does not allow.",
            "  expected: printable text",
            "   2 | title: Code\\x0c review",
            "     |            ^^^^",
            "  hint: delete the character (most editors do not show it); to keep "
            'it in text, write it as the escape "\\u000C" inside double quotes',
        ),
        id="control-character",
    ),
    pytest.param(
        "params:\n\tlanguage: python\n",
        Limits(),
        lines(
            "review.wink.yaml:2:1: error: Tab characters cannot indent YAML; use spaces.",
            "  expected: spaces at the start of the line",
            "   2 |  language: python",
            "     | ^",
            "  hint: replace the tab with spaces; most editors can insert spaces "
            "when Tab is pressed",
        ),
        id="tab-indentation",
    ),
    pytest.param(
        "params:\n  language: python\n\t strict: true\n",
        Limits(),
        lines(
            "review.wink.yaml:3:1: error: Tab characters cannot indent YAML; use spaces.",
            "  expected: spaces at the start of the line",
            "   3 |   strict: true",
            "     | ^",
            "  hint: replace the tab with spaces; most editors can insert spaces "
            "when Tab is pressed",
        ),
        id="tab-after-spaces",
    ),
    pytest.param(
        "sections:\n- key: task\n\t- key: notes\n",
        Limits(),
        lines(
            "review.wink.yaml:3:1: error: Tab characters cannot indent YAML; use spaces.",
            "  expected: spaces at the start of the line",
            "   3 |  - key: notes",
            "     | ^",
            "  hint: replace the tab with spaces; most editors can insert spaces "
            "when Tab is pressed",
        ),
        id="tab-in-list",
    ),
    pytest.param(
        "key: review\ntitle: Review\ntitle: Code review\n",
        Limits(),
        lines(
            "review.wink.yaml:3:1: error: Key 'title' appears twice in this "
            "mapping (first on line 2).",
            "  expected: each key once in a mapping",
            "   3 | title: Code review",
            "     | ^^^^^",
            "  hint: remove one of the two, or merge their values under the first",
        ),
        id="duplicate-key",
    ),
    pytest.param(
        "sections:\n  - key: task\n    title: A\n    title: B\n    key: task2\n",
        Limits(),
        lines(
            "review.wink.yaml:4:5: error: Key 'title' appears twice in this "
            "mapping (first on line 3).",
            "  expected: each key once in a mapping",
            "   4 |     title: B",
            "     |     ^^^^^",
            "  hint: remove one of the two, or merge their values under the first",
            "review.wink.yaml:5:5: error: Key 'key' appears twice in this list item (first on "
            "line 2): the item that starts here has no '- ', so its keys run on into the item "
            "above.",
            "  expected: '- key:' to start a new item",
            "   5 |     key: task2",
            "     |     ^^^",
            "  hint: write '- ' before 'key', at the column of the '- ' on line 2",
        ),
        id="duplicate-keys-nested",
    ),
    pytest.param(
        "sections:\n  - key: task\n    title: A\n    key: notes\n    title: B\n",
        Limits(),
        lines(
            "review.wink.yaml:4:5: error: Key 'key' appears twice in this list item (first on "
            "line 2): the item that starts here has no '- ', so its keys run on into the item "
            "above.",
            "  expected: '- key:' to start a new item",
            "   4 |     key: notes",
            "     |     ^^^",
            "  hint: write '- ' before 'key', at the column of the '- ' on line 2",
        ),
        id="list-item-without-its-dash",
    ),
    pytest.param(
        "key: review\nsections:\n  - title: Task\n    template: Do it.\nkey: task\n",
        Limits(),
        lines(
            "review.wink.yaml:5:1: error: Key 'key' appears twice at the top level of the file "
            "(first on line 1): a 'key' of a section or tool written without its indentation "
            "lands here.",
            "  expected: 'key' once at the top level, and each item's 'key' indented under it",
            "   5 | key: task",
            "     | ^^^",
            "  hint: if this 'key' belongs to a section or tool above, indent it like that "
            "item's other keys; otherwise remove one of the two",
        ),
        id="header-at-the-top-level",
    ),
    pytest.param(
        'key: review\nsections:\n  - key: task\n    title: "Task\n    template: Do it.\n'
        '  - key: more\n    title: "More"\n',
        Limits(),
        lines(
            "review.wink.yaml:4:12: error: The quote opened on line 4 is not closed on that "
            'line, so the text runs on to the next " on line 7 and takes in the lines between.',
            '  expected: a closing " on line 4',
            '   4 |     title: "Task',
            "     |            ^",
            "  hint: close the text on line 4 with \"; inside '...' write a quote as '', inside "
            '"..." as \\"',
        ),
        id="double-quote-swallows-lines",
    ),
    pytest.param(
        "key: review\nsections:\n  - key: task\n    title: 'Task\n    template: Do it.\n"
        "  - key: more\n    template: It's more.\n",
        Limits(),
        lines(
            "review.wink.yaml:4:12: error: The quote opened on line 4 is not closed on that "
            "line, so the text runs on to the next ' on line 7 and takes in the lines between.",
            "  expected: a closing ' on line 4",
            "   4 |     title: 'Task",
            "     |            ^",
            "  hint: close the text on line 4 with '; inside '...' write a quote as '', inside "
            '"..." as \\"',
        ),
        id="single-quote-swallows-lines",
    ),
    pytest.param(
        'key: review\ntitle: "A long\n  title" more\n',
        Limits(),
        lines(
            "review.wink.yaml:3:10: error: This line is indented differently from the lines "
            "around it.",
            "  expected: a key lined up with the keys above it",
            '   3 |   title" more',
            "     |          ^",
            "  hint: indent the keys of one mapping by the same number of spaces, and a nested "
            "value further than its key",
        ),
        id="a-quote-over-two-lines-that-swallows-no-key",
    ),
    pytest.param(
        "key: !!python/object:os.system rm\n",
        Limits(),
        lines(
            "review.wink.yaml:1:6: error: Tags such as '!!python/object:os.system' "
            "are not allowed in prompt files.",
            "  expected: a plain value, without a tag",
            "   1 | key: !!python/object:os.system rm",
            "     |      ^^^^^^^^^^^^^^^^^^^^^^^^^",
            "  hint: remove the tag; if the '!' belongs to your text, put the "
            "whole value in quotes",
        ),
        id="tag-python-object",
    ),
    pytest.param(
        "title: !shout review\n",
        Limits(),
        lines(
            "review.wink.yaml:1:8: error: Tags such as '!shout' are not allowed in prompt files.",
            "  expected: a plain value, without a tag",
            "   1 | title: !shout review",
            "     |        ^^^^^^",
            "  hint: remove the tag; if the '!' belongs to your text, put the "
            "whole value in quotes",
        ),
        id="tag-custom",
    ),
    pytest.param(
        "version: !!str 1.0\n",
        Limits(),
        lines(
            "review.wink.yaml:1:10: error: Tags such as '!!str' are not allowed in prompt files.",
            "  expected: a plain value, without a tag",
            "   1 | version: !!str 1.0",
            "     |          ^^^^^",
            "  hint: remove the tag; if the '!' belongs to your text, put the "
            "whole value in quotes",
        ),
        id="tag-str",
    ),
    pytest.param(
        "tools: !!set {read_file, list_dir}\n",
        Limits(),
        lines(
            "review.wink.yaml:1:8: error: Tags such as '!!set' are not allowed in prompt files.",
            "  expected: a plain value, without a tag",
            "   1 | tools: !!set {read_file, list_dir}",
            "     |        ^^^^^",
            "  hint: remove the tag; if the '!' belongs to your text, put the "
            "whole value in quotes",
        ),
        id="tag-set",
    ),
    pytest.param(
        "title: &t !upper review\n",
        Limits(),
        lines(
            "review.wink.yaml:1:11: error: Tags such as '!upper' are not allowed in prompt files.",
            "  expected: a plain value, without a tag",
            "   1 | title: &t !upper review",
            "     |           ^^^^^^",
            "  hint: remove the tag; if the '!' belongs to your text, put the "
            "whole value in quotes",
        ),
        id="tag-after-anchor",
    ),
    pytest.param(
        "base: &base {visibility: full}\nsection:\n  <<: *base\n  key: task\n",
        Limits(),
        lines(
            "review.wink.yaml:3:3: error: Merge keys ('<<') are not supported in prompt files.",
            "  expected: every key written out in this mapping",
            "   3 |   <<: *base",
            "     |   ^^",
            "  hint: copy the keys you need into this mapping instead of merging them with '<<'",
        ),
        id="merge-key",
    ),
    pytest.param(
        "1: one\n",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: The key '1' is a number, but keys must be text.",
            "  expected: a key written as text, such as title",
            "   1 | 1: one",
            "     | ^",
            '  hint: put the key in quotes: "1":',
        ),
        id="key-number",
    ),
    pytest.param(
        "1.5: one\n",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: The key '1.5' is a number, but keys must be text.",
            "  expected: a key written as text, such as title",
            "   1 | 1.5: one",
            "     | ^^^",
            '  hint: put the key in quotes: "1.5":',
        ),
        id="key-float",
    ),
    pytest.param(
        "null: nothing\n",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: The key 'null' means 'no value', but keys must be text.",
            "  expected: a key written as text, such as title",
            "   1 | null: nothing",
            "     | ^^^^",
            '  hint: put the key in quotes: "null":',
        ),
        id="key-null",
    ),
    pytest.param(
        "~: nothing\n",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: The key '~' means 'no value', but keys must be text.",
            "  expected: a key written as text, such as title",
            "   1 | ~: nothing",
            "     | ^",
            '  hint: put the key in quotes: "~":',
        ),
        id="key-tilde",
    ),
    pytest.param(
        ": nothing\n",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: This ':' has no key before it.",
            "  expected: a key before the ':', such as title:",
            "   1 | : nothing",
            "     | ^",
            "  hint: write the key before the ':'; if the ':' belongs to text, put "
            "the text in quotes",
        ),
        id="key-empty",
    ),
    pytest.param(
        "true: yes\n",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: The key 'true' is read as true or false, "
            "but keys must be text.",
            "  expected: a key written as text, such as title",
            "   1 | true: yes",
            "     | ^^^^",
            '  hint: put the key in quotes: "true":',
        ),
        id="key-bool",
    ),
    pytest.param(
        "[a, b]: pair\n",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: A list cannot be used as a key; keys must be text.",
            "  expected: a key written as text, such as title",
            "   1 | [a, b]: pair",
            "     | ^^^^^^",
            "  hint: use a name as the key, such as title",
        ),
        id="key-list",
    ),
    pytest.param(
        "? {a: 1}\n: pair\n",
        Limits(),
        lines(
            "review.wink.yaml:1:3: error: A mapping cannot be used as a key; keys must be text.",
            "  expected: a key written as text, such as title",
            "   1 | ? {a: 1}",
            "     |   ^^^^^^",
            "  hint: use a name as the key, such as title",
        ),
        id="key-mapping",
    ),
    pytest.param(
        "!k title: x\n",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: Tags such as '!k' are not allowed in prompt files.",
            "  expected: a plain value, without a tag",
            "   1 | !k title: x",
            "     | ^^",
            "  hint: remove the tag; if the '!' belongs to your text, put the "
            "whole value in quotes",
        ),
        id="key-tagged",
    ),
    pytest.param(
        "title: !shout x\n2: two\ntitle: again\n",
        Limits(),
        lines(
            "review.wink.yaml:1:8: error: Tags such as '!shout' are not allowed in prompt files.",
            "  expected: a plain value, without a tag",
            "   1 | title: !shout x",
            "     |        ^^^^^^",
            "  hint: remove the tag; if the '!' belongs to your text, put the "
            "whole value in quotes",
            "review.wink.yaml:2:1: error: The key '2' is a number, but keys must be text.",
            "  expected: a key written as text, such as title",
            "   2 | 2: two",
            "     | ^",
            '  hint: put the key in quotes: "2":',
            "review.wink.yaml:3:1: error: Key 'title' appears twice in this "
            "mapping (first on line 1).",
            "  expected: each key once in a mapping",
            "   3 | title: again",
            "     | ^^^^^",
            "  hint: remove one of the two, or merge their values under the first",
        ),
        id="many-mistakes-sorted",
    ),
    pytest.param(
        "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\nb: &b [*a, *a, "
        "*a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, "
        "*b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, "
        "*d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g "
        "[*f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, "
        "*g, *g, *g]\ni: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]\n",
        Limits(),
        lines(
            "review.wink.yaml:6:12: error: The alias '*e' makes this file expand "
            "to more than 200,000 values.",
            "  expected: at most 200,000 values, counting each alias as the values it repeats",
            "   6 | f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]",
            "     |            ^^",
            "  hint: each alias repeats the whole value it names; use fewer aliases"
            ", or allow more with --limit max_nodes=400000",
        ),
        id="alias-bomb",
    ),
    pytest.param(
        "a: &a [1, 2, 3]\nb: [*a, *a]\n",
        Limits(max_nodes=8),
        lines(
            "review.wink.yaml:2:5: error: The alias '*a' makes this file expand to "
            "more than 8 values.",
            "  expected: at most 8 values, counting each alias as the values it repeats",
            "   2 | b: [*a, *a]",
            "     |     ^^",
            "  hint: each alias repeats the whole value it names; use fewer aliases"
            ", or allow more with --limit max_nodes=16",
        ),
        id="alias-over-limit",
    ),
    pytest.param(
        "a: [1, 2, 3]\nb: 4\n",
        Limits(max_nodes=4),
        lines(
            "review.wink.yaml:1:11: error: This file holds more than 4 values.",
            "  expected: at most 4 values",
            "   1 | a: [1, 2, 3]",
            "     |           ^",
            "  hint: split the prompt into several smaller files"
            ", or allow more with --limit max_nodes=8",
        ),
        id="values-over-limit",
    ),
    pytest.param(
        "a: &a [x, *a]\n",
        Limits(),
        lines(
            "review.wink.yaml:1:11: error: The alias '*a' is used inside the value "
            "it names, so it never ends.",
            "  expected: '*a' used only after the value marked '&a' is complete",
            "   1 | a: &a [x, *a]",
            "     |           ^^",
            "  hint: move '*a' out of the value marked '&a'",
        ),
        id="recursive-alias",
    ),
    pytest.param(
        "a:\n  b:\n    c:\n      d: 1\n",
        Limits(max_depth=3),
        lines(
            "review.wink.yaml:4:7: error: Values are nested more than 3 levels deep here.",
            "  expected: at most 3 levels of nested mappings and lists",
            "   4 |       d: 1",
            "     |       ^^^^",
            "  hint: flatten the structure: nest mappings and lists less deeply"
            ", or allow more with --limit max_depth=6",
        ),
        id="too-deep-block",
    ),
    pytest.param(
        "a: [[[[1]]]]\n",
        Limits(max_depth=3),
        lines(
            "review.wink.yaml:1:6: error: Values are nested more than 3 levels deep here.",
            "  expected: at most 3 levels of nested mappings and lists",
            "   1 | a: [[[[1]]]]",
            "     |      ^^^^^",
            "  hint: flatten the structure: nest mappings and lists less deeply"
            ", or allow more with --limit max_depth=6",
        ),
        id="too-deep-flow",
    ),
    pytest.param(
        "key: review\ntitle: Code review\n",
        Limits(max_bytes=16),
        lines(
            "review.wink.yaml:1:1: error: This file is 31 bytes long, more than "
            "the limit of 16 bytes.",
            "  expected: a file of at most 16 bytes",
            "   1 | key: review",
            "     | ^",
            "  hint: split the prompt into several smaller files"
            ", or allow more with --limit max_bytes=32",
        ),
        id="too-large",
    ),
    pytest.param(
        "",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: This file is empty; a prompt file must "
            "be a mapping of keys such as 'key:', 'title:' and 'sections:'.",
            "  expected: a mapping of keys such as 'key:', 'title:' and 'sections:'",
            "  hint: start the file with lines such as 'key: review' and 'title: Review'",
        ),
        id="empty-file",
    ),
    pytest.param(
        "# nothing here yet\n",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: This file is empty; a prompt file must "
            "be a mapping of keys such as 'key:', 'title:' and 'sections:'.",
            "  expected: a mapping of keys such as 'key:', 'title:' and 'sections:'",
            "   1 | # nothing here yet",
            "     | ^",
            "  hint: start the file with lines such as 'key: review' and 'title: Review'",
        ),
        id="comments-only",
    ),
    pytest.param(
        "- key: review\n- key: other\n",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: This file holds a list; a prompt file "
            "must be a mapping of keys such as 'key:', 'title:' and 'sections:'.",
            "  expected: a mapping of keys such as 'key:', 'title:' and 'sections:'",
            "   1 | - key: review",
            "     | ^^^^^^^^^^^^^",
            "  hint: start the file with lines such as 'key: review' and 'title: Review'",
        ),
        id="top-level-list",
    ),
    pytest.param(
        "Review the change.\n",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: This file holds a single value; a prompt "
            "file must be a mapping of keys such as 'key:', 'title:' and "
            "'sections:'.",
            "  expected: a mapping of keys such as 'key:', 'title:' and 'sections:'",
            "   1 | Review the change.",
            "     | ^^^^^^^^^^^^^^^^^^",
            "  hint: start the file with lines such as 'key: review' and 'title: Review'",
        ),
        id="top-level-text",
    ),
    pytest.param(
        "---\n",
        Limits(),
        lines(
            "review.wink.yaml:1:1: error: This file is empty; a prompt file must "
            "be a mapping of keys such as 'key:', 'title:' and 'sections:'.",
            "  expected: a mapping of keys such as 'key:', 'title:' and 'sections:'",
            "   1 | ---",
            "     | ^",
            "  hint: start the file with lines such as 'key: review' and 'title: Review'",
        ),
        id="top-level-null",
    ),
    pytest.param(
        "key: review\n---\nkey: other\n",
        Limits(),
        lines(
            "review.wink.yaml:2:1: error: This file holds more than one YAML "
            "document; a prompt file holds exactly one.",
            "  expected: a single document",
            "   2 | ---",
            "     | ^",
            "  hint: remove this '---' line, or move the document that follows it "
            "into its own file",
        ),
        id="multiple-documents",
    ),
    pytest.param(
        "---\nkey: review\n---\nkey: other\n",
        Limits(),
        lines(
            "review.wink.yaml:3:1: error: This file holds more than one YAML "
            "document; a prompt file holds exactly one.",
            "  expected: a single document",
            "   3 | ---",
            "     | ^",
            "  hint: remove this '---' line, or move the document that follows it "
            "into its own file",
        ),
        id="multiple-documents-marked",
    ),
    pytest.param(
        "? \n: nothing\n",
        Limits(),
        lines(
            "review.wink.yaml:1:2: error: This key is empty, but keys must be text.",
            "  expected: a key written as text, such as title",
            "   1 | ? ",
            "     |  ^",
            "  hint: write a name before the ':'",
        ),
        id="key-empty-explicit",
    ),
    pytest.param(
        "a: {b: [1]}\n",
        Limits(max_nodes=2),
        lines(
            "review.wink.yaml:1:8: error: This file holds more than 2 values.",
            "  expected: at most 2 values",
            "   1 | a: {b: [1]}",
            "     |        ^^^",
            "  hint: split the prompt into several smaller files"
            ", or allow more with --limit max_nodes=4",
        ),
        id="values-over-limit-at-list",
    ),
    pytest.param(
        "models: [openai:gpt-4.1]\n",
        Limits(),
        lines(
            "review.wink.yaml:1:16: error: Between brackets, a ':' inside a value needs quotes.",
            '  expected: the value in quotes, such as "openai:gpt-4.1"',
            "   1 | models: [openai:gpt-4.1]",
            "     |                ^",
            "  hint: put the value in quotes, or write the list or mapping over several lines "
            "without brackets",
        ),
        id="colon-in-a-flow-value",
    ),
]


@pytest.mark.parametrize(("text", "limits", "expected"), YAML_MISTAKES)
def test_yaml_mistake_is_reported_in_full(text: str, limits: Limits, expected: str) -> None:
    result = load_text(text, path=PATH, format="yaml", limits=limits)
    assert result.file is None
    assert render_text(result.diagnostics, {PATH: text}) == expected


def test_nesting_too_deep_for_the_composer_stops_on_events() -> None:
    text = "a: " + "[" * 1500 + "]" * 1500 + "\n"
    result = load_text(text, path=PATH, format="yaml")
    assert render_text(result.diagnostics, {PATH: text}) == lines(
        "review.wink.yaml:1:67: error: Values are nested more than 64 levels deep here.",
        "  expected: at most 64 levels of nested mappings and lists",
        f"   1 | ...{text[26:126]}...",  # a window of the line, the caret 40 characters in
        "     | " + " " * 43 + "^",
        "  hint: flatten the structure: nest mappings and lists less deeply"
        ", or allow more with --limit max_depth=128",
    )


def test_nesting_within_the_composer_but_past_the_limit() -> None:
    text = "".join(f"{'  ' * level}k{level}:\n" for level in range(70)) + "  " * 70 + "x: 1\n"
    result = load_text(text, path=PATH, format="yaml")
    assert [(d.code, d.span.line if d.span else 0) for d in result.diagnostics] == [
        ("too-deep", 65)
    ]
