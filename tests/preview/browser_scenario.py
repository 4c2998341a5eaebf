"""Drive ``wink-decl preview`` in headless Chromium; print what the page showed, as JSON.

Run by tests/preview/test_page_in_chromium.py through ``run_python`` (killed if it hangs):
``python browser_scenario.py FOLDER``. The server is a real ``wink-decl preview`` on port 0,
killed at the end, and killed with this script if it dies first.
"""

from __future__ import annotations

import json
import select
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

from wink_decl.overrides import text_hash

CHROMIUM = "/usr/bin/chromium"
WAIT_MS = 10_000
"""Longest wait for any one thing on the page: nothing here takes a second when it works."""

# The server dies with this script (PR_SET_PDEATHSIG), so a killed run leaves no server.
SERVER = """\
import ctypes, os, signal, sys
ctypes.CDLL(None).prctl(1, signal.SIGKILL)
os.execv(sys.executable, [sys.executable, "-m", "wink_decl", *sys.argv[1:]])
"""


def start_server(folder: Path) -> tuple[subprocess.Popen[str], str]:
    """The running server and its address, read from its first line within 30 s."""
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, "preview", ".", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=folder,
    )
    assert server.stdout is not None
    ready, _, _ = select.select([server.stdout], [], [], 30)
    if not ready:
        server.kill()
        sys.exit("the server printed no address within 30 s")
    return server, server.stdout.readline().strip()


def text_of(page: Page) -> str:
    return page.locator("#text").inner_text()


def scenario(page: Page, url: str, folder: Path) -> dict[str, object]:
    seen: dict[str, object] = {"address": url}
    page.goto(url)
    page.locator("a[data-file='review.wink.yaml']").click()
    expect(page.locator("#problems .diagnostic")).to_have_count(1)
    seen["missing"] = page.locator("#problems .diagnostic").inner_text()
    page.evaluate("window.notReloaded = true")

    page.locator("#param-language").fill("Python")
    expect(page.locator("#text")).to_contain_text("Review this Python code.")
    seen["filled"] = text_of(page)
    seen["tools"] = page.locator(".tool-names li").all_inner_texts()

    page.locator("button[data-show='checks'][data-visibility='summary']").click()
    expect(page.locator("tr[data-section='checks']")).to_have_attribute("data-shown", "summary")
    seen["summarized"] = text_of(page)
    seen["summarized tools"] = page.locator(".tool-names li").all_inner_texts()

    page.locator("button[data-read='checks']").click()
    expect(page.locator(".reads li")).to_have_count(1)
    seen["read"] = page.locator(".reads li").inner_text()
    seen["read tools"] = page.locator(".tool-names li").all_inner_texts()

    page.locator("input[name='format'][value='anthropic']").check()
    seen["anthropic"] = json.loads(page.locator("pre.tools[data-format='anthropic']").inner_text())
    seen["openai shown"] = page.locator("pre.tools[data-format='openai']").is_visible()

    review = folder / "review.wink.yaml"
    source = review.read_text()
    saved = time.monotonic()
    review.write_text(source.replace("${language} code.", "${language} code carefully."))
    expect(page.locator("#text")).to_contain_text("Review this Python code carefully.")
    seen["update seconds"] = round(time.monotonic() - saved, 3)
    seen["edited"] = text_of(page)
    seen["form kept"] = page.locator("#param-language").input_value()
    seen["not reloaded"] = page.evaluate("window.notReloaded === true")

    broken = source.replace("    title: Checks\n", "    title: Checks\n    visibility: ful\n")
    review.write_text(broken.replace("${language} code.", "${language} code carefully."))
    expect(page.locator("#stale")).to_be_visible()
    seen["broken"] = page.locator("#problems .diagnostic").all_inner_texts()
    seen["stale text"] = text_of(page)
    seen["render class"] = page.locator("#render").get_attribute("class")
    expect(page.locator("span[data-count='1']")).to_have_count(1)
    seen["files"] = page.locator("#files li").all_inner_texts()
    seen["not reloaded after break"] = page.evaluate("window.notReloaded === true")

    review.write_text(source.replace("${language} code.", "${language} code carefully."))
    expect(page.locator("#stale")).to_be_hidden()
    return seen | tags(page, folder)


def tags(page: Page, folder: Path) -> dict[str, object]:
    """Choose tag ``short``, then edit its file on disk: the page follows both."""
    seen: dict[str, object] = {}
    page.locator("#tag").select_option("short")
    expect(page.locator("#text")).to_contain_text("Check this Python code.")
    seen["tags"] = page.locator("#tag option").all_inner_texts()
    seen["tagged"] = text_of(page)
    seen["tagged tools"] = page.locator(".tool-names li").all_inner_texts()

    override = folder / "overrides" / "prompts" / "review" / "short.wink-override.yaml"
    override.write_text(override.read_text().replace("Check this", "Check all of this"))
    expect(page.locator("#text")).to_contain_text("Check all of this Python code.")
    seen["override edited"] = text_of(page)
    seen["tag kept"] = page.locator("#tag").input_value()
    seen["form kept with the tag"] = page.locator("#param-language").input_value()
    seen["not reloaded after the override"] = page.evaluate("window.notReloaded === true")
    return seen


def write_override(folder: Path) -> None:
    """Tag ``short`` of the review prompt, pinned to its intro once it says "carefully".

    Written before the server starts: the overrides folder must exist to be watched. The
    server runs in the prompt folder, with no project around it, so the default overrides
    folder is inside it, not above it (docs/overrides.md).
    """
    intro = text_hash("Review this ${language} code carefully.")
    plan = text_hash("Read the current plan.")
    target = folder / "overrides" / "prompts" / "review"
    target.mkdir(parents=True)
    (target / "short.wink-override.yaml").write_text(
        f"sections:\n  intro:\n    template:\n      hash: {intro}\n"
        "      text: Check this ${language} code.\n"
        f"tools:\n  read_plan:\n    description:\n      hash: {plan}\n"
        "      text: Read the plan as it stands.\n"
    )


def main() -> None:
    folder = Path(sys.argv[1])
    write_override(folder)
    server, url = start_server(folder)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
            )
            page = browser.new_page()
            page.set_default_timeout(WAIT_MS)
            expect.set_options(timeout=WAIT_MS)
            seen = scenario(page, url, folder)
            browser.close()
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    sys.stdout.write(json.dumps(seen) + "\n")


if __name__ == "__main__":
    main()
