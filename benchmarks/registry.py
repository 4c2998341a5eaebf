"""The registry at scale: open one and serve its first prompt, over 10 files and over 10,000.

Each figure is the best of ``--rounds`` new Python processes (nothing kept in memory, as when
a service starts), timed inside the process after its imports: ``PromptRegistry(root)`` and
one ``get`` of a file in the middle. The files are small prompts in 100 folders, one in ten
TOML. The cases:

- no cache folder: ``get`` reads the files' addresses from their ``key``/``ns`` lines, in
  sorted order, until the first file that claims the address compiles to it;
- index cached: with ``cache_dir`` filled by an earlier process, the address index is read
  from disk and only the file it names is read and compiled;
- the peer, every file compiled: ``addresses()`` then ``get``, which is what opening a
  registry cost before the index (every file compiled to learn its address).

The targets: the large registry within 3x of the small one, with the index cached and without
a cache folder (issue 27). Rounds alternate the small and the large registry, so a busy machine
slows both alike; each ratio is given with the spread of the rounds' own ratios. The children
read bytecode as installed packages do (see ``benchmarks/startup.py``).
"""

from __future__ import annotations

import argparse
import secrets
import sys
import tempfile
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path, not as a script

from _fixtures import (  # after the path is set
    child_environment,
    every_round,
    ratio_spread,
    run_child,
    write_numbered,
)

CHILD = """\
import sys, time
start = time.perf_counter()
from wink_decl.compiler import PromptRegistry
root, address, cache, every = sys.argv[1:5]
opened = time.perf_counter()
registry = PromptRegistry(root, cache_dir=cache or None)
if every == "every":
    registry.addresses()
found = registry.get(address)
done = time.perf_counter()
assert found.address == address, found.address
print(done - opened)
"""
YAML = "key: p{i}\nsections:\n  - key: task\n    title: Task {i}\n    template: Do thing {i}.\n"
TOML = 'key = "p{i}"\n[[sections]]\nkey = "task"\ntitle = "Task {i}"\ntemplate = "Do {i}."\n'
FOLDERS = 100


def write_prompts(root: Path, count: int) -> str:
    """``count`` small prompt files under ``root``; the address of one in the middle."""
    write_numbered(root, count, _prompt)
    middle = count // 2
    return f"group{middle % FOLDERS}/p{middle}"


def _prompt(i: int) -> tuple[str, str]:
    toml = i % 10 == 9
    name = f"group{i % FOLDERS}/p{i}.wink.{'toml' if toml else 'yaml'}"
    return name, (TOML if toml else YAML).format(i=i)


def seconds(
    root: Path, address: str, cache: Path | None, env: dict[str, str], *, every: bool = False
) -> float:
    """The seconds a new process takes to open the registry and get ``address``."""
    argv = [str(root), address, "" if cache is None else str(cache), "every" if every else ""]
    command = [sys.executable, "-c", CHILD, *argv]
    return float(run_child(command, env, root, name="a registry child")[0])


def main(argv: list[str] | None = None) -> int:
    """Print the seconds of each case and the ratios, with the spread of the rounds' ratios."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--small", type=int, default=10)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    rounds = args.rounds
    with tempfile.TemporaryDirectory() as tmp:
        small, large = Path(tmp, "small"), Path(tmp, "large")
        small_address = write_prompts(small, args.small)
        large_address = write_prompts(large, args.files)
        cache = Path(tmp, "cache")
        env = child_environment(str(Path(tmp, "pycache")))
        env["WINK_DECL_CACHE_KEY"] = secrets.token_hex(32)  # the user's own key stays unused
        for root, address in ((small, small_address), (large, large_address)):
            seconds(root, address, cache, env)  # fills the index on disk, writes bytecode
        plain = every_round(
            [
                partial(seconds, small, small_address, None, env),
                partial(seconds, large, large_address, None, env),
            ],
            rounds,
        )
        cached = every_round(
            [
                partial(seconds, small, small_address, cache, env),
                partial(seconds, large, large_address, cache, env),
            ],
            rounds,
        )
        old = min(seconds(large, large_address, None, env, every=True) for _ in range(2))
    n, m = args.small, args.files
    best_plain, best_cached = [min(side) for side in plain], [min(side) for side in cached]
    print(f"open + first get, best of {rounds} new processes (seconds, after imports)")
    print(f"  {n} files, no cache folder{'':10}{best_plain[0]:.4f}")
    print(
        f"  {m} files, no cache folder{'':7}{best_plain[1]:.4f}"
        f"  {best_plain[1] / best_plain[0]:.1f}x {n} files (rounds {ratio_spread(*plain[::-1])};"
        " target: within 3x)"
    )
    print(f"  {n} files, index cached{'':13}{best_cached[0]:.4f}")
    print(
        f"  {m} files, index cached{'':10}{best_cached[1]:.4f}"
        f"  {best_cached[1] / best_cached[0]:.1f}x {n} files (rounds {ratio_spread(*cached[::-1])};"
        " target: within 3x)"
    )
    print(
        f"  {m} files, every file compiled{'':3}{old:.4f}  {old / best_plain[1]:.1f}x no cache"
        f" folder, {old / best_cached[1]:.1f}x index cached (the peer: what opening cost before)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
