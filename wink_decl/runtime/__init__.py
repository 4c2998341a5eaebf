"""The wink-decl runtime: sections, rendering, tools and sessions (no YAML, TOML or CLI)."""
