"""The report page's own style sheet and script, written inline into every page.

The page loads nothing: its Content-Security-Policy allows exactly these two, by hash.
"""

from __future__ import annotations

__all__ = ["SCRIPT", "STYLE"]

STYLE = """
body { font-family: system-ui, sans-serif; margin: 0 auto; padding: 1em 1.5em; max-width: 80em;
  color: #1d1d1d; }
h1 { font-size: 1.5em; margin: 0 0 0.3em; }
h2 { font-size: 1.2em; margin: 1.6em 0 0.5em; border-bottom: 1px solid #ddd; }
h3 { font-size: 1em; margin: 1em 0 0.3em; }
.verdict { display: inline-block; font-weight: bold; padding: 0.2em 0.6em; border-radius: 0.3em; }
.verdict.pass { background: #dff2df; color: #135e13; }
.verdict.fail { background: #fbe0e0; color: #8a1010; }
.empty { color: #666; font-style: italic; }
.cut { color: #8a5a00; font-style: italic; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #e6e6e6; text-align: left;
  vertical-align: top; }
table.checks td { white-space: pre-wrap; overflow-wrap: anywhere; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f6f6f6; padding: 0.5em; margin: 0.2em 0; white-space: pre-wrap;
  overflow-wrap: anywhere; max-height: 30em; overflow: auto; }
td pre { max-height: 12em; }
svg { max-width: 100%; height: auto; font-size: 12px; }
svg .bar.met { fill: #3d8b3d; }
svg .bar.missed { fill: #c24141; }
svg .bin { fill: #4a78b5; }
svg .grid { stroke: #e3e3e3; }
svg .axis { stroke: #555; }
svg .threshold line { stroke: #222; stroke-dasharray: 4 3; }
svg text { fill: #1d1d1d; }
svg .tick, svg .count { fill: #555; font-size: 11px; }
.histograms { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; }
figcaption { font-size: 0.9em; }
#filters { margin: 0.5em 0; }
#filters button[aria-pressed="true"] { font-weight: bold; }
.run-head, .run > summary { display: grid; gap: 0 0.8em; align-items: baseline;
  grid-template-columns: 1.2em minmax(8em, 2fr) minmax(6em, 1fr) minmax(8em, 1.5fr)
    4em 4em 4em 6em 5em 5em; padding: 0.2em 0.3em; }
.run-head { font-weight: bold; border-bottom: 1px solid #ccc; }
.run > summary { cursor: pointer; list-style: none; border-bottom: 1px solid #eee; }
.run > summary::-webkit-details-marker { display: none; }
.run > summary::before { content: "\\25b8"; }
.run[open] > summary::before { content: "\\25be"; }
.run > summary > span { overflow-wrap: anywhere; }
.run .number { text-align: right; font-variant-numeric: tabular-nums; }
.status.passed { color: #135e13; }
.status.failed, .check.failed .passed-cell, .call.failed .success { color: #8a1010; }
.status.error { color: #8a5a00; font-weight: bold; }
.detail { padding: 0.3em 1em 1em 2em; border-bottom: 1px solid #ccc; }
"""
"""The page's style sheet, as it is written into its ``<style>`` element."""

SCRIPT = """
"use strict";
(() => {
  const filters = document.getElementById("filters");
  const buttons = filters.querySelectorAll("button");
  const runs = document.querySelectorAll("details.run");
  for (const button of buttons) {
    button.addEventListener("click", () => {
      const wanted = button.dataset.filter;
      for (const other of buttons) {
        other.setAttribute("aria-pressed", String(other === button));
      }
      for (const run of runs) {
        run.hidden = wanted !== "all" && run.dataset.status !== wanted;
      }
    });
  }
  filters.hidden = false;
})();
"""
"""The page's script: the filter buttons (all, failed, errors), shown only where it runs."""
