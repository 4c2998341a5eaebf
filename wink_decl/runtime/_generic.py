"""``Cls[A, B](...)`` that remembers A and B at run time, for sections and tools."""

from __future__ import annotations

from functools import cache
from typing import Any

__all__ = ["specialise"]


@cache
def specialise(cls: type, names: tuple[str, ...], items: tuple[object, ...]) -> type:
    """A subclass of ``cls`` whose class attributes ``names`` hold ``items``.

    ``typing.Generic`` only records type arguments on the instance after ``__init__``
    has run; validation needs them during construction, hence a real subclass.
    Cached so ``Tool[P, R]`` is the same class every time.
    """
    labels = ", ".join(getattr(item, "__name__", repr(item)) for item in items)
    namespace: dict[str, Any] = dict(zip(names, items, strict=True))
    namespace["__slots__"] = ()
    namespace["__module__"] = cls.__module__
    namespace["__qualname__"] = f"{cls.__qualname__}[{labels}]"
    return type(f"{cls.__name__}[{labels}]", (cls,), namespace)
