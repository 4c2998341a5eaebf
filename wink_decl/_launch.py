"""``python -m wink_decl`` takes the working folder off ``sys.path`` before importing more.

``python -m`` puts the working folder first on ``sys.path`` (``-P``, ``PYTHONSAFEPATH`` and
the ``wink-decl`` script do not). In a checkout from someone untrusted, its ``typing.py`` or
a package named like an installed plugin's would then be imported in place of the real one
and run. Python imports this package (``__init__`` first) before it runs ``__main__``, so
the package does this first thing, importing only ``os`` and ``sys``, which Python loaded
before it ran a line of ours. docs/security.md says what is left.
"""

import os
import sys

__all__ = ["leave_working_folder"]

_OPTIONS_WITH_VALUES = ("-X", "-W", "--check-hash-based-pycs")
_FLAGS = frozenset("bBdEhiIOPqsSuvVx")
"""Python's one-letter options that take no value, which may come combined before ``m``."""


def leave_working_folder() -> None:
    """Drop the working folder from the front of ``sys.path`` under ``python -m wink_decl``."""
    if _starting_this_package() and _working_folder_first():
        del sys.path[0]


def _starting_this_package() -> bool:
    """True while Python imports this package to run ``-m wink_decl`` (or a module in it).

    Until the module is found, ``sys.argv[0]`` is ``-m``. Another ``python -m app`` whose
    package imports wink-decl meanwhile keeps its path: the working folder may be its own.
    """
    if sys.argv[:1] != ["-m"]:
        return False
    name = main_module(sys.orig_argv)
    return name == "wink_decl" or name.startswith("wink_decl.")


def main_module(argv: list[str]) -> str:
    """The module ``-m`` names in Python's own command line (``-m x``, ``-mx``, ``-Im x``)."""
    index = 1
    while index < len(argv):
        arg = argv[index]
        if arg in _OPTIONS_WITH_VALUES:
            index += 2
            continue
        if not arg.startswith("-") or arg.startswith("--") or arg == "-":
            return ""  # a script, a long option, or the end of Python's options
        flags, m, rest = arg[1:].partition("m")
        if m and _FLAGS.issuperset(flags):
            return rest or (argv[index + 1] if index + 1 < len(argv) else "")
        index += 1
    return ""


def _working_folder_first() -> bool:
    """Whether ``sys.path`` starts with the working folder, as ``python -m`` without -P has it."""
    if sys.flags.safe_path or not sys.path:
        return False  # -P or PYTHONSAFEPATH: Python left it off; anything first is wanted
    try:
        # os.path, not pathlib: pathlib is not loaded yet, and would come from the folder.
        return os.path.abspath(sys.path[0]) == os.getcwd()  # noqa: PTH100, PTH109
    except OSError:  # the working folder was removed: nothing there to import
        return False


leave_working_folder()  # on import: the package's first line imports this module
