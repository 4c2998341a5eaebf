"""The disk cache: microseconds per file for a hit from ``--cache-dir``, next to a compile.

200 distinct small prompt files (those of ``benchmarks/compile.py``, half of them including a
section from a shared file) are checked once to fill a cache folder. Each round then checks
every file through a new registry, as a new ``wink-decl validate`` process would: "disk hit"
with the filled folder (read the file, hash it, read and verify the entry, re-check the
includes), "no cache" compiling each file. Rounds alternate; each figure is the best.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path, not as a script

from _fixtures import best_of_rounds, review_yaml, write_numbered  # after the path is set

from wink_decl.compiler import PromptRegistry

INCLUDE = "  - include: common.wink.yaml#shared\n"
COMMON = "key: common\nsections:\n  - key: shared\n    title: Shared\n    template: Shared.\n"


def write_prompts(folder: Path, count: int) -> list[str]:
    """``count`` distinct prompt files; every other one includes a section of a shared file."""
    (folder / "common.wink.yaml").write_text(COMMON, encoding="utf-8")
    paths = write_numbered(folder, count, _prompt)
    return [path.name for path in paths]


def _prompt(i: int) -> tuple[str, str]:
    return f"review-{i}.wink.yaml", review_yaml(i) + (INCLUDE if i % 2 else "")


def check_all(folder: Path, names: list[str], cache: Path | None) -> float:
    """Seconds to check every file through a new registry (made outside the timing)."""
    registry = PromptRegistry(folder, cache_dir=cache)
    start = time.perf_counter()
    for name in names:
        if not registry.check(folder / name).ok:
            raise SystemExit(f"{name} has errors")
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Print microseconds per file for a disk hit and for a check without cache."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp, "prompts")
        folder.mkdir()
        cache = Path(tmp, "cache")
        names = write_prompts(folder, args.files)
        check_all(folder, names, cache)  # fill the cache (and warm the interpreter)
        sides = [partial(check_all, folder, names, cache), partial(check_all, folder, names, None)]
        hit, cold = best_of_rounds(sides, args.rounds)
    per_file = 1e6 / len(names)
    hit_us = hit * per_file
    cold_us = cold * per_file
    print(f"files: {len(names)}, best of {args.rounds} rounds, microseconds per file")
    print(f"disk hit (new registry, filled --cache-dir){hit_us:8.1f}")
    print(f"no cache (compile every file)             {cold_us:8.1f}")
    print(f"a disk hit is {cold_us / hit_us:.1f}x faster than checking without a cache")
    return 0


if __name__ == "__main__":
    sys.exit(main())
