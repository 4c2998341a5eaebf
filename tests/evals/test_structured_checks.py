"""Checks on the structured answer (``json_schema``, ``field``): passing, failing, negated."""

from __future__ import annotations

import dataclasses
import json

import pytest

from wink_decl.evals import (
    Check,
    FieldCheck,
    JsonSchemaCheck,
    Outcome,
    Sample,
    Score,
    evaluate,
    field_contains,
    field_equals,
    json_schema,
)

CASE = Sample("add-bug")
REVIEW: dict[str, object] = {
    "verdict": "reject",
    "score": 2,
    "approved": False,
    "owner": None,
    "labels": ["bug", {"area": "math"}, 3],
    "findings": [{"line": 1, "text": "use a + b"}, {"line": 4, "text": "no test"}],
    "meta": {"reviewer": "bot"},
}
ANSWER = Outcome(text=json.dumps(REVIEW), output=REVIEW)
SCHEMA: dict[str, object] = {
    "type": "object",
    "required": ["verdict", "findings"],
    "properties": {
        "verdict": {"enum": ["accept", "reject"]},
        "findings": {
            "type": "array",
            "items": {"type": "object", "properties": {"line": {"type": "integer"}}},
        },
    },
}


def answered(output: object) -> Outcome:
    return Outcome(text=json.dumps(output), output=output)


def field(path: str, value: object, op: str = "equals") -> FieldCheck:
    return FieldCheck(path=path, op="equals" if op == "equals" else "contains", value=value)


CASES: list[tuple[str, Check, Outcome, Score]] = [
    (
        "schema-fits",
        JsonSchemaCheck(schema=SCHEMA),
        ANSWER,
        Score(1.0, True, "the answer fits the schema"),
    ),
    (
        "schema-reads-a-free-text-answer-as-json",
        JsonSchemaCheck(schema=SCHEMA),
        Outcome(text=' {"verdict": "accept", "findings": []}\n'),
        Score(1.0, True, "the answer fits the schema"),
    ),
    (
        "schema-names-the-error-where-it-is-and-counts-the-rest",
        JsonSchemaCheck(schema=SCHEMA),
        answered({"verdict": "reject", "findings": [{"line": "one"}, {"line": 2.5}]}),
        Score(
            0.0,
            False,
            "the answer does not fit the schema at findings.0.line: 'one' is not of type "
            "'integer' (1 more error)",
        ),
    ),
    (
        "schema-reports-a-missing-property-at-the-top",
        JsonSchemaCheck(schema=SCHEMA),
        answered({"verdict": "maybe"}),
        Score(
            0.0,
            False,
            "the answer does not fit the schema: 'findings' is a required property (1 more error)",
        ),
    ),
    (
        "schema-reports-one-error-alone",
        JsonSchemaCheck(schema=SCHEMA),
        answered({"verdict": "maybe", "findings": []}),
        Score(
            0.0,
            False,
            "the answer does not fit the schema at verdict: 'maybe' is not one of "
            "['accept', 'reject']",
        ),
    ),
    (
        "schema-names-the-closest-branch-of-an-any-of",
        JsonSchemaCheck(
            schema={"anyOf": [{"type": "integer"}, {"type": "object", "required": ["verdict"]}]}
        ),
        answered({"findings": []}),
        Score(0.0, False, "the answer does not fit the schema: 'verdict' is a required property"),
    ),
    (
        "schema-names-the-branch-of-a-one-of-where-it-is",
        JsonSchemaCheck(
            schema={
                "properties": {
                    "verdict": {"oneOf": [{"type": "string", "maxLength": 6}, {"type": "null"}]}
                }
            }
        ),
        answered({"verdict": "rejected"}),
        Score(0.0, False, "the answer does not fit the schema at verdict: 'rejected' is too long"),
    ),
    (
        "schema-says-so-when-no-branch-is-closer",
        JsonSchemaCheck(schema={"anyOf": [{"type": "integer"}, {"type": "object"}]}),
        answered("text"),
        Score(
            0.0,
            False,
            "the answer does not fit the schema: 'text' is not valid under any of the given "
            "schemas",
        ),
    ),
    (
        "schema-bounds-a-long-message",
        JsonSchemaCheck(schema={"type": "integer"}),
        answered("x" * 400),
        Score(
            0.0,
            False,
            f"the answer does not fit the schema: '{'x' * 299}...",
        ),
    ),
    (
        "schema-checks-no-format",
        JsonSchemaCheck(schema={"type": "string", "format": "email"}),
        answered("not an address"),
        Score(1.0, True, "the answer fits the schema"),
    ),
    (
        "schema-fails-an-answer-that-is-not-json",
        JsonSchemaCheck(schema=SCHEMA),
        Outcome(text="I reject it."),
        Score(0.0, False, "the answer is not JSON (Expecting value: line 1 column 1 (char 0))"),
    ),
    (
        "schema-fails-an-answer-too-deep-to-read",
        JsonSchemaCheck(schema=SCHEMA),
        Outcome(text="[" * 100_000),
        Score(0.0, False, "the answer is JSON nested too deeply to read"),
    ),
    (
        "schema-that-is-not-valid-fails-saying-where",
        JsonSchemaCheck(schema={"properties": {"verdict": {"type": "word"}}}),
        ANSWER,
        Score(
            0.0,
            False,
            "the schema is not a valid JSON Schema at properties.verdict.type: 'word' is not "
            "valid under any of the given schemas",
        ),
    ),
    (
        "schema-that-is-not-valid-at-the-top",
        JsonSchemaCheck(schema={"type": 3}),
        ANSWER,
        Score(
            0.0,
            False,
            "the schema is not a valid JSON Schema at type: 3 is not valid under any of the "
            "given schemas",
        ),
    ),
    (
        "schema-fetches-no-reference",
        JsonSchemaCheck(schema={"$ref": "http://127.0.0.1:9/review.json"}),
        ANSWER,
        Score(
            0.0,
            False,
            "the schema cannot be used: _WrappedReferencingError: Unresolvable: "
            "http://127.0.0.1:9/review.json",
        ),
    ),
    (
        "field-equals-text",
        field("verdict", "reject"),
        ANSWER,
        Score(1.0, True, "'verdict' is 'reject'"),
    ),
    (
        "field-equals-fails",
        field("verdict", "accept"),
        ANSWER,
        Score(0.0, False, "'verdict' is 'reject', not 'accept'"),
    ),
    (
        "field-equals-a-number-as-float",
        field("findings.1.line", 4.0),
        ANSWER,
        Score(1.0, True, "'findings.1.line' is 4.0"),
    ),
    (
        "field-equals-false-is-not-0",
        field("approved", 0),
        ANSWER,
        Score(0.0, False, "'approved' is false, not 0"),
    ),
    (
        "field-equals-null",
        field("owner", None),
        ANSWER,
        Score(1.0, True, "'owner' is null"),
    ),
    (
        "field-equals-a-whole-list",
        field("labels", ["bug", {"area": "math"}, 3.0]),
        ANSWER,
        Score(1.0, True, """'labels' is ["bug",{"area":"math"},3.0]"""),
    ),
    (
        "field-equals-a-list-of-another-length",
        field("labels", ["bug"]),
        ANSWER,
        Score(0.0, False, """'labels' is ["bug",{"area":"math"},3], not ["bug"]"""),
    ),
    (
        "field-equals-a-mapping-with-other-keys",
        field("meta", {"owner": "bot"}),
        ANSWER,
        Score(0.0, False, """'meta' is {"reviewer":"bot"}, not {"owner":"bot"}"""),
    ),
    (
        "field-equals-a-mapping-is-no-list",
        field("meta", ["reviewer"]),
        ANSWER,
        Score(0.0, False, """'meta' is {"reviewer":"bot"}, not ["reviewer"]"""),
    ),
    (
        "field-equals-a-list-is-no-text",
        field("labels", "bug"),
        ANSWER,
        Score(0.0, False, """'labels' is ["bug",{"area":"math"},3], not 'bug'"""),
    ),
    (
        "field-contains-a-substring",
        field("findings.0.text", "a + b", "contains"),
        ANSWER,
        Score(1.0, True, "'findings.0.text' contains 'a + b'"),
    ),
    (
        "field-contains-a-number-in-text-as-json",
        field("findings.0.text", 3, "contains"),
        ANSWER,
        Score(0.0, False, "'findings.0.text' does not contain '3'"),
    ),
    (
        "field-contains-a-list-item",
        field("labels", {"area": "math"}, "contains"),
        ANSWER,
        Score(1.0, True, """'labels' contains {"area":"math"}"""),
    ),
    (
        "field-contains-a-list-item-fails",
        field("labels", "feature", "contains"),
        ANSWER,
        Score(0.0, False, "'labels' does not contain 'feature'"),
    ),
    (
        "field-contains-a-key",
        field("meta", "reviewer", "contains"),
        ANSWER,
        Score(1.0, True, "'meta' has the key 'reviewer'"),
    ),
    (
        "field-contains-a-key-fails",
        field("meta", ["reviewer"], "contains"),
        ANSWER,
        Score(0.0, False, """'meta' has no key ["reviewer"]"""),
    ),
    (
        "field-contains-in-a-number-fails",
        field("score", 2, "contains"),
        ANSWER,
        Score(0.0, False, "'score' is a number; 'contains' looks in text, a list or a mapping"),
    ),
    (
        "field-contains-at-a-path-that-leads-nowhere",
        field("findings.0.hint", "a + b", "contains"),
        ANSWER,
        Score(0.0, False, "no value at 'findings.0.hint': 'findings.0' has no key 'hint'"),
    ),
    (
        "field-path-missing-key",
        field("findings.0.severity", "high"),
        ANSWER,
        Score(0.0, False, "no value at 'findings.0.severity': 'findings.0' has no key 'severity'"),
    ),
    (
        "field-path-missing-at-the-top",
        field("summary", "ok"),
        ANSWER,
        Score(0.0, False, "no value at 'summary': the answer has no key 'summary'"),
    ),
    (
        "field-path-index-out-of-range",
        field("findings.2.line", 1),
        ANSWER,
        Score(0.0, False, "no value at 'findings.2.line': 'findings' has 2 items"),
    ),
    (
        "field-path-index-of-a-list-of-one",
        field("only.1", 1),
        answered({"only": [1]}),
        Score(0.0, False, "no value at 'only.1': 'only' has 1 item"),
    ),
    (
        "field-path-step-that-is-no-index",
        field("findings.-1.line", 1),
        ANSWER,
        Score(
            0.0,
            False,
            "no value at 'findings.-1.line': 'findings' is a list, and '-1' is not an index",
        ),
    ),
    (
        "field-path-through-a-scalar",
        field("verdict.0", "r"),
        ANSWER,
        Score(0.0, False, "no value at 'verdict.0': 'verdict' is text, not a mapping or a list"),
    ),
    (
        "field-path-through-null",
        field("owner.name", "x"),
        ANSWER,
        Score(0.0, False, "no value at 'owner.name': 'owner' is null, not a mapping or a list"),
    ),
    (
        "field-path-through-a-boolean",
        field("approved.x", "x"),
        ANSWER,
        Score(
            0.0, False, "no value at 'approved.x': 'approved' is a boolean, not a mapping or a list"
        ),
    ),
    (
        "field-reads-a-free-text-answer-as-json",
        field("0", "a"),
        Outcome(text='["a", "b"]'),
        Score(1.0, True, "'0' is 'a'"),
    ),
    (
        "field-fails-an-answer-that-is-not-json",
        field("verdict", "reject"),
        Outcome(text="reject"),
        Score(0.0, False, "the answer is not JSON (Expecting value: line 1 column 1 (char 0))"),
    ),
    (
        "field-path-into-a-number",
        field("score.x", 1),
        ANSWER,
        Score(0.0, False, "no value at 'score.x': 'score' is a number, not a mapping or a list"),
    ),
]
IDS = [case[0] for case in CASES]


@pytest.mark.parametrize(("name", "check", "outcome", "expected"), CASES, ids=IDS)
def test_each_structured_check_scores(
    name: str, check: Check, outcome: Outcome, expected: Score
) -> None:
    assert evaluate(check, outcome, CASE) == expected


@pytest.mark.parametrize(("name", "check", "outcome", "expected"), CASES, ids=IDS)
def test_each_structured_check_negated_scores_the_other_way(
    name: str, check: Check, outcome: Outcome, expected: Score
) -> None:
    negated = dataclasses.replace(check, negate=True)
    assert evaluate(negated, outcome, CASE) == Score(
        1.0 - expected.value, not expected.passed, f"negated: {expected.reason}"
    )


def test_the_functions_are_the_checks_without_an_eval_file() -> None:
    assert [
        json_schema(SCHEMA)(ANSWER, CASE),
        field_equals("findings.0.line", 1)(ANSWER, CASE),
        field_contains("labels", 3.0)(ANSWER, CASE),
    ] == [
        Score(1.0, True, "the answer fits the schema"),
        Score(1.0, True, "'findings.0.line' is 1"),
        Score(1.0, True, "'labels' contains 3.0"),
    ]


def test_a_value_json_cannot_write_is_shown_as_its_text() -> None:
    odd = Outcome(text="", output={"when": {1, 2}})
    assert field_equals("when", "soon")(odd, CASE) == Score(
        0.0, False, "'when' is \"{1, 2}\", not 'soon'"
    )
    assert field_contains("when", "x")(odd, CASE) == Score(
        0.0, False, "'when' is a set; 'contains' looks in text, a list or a mapping"
    )
