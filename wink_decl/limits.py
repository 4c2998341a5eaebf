"""``Limits``: what checking prompt and eval files may cost, each with a default to raise.

Prompt files arrive from people who are not trusted (pull requests checked in CI). Every
bound below keeps the work linear in the input and stops a file written to hurt with a clear
diagnostic. ``docs/security.md`` explains each one. They are raised in Python with
``Limits(max_bytes=...)`` and on the command line with ``--limit max_bytes=5000000``; never
from a file in the checkout, which the author of a pull request controls.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from wink_decl.errors import WinkDeclError

__all__ = [
    "DEFAULT_LIMITS",
    "MAX_DEPTH_CEILING",
    "LimitSettingError",
    "Limits",
    "raise_setting",
]

MAX_DEPTH_CEILING = 200
"""The deepest nesting a loader can check without running out of Python stack."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on the work one command does for its prompt files; all are positive integers."""

    max_bytes: int = 1_000_000
    """Bytes of one prompt file, included files too (and of any file read to check one)."""
    max_depth: int = 64
    """Nesting of mappings and lists in one file; the top-level mapping is level 1."""
    max_nodes: int = 200_000
    """Values in one file, counted after YAML aliases are expanded (an alias bomb fails fast)."""
    max_key_length: int = 1_000
    """Characters of one key; a TOML dotted key counts all its parts and dots, as written."""
    max_include_depth: int = 8
    """Includes within includes: a file that includes a file that includes ... is depth 3."""
    max_include_files: int = 64
    """Distinct files one prompt reads through its includes."""
    max_sections: int = 10_000
    """Sections of one prompt after its includes are expanded."""
    max_params_file_bytes: int = 1_000_000
    """Bytes of a ``--params-file``."""
    max_dataset_bytes: int = 20_000_000
    """Bytes of an eval file's dataset (JSONL, CSV or YAML)."""
    max_cases: int = 100_000
    """Cases of one eval file: its inline cases and its dataset's together."""

    def __post_init__(self) -> None:
        """Every limit is a positive integer; ``max_depth`` stays where loaders can check it."""
        for field in dataclasses.fields(self):
            value: object = getattr(self, field.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"Limits.{field.name} must be a whole number of at least 1")
        if self.max_depth > MAX_DEPTH_CEILING:
            raise ValueError(f"Limits.max_depth must be at most {MAX_DEPTH_CEILING}")

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every limit's name, in declaration order."""
        return tuple(field.name for field in dataclasses.fields(cls))

    def with_settings(self, settings: list[str]) -> Limits:
        """These limits with ``NAME=VALUE`` settings applied (a later one of a name wins).

        Raises:
            LimitSettingError: a setting is not NAME=VALUE, names no limit, or its value is
                not a whole number the limit accepts.
        """
        limits = self
        for setting in settings:
            name, equals, text = setting.partition("=")
            name = name.strip()
            if not equals:
                raise LimitSettingError(setting, "is not NAME=VALUE", name)
            if name not in self.names():
                raise LimitSettingError(setting, "names no limit", name)
            try:
                value = int(text.replace("_", "").strip())
                limits = dataclasses.replace(limits, **{name: value})
            except ValueError as error:
                reason = (
                    str(error).removeprefix(f"Limits.{name} ") if "Limits." in str(error) else ""
                )
                raise LimitSettingError(
                    setting, reason or "must be a whole number of at least 1", name
                ) from None
        return limits


class LimitSettingError(WinkDeclError, ValueError):
    """A ``NAME=VALUE`` limit setting that cannot be applied; says what is allowed."""

    def __init__(self, setting: str, problem: str, name: str) -> None:
        super().__init__(f"limit '{setting}' {problem}")
        self.setting = setting
        self.problem = problem
        self.name = name


def raise_setting(name: str, value: int, needed: int | None = None) -> str | None:
    """``--limit NAME=VALUE`` that allows ``needed``: how a diagnostic says to raise a limit.

    ``value`` (the limit now) is doubled until it reaches ``needed`` (the size measured, when
    it is known; else anything past ``value``), so the setting suggested is always enough and
    stays a round number where the limit was one. None when the limit cannot go that high
    (``max_depth`` past its ceiling).
    """
    wanted = value + 1 if needed is None else needed
    raised = 2 * value
    while raised < wanted:
        raised *= 2
    if name == "max_depth":
        raised = min(raised, MAX_DEPTH_CEILING)
    return f"--limit {name}={raised}" if raised >= wanted else None


DEFAULT_LIMITS = Limits()
