"""Open an HTML report in headless Chromium from its file; print what the page showed, as JSON.

Run by tests/evals/test_report_html_in_chromium.py through ``run_python`` (killed if it
hangs): ``python html_report_scenario.py PAGE``. Every request the page makes is routed: a
file URL goes through, anything else is answered with a failure and listed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from playwright.sync_api import ConsoleMessage, Page, Request, Route, expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
WAIT_MS = 10_000
"""Longest wait for any one thing on the page: nothing here takes a second when it works."""


def box_widths(page: Page, selector: str) -> list[float]:
    """The drawn width, in CSS pixels, of each element ``selector`` finds."""
    widths: list[float] = []
    for element in page.locator(selector).all():
        box = element.bounding_box()
        widths.append(-1.0 if box is None else round(box["width"], 1))
    return widths


def charts(page: Page) -> dict[str, object]:
    groups = page.locator("#pass-rates g.group")
    figures = page.locator("figure.histogram")
    return {
        "labels": groups.locator("text.label").all_text_contents(),
        "values": groups.locator("text.value").all_text_contents(),
        "bars": box_widths(page, "#pass-rates rect.bar"),
        "bar classes": [r.get_attribute("class") for r in page.locator("rect.bar").all()],
        "threshold": page.locator("#pass-rates .threshold text").text_content(),
        "histograms": figures.locator("figcaption").all_text_contents(),
        "bins": [
            f.locator("rect.bin").evaluate_all("rs => rs.map(r => r.dataset.count)")
            for f in figures.all()
        ],
        "bin heights": [
            [
                round(h)
                for h in f.locator("rect.bin").evaluate_all(
                    "rs => rs.map(r => r.getBoundingClientRect().height)"
                )
            ]
            for f in figures.all()
        ],
        "edges": figures.first.locator("text.edge").all_text_contents(),
    }


def open_run(page: Page, index: int) -> dict[str, object]:
    """Open run ``index`` by clicking its line; what it shows."""
    run = page.locator(f"#run-{index}")
    hidden_before = run.locator(".detail").is_visible()
    run.locator("summary").click()
    expect(run.locator(".detail")).to_be_visible()
    return {
        "hidden before": not hidden_before,
        "line": run.locator("summary span").all_inner_texts(),
        "answer": run.locator("pre.answer").inner_text(),
        "checks": [row.locator("td").all_inner_texts() for row in run.locator("tr.check").all()],
        "tool calls": [row.locator("td").all_inner_texts() for row in run.locator("tr.call").all()],
    }


def shown_runs(page: Page) -> list[str]:
    return [r.get_attribute("id") or "" for r in page.locator("details.run:visible").all()]


def filters(page: Page) -> dict[str, object]:
    seen: dict[str, object] = {"buttons": page.locator("#filters button").all_inner_texts()}
    for name in ("Failed", "Errors", "All"):
        page.locator("#filters button", has_text=name).click()
        seen[name] = shown_runs(page)
    return seen


def scenario(page: Page, url: str) -> dict[str, object]:
    page.goto(url)
    seen: dict[str, object] = {
        "title": page.title(),
        "verdict": page.locator("#verdict").inner_text(),
    }
    seen["charts"] = charts(page)
    seen["filters"] = filters(page)
    seen["failed run"] = open_run(page, 1)
    seen["hostile run"] = open_run(page, 6)
    seen["scripts run"] = page.evaluate("[typeof window.pwned, document.scripts.length]")
    return seen


PROBE = """() => new Promise((resolve) => {
  const refused = [];
  document.addEventListener("securitypolicyviolation", (event) => {
    refused.push(`${event.effectiveDirective} ${event.blockedURI}`);
    if (refused.length === 2) resolve(refused.sort());
  });
  const image = document.createElement("img");
  image.src = "http://127.0.0.1:9/probe.png";
  const script = document.createElement("script");
  script.textContent = "window.pwned = 3";
  document.body.append(image, script);
})"""
"""Add an image from an address and an inline script the policy does not know: both refused."""


def main() -> None:
    url = Path(sys.argv[1]).resolve().as_uri()
    requests: list[str] = []
    refused: list[str] = []
    messages: list[str] = []

    def route(handled: Route) -> None:
        if handled.request.url.startswith("file://"):
            handled.continue_()
        else:
            refused.append(handled.request.url)
            handled.abort()

    def on_request(request: Request) -> None:
        requests.append(request.url)

    def on_console(message: ConsoleMessage) -> None:
        messages.append(f"{message.type}: {message.text}")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
        )
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.route("**/*", route)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        expect.set_options(timeout=WAIT_MS)
        page.on("request", on_request)
        page.on("console", on_console)
        page.on("pageerror", lambda error: messages.append(f"page error: {error}"))
        seen = scenario(page, url)
        seen["requests"] = [r.replace(url, "PAGE") for r in requests]
        console = list(messages)
        seen["console"] = console
        # The policy itself: what could slip past the escaping is refused before any request.
        seen["probe refused"] = page.evaluate(PROBE)
        seen["probe ran"] = page.evaluate("typeof window.pwned")
        seen["probe console"] = [m.split(":", 1)[0] for m in messages[len(console) :]]
        browser.close()
    seen["refused"] = refused
    sys.stdout.write(json.dumps(seen) + "\n")


if __name__ == "__main__":
    main()
