"""Prompt files: cold load + validate + compile + render per file, and the cache-hit time.

200 distinct small prompt files are written to a temporary folder. "Cold" compiles each once
through a fresh registry (no cache); "hit" asks a warm registry for the same files again.
Targets (issue 4): under 500 us per file cold, and a hit at least 50x faster than cold.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from wink_decl.compiler import PromptRegistry, make_params

COLD_TARGET_US = 500.0
HIT_SPEEDUP_TARGET = 50.0

PROMPT = """\
# yaml-language-server: $schema=../schema/wink-decl.schema.json
key: review-{i}
name: Review {i}
params:
  language: {{type: string, description: Language of the change.}}
  strict: {{type: boolean, default: false}}
sections:
  - key: task
    title: Task
    template: Review the ${{language}} change number {i}.
  - key: reference
    title: Reference
    visibility: summary
    summary: Style rules for ${{language}} are available.
    template: Rule {i} applies.
    children:
      - key: naming
        title: Naming
        template: Names say what things are for.
      - key: errors
        title: Errors
        enabled: {{param: strict}}
        template: Catch narrow exceptions.
"""


def write_prompts(folder: Path, count: int) -> list[Path]:
    """``count`` distinct prompt files."""
    paths: list[Path] = []
    for i in range(count):
        path = folder / f"review-{i}.wink.yaml"
        path.write_text(PROMPT.format(i=i))
        paths.append(path)
    return paths


def run_once(registry: PromptRegistry, paths: list[Path], *, render: bool = True) -> float:
    """Seconds to compile (and, with ``render``, render) every file through ``registry``."""
    start = time.perf_counter()
    for path in paths:
        result = registry.compile(path)
        prompt = result.prompt
        if prompt is None:
            raise SystemExit(f"{path} did not compile: {result.diagnostics}")
        if render:
            prompt.template.render(*make_params(prompt, {"language": "Python"}))
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Print per-file times; with --check, exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_prompts(Path(tmp), args.files)
        run_once(PromptRegistry(tmp), paths[:5])  # import and warm the interpreter once
        colds = [run_once(PromptRegistry(tmp), paths) for _ in range(3)]
        warm = PromptRegistry(tmp)
        run_once(warm, paths)
        hits = [run_once(warm, paths, render=False) for _ in range(5)]
        with_render = [run_once(warm, paths) for _ in range(5)]
    per_file = 1e6 / len(paths)
    cold_us = min(colds) * per_file
    hit_us = min(hits) * per_file
    render_us = min(with_render) * per_file - hit_us
    speedup = cold_us / hit_us
    print(f"files: {len(paths)}")
    print(f"cold: load + validate + compile + render    {cold_us:8.1f} us per file")
    print(f"cache hit: the compiled prompt, unchanged file {hit_us:6.1f} us per file")
    print(f"params + render (the same on both paths)    {render_us:8.1f} us per file")
    print(f"a cache hit is {speedup:.1f}x faster than a cold compile")
    missed = cold_us > COLD_TARGET_US or speedup < HIT_SPEEDUP_TARGET
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
