"""docs/prompt-files.md cannot drift: it names every key of the published schemas, no other
key, and every YAML and TOML example on it passes ``wink-decl validate``.

The page's convention: under the part headings ``## Prompt files``, ``## Override files`` and
``## Eval files``, each key is a heading ``### `PATH``` where PATH is the key's path from the
top of the file: ``.`` between keys, ``[]`` for the items of a list, ``<name>`` for any key of
a mapping by name (``tools.<name>.params.<name>.type``). A key that one schema object defines
and several paths reach (a param's ``type`` under ``params``, ``output`` and a tool's
``params``) is documented once, under any one of its paths.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from wink_decl.cli._starter import starter_text

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "prompt-files.md"
PARTS = {
    "Prompt files": "wink-decl.schema.json",
    "Override files": "wink-decl-override.schema.json",
    "Eval files": "wink-decl-eval.schema.json",
}
"""Each part of the page, and the schema in ``schema/`` whose keys it documents."""
SUFFIXES = {"Prompt files": ".wink", "Override files": ".wink-override", "Eval files": ".wink-eval"}
FIRST_FILE = "Your first file"
KEY_HEADING = re.compile(r"^### `([^`]+)`$")
BLOCK = re.compile(r"^```(yaml|toml)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
PLUGIN_POINTS = {
    "wink_decl.predicates": "example.long_text = wink_decl_example.predicates:long_text",
    "wink_decl.policies": "example.max_length = wink_decl_example.policies:max_length",
    "wink_decl.evaluators": "example.max_words = wink_decl_example.evaluators:max_words",
}
"""What the examples name from plugins/wink-decl-example: registered, never imported."""


class Example(NamedTuple):
    """One code block of the page: where it is, its format and its text."""

    part: str
    heading: str
    fmt: str
    text: str


# -- the schemas' keys ---------------------------------------------------------------------------


def schema_keys(schema: dict[str, Any]) -> dict[tuple[str, str], set[str]]:
    """Every property of ``schema``, through ``$defs``: (its owner, its name) -> its paths.

    The owner is the ``$defs`` entry the property is written in (or the path to it, outside
    ``$defs``); a definition already on the way down is not entered again (sections hold
    sections), so the paths are finite.
    """
    defs: dict[str, Any] = schema.get("$defs", {})
    found: dict[tuple[str, str], set[str]] = {}

    def visit(node: object, path: str, owner: str, stack: frozenset[str]) -> None:
        if not isinstance(node, dict):
            return
        node_dict: dict[str, Any] = node  # pyright: ignore[reportUnknownVariableType]
        ref: str | None = node_dict.get("$ref")
        if ref is not None:
            name = ref.rsplit("/", 1)[1]
            if name not in stack:
                visit(defs[name], path, name, stack | {name})
        for key, value in node_dict.get("properties", {}).items():
            inner = f"{path}.{key}" if path else key
            found.setdefault((owner or inner, key), set()).add(inner)
            visit(value, inner, owner, stack)
        for keyword in ("allOf", "anyOf", "oneOf"):
            for branch in node_dict.get(keyword, []):
                visit(branch, path, owner, stack)
        for keyword in ("if", "then", "else", "not"):
            visit(node_dict.get(keyword), path, owner, stack)
        visit(node_dict.get("items"), path + "[]", owner, stack)
        visit(node_dict.get("additionalProperties"), path + ".<name>", owner, stack)

    visit(schema, "", "", frozenset())
    return found


def published_keys(part: str) -> dict[tuple[str, str], set[str]]:
    """The keys of the schema the page's ``part`` documents, as ``schema_keys`` gives them."""
    return schema_keys(json.loads((REPO / "schema" / PARTS[part]).read_text(encoding="utf-8")))


# -- the page ------------------------------------------------------------------------------------


def page_parts() -> dict[str, str]:
    """The page's text under each level-2 heading, by the heading's words."""
    chunks = re.split(r"^## (.+)$", PAGE.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return dict(zip(chunks[1::2], chunks[2::2], strict=True))


def documented(part: str) -> list[str]:
    """The key paths the page's ``part`` has a heading for, in page order."""
    lines = page_parts()[part].splitlines()
    return [found.group(1) for line in lines if (found := KEY_HEADING.match(line))]


def examples() -> Iterator[Example]:
    """Every YAML and TOML block of the first file and of the three parts."""
    for part, text in page_parts().items():
        if part != FIRST_FILE and part not in PARTS:
            continue
        heading = part
        for chunk in re.split(r"^(### .+)$", text, flags=re.MULTILINE):
            if chunk.startswith("### "):
                heading = chunk
                continue
            for block in BLOCK.finditer(chunk):
                yield Example(part, heading, block.group(1), block.group(2))


# -- keys ----------------------------------------------------------------------------------------


def test_the_page_has_a_part_for_each_schema_and_a_first_file() -> None:
    assert [name for name in page_parts() if name in (*PARTS, FIRST_FILE)] == [
        FIRST_FILE,
        *PARTS,
    ]


def test_no_key_heading_stands_outside_the_parts() -> None:
    stray = [
        line
        for part, text in page_parts().items()
        if part not in PARTS
        for line in text.splitlines()
        if KEY_HEADING.match(line)
    ]
    assert stray == []


@pytest.mark.parametrize("part", list(PARTS))
def test_every_key_of_the_schema_is_documented(part: str) -> None:
    named = set(documented(part))
    missing = sorted(min(paths) for paths in published_keys(part).values() if not paths & named)
    assert missing == [], f"docs/prompt-files.md, '## {part}': add a '### `PATH`' for each"


@pytest.mark.parametrize("part", list(PARTS))
def test_every_documented_key_is_in_the_schema(part: str) -> None:
    known = {path for paths in published_keys(part).values() for path in paths}
    unknown = [path for path in documented(part) if path not in known]
    assert unknown == [], f"docs/prompt-files.md, '## {part}': no such key in {PARTS[part]}"


@pytest.mark.parametrize("part", list(PARTS))
def test_each_key_is_documented_once(part: str) -> None:
    paths = documented(part)
    assert sorted({p for p in paths if paths.count(p) > 1}) == []


def test_the_walk_names_shared_and_nested_keys_by_their_paths() -> None:
    keys = published_keys("Prompt files")
    assert keys["ParamSpec", "type"] >= {
        "params.<name>.type",
        "output.<name>.type",
        "tools.<name>.params.<name>.type",
    }
    assert keys["SectionDoc", "title"] == {"sections[].title"}
    assert keys["IncludeDoc", "include"] == {"sections[].include"}  # children: not again
    assert published_keys("Override files")["tools.<name>.params.<name>.type", "type"] == {
        "tools.<name>.params.<name>.type"
    }


def test_every_key_heading_has_an_example_in_each_format() -> None:
    shown = {(example.heading, example.fmt) for example in examples()}
    lacking = [
        f"{part}: {path} ({fmt})"
        for part in PARTS
        for path in documented(part)
        for fmt in ("yaml", "toml")
        if (f"### `{path}`", fmt) not in shown
    ]
    assert lacking == []


# -- examples ------------------------------------------------------------------------------------


def _first_file(fmt: str) -> str:
    (found,) = (e.text for e in examples() if e.part == FIRST_FILE and e.fmt == fmt)
    return found


def _plugins(site: Path) -> None:
    """A distribution registering the example plugin's names, found by metadata alone."""
    info = site / "wink_decl_doc_examples-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: wink-decl-doc-examples\nVersion: 1.0\n", encoding="utf-8"
    )
    points = "".join(f"[{group}]\n{line}\n\n" for group, line in PLUGIN_POINTS.items())
    (info / "entry_points.txt").write_text(points, encoding="utf-8")


def _lay_out(root: Path) -> int:
    """Write each example into a folder of its own under ``root``; the number of files."""
    root.mkdir()
    (root / "pyproject.toml").write_text('[tool.wink-decl]\nroot = "."\n', encoding="utf-8")
    shutil.copytree(REPO / "prompts" / "common", root / "common")  # what includes name
    (root / "review.wink.yaml").write_text(_first_file("yaml"), encoding="utf-8")
    count = 2  # the first file, and common/safety.wink.yaml
    for number, example in enumerate(examples()):
        if example.part == FIRST_FILE:
            name = f"first-{example.fmt}/review.wink.{example.fmt}"
        elif example.part == "Override files":
            # the root's own prompts have its folder's name as their namespace
            name = f"overrides/{root.name}/review/t{number}.wink-override.{example.fmt}"
        else:
            name = f"e{number}/x{SUFFIXES[example.part]}.{example.fmt}"
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(example.text, encoding="utf-8")
        if example.part == "Eval files":
            (path.parent / "review.wink.yaml").write_text(_first_file("yaml"), encoding="utf-8")
            shutil.copy(REPO / "wink_decl" / "evals" / "judge.wink.yaml", path.parent)
            (path.parent / "cases.jsonl").write_text(
                '{"id": "x", "params": {"language": "Go", "change": "x := 1"}}\n',
                encoding="utf-8",
            )
            tags = root / "overrides" / path.parent.name / "review"
            tags.mkdir(parents=True)
            (tags / "concise.wink-override.yaml").write_text("{}\n", encoding="utf-8")
            count += 3  # the eval file, its prompt and the judge's
        elif example.part != "Override files":
            count += 1
    return count


def _validate(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """``wink-decl validate . --strict`` in ``root``, the plugins of ``site`` installed."""
    command = [sys.executable, "-m", "wink_decl", "validate", ".", "--overrides", "overrides"]
    return subprocess.run(  # our own interpreter and command, over files the test wrote
        [*command, "--strict"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(site)},
    )


def _one_prompt_twice() -> str:
    """What validate says of the `ns` key's examples: one prompt, in YAML and in TOML.

    Laid out under one root, they have one address; a registry serves the first by path.
    """
    served, other = sorted(
        f"e{number}/x.wink.{example.fmt}"
        for number, example in enumerate(examples())
        if example.text.startswith(("ns: agents\n", 'ns = "agents"\n'))
    )
    return (
        f"{other}: warning: Prompt 'agents/review' is served from '{served}', which has the same "
        "address; this file is reached only by its path.\n"
        "  hint: give this file a key: (or ns:) of its own, or delete the one of the two not in "
        "use\n"
    )


def test_every_example_on_the_page_passes_validate(tmp_path: Path) -> None:
    root = tmp_path / "examples"
    count = _lay_out(root)
    _plugins(tmp_path / "site")
    completed = _validate(root, tmp_path / "site")
    assert (completed.returncode, completed.stdout, completed.stderr) == (
        0,
        "",
        _one_prompt_twice()
        + f"{count} files checked: {count} valid, 0 invalid (0 errors, 1 warning)\n",
    )
    assert count > 250  # every block was written and checked


def test_a_broken_example_would_fail(tmp_path: Path) -> None:
    root = tmp_path / "examples"
    _lay_out(root)
    _plugins(tmp_path / "site")
    broken = next(root.glob("overrides/examples/review/t*.wink-override.yaml"))
    broken.write_text(broken.read_text().replace("hash: sha256:", "hash: sha256:0"))
    completed = _validate(root, tmp_path / "site")
    assert completed.returncode == 1
    assert str(broken.relative_to(root)) in completed.stderr


# -- links ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PARTS.values()))
def test_each_published_schema_points_to_the_page(name: str) -> None:
    schema = json.loads((REPO / "schema" / name).read_text(encoding="utf-8"))
    assert "docs/prompt-files.md" in schema["description"]


def test_the_starter_and_the_readme_point_to_the_page() -> None:
    for fmt in ("yaml", "toml"):
        assert "docs/prompt-files.md" in starter_text("x", fmt, "s.json", f"x.wink.{fmt}")
    assert "`docs/prompt-files.md` lists every key" in (REPO / "README.md").read_text()
