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
from pathlib import Path

from compile import PROMPT

from wink_decl.compiler import PromptRegistry

INCLUDING = PROMPT + "  - include: common.wink.yaml#shared\n"
COMMON = "key: common\nsections:\n  - key: shared\n    title: Shared\n    template: Shared.\n"


def write_prompts(folder: Path, count: int) -> list[str]:
    """``count`` distinct prompt files; every other one includes a section of a shared file."""
    (folder / "common.wink.yaml").write_text(COMMON, encoding="utf-8")
    names: list[str] = []
    for i in range(count):
        name = f"review-{i}.wink.yaml"
        text = (INCLUDING if i % 2 else PROMPT).format(i=i)
        (folder / name).write_text(text, encoding="utf-8")
        names.append(name)
    return names


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
    hits: list[float] = []
    colds: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp, "prompts")
        folder.mkdir()
        cache = Path(tmp, "cache")
        names = write_prompts(folder, args.files)
        check_all(folder, names, cache)  # fill the cache (and warm the interpreter)
        for _ in range(args.rounds):
            hits.append(check_all(folder, names, cache))
            colds.append(check_all(folder, names, None))
    per_file = 1e6 / len(names)
    hit_us = min(hits) * per_file
    cold_us = min(colds) * per_file
    print(f"files: {len(names)}, best of {args.rounds} rounds, microseconds per file")
    print(f"disk hit (new registry, filled --cache-dir){hit_us:8.1f}")
    print(f"no cache (compile every file)             {cold_us:8.1f}")
    print(f"a disk hit is {cold_us / hit_us:.1f}x faster than checking without a cache")
    return 0


if __name__ == "__main__":
    sys.exit(main())
