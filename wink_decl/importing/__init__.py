"""Prompts written for Prompty, Dotprompt and LangChain, imported as wink-decl documents.

``wink-decl import`` writes what :func:`import_peer_file` gives; docs/importing.md says what
maps to what and what is left to finish by hand.
"""

from wink_decl.importing._peer_import import ImportedPrompt, import_peer_file, peer_kind

__all__ = ["ImportedPrompt", "import_peer_file", "peer_kind"]
