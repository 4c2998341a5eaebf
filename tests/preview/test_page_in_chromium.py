"""The page in a real headless Chromium, against a real ``wink-decl preview`` on port 0.

Debian's chromium must be installed (``.ci/run`` installs it): without it this test fails.
"""

from __future__ import annotations

import json
import re
import resource
from pathlib import Path

import pytest
from concurrency import run_python

SCENARIO = Path(__file__).parent / "browser_scenario.py"
CHROMIUM = Path("/usr/bin/chromium")


def test_the_page_follows_the_form_the_buttons_the_files_and_the_tags(served: Path) -> None:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    # Chromium reserves tens of GB of address space: no memory cap, but a time limit.
    done = run_python(
        SCENARIO, args=[str(served)], timeout=180, memory=resource.RLIM_INFINITY, cwd=served
    )
    assert (done.returncode, done.stderr) == (0, "")
    seen = json.loads(done.stdout)
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", seen.pop("address"))
    assert isinstance(seen.pop("update seconds"), float)  # information only: see the report
    assert seen == {
        "missing": "review.wink.yaml:3:3: error: Param 'language' has no value and no default.\n"
        "   3 |   language:\n"
        "     |   ^^^^^^^^\n"
        "  hint: fill it in on the form, or give it a default in the file",
        "filled": "## 1. Intro (intro)\n\nReview this Python code.\n\n"
        "## 2. Checks (checks)\n\nRead the plan first.",
        "tools": ["read_plan: Read the current plan."],
        "summarized": "## 1. Intro (intro)\n\nReview this Python code.\n\n"
        "## 2. Checks (checks)\n\nHow to check the plan.\n\n---\n"
        "[This section is summarized. To view full content, call `read_section` with key "
        '"checks".]',
        "summarized tools": ["read_section: Read the full content of a summarized section."],
        "read": "Content of section 'checks':\n\nrevealed: read_plan\n\n"
        "## 2. Checks (checks)\n\nRead the plan first.",
        "read tools": ["read_plan: Read the current plan."],
        "anthropic": [
            {
                "name": "read_plan",
                "description": "Read the current plan.",
                "input_schema": {
                    "type": "object",
                    "properties": {},
                    "additionalProperties": False,
                },
            }
        ],
        "openai shown": False,
        "edited": "## 1. Intro (intro)\n\nReview this Python code carefully.\n\n"
        "## 2. Checks (checks)\n\nRead the plan first.",
        "form kept": "Python",
        "not reloaded": True,
        "broken": [
            "review.wink.yaml:26:17: error: 'visibility' must be one of full, summary, or "
            "{summary_when: ...}; found 'ful'\n"
            "  26 |     visibility: ful\n"
            "     |                 ^^^\n"
            "  hint: did you mean 'full'?"
        ],
        "stale text": "## 1. Intro (intro)\n\nReview this Python code carefully.\n\n"
        "## 2. Checks (checks)\n\nRead the plan first.",
        "render class": "stale",
        "files": ["plain.wink.toml 0 problems", "review.wink.yaml 1 problem"],
        "not reloaded after break": True,
        "tags": ["no tag", "short"],
        "tagged": "## 1. Intro (intro)\n\nCheck this Python code.\n\n"
        "## 2. Checks (checks)\n\nRead the plan first.",
        "tagged tools": ["read_plan: Read the plan as it stands."],
        "override edited": "## 1. Intro (intro)\n\nCheck all of this Python code.\n\n"
        "## 2. Checks (checks)\n\nRead the plan first.",
        "tag kept": "short",
        "form kept with the tag": "Python",
        "not reloaded after the override": True,
    }
