"""Cold per-file cost: many distinct small prompt files loaded and rendered once each.

``--files`` distinct small prompt files are written, each declaring params of its own (names
no other file uses, so nothing made for one file serves the next), half YAML and half TOML.
The same prompts are written as LangChain prompt files (``_type: prompt``, half JSON and half
YAML). A fresh process imports its side, then loads and renders every file once:
``wink_decl.load`` (read, check against the schema, compile, bind the params class) and
``template.render(Params(**values)).text``, against ``langchain_core.prompts.load_prompt`` and
``.format(**values)``. One more file is loaded first, untimed, so what either side imports
or builds once is not counted; then only the loop is timed, in the child. Rounds alternate
the two sides, so a busy machine slows both alike, and each figure is the best of the
rounds. The ratio is LangChain's time over ours. Target (issue 14): at least 2x.

Both read bytecode as installed packages do (see ``benchmarks/startup.py``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path, not as a script

from startup import child_environment  # after the path is set

TARGET = 2.0

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
run(0, sys.argv[1])  # the first file: what is imported or built once, untimed
start = time.perf_counter()
for number, path in enumerate(sys.argv[2:], 1):
    run(number, path)
print(time.perf_counter() - start)
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
    (folder / "ours").mkdir()
    (folder / "peer").mkdir()
    ours: list[Path] = []
    peer: list[Path] = []
    for i in range(count):
        toml = i % 2 == 1
        path = folder / "ours" / (f"brief-{i}.wink.toml" if toml else f"brief-{i}.wink.yaml")
        path.write_text((TOML_PROMPT if toml else YAML_PROMPT).format(i=i))
        ours.append(path)
        names = [f"topic_{i}", f"audience_{i}", f"words_{i}"]
        body: dict[str, object] = {
            "_type": "prompt",
            "input_variables": names,
            "template": PEER_TEMPLATE.format(i=i),
        }
        other = folder / "peer" / (f"brief-{i}.json" if toml else f"brief-{i}.yaml")
        other.write_text(json.dumps(body) if toml else _yaml(body))
        peer.append(other)
    return ours, peer


def _yaml(body: dict[str, object]) -> str:
    """``body`` as YAML (JSON is YAML; a block layout reads as such files are written)."""
    return "".join(f"{name}: {json.dumps(value)}\n" for name, value in body.items())


def run_once(script: str, files: list[Path], env: dict[str, str], cwd: Path) -> float:
    """Seconds the child's timed loop took; a child that fails stops the benchmark."""
    done = subprocess.run(  # noqa: S603  # this interpreter, the fixed scripts above
        [sys.executable, "-c", script, *map(str, files)],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"a child failed ({done.returncode}): {done.stdout}{done.stderr}")
    return float(done.stdout)


def main(argv: list[str] | None = None) -> int:
    """Print each side's best time per file and LangChain's time over ours."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=200, help="distinct prompt files")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each side")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        ours, peer = write_files(work, args.files + 1)  # and one to warm up
        env = child_environment(str(work / "pycache"))
        best = [float("inf"), float("inf")]
        for round_number in range(args.rounds + 1):  # round 0 writes the bytecode, untimed
            for index, (script, files) in enumerate(((OURS + LOOP, ours), (PEER + LOOP, peer))):
                seconds = run_once(script, files, env, work)
                if round_number:
                    best[index] = min(best[index], seconds)
    per_file = [1000 * seconds / args.files for seconds in best]
    print(f"{args.files} distinct prompt files, load + render each once, best of {args.rounds}")
    print(f"  wink_decl.load + render               {per_file[0]:7.3f} ms per file")
    print(f"  langchain_core load_prompt + format   {per_file[1]:7.3f} ms per file")
    print(f"  ratio {best[1] / best[0]:.2f}x (LangChain / wink-decl, target {TARGET:g}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
