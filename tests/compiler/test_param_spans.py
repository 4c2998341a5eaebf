"""A compiled prompt's param spans: where each param is written, found when first asked."""

from __future__ import annotations

from pathlib import Path

import pytest
from compiler_support import write

from wink_decl.compiler import compile_file
from wink_decl.diagnostics import Span
from wink_decl.plugins import PluginCatalog

TOML = """\
key = "release"

[params.version]
type = "string"

[params.notes]
type = "string"
default = ""

[[sections]]
title = "Task"
template = "Release ${version}.${notes}"
"""


def test_the_spans_of_a_toml_file_are_its_params_keys(here: Path, catalog: PluginCatalog) -> None:
    write(here, "release.wink.toml", TOML)
    prompt = compile_file("release.wink.toml", root=".", catalog=catalog).prompt
    assert prompt is not None
    spans = prompt.param_spans
    assert (list(spans), len(spans), "notes" in spans, "colour" in spans) == (
        ["version", "notes"],
        2,
        True,
        False,
    )
    assert dict(spans) == {
        "version": Span("release.wink.toml", 3, 9, 3, 15),
        "notes": Span("release.wink.toml", 6, 9, 6, 13),
    }
    assert spans["version"] is spans["version"]  # looked up once
    with pytest.raises(KeyError, match=r"^'colour'$"):
        spans["colour"]
