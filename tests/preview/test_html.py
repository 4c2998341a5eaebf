"""The page's HTML fragments, exactly; text from files is always escaped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wink_decl.diagnostic_codes import DiagnosticCode
from wink_decl.diagnostics import Diagnostic, Span
from wink_decl.preview.files import Listed, PromptFolder
from wink_decl.preview.html import file_list, form, problems, prompt_fragments, view_json
from wink_decl.preview.page import Field, PageState, PromptView, Read, SectionRow, prompt_view

PROBLEM = Diagnostic("'ful' is bad", Span("a.wink.yaml", 2, 5, 2, 7), DiagnosticCode.TYPE)


def test_the_file_list_counts_problems_and_marks_the_chosen_file() -> None:
    listed = [Listed("a b.wink.yaml", (PROBLEM,), {}), Listed("<c>.wink.toml", (), {})]
    assert file_list(listed, "a b.wink.yaml") == (
        '<ul class="files">'
        '<li><a href="?file=a%20b.wink.yaml" data-file="a b.wink.yaml" aria-current="true">'
        'a b.wink.yaml</a> <span class="count bad" data-count="1">1 problem</span></li>'
        '<li><a href="?file=%3Cc%3E.wink.toml" data-file="&lt;c&gt;.wink.toml">'
        '&lt;c&gt;.wink.toml</a> <span class="count good" data-count="0">0 problems</span></li>'
        "</ul>"
    )
    assert file_list([], None) == '<p class="empty">No prompt files here.</p>'


def test_a_problem_is_shown_as_the_command_line_reports_it() -> None:
    sources = {"a.wink.yaml": "key: a\nx:  <ful>\n"}
    unplaced = Diagnostic("no place", None, DiagnosticCode.PARAM, severity="warning")
    assert problems([PROBLEM, unplaced], sources) == (
        '<div class="problems">'
        '<pre class="diagnostic error" data-line="2" data-column="5">'
        "a.wink.yaml:2:5: error: &#x27;ful&#x27; is bad\n"
        "   2 | x:  &lt;ful&gt;\n"
        "     |     ^^^</pre>"
        '<pre class="diagnostic warning" data-line="" data-column="">'
        "&lt;input&gt;: warning: no place</pre>"
        "</div>"
    )
    assert problems([], {}) == ""


def test_each_kind_of_param_has_its_input() -> None:
    fields = [
        Field("q", "text", "<x>", required=True, description="The <q>."),
        Field("on", "checkbox", True, required=False),
        Field("off", "checkbox", False, required=False),
        Field("level", "choice", "", required=True, choices=("low", "<high>")),
        Field("n", "number", "3", required=False, whole=True),
        Field("f", "number", "0.5", required=False),
        Field("tags", "list", '["a"]', required=False),
    ]
    assert form(fields).split("</div>") == [
        '<div class="field" data-kind="text"><label for="param-q">q '
        '<span class="required" title="required">*</span></label>'
        '<textarea id="param-q" name="q" required rows="2">&lt;x&gt;</textarea>'
        '<span class="about">The &lt;q&gt;.</span>',
        '<div class="field" data-kind="checkbox"><label for="param-on">on</label>'
        '<input type="checkbox" id="param-on" name="on" checked>',
        '<div class="field" data-kind="checkbox"><label for="param-off">off</label>'
        '<input type="checkbox" id="param-off" name="off">',
        '<div class="field" data-kind="choice"><label for="param-level">level '
        '<span class="required" title="required">*</span></label>'
        '<select id="param-level" name="level" required><option value=""></option>'
        '<option value="low">low</option>'
        '<option value="&lt;high&gt;">&lt;high&gt;</option></select>',
        '<div class="field" data-kind="number"><label for="param-n">n</label>'
        '<input type="number" step="1" id="param-n" name="n" value="3">',
        '<div class="field" data-kind="number"><label for="param-f">f</label>'
        '<input type="number" step="any" id="param-f" name="f" value="0.5">',
        '<div class="field" data-kind="list"><label for="param-tags">tags</label>'
        '<textarea id="param-tags" name="tags" rows="2">[&quot;a&quot;]</textarea>',
        "",
    ]
    assert form([]) == '<p class="empty">This prompt declares no params.</p>'


def test_a_script_in_a_template_is_shown_as_text(tmp_path: Path) -> None:
    (tmp_path / "x.wink.yaml").write_text(
        "key: x\nsections:\n  - key: s\n    title: <script>alert(1)</script>\n"
        '    template: "<script>alert(2)</script> & <b>"\n'
    )
    folder = PromptFolder(tmp_path, tmp_path)
    shown = prompt_view(folder, tmp_path / "x.wink.yaml", PageState())
    assert prompt_fragments(shown) == (
        '<h2>Text</h2><pre id="text">## 1. &lt;script&gt;alert(1)&lt;/script&gt; (s)\n\n'
        "&lt;script&gt;alert(2)&lt;/script&gt; &amp; &lt;b&gt;</pre>"
        '<h2>Sections</h2><table class="sections"><tr><th>section</th><th>shown</th>'
        "<th>characters</th><th>switch</th></tr>"
        '<tr data-section="s" data-shown="full"><td>## 1. &lt;script&gt;alert(1)&lt;/script&gt; '
        '(s)</td><td class="shown">full</td><td class="size">68</td><td>'
        '<button type="button" data-show="s" data-visibility="full" aria-pressed="true">full'
        "</button></td></tr></table>"
        '<h2>Tools</h2><p class="empty">No tools are offered.</p>'
    )
    assert "<script>" not in str(view_json(shown))


def test_sections_reads_and_tools_in_both_formats() -> None:
    tools: dict[str, list[dict[str, Any]]] = {
        "openai": [{"type": "function", "function": {"name": "t", "description": "<d>"}}],
        "anthropic": [{"name": "t", "description": "<d>", "input_schema": {}}],
    }
    shown = PromptView(
        "p.wink.yaml",
        (),
        {},
        (),
        "k",
        "T",
        (
            SectionRow("a", "## 1. A (a)", 0, "summary", True, 10),
            SectionRow("a.b", "### 1.1. B (a.b)", 1, "not shown", False, 0),
        ),
        tools,
        (
            Read("a", ok=True, message="Content:", content="<c>", revealed=("t", "u")),
            Read("z", ok=False, message="Unknown"),
        ),
    )
    assert prompt_fragments(shown) == (
        '<h2>Text</h2><pre id="text">T</pre>'
        '<h2>Sections</h2><table class="sections"><tr><th>section</th><th>shown</th>'
        "<th>characters</th><th>switch</th></tr>"
        '<tr data-section="a" data-shown="summary"><td>## 1. A (a)</td>'
        '<td class="shown">summary</td><td class="size">10</td><td>'
        '<button type="button" data-show="a" data-visibility="full" aria-pressed="false">full'
        '</button><button type="button" data-show="a" data-visibility="summary" '
        'aria-pressed="true">summary</button>'
        '<button type="button" data-read="a">read_section</button></td></tr>'
        '<tr data-section="a.b" data-shown="not shown"><td style="padding-left: 1.5em">'
        '### 1.1. B (a.b)</td><td class="shown">not shown</td><td class="size">0</td><td>'
        '<button type="button" data-show="a.b" data-visibility="full" aria-pressed="false">full'
        "</button></td></tr></table>"
        '<h2>read_section calls</h2><ol class="reads">'
        '<li class="ok" data-read-key="a"><p>Content:</p><p class="revealed">revealed: t, u</p>'
        "<pre>&lt;c&gt;</pre></li>"
        '<li class="failed" data-read-key="z"><p>Unknown</p></li></ol>'
        '<h2>Tools</h2><ul class="tool-names"><li data-tool="t">t: &lt;d&gt;</li></ul>'
        '<pre class="tools" data-format="openai">[\n  {\n    &quot;type&quot;: &quot;function'
        "&quot;,\n    &quot;function&quot;: {\n      &quot;name&quot;: &quot;t&quot;,\n"
        "      &quot;description&quot;: &quot;&lt;d&gt;&quot;\n    }\n  }\n]</pre>"
        '<pre class="tools" data-format="anthropic">[\n  {\n    &quot;name&quot;: &quot;t'
        "&quot;,\n    &quot;description&quot;: &quot;&lt;d&gt;&quot;,\n"
        "    &quot;input_schema&quot;: {}\n  }\n]</pre>"
    )


def test_the_answer_for_a_file_that_does_not_compile_keeps_the_page_as_it_is() -> None:
    shown = PromptView("a.wink.yaml", (PROBLEM,), {})
    assert view_json(shown) == {
        "file": "a.wink.yaml",
        "ok": False,
        "form": None,
        "form_key": "",
        "problems": '<div class="problems"><pre class="diagnostic error" data-line="2" '
        'data-column="5">a.wink.yaml:2:5: error: &#x27;ful&#x27; is bad</pre></div>',
        "prompt": None,
    }


def test_the_answer_for_a_rendered_file_has_every_fragment() -> None:
    shown = PromptView("p.wink.yaml", (), {}, (), "k", "T", (), {"openai": [], "anthropic": []})
    assert view_json(shown) == {
        "file": "p.wink.yaml",
        "ok": True,
        "form": '<p class="empty">This prompt declares no params.</p>',
        "form_key": "k",
        "problems": "",
        "prompt": '<h2>Text</h2><pre id="text">T</pre><h2>Sections</h2>'
        '<table class="sections"><tr><th>section</th><th>shown</th><th>characters</th>'
        "<th>switch</th></tr></table>"
        '<h2>Tools</h2><p class="empty">No tools are offered.</p>',
    }
