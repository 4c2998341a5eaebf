"""The registry at scale: open one and serve its first prompt, over 10 files and over 10,000.

Each figure is the best of ``--rounds`` new Python processes (nothing kept in memory, as when
a service starts), timed inside the process after its imports: ``PromptRegistry(root)`` and
one ``get`` of a file in the middle. The files are small prompts in 100 folders, one in ten
TOML. The cases:

- no cache folder: ``get`` reads the addresses from every file's ``key``/``ns`` lines and
  compiles the one file that claims the address;
- index cached: with ``cache_dir`` filled by an earlier process, the address index is read
  from disk and only the file it names is read and compiled;
- the peer, every file compiled: ``addresses()`` then ``get``, which is what opening a
  registry cost before the index (every file compiled to learn its address).

The target is the cached ratio: the large registry within 3x of the small one.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path, not as a script

from _fixtures import write_numbered  # after the path is set

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


def seconds(root: Path, address: str, cache: Path | None, *, every: bool, rounds: int) -> float:
    """The best time of ``rounds`` new processes opening the registry and getting ``address``."""
    environment = {**os.environ, "WINK_DECL_CACHE_KEY": KEY}  # the user's own key stays unused
    best = float("inf")
    for _ in range(rounds):
        argv = [str(root), address, "" if cache is None else str(cache), "every" if every else ""]
        done = subprocess.run(  # noqa: S603  # this interpreter, this script
            [sys.executable, "-c", CHILD, *argv],
            env=environment,
            capture_output=True,
            text=True,
            check=True,
        )
        best = min(best, float(done.stdout))
    return best


KEY = secrets.token_hex(32)


def main(argv: list[str] | None = None) -> int:
    """Print the seconds of each case and the ratios."""
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
        for root, address in ((small, small_address), (large, large_address)):
            seconds(root, address, cache, every=False, rounds=1)  # fills the index on disk
        plain = [seconds(small, small_address, None, every=False, rounds=rounds)]
        plain.append(seconds(large, large_address, None, every=False, rounds=rounds))
        cached = [seconds(small, small_address, cache, every=False, rounds=rounds)]
        cached.append(seconds(large, large_address, cache, every=False, rounds=rounds))
        old = seconds(large, large_address, None, every=True, rounds=min(rounds, 2))
    n, m = args.small, args.files
    print(f"open + first get, best of {rounds} new processes (seconds, after imports)")
    print(f"  {n} files, no cache folder{'':10}{plain[0]:.4f}")
    print(f"  {m} files, no cache folder{'':7}{plain[1]:.4f}  {plain[1] / plain[0]:.1f}x {n} files")
    print(f"  {n} files, index cached{'':13}{cached[0]:.4f}")
    print(
        f"  {m} files, index cached{'':10}{cached[1]:.4f}  {cached[1] / cached[0]:.1f}x {n} files"
        " (target: within 3x)"
    )
    print(
        f"  {m} files, every file compiled{'':3}{old:.4f}  {old / plain[1]:.1f}x no cache folder,"
        f" {old / cached[1]:.1f}x index cached (the peer: what opening cost before)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
