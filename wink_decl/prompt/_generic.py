"""``Cls[A, B](...)`` that remembers A and B at run time, for sections and tools."""

from __future__ import annotations

from typing import Any

__all__ = ["specialise"]

_MADE: dict[tuple[type, tuple[str, ...], tuple[object, ...]], type] = {}


def specialise(cls: type, names: tuple[str, ...], items: tuple[object, ...]) -> type:
    """A subclass of ``cls`` whose class attributes ``names`` hold ``items``.

    ``typing.Generic`` only records type arguments on the instance after ``__init__``
    has run; validation needs them during construction, hence a real subclass.
    ``Tool[P, R]`` is the same class every time, from every thread: two threads that
    build it at once both get the one ``dict.setdefault`` kept (an atomic step).
    """
    key = (cls, names, items)
    made = _MADE.get(key)
    if made is None:
        made = _MADE.setdefault(key, _subclass(cls, names, items))
    return made


def _subclass(cls: type, names: tuple[str, ...], items: tuple[object, ...]) -> type:
    labels = ", ".join(getattr(item, "__name__", repr(item)) for item in items)
    namespace: dict[str, Any] = dict(zip(names, items, strict=True))
    namespace["__slots__"] = ()
    namespace["__module__"] = cls.__module__
    namespace["__qualname__"] = f"{cls.__qualname__}[{labels}]"
    return type(f"{cls.__name__}[{labels}]", (cls,), namespace)
