"""The page's HTML fragments, built from the model; every text from a file is escaped here."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from urllib.parse import quote

from wink_decl.diagnostics import Diagnostic, render_text
from wink_decl.preview.files import Listed
from wink_decl.preview.page import Field, PromptView, Read, SectionRow

__all__ = ["file_list", "form", "problems", "prompt_fragments", "tag_picker", "view_json"]


def file_list(listed: Iterable[Listed], chosen: str | None) -> str:
    """The prompt files, each with its number of problems; the chosen one marked."""
    items = [_file_item(entry, chosen=entry.name == chosen) for entry in listed]
    if not items:
        return '<p class="empty">No prompt files here.</p>'
    return '<ul class="files">' + "".join(items) + "</ul>"


def _file_item(entry: Listed, *, chosen: bool) -> str:
    count = len(entry.problems)
    word = "problem" if count == 1 else "problems"
    mark = ' aria-current="true"' if chosen else ""
    status = "bad" if count else "good"
    return (
        f'<li><a href="?file={escape(_query(entry.name))}" data-file="{escape(entry.name)}"'
        f"{mark}>{escape(entry.name)}</a> "
        f'<span class="count {status}" data-count="{count}">{count} {word}</span></li>'
    )


def _query(name: str) -> str:
    return quote(name, safe="/")


def problems(diagnostics: Sequence[Diagnostic], sources: Mapping[str, str]) -> str:
    """Each diagnostic as the command line reports it: header, quoted line and marker."""
    if not diagnostics:
        return ""
    blocks = [
        f'<pre class="diagnostic {d.severity}" data-line="{_position(d)[0]}" '
        f'data-column="{_position(d)[1]}">{escape(render_text([d], sources))}</pre>'
        for d in diagnostics
    ]
    return '<div class="problems">' + "".join(blocks) + "</div>"


def _position(diagnostic: Diagnostic) -> tuple[str, str]:
    span = diagnostic.span
    return ("", "") if span is None else (str(span.line), str(span.column))


def form(fields: Sequence[Field]) -> str:
    """A labelled input per param; required ones marked."""
    if not fields:
        return '<p class="empty">This prompt declares no params.</p>'
    return "".join(_field(f) for f in fields)


def _field(item: Field) -> str:
    name = escape(item.name)
    required = ' <span class="required" title="required">*</span>' if item.required else ""
    about = f'<span class="about">{escape(item.description)}</span>' if item.description else ""
    label = f'<label for="param-{name}">{name}{required}</label>'
    return f'<div class="field" data-kind="{item.kind}">{label}{_input(item)}{about}</div>'


def _input(item: Field) -> str:
    name = escape(item.name)
    common = f'id="param-{name}" name="{name}"' + (" required" if item.required else "")
    if item.kind == "checkbox":
        checked = " checked" if item.value is True else ""
        return f'<input type="checkbox" {common}{checked}>'
    value = escape(str(item.value))
    if item.kind == "choice":
        blank = "" if str(item.value) in item.choices else '<option value=""></option>'
        options = "".join(
            f'<option value="{escape(c)}"{" selected" if c == item.value else ""}>{escape(c)}'
            "</option>"
            for c in item.choices
        )
        return f"<select {common}>{blank}{options}</select>"
    if item.kind == "number":
        step = "1" if item.whole else "any"
        return f'<input type="number" step="{step}" {common} value="{value}">'
    return f'<textarea {common} rows="2">{value}</textarea>'


def prompt_fragments(view: PromptView) -> str:
    """The rendered text, the sections with their controls, the reads, and the tools."""
    assert view.text is not None  # noqa: S101  # only a view that rendered has these
    return (
        f'<h2>Text</h2><pre id="text">{escape(view.text)}</pre>'
        f"<h2>Sections</h2>{_sections(view.sections)}"
        f"{_reads(view.reads)}"
        f"<h2>Tools</h2>{_tools(view.tools)}"
    )


def _sections(rows: Sequence[SectionRow]) -> str:
    head = "<tr><th>section</th><th>shown</th><th>characters</th><th>switch</th></tr>"
    return '<table class="sections">' + head + "".join(_row(r) for r in rows) + "</table>"


def _row(row: SectionRow) -> str:
    key = escape(row.key)
    indent = f' style="padding-left: {row.depth * 1.5}em"' if row.depth else ""
    buttons = [
        _button(key, "full", pressed=row.shown == "full"),
        *([_button(key, "summary", pressed=row.shown == "summary")] if row.summarizable else []),
        *(
            [f'<button type="button" data-read="{key}">read_section</button>']
            if row.shown == "summary"
            else []
        ),
    ]
    return (
        f'<tr data-section="{key}" data-shown="{row.shown}"><td{indent}>{escape(row.heading)}</td>'
        f'<td class="shown">{row.shown}</td><td class="size">{row.size}</td>'
        f"<td>{''.join(buttons)}</td></tr>"
    )


def _button(key: str, visibility: str, *, pressed: bool) -> str:
    state = "true" if pressed else "false"
    return (
        f'<button type="button" data-show="{key}" data-visibility="{visibility}" '
        f'aria-pressed="{state}">{visibility}</button>'
    )


def _reads(reads: Sequence[Read]) -> str:
    if not reads:
        return ""
    items = "".join(_read(r) for r in reads)
    return f'<h2>read_section calls</h2><ol class="reads">{items}</ol>'


def _read(read: Read) -> str:
    revealed = (
        f'<p class="revealed">revealed: {escape(", ".join(read.revealed))}</p>'
        if read.revealed
        else ""
    )
    content = f"<pre>{escape(read.content)}</pre>" if read.content else ""
    status = "ok" if read.ok else "failed"
    return (
        f'<li class="{status}" data-read-key="{escape(read.key)}">'
        f"<p>{escape(read.message)}</p>{revealed}{content}</li>"
    )


def _tools(tools: Mapping[str, Sequence[Mapping[str, object]]]) -> str:
    if not tools["openai"]:
        return '<p class="empty">No tools are offered.</p>'
    blocks = "".join(
        f'<pre class="tools" data-format="{name}">{escape(_json(specs))}</pre>'
        for name, specs in tools.items()
    )
    names = "".join(
        f'<li data-tool="{escape(str(spec["name"]))}">{escape(str(spec["name"]))}: '
        f"{escape(str(spec['description']))}</li>"
        for spec in tools["anthropic"]
    )
    return f'<ul class="tool-names">{names}</ul>{blocks}'


def _json(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def tag_picker(tags: Sequence[str], chosen: str | None) -> str:
    """A choice of the prompt's tags, "no tag" first; the tag applied is selected."""
    options = [("", "no tag"), *((tag, tag) for tag in tags)]
    items = "".join(
        f'<option value="{escape(value)}"{" selected" if value == (chosen or "") else ""}>'
        f"{escape(label)}</option>"
        for value, label in options
    )
    return f'<label for="tag">Tag</label> <select id="tag" name="tag">{items}</select>'


def view_json(view: PromptView) -> dict[str, object]:
    """The answer to the page's request for one prompt: fragments, and what to keep.

    ``tags`` (the tag picker) is there only for a prompt that has override files.
    """
    answer: dict[str, object] = {
        "file": view.name,
        "ok": view.ok,
        "form": None if view.fields is None else form(view.fields),
        "form_key": view.form_key,
        "problems": problems(view.problems, view.sources),
        "prompt": prompt_fragments(view) if view.ok else None,
    }
    if view.tags:
        answer["tags"] = tag_picker(view.tags, view.tag)
    return answer
