"""Prompt files: cold load + validate + compile + render per file, and the cache-hit time.

200 distinct small prompt files are written to a temporary folder. "Cold" compiles each once
through a fresh registry (no cache) and renders it; "hit" asks a warm registry for the same
files again. The stages of a cold compile are also timed one by one over the same files. Cold
and hit runs alternate, so both see the same machine load, and each figure is the best of the
rounds. Targets (issue 4): under 500 us per file cold, and a hit at least 50x faster than cold.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path, not as a script

from _fixtures import review_yaml, write_numbered  # after the path is set

from wink_decl.compiler import CompiledPrompt, PromptRegistry, make_params
from wink_decl.compiler.compile import compile_loaded, default_catalog
from wink_decl.loader import LoadedFile, load_file
from wink_decl.schema.validate import validate_document

COLD_TARGET_US = 500.0
HIT_SPEEDUP_TARGET = 50.0

STAGES = ("load", "validate", "compile", "params + render")


def write_prompts(folder: Path, count: int) -> list[Path]:
    """``count`` distinct prompt files."""
    return write_numbered(folder, count, lambda i: (f"review-{i}.wink.yaml", review_yaml(i)))


def render(prompt: CompiledPrompt) -> None:
    """Bind the params and render, as a caller of a compiled prompt does."""
    prompt.template.render(*make_params(prompt, {"language": "Python"}))


def run_once(registry: PromptRegistry, paths: list[Path], *, render_too: bool = True) -> float:
    """Seconds to compile (and, with ``render_too``, render) every file through ``registry``."""
    start = time.perf_counter()
    for path in paths:
        result = registry.compile(path)
        prompt = result.prompt
        if prompt is None:
            raise SystemExit(f"{path} did not compile: {result.diagnostics}")
        if render_too:
            render(prompt)
    return time.perf_counter() - start


def stage_times(folder: Path, paths: list[Path]) -> dict[str, float]:
    """Seconds each stage of a cold compile takes over ``paths``, summed file by file.

    Each file goes through every stage before the next file starts, as in a registry: a
    loaded file is dropped once compiled, so no stage pays for holding the others' data.
    """
    catalog = default_catalog()
    totals: dict[str, float] = dict.fromkeys(STAGES, 0.0)
    clock = time.perf_counter
    kept: list[CompiledPrompt | None] = []  # the registry keeps what it compiled
    for path in paths:
        start = clock()
        loaded: LoadedFile | None = load_file(path).file
        assert loaded is not None  # noqa: S101 - the benchmark writes valid files
        loaded_at = clock()
        validate_document(loaded.data, loaded.source_map)
        validated_at = clock()
        prompt = compile_loaded(loaded, file_path=path, root=folder, catalog=catalog).prompt
        compiled_at = clock()
        assert prompt is not None  # noqa: S101 - the benchmark writes valid files
        render(prompt)
        rendered_at = clock()
        kept.append(prompt)
        del loaded
        totals["load"] += loaded_at - start
        totals["validate"] += validated_at - loaded_at
        # compile_loaded validates first: its own work is what remains after validating.
        totals["compile"] += (compiled_at - validated_at) - (validated_at - loaded_at)
        totals["params + render"] += rendered_at - compiled_at
    return totals


def main(argv: list[str] | None = None) -> int:
    """Print per-file times; with --check, exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    colds: list[float] = []
    hits: list[float] = []
    stages: dict[str, list[float]] = {name: [] for name in STAGES}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = write_prompts(folder, args.files)
        run_once(PromptRegistry(folder), paths[:5])  # import and warm the interpreter once
        warm = PromptRegistry(folder)
        run_once(warm, paths)
        for _ in range(args.rounds):  # alternate, so every figure sees the same machine load
            colds.append(run_once(PromptRegistry(folder), paths))
            hits.append(run_once(warm, paths, render_too=False))
            for name, seconds in stage_times(folder, paths).items():
                stages[name].append(seconds)
    per_file = 1e6 / len(paths)
    cold_us = min(colds) * per_file
    hit_us = min(hits) * per_file
    speedup = cold_us / hit_us
    print(f"files: {len(paths)}, best of {args.rounds} rounds, microseconds per file")
    for name in STAGES:
        print(f"  {name:<16}{min(stages[name]) * per_file:8.1f}")
    staged = sum(min(times) for times in stages.values()) * per_file
    print(f"  {'sum of stages':<16}{staged:8.1f}")
    print(f"cold: load + validate + compile + render{cold_us:8.1f}  (target {COLD_TARGET_US:.0f})")
    print(f"cache hit: the compiled prompt, unchanged{hit_us:8.1f}")
    print(f"a cache hit is {speedup:.1f}x faster than a cold compile", end=" ")
    print(f"(target {HIT_SPEEDUP_TARGET:.0f}x)")
    missed = cold_us > COLD_TARGET_US or speedup < HIT_SPEEDUP_TARGET
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
