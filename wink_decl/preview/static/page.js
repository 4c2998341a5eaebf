// The page keeps its own state (the form's values and the actions taken) and sends it with
// each request; the server answers with HTML fragments it has escaped (docs/preview.md).
"use strict";

const state = { file: null, values: {}, actions: [], tag: null, formKey: null };
const $ = (id) => document.getElementById(id);
let pending = null;

async function loadFiles() {
  const query = state.file ? "?file=" + encodeURIComponent(state.file) : "";
  const answer = await fetch("/api/files" + query);
  $("files").innerHTML = (await answer.json()).html;
}

async function refresh() {
  if (!state.file) return;
  const body = JSON.stringify({ values: state.values, actions: state.actions, tag: state.tag });
  const answer = await fetch("/api/prompt?file=" + encodeURIComponent(state.file), {
    method: "POST", headers: { "content-type": "application/json" }, body,
  });
  const view = await answer.json();
  if (!answer.ok) { $("problems").textContent = view.error; return; }
  $("title").textContent = view.file;
  if (view.form !== null && view.form_key !== state.formKey) {
    $("params").innerHTML = view.form;
    state.formKey = view.form_key;
  }
  // The picker is kept while the file does not compile, as the form is; the chosen tag is
  // kept in the state, so it is applied again once the file compiles or its overrides return.
  if (view.tags !== undefined) $("tags").innerHTML = view.tags;
  else if (view.form !== null) $("tags").innerHTML = "";
  $("problems").innerHTML = view.problems;
  const render = $("render");
  if (view.ok) {
    render.innerHTML = view.prompt;
    render.classList.remove("stale");
    $("stale").hidden = true;
    showFormat();
  } else if (render.innerHTML) {
    render.classList.add("stale");
    $("stale").hidden = false;
  }
}

function showFormat() {
  const chosen = document.querySelector('input[name="format"]:checked').value;
  for (const block of document.querySelectorAll("pre.tools")) {
    block.hidden = block.dataset.format !== chosen;
  }
}

function choose(file) {
  Object.assign(state, { file, values: {}, actions: [], tag: null, formKey: null });
  $("render").innerHTML = "";
  $("tags").innerHTML = "";
  $("hint").hidden = true;
  $("chosen").hidden = false;
  history.replaceState(null, "", "?file=" + encodeURIComponent(file));
  loadFiles();
  refresh();
}

function soon() {
  clearTimeout(pending);
  pending = setTimeout(refresh, 150);
}

document.addEventListener("DOMContentLoaded", () => {
  $("files").addEventListener("click", (event) => {
    const link = event.target.closest("a[data-file]");
    if (link) { event.preventDefault(); choose(link.dataset.file); }
  });
  $("params").addEventListener("input", (event) => {
    const input = event.target;
    state.values[input.name] = input.type === "checkbox" ? input.checked : input.value;
    soon();
  });
  $("tags").addEventListener("change", (event) => {
    state.tag = event.target.value || null;
    refresh();
  });
  $("params").addEventListener("submit", (event) => event.preventDefault());
  $("render").addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.read) state.actions.push(["read", button.dataset.read]);
    else state.actions.push(["show", button.dataset.show, button.dataset.visibility]);
    refresh();
  });
  $("format").addEventListener("change", showFormat);
  const events = new EventSource("/api/events");
  events.onopen = () => { $("live").textContent = "live"; };
  events.onerror = () => { $("live").textContent = "reconnecting"; };
  events.onmessage = () => { loadFiles(); refresh(); };
  const file = new URLSearchParams(location.search).get("file");
  if (file) choose(file); else loadFiles();
});
