"""The report as JUnit XML: the whole text, parsed back, and held to the schema CI systems read."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from eval_results import lines, run

import wink_decl.evals
from wink_decl.evals import EvalReport, Score, render_junit

# The subset of Jenkins' JUnit schema (jenkinsci/xunit-plugin, junit-10.xsd) this report may
# use, which GitLab and the GitHub reporters read too: each element's attributes (required
# ones first, then optional ones) and the elements it may hold.
REQUIRED = {
    "testsuites": set[str](),
    "testsuite": {"name", "tests", "failures", "errors"},
    "properties": set[str](),
    "property": {"name", "value"},
    "testcase": {"name"},
    "failure": set[str](),
    "error": set[str](),
    "system-out": set[str](),
}
OPTIONAL = {
    "testsuites": {"name", "time", "tests", "failures", "errors"},
    "testsuite": {"time", "skipped"},
    "properties": set[str](),
    "property": set[str](),
    "testcase": {"time", "classname"},
    "failure": {"type", "message"},
    "error": {"type", "message"},
    "system-out": set[str](),
}
CHILDREN = {
    "testsuites": {"testsuite"},
    "testsuite": {"properties", "testcase"},
    "properties": {"property"},
    "property": set[str](),
    "testcase": {"failure", "error", "system-out"},
    "failure": set[str](),
    "error": set[str](),
    "system-out": set[str](),
}
SUREFIRE_TIME = re.compile(r"(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?")
COUNTS = ("tests", "failures", "errors", "skipped")


def parsed(text: str) -> ET.Element:
    """The document's root element."""
    return ET.fromstring(text)  # noqa: S314  # the test's own report, no external entities


def schema_problems(element: ET.Element) -> list[str]:
    """What in ``element`` and below the schema subset above does not allow."""
    tag = element.tag
    if tag not in REQUIRED:
        return [f"unknown element {tag}"]
    attributes = set(element.attrib)
    problems = [f"{tag} lacks {name}" for name in sorted(REQUIRED[tag] - attributes)]
    problems += [f"{tag} has {name}" for name in sorted(attributes - REQUIRED[tag] - OPTIONAL[tag])]
    time = element.get("time")
    if time is not None and not SUREFIRE_TIME.fullmatch(time):
        problems.append(f"{tag} time {time!r}")
    problems += [
        f"{tag} {name} {element.get(name)!r}"
        for name in COUNTS
        if name in element.attrib and not element.get(name, "").isdigit()
    ]
    for child in element:
        if child.tag not in CHILDREN[tag]:
            problems.append(f"{child.tag} in {tag}")
        problems += schema_problems(child)
    return problems


def review() -> EvalReport:
    failing = (
        ("contains: a + b", Score(0.0, False, "'a + b' is not in the answer")),
        ('regex: "x"', Score(0.0, False)),
        ("max_turns: 6", Score(1.0, True)),
    )
    return EvalReport(
        [
            run("add-bug", repeat=0, latency_ms=812.4),
            run(
                "add-bug",
                repeat=1,
                passed=False,
                score=0.5,
                latency_ms=1530.0,
                text="It returns <a - b> & more",
                checks=failing,
            ),
            run("parse", experiment="concise", error="the provider refused: 429\nretry later"),
            run("parse", experiment="concise", repeat=1, passed=False, latency_ms=float("nan")),
        ],
        threshold=0.8,
        suite="evals/review.wink-eval.yaml",
    )


def test_the_whole_junit_report() -> None:
    assert render_junit(review()) == lines(
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="evals/review.wink-eval.yaml" tests="4" failures="2" errors="1"'
        ' time="2.342">',
        '  <testsuite name="baseline x openai:gpt-4.1-mini" tests="2" failures="1" errors="0"'
        ' time="2.342" skipped="0">',
        "    <properties>",
        '      <property name="experiment" value="baseline" />',
        '      <property name="model" value="openai:gpt-4.1-mini" />',
        '      <property name="threshold" value="0.8" />',
        "    </properties>",
        '    <testcase name="add-bug #1" classname="baseline x openai:gpt-4.1-mini"'
        ' time="0.812" />',
        '    <testcase name="add-bug #2" classname="baseline x openai:gpt-4.1-mini" time="1.530">',
        '      <failure message="contains: a + b; regex: &quot;x&quot;" type="failed">'
        "contains: a + b -- 'a + b' is not in the answer",
        'regex: "x"',
        "score 0.50</failure>",
        "      <system-out>It returns &lt;a - b&gt; &amp; more</system-out>",
        "    </testcase>",
        "  </testsuite>",
        '  <testsuite name="concise x openai:gpt-4.1-mini" tests="2" failures="1" errors="1"'
        ' time="0.000" skipped="0">',
        "    <properties>",
        '      <property name="experiment" value="concise" />',
        '      <property name="model" value="openai:gpt-4.1-mini" />',
        '      <property name="threshold" value="0.8" />',
        "    </properties>",
        '    <testcase name="parse #1" classname="concise x openai:gpt-4.1-mini" time="0.000">',
        '      <error message="the provider refused: 429&#10;retry later" type="error">'
        "the provider refused: 429",
        "retry later</error>",
        "    </testcase>",
        '    <testcase name="parse #2" classname="concise x openai:gpt-4.1-mini" time="0.000">',
        '      <failure message="score 0.00" type="failed">score 0.00</failure>',
        "      <system-out>an answer</system-out>",
        "    </testcase>",
        "  </testsuite>",
        "</testsuites>",
    )


def test_an_empty_report_is_an_empty_testsuites() -> None:
    assert render_junit(EvalReport([])) == lines(
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="wink-decl eval" tests="0" failures="0" errors="0" time="0.000" />',
    )


def test_it_parses_back_with_every_text_as_written() -> None:
    root = parsed(render_junit(review()))
    assert schema_problems(root) == []
    failure = root.find("testsuite/testcase[@name='add-bug #2']/failure")
    assert failure is not None
    assert (failure.get("message"), failure.text) == (
        'contains: a + b; regex: "x"',
        "contains: a + b -- 'a + b' is not in the answer\nregex: \"x\"\nscore 0.50",
    )
    error = root.find("testsuite/testcase[@name='parse #1']/error")
    assert error is not None
    assert (error.get("message"), error.text) == (
        "the provider refused: 429\nretry later",
        "the provider refused: 429\nretry later",
    )
    assert root.findtext("testsuite/testcase[@name='add-bug #2']/system-out") == (
        "It returns <a - b> & more"
    )


HOSTILE = "a\x00b\x1b[2Jc\ufffed\ud800e]]>&<'\"\u00e9\U0001f600"
SHOWN = "a\\x00b\\x1b[2Jc\\ufffed\\ud800e]]>&<'\"\u00e9\U0001f600"


@pytest.mark.parametrize(
    ("where", "result"),
    [
        ("suite", run("a")),
        ("case", run(HOSTILE)),
        ("experiment", run("a", experiment=HOSTILE)),
        ("model", run("a", model=HOSTILE)),
        ("error", run("a", error=HOSTILE)),
        ("label", run("a", passed=False, checks=((HOSTILE, Score(0.0, False, HOSTILE)),))),
        ("answer", run("a", passed=False, text=HOSTILE)),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_whatever_a_run_wrote_the_document_parses(where: str, result: object) -> None:
    assert isinstance(result, wink_decl.evals.CaseResult)
    suite = HOSTILE if where == "suite" else None
    root = parsed(render_junit(EvalReport([result], suite=suite)))
    assert schema_problems(root) == []
    texts = [
        *(value for element in root.iter() for value in element.attrib.values()),
        *(element.text or "" for element in root.iter()),
    ]
    assert any(SHOWN in text for text in texts)


@pytest.mark.parametrize(
    ("latency", "shown"),
    [(-5.0, "0.000"), (float("inf"), "0.000"), (float("nan"), "0.000"), (1234567.8, "1234.568")],
    ids=["negative", "infinite", "nan", "long"],
)
def test_a_time_ci_systems_cannot_read_is_written_as_0(latency: float, shown: str) -> None:
    root = parsed(render_junit(EvalReport([run("a", latency_ms=latency)])))
    assert [e.get("time") for e in root.iter() if "time" in e.attrib] == [shown] * 3
    assert schema_problems(root) == []


def test_the_schema_check_finds_what_it_should() -> None:
    root = parsed(
        '<testsuites skipped="1"><testsuite name="s" tests="x" failures="0" time="1s">'
        "<testcase><skipped/></testcase><bogus/></testsuite></testsuites>"
    )
    assert schema_problems(root) == [
        "testsuites has skipped",
        "testsuite lacks errors",
        "testsuite time '1s'",
        "testsuite tests 'x'",
        "testcase lacks name",
        "skipped in testcase",
        "unknown element skipped",
        "bogus in testsuite",
        "unknown element bogus",
    ]


def test_a_failed_run_without_an_outcome_has_no_output() -> None:
    result = wink_decl.evals.CaseResult("a", "baseline", "m", 0, passed=False, score=0.0)
    root = parsed(render_junit(EvalReport([result])))
    testcase = root.find("testsuite/testcase")
    assert testcase is not None
    assert [(child.tag, child.text) for child in testcase] == [("failure", "score 0.00")]


def test_render_junit_is_part_of_the_public_api() -> None:
    assert wink_decl.evals.render_junit is render_junit
