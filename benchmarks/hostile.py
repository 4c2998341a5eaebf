"""Files written to hurt: the cost of loading and checking grows with their size, no faster.

Each case is written at a size n and at 10n; the figure that matters is the ratio of the two
times, about 10 when the work is linear (100 when it is quadratic). "load" is ``load_file``;
"check" is ``compile_file``, which loads, validates and collects every diagnostic (as
``wink-decl validate`` does before it prints them). Files past a limit stop at the limit and
cost next to nothing; their ratio is near 1.

The text report (``diagnostics.render_text``) is timed apart, at smaller sizes: it quotes a
line per diagnostic, and what it costs is set by the diagnostics module, not by the files.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path, not as a script

from _fixtures import per_call_us  # after the path is set

from wink_decl.compiler import compile_file
from wink_decl.diagnostics import render_text
from wink_decl.loader import load_file

SECTION_YAML = "sections:\n  - {key: a, title: A, template: x}\n"
SECTION_TOML = '[[sections]]\nkey = "a"\ntitle = "A"\ntemplate = "x"\n'

Case = tuple[str, str, Callable[[int], str], int]
"""A name, the file's name, its text for a size n, and n."""

CASES: tuple[Case, ...] = (
    ("duplicate keys, YAML", "d.wink.yaml", lambda n: "key: x\n" + "x: 1\n" * n, 4_000),
    (
        "unknown keys, YAML",
        "u.wink.yaml",
        lambda n: "key: x\n" + "".join(f"k{i}: 1\n" for i in range(n)) + SECTION_YAML,
        4_000,
    ),
    (
        "one line of unknown keys, YAML",
        "l.wink.yaml",
        lambda n: "{key: x, " + ", ".join(f"k{i}: 1" for i in range(n)) + "}\n",
        4_000,
    ),
    ("duplicate keys, TOML", "d.wink.toml", lambda n: 'key = "x"\n' + "x = 1\n" * n, 4_000),
    (
        "unknown keys, TOML",
        "u.wink.toml",
        lambda n: 'key = "x"\n' + "".join(f"k{i} = 1\n" for i in range(n)) + SECTION_TOML,
        4_000,
    ),
    ("dotted key, TOML", "k.wink.toml", lambda n: "a" + ".a" * (n - 1) + " = 1\n", 6_400),
    ("nested lists, YAML", "n.wink.yaml", lambda n: "x: " + "[" * n + "]" * n + "\n", 10_000),
    ("nested lists, TOML", "n.wink.toml", lambda n: "x = " + "[" * n + "]" * n + "\n", 10_000),
)


def best(work: Callable[[], object], rounds: int) -> float:
    """The fastest of ``rounds`` runs of ``work``, in seconds."""
    return per_call_us(work, 1, rounds) / 1e6


def measure(folder: Path, case: Case, size: int, rounds: int) -> tuple[float, float, int]:
    """Load and check seconds for the case at ``size``; the diagnostics found."""
    _, name, text, _ = case
    path = folder / name
    path.write_text(text(size), encoding="utf-8")
    load = best(lambda: load_file(path), rounds)
    check = best(lambda: compile_file(path), rounds)
    return load, check, len(compile_file(path).diagnostics)


def main(argv: list[str] | None = None) -> int:
    """Print each case's times at n and 10n and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--divide", type=int, default=1, help="every n divided by this")
    args = parser.parse_args(argv)
    print("seconds at 10n (load, check), then check at 10n / check at n (10 is linear)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for case in CASES:
            size = max(2, case[3] // args.divide)
            _, small, _ = measure(folder, case, size, args.rounds)
            load, large, found = measure(folder, case, size * 10, args.rounds)
            print(
                f"  {case[0]:<32} n={size * 10:>6,}  load {load:6.3f}  check {large:6.3f}"
                f"  ratio {large / small:5.1f}  ({found:,} diagnostics)"
            )
        print("the text report of the unknown keys (YAML), for comparison")
        case = CASES[1]
        times: list[float] = []
        for size in (max(2, 500 // args.divide), max(20, 5_000 // args.divide)):
            path = folder / case[1]
            path.write_text(case[2](size), encoding="utf-8")
            result = compile_file(path)
            times.append(best(partial(render_text, result.diagnostics, result.sources), 1))
            print(f"  {size:>6,} diagnostics: {times[-1]:6.3f} s")
        print(f"  ratio {times[1] / times[0]:.1f} (10 is linear, 100 quadratic)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
