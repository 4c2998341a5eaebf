"""Validate every prompt file under a folder, then render each prompt as a model receives it.

Run ``python3 examples/prompt_files.py prompts``. Diagnostics come first, in the form editors and
CI understand; each prompt that compiles is then rendered with sample values for its required
params (``<name>`` for text), followed by its tools. Exit status: 0 when every file is valid,
1 otherwise. The ``wink-decl`` command will take this over.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

from wink_decl.compiler import CompiledPrompt, PromptRegistry
from wink_decl.diagnostics import render_text

SAMPLES: dict[object, object] = {str: "", int: 0, float: 0.0, bool: False}


def sample_params(prompt: CompiledPrompt) -> tuple[object, ...]:
    """Params with a sample for every required field: ``<name>`` for text, zero values else."""
    kind = prompt.params_type
    if kind is None:
        return ()
    values: dict[str, Any] = {}
    for field in dataclasses.fields(kind):
        if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            values[field.name] = (
                f"<{field.name}>" if field.type is str else SAMPLES.get(field.type, ())
            )  # pyright: ignore[reportArgumentType]
    return (kind(**values),)


def main(argv: list[str]) -> int:
    """Validate and render; 0 when every file compiled."""
    root = Path(argv[0] if argv else "prompts")
    registry = PromptRegistry(root)
    failed = False
    compiled: list[CompiledPrompt] = []
    for path in registry.files():
        result = registry.compile(path)
        report = render_text(result.diagnostics, result.sources)
        if report:
            print(report)
        if result.prompt is None:
            failed = True
        else:
            compiled.append(result.prompt)
    print(f"{len(compiled)} of {len(registry.files())} prompt files are valid.\n")
    for prompt in compiled:
        rendered = prompt.template.render(*sample_params(prompt))
        print(f"=== {prompt.address} ({prompt.source})\n")
        print(rendered.text)
        print(f"\ntools: {', '.join(rendered.tool_names) or '(none)'}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
