"""Writers for the ``new`` and ``convert`` commands: TOML and YAML text, schema lines, files."""
