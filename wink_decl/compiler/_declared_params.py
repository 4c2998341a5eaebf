"""The base of every class made for declared params: a frozen, keyword-only dataclass, cheaply.

``dataclasses.make_dataclass`` writes and compiles six functions per class (about 0.3 ms); a
prompt file with params of its own would pay that on every cold load. These methods are
written once and read the class's field table instead. To the runtime a made class is a
dataclass like any other: ``dataclasses.is_dataclass``, ``fields`` (with the kinds of
``Field`` that ``dataclass()`` makes), ``replace``, ``asdict`` and ``get_type_hints`` see
what they would see on ``make_dataclass(..., frozen=True, kw_only=True)``; instances compare,
hash, print and refuse assignment as its instances do.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from types import MemberDescriptorType

__all__ = ["PROTOTYPE_PARAMS", "DeclaredParams", "mark_as_field"]

_MISSING: object = dataclasses.MISSING


@dataclasses.dataclass(frozen=True, kw_only=True)
class _Prototype:
    """A class ``dataclass()`` made: its field and parameters are copied into made classes."""

    value: object


_PROTOTYPE_FIELD: dataclasses.Field[Any] = dataclasses.fields(_Prototype)[0]
_FIELD_KIND: MemberDescriptorType = vars(dataclasses.Field)["_field_type"]
"""The slot where ``dataclass()`` marks a field as a field (not a ClassVar or InitVar)."""
_FIELD_MARK: object = _FIELD_KIND.__get__(_PROTOTYPE_FIELD)
"""The mark itself, read once."""
PROTOTYPE_PARAMS: object = vars(_Prototype)["__dataclass_params__"]
"""``frozen=True, eq=True``: what ``__dataclass_params__`` says of every made class."""


def mark_as_field(made: dataclasses.Field[Any]) -> None:
    """Mark ``made`` (from ``dataclasses.field``) as ``dataclass()`` marks a field it keeps.

    ``dataclasses.fields`` lists only fields so marked; copying the mark from a field that
    ``dataclass()`` made keeps this true whatever the mark is in this Python.
    """
    _FIELD_KIND.__set__(made, _FIELD_MARK)


class DeclaredParams:
    """Frozen, keyword-only instances whose fields are the subclass's ``_wink_defaults``."""

    __slots__ = ()
    __match_args__ = ()  # keyword-only fields match by name only, as dataclass() leaves them

    if TYPE_CHECKING:  # set by each subclass; kept out of ``__annotations__`` at run time
        _wink_defaults: dict[str, object]
        """Field name -> its default (``dataclasses.MISSING``: required), in declared order."""

    def __init__(self, /, *positional: object, **values: object) -> None:
        """Set every field from ``values`` or its default, as a dataclass's ``__init__`` does."""
        defaults = self._wink_defaults
        if positional:
            keywords = sum(name in defaults for name in values)
            raise TypeError(_positional_message(type(self).__qualname__, len(positional), keywords))
        if not values.keys() <= defaults.keys():
            unknown = next(name for name in values if name not in defaults)
            raise TypeError(
                f"{type(self).__qualname__}.__init__() got an unexpected keyword argument "
                f"'{unknown}'"
            )
        missing: list[str] = []
        for name, default in defaults.items():
            value = values.get(name, default)
            if value is _MISSING:
                missing.append(name)
            object.__setattr__(self, name, value)
        if missing:
            raise TypeError(_missing_message(type(self).__qualname__, missing))

    def _wink_values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self._wink_defaults])

    def __eq__(self, other: object) -> bool:
        """Equal to an instance of the very same class with equal fields, in order."""
        if other.__class__ is self.__class__ and isinstance(other, DeclaredParams):
            return self._wink_values() == other._wink_values()
        return NotImplemented

    def __hash__(self) -> int:
        """The hash of the fields' tuple, as a frozen dataclass's."""
        return hash(self._wink_values())

    def __repr__(self) -> str:
        """``Name(field=value, ...)``, as a dataclass prints."""
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._wink_defaults)
        return f"{type(self).__qualname__}({shown})"

    def __getstate__(self) -> tuple[object, ...]:
        """The fields' values, for ``copy`` (as ``dataclass(slots=True, frozen=True)`` does)."""
        return self._wink_values()

    def __setstate__(self, state: tuple[object, ...]) -> None:
        """Set the fields from ``__getstate__``'s values, past the frozen ``__setattr__``."""
        for name, value in zip(self._wink_defaults, state, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        """Refused: the instance is frozen."""
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        """Refused: the instance is frozen."""
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _missing_message(owner: str, missing: list[str]) -> str:
    """Python's own words for missing keyword-only arguments."""
    names = [f"'{name}'" for name in missing]
    listed = names[-1] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    if len(names) > 2:  # noqa: PLR2004  # Python writes 'a', 'b', and 'c'
        listed = f"{', '.join(names[:-1])}, and {names[-1]}"
    counted = (
        "1 required keyword-only argument"
        if len(names) == 1
        else (f"{len(names)} required keyword-only arguments")
    )
    return f"{owner}.__init__() missing {counted}: {listed}"


def _positional_message(owner: str, extra: int, keywords: int) -> str:
    """Python's own words for positional arguments given to a keyword-only ``__init__``."""
    given = f"{extra + 1}"
    if keywords:
        plural = "" if keywords == 1 else "s"
        given += f" positional arguments (and {keywords} keyword-only argument{plural})"
    return f"{owner}.__init__() takes 1 positional argument but {given} were given"
