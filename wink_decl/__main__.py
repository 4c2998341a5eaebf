"""``python -m wink_decl``: the ``wink-decl`` command, the working folder taken off ``sys.path``.

``python -m`` puts the working folder first on ``sys.path`` (``-P`` and the ``wink-decl``
script do not). A checkout's ``yaml.py`` or plugin package would then be imported in place of
the installed one and run. It is taken off before anything else is imported; only ``os`` and
``sys`` are, which every interpreter has loaded before it runs a line of ours. Python imported
the ``wink_decl`` package (and what its ``__init__`` needs) before this module: what that
leaves open is in docs/security.md.
"""

import os
import sys


def _working_folder_first() -> bool:
    """Whether ``sys.path`` starts with the working folder, as ``python -m`` without -P has it."""
    if sys.flags.safe_path or not sys.path:
        return False  # -P or PYTHONSAFEPATH: Python left it off; anything first is wanted
    # os.path, not pathlib: pathlib may not be loaded yet, and would come from the folder.
    return os.path.abspath(sys.path[0]) == os.getcwd()  # noqa: PTH100, PTH109


if _working_folder_first():
    del sys.path[0]

from wink_decl.cli import main  # noqa: E402  # only once the working folder is off sys.path

raise SystemExit(main())
