"""The package's version: a bottom module, so any layer may read it without importing the top."""

__version__ = "0.1.0"
