"""The wink-decl runtime: sessions, the executor, policies, the loop and the adapter protocol.

It builds on ``wink_decl.prompt`` and never imports YAML, TOML, CLI or schema code.
"""
