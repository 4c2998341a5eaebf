"""``python -m wink_decl.schema``: print the schema; ``--write`` regenerates every copy.

Two schemas, each in two copies: the prompt files' and the eval files'.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from wink_decl.schema.generate import (
    EVAL_SCHEMA_FILE_NAME,
    SCHEMA_FILE_NAME,
    build_schema,
    dump_schema,
    write_eval_schema,
    write_schema,
)

PACKAGED = Path(__file__).with_name(SCHEMA_FILE_NAME)
PUBLISHED = Path(__file__).resolve().parents[2] / "schema" / SCHEMA_FILE_NAME
EVAL_PACKAGED = Path(__file__).with_name(EVAL_SCHEMA_FILE_NAME)
EVAL_PUBLISHED = PUBLISHED.with_name(EVAL_SCHEMA_FILE_NAME)


def main(argv: Sequence[str]) -> int:
    """Print the prompt schema, or with ``--write`` write both copies of both schemas."""
    if list(argv) == ["--write"]:
        for path in (PACKAGED, PUBLISHED):
            write_schema(path)
            sys.stdout.write(f"wrote {path}\n")
        for path in (EVAL_PACKAGED, EVAL_PUBLISHED):
            write_eval_schema(path)
            sys.stdout.write(f"wrote {path}\n")
        return 0
    if argv:
        sys.stderr.write("usage: python -m wink_decl.schema [--write]\n")
        return 2
    sys.stdout.write(dump_schema(build_schema()))
    return 0


if __name__ == "__main__":  # pragma: no cover - exercised through main()
    raise SystemExit(main(sys.argv[1:]))
