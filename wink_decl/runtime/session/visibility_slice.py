"""The visibility-overrides slice: which sections a session has expanded or collapsed."""

# No `from __future__ import annotations`: the event and item field types stay real
# objects at runtime, so serialisers can resolve them with typing.get_type_hints.
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import cast

from wink_decl.prompt.visibility import SectionPath, SectionVisibility

__all__ = [
    "ClearAllVisibilityOverrides",
    "ClearVisibilityOverride",
    "SetVisibilityOverride",
    "VisibilityOverrides",
    "reduce_clear_all_visibility_overrides",
    "reduce_clear_visibility_override",
    "reduce_set_visibility_override",
]


def _check_path(path: object, *, event: str) -> None:
    """Raise unless ``path`` is a non-empty tuple of str (a ``SectionPath``)."""
    # Paths arrive from model tool calls and deserialised state, so the static type
    # is not enough: a list or a bare string would silently never match a section.
    if not isinstance(path, tuple):
        raise TypeError(
            f"{event}.path must be a tuple of section keys, got {type(path).__name__}: {path!r}"
        )
    keys = cast("tuple[object, ...]", path)  # the isinstance above proved it a tuple
    if not keys:
        raise ValueError(f"{event}.path must name a section: got an empty tuple")
    for key in keys:
        if not isinstance(key, str):
            raise TypeError(
                f"{event}.path must hold only str keys, got {type(key).__name__} {key!r} "
                f"in {keys!r}"
            )


@dataclass(frozen=True, slots=True)
class VisibilityOverrides:
    """The slice item: the visibility forced on each overridden section.

    The slice holds at most one item; no item means no overrides.
    """

    overrides: Mapping[SectionPath, SectionVisibility]
    """Read-only mapping from section path to the visibility it must render with."""

    def __post_init__(self) -> None:
        """Copy ``overrides`` into a read-only mapping so the item stays immutable."""
        object.__setattr__(self, "overrides", MappingProxyType(dict(self.overrides)))


@dataclass(frozen=True, slots=True)
class SetVisibilityOverride:
    """Event: render the section at ``path`` with ``visibility`` from now on."""

    path: SectionPath
    """The section's key and its ancestors' keys, root first."""

    visibility: SectionVisibility
    """The visibility to force."""

    def __post_init__(self) -> None:
        """Refuse a path that cannot name a section, and anything but a SectionVisibility."""
        _check_path(self.path, event="SetVisibilityOverride")
        if not isinstance(self.visibility, SectionVisibility):  # pyright: ignore[reportUnnecessaryIsInstance]  # untyped callers
            raise TypeError(
                "SetVisibilityOverride.visibility must be a SectionVisibility, "
                f"got {self.visibility!r}"
            )


@dataclass(frozen=True, slots=True)
class ClearVisibilityOverride:
    """Event: let the section at ``path`` render with its declared visibility again."""

    path: SectionPath
    """The section's key and its ancestors' keys, root first."""

    def __post_init__(self) -> None:
        """Refuse a path that cannot name a section."""
        _check_path(self.path, event="ClearVisibilityOverride")


@dataclass(frozen=True, slots=True)
class ClearAllVisibilityOverrides:
    """Event: drop every override."""


def _current(items: tuple[VisibilityOverrides, ...]) -> Mapping[SectionPath, SectionVisibility]:
    return items[-1].overrides if items else {}


def reduce_set_visibility_override(
    items: tuple[VisibilityOverrides, ...], event: SetVisibilityOverride
) -> tuple[VisibilityOverrides, ...]:
    """Add or replace the override for ``event.path``."""
    return (VisibilityOverrides({**_current(items), event.path: event.visibility}),)


def reduce_clear_visibility_override(
    items: tuple[VisibilityOverrides, ...], event: ClearVisibilityOverride
) -> tuple[VisibilityOverrides, ...]:
    """Remove the override for ``event.path``; clearing an absent path changes nothing."""
    current = _current(items)
    if event.path not in current:
        return items
    remaining = {path: vis for path, vis in current.items() if path != event.path}
    return (VisibilityOverrides(remaining),) if remaining else ()


def reduce_clear_all_visibility_overrides(
    _items: tuple[VisibilityOverrides, ...], _event: ClearAllVisibilityOverrides
) -> tuple[VisibilityOverrides, ...]:
    """Drop every override."""
    return ()
