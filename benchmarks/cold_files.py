"""Cold per-file cost: many distinct small prompt files loaded and rendered once each.

``--files`` distinct small prompt files are written, each declaring params of its own (names
no other file uses, so nothing made for one file serves the next), half YAML and half TOML.
The same prompts are written as LangChain prompt files (``_type: prompt``, half JSON and half
YAML). A fresh process imports its side, then loads and renders every file once:
``wink_decl.load`` (read, check against the schema, compile, bind the params class) and
``template.render(Params(**values)).text``, against ``langchain_core.prompts.load_prompt`` and
``.format(**values)``. One file of each format is loaded first, untimed, so what either side
imports or builds once is not counted; then each file is timed in the child, and the YAML half
and the other half (our TOML, LangChain's JSON) are summed apart. Rounds alternate the two
sides, so a busy machine slows both alike; each figure is the best of the rounds, and each
ratio (LangChain's time over ours) is given with the spread of the rounds' own ratios. Target
(issue 27): at least 1.2x.

Both read bytecode as installed packages do (see ``benchmarks/startup.py``).
"""

from __future__ import annotations

import argparse
import json
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

TARGET = 1.2
NAMES = ("wink_decl.load + render", "langchain_core load_prompt + format")

YAML_PROMPT = """\
key: brief-{i}
name: Brief {i}
params:
  topic_{i}: {{type: string, description: What the brief is about.}}
  audience_{i}: {{type: string, default: engineers}}
  words_{i}: {{type: integer, default: {i}}}
sections:
  - key: task
    title: Task
    template: Write a brief about ${{topic_{i}}} for ${{audience_{i}}}.
  - key: length
    title: Length
    template: Use at most ${{words_{i}}} words (brief {i}).
"""

TOML_PROMPT = """\
key = "brief-{i}"
name = "Brief {i}"

[params.topic_{i}]
type = "string"
description = "What the brief is about."

[params.audience_{i}]
type = "string"
default = "engineers"

[params.words_{i}]
type = "integer"
default = {i}

[[sections]]
key = "task"
title = "Task"
template = "Write a brief about ${{topic_{i}}} for ${{audience_{i}}}."

[[sections]]
key = "length"
title = "Length"
template = "Use at most ${{words_{i}}} words (brief {i})."
"""

PEER_TEMPLATE = (
    "## Task\n\nWrite a brief about {{topic_{i}}} for {{audience_{i}}}.\n\n"
    "## Length\n\nUse at most {{words_{i}}} words (brief {i})."
)

LOOP = """\
for number, path in enumerate(sys.argv[1:3]):
    run(number, path)  # one file of each format: what is imported or built once, untimed
halves = [0.0, 0.0]  # even files are YAML, odd ones TOML (LangChain's: JSON)
clock = time.perf_counter
for number, path in enumerate(sys.argv[3:], 2):
    start = clock()
    run(number, path)
    halves[number % 2] += clock() - start
print(*halves)
"""

OURS = """\
import sys, time
import wink_decl
def run(number, path):
    template = wink_decl.load(path)
    (params,) = template.params_types
    return template.render(params(**{f"topic_{number}": "caching"})).text
"""

PEER = """\
import sys, time
from langchain_core.prompts import load_prompt
def run(number, path):
    prompt = load_prompt(path)
    values = {f"topic_{number}": "caching", f"audience_{number}": "engineers"}
    return prompt.format(**values, **{f"words_{number}": number})
"""


def write_files(folder: Path, count: int) -> tuple[list[Path], list[Path]]:
    """``count`` prompt files of ours and as many LangChain prompt files, in matching order."""
    ours = write_numbered(folder / "ours", count, _ours)
    return ours, write_numbered(folder / "peer", count, _peer)


def _ours(i: int) -> tuple[str, str]:
    if i % 2 == 1:
        return f"brief-{i}.wink.toml", TOML_PROMPT.format(i=i)
    return f"brief-{i}.wink.yaml", YAML_PROMPT.format(i=i)


def _peer(i: int) -> tuple[str, str]:
    body: dict[str, object] = {
        "_type": "prompt",
        "input_variables": [f"topic_{i}", f"audience_{i}", f"words_{i}"],
        "template": PEER_TEMPLATE.format(i=i),
    }
    if i % 2 == 1:
        return f"brief-{i}.json", json.dumps(body)
    return f"brief-{i}.yaml", _yaml(body)


def _yaml(body: dict[str, object]) -> str:
    """``body`` as YAML (JSON is YAML; a block layout reads as such files are written)."""
    return "".join(f"{name}: {json.dumps(value)}\n" for name, value in body.items())


def run_once(script: str, files: list[Path], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Seconds the child's timed loop took on the YAML half and on the other half."""
    command = [sys.executable, "-c", script, *map(str, files)]
    yaml, other = run_child(command, env, cwd, name="a child")[0].split()
    return float(yaml), float(other)


def main(argv: list[str] | None = None) -> int:
    """Print each side's best time per file, by half too, and LangChain's time over ours."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=200, help="distinct prompt files (even)")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each side")
    args = parser.parse_args(argv)
    files = max(2, args.files // 2 * 2)  # as many of each format
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        ours, peer = write_files(work, files + 2)  # and one of each format to warm up
        env = child_environment(str(work / "pycache"))
        sides = [
            partial(run_once, OURS + LOOP, ours, env, work),
            partial(run_once, PEER + LOOP, peer, env, work),
        ]
        rounds = every_round(sides, args.rounds, warm_up=True)  # warming up writes bytecode
    print(f"{files} distinct prompt files, load + render each once, best of {args.rounds} rounds")
    print(f"{'':39}all files  YAML half  other half (ms per file)")
    totals = [[sum(halves) for halves in side] for side in rounds]
    for name, side, total, other in zip(NAMES, rounds, totals, ("TOML", "JSON"), strict=True):
        yaml_ms, other_ms = (1000 * min(half) / (files // 2) for half in zip(*side, strict=True))
        whole_ms = 1000 * min(total) / files
        print(f"  {name:<35}{whole_ms:8.3f}  {yaml_ms:9.3f}  {other_ms:9.3f} {other}")
    halves = [list(zip(*side, strict=True)) for side in rounds]
    print(
        f"  ratio {min(totals[1]) / min(totals[0]):.2f}x, rounds {ratio_spread(*totals[::-1])}"
        f" (LangChain / wink-decl, target {TARGET:g}x)"
    )
    for index, name in enumerate(("YAML", "TOML against JSON")):
        ours_half, peer_half = halves[0][index], halves[1][index]
        print(
            f"  {name} ratio {min(peer_half) / min(ours_half):.2f}x,"
            f" rounds {ratio_spread(peer_half, ours_half)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
