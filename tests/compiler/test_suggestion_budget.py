"""Did-you-mean searches are bounded per prompt, and long lists in messages are shortened."""

from __future__ import annotations

from pathlib import Path

from compiler_support import compile_in, report, write

from wink_decl.compiler._sections import SectionBudget


def params(count: int) -> str:
    return "".join(f"  name_{i}: {{type: string, default: x}}\n" for i in range(count))


def test_a_placeholder_near_a_param_gets_a_suggestion_among_a_thousand(here: Path) -> None:
    text = f"key: t\nparams:\n{params(1000)}sections:\n  - {{title: T, template: '$nme_7'}}\n"
    result = compile_in(here, text)
    declared = ", ".join(f"name_{i}" for i in range(20))
    assert report(result) == (
        "prompt.wink.yaml:1004:27: error: Placeholder '$nme_7' is not a declared param.\n"
        f"  expected: a declared param ({declared} and 980 more)\n"
        "1004 |   - {title: T, template: '$nme_7'}\n"
        "     |                           ^^^^^^\n"
        "  hint: did you mean 'name_7'?"
    )
    assert result.diagnostics[0].suggestions == ("name_7",)


def test_past_a_thousand_candidates_no_search_is_made(here: Path) -> None:
    text = f"key: t\nparams:\n{params(1001)}sections:\n  - {{title: T, template: '$nme_7'}}\n"
    diagnostic = compile_in(here, text).diagnostics[0]
    assert (diagnostic.hint, diagnostic.suggestions) == ("declare 'nme_7' under params:", ())


def test_a_prompt_makes_at_most_a_hundred_searches(here: Path) -> None:
    template = " ".join(f"$nme_{i}" for i in range(120))
    text = f"key: t\nparams:\n{params(120)}sections:\n  - {{title: T, template: '{template}'}}\n"
    hints = [d.hint for d in compile_in(here, text).diagnostics]  # in the template's order
    searched = set(sorted(f"nme_{i}" for i in range(120))[:100])  # checked in sorted order
    assert hints == [
        f"did you mean 'name_{i}'?"
        if f"nme_{i}" in searched
        else f"declare 'nme_{i}' under params:"
        for i in range(120)
    ]
    assert sum(hint.startswith("did you mean") for hint in hints if hint) == 100


def test_an_unknown_tool_and_a_missing_included_section_search_within_the_budget(
    here: Path,
) -> None:
    write(here, "lib.wink.yaml", "key: lib\nsections: [{key: tone, title: Tone}]\n")
    text = (
        "key: t\ntools:\n  lookup: {description: Look up., handler: test.lookup}\n"
        "sections:\n  - {title: T, tools: [lokup]}\n  - include: lib.wink.yaml#tnoe\n"
    )
    hints = sorted(d.hint or "" for d in compile_in(here, text).diagnostics)
    assert hints == [
        "did you mean 'lookup'?",
        "did you mean 'tone'?",
        "list it under tools: in the section that explains when to use it",
    ]


def test_the_budget_counts_searches() -> None:
    budget = SectionBudget(10, lookups=1)
    assert budget.suggest("nmae", ["name"]) == " Did you mean 'name'?"
    assert budget.suggest("nmae", ["name"]) == ""
    assert SectionBudget(10).suggest("x", [str(i) for i in range(1001)]) == ""
