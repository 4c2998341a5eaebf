"""The ``wink-decl`` command: validate, render, tools, compile, schema, plugins, new, convert."""

from wink_decl.cli._app import main

__all__ = ["main"]
