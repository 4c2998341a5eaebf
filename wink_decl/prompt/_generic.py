"""``Cls[A, B](...)`` that remembers A and B at run time, for sections and tools."""

from __future__ import annotations

import threading

__all__ = ["is_specialised", "specialise"]

_MADE_LIMIT = 4096
"""Subclasses kept for sharing; past this, the oldest is forgotten (what uses it keeps it).

Without a bound a long-lived process (a preview server, a registry serving edited files)
would keep a subclass, and the params class it names, for every declaration it ever saw.
"""
_made: dict[tuple[type, tuple[str, ...], tuple[object, ...]], type] = {}
"""Subclasses by class and arguments; read without a lock."""
_made_lock = threading.Lock()
"""Taken only to add a subclass, so two threads never evict at once."""


def specialise(cls: type, names: tuple[str, ...], items: tuple[object, ...]) -> type:
    """A subclass of ``cls`` whose class attributes ``names`` hold ``items``.

    ``typing.Generic`` only records type arguments on the instance after ``__init__``
    has run; validation needs them during construction, hence a real subclass.
    ``Tool[P, R]`` is the same class every time, from every thread, while it is kept: two
    threads that build it at once both get the one stored first.
    """
    key = (cls, names, items)
    made = _made.get(key)
    if made is None:
        made = _keep(key, _subclass(cls, names, items))
    return made


def _keep(key: tuple[type, tuple[str, ...], tuple[object, ...]], made: type) -> type:
    """Keep ``made`` under ``key`` unless a subclass is there already; return the one kept."""
    with _made_lock:
        if len(_made) >= _MADE_LIMIT and key not in _made:
            del _made[next(iter(_made))]
        return _made.setdefault(key, made)


def is_specialised(cls: type) -> bool:
    """True for a class ``specialise`` is making: its namespace holds what Generic would set.

    ``typing.Generic.__init_subclass__`` sets ``__parameters__`` to ``()`` on a subclass
    that names no type variable, as this one; the classes that use ``specialise`` skip that
    work for it (see their ``__init_subclass__``), a tenth of what making the class costs.
    """
    return "__parameters__" in cls.__dict__


def _subclass(cls: type, names: tuple[str, ...], items: tuple[object, ...]) -> type:
    labels = ", ".join([_label(item) for item in items])
    namespace: dict[str, object] = dict(zip(names, items, strict=True))
    namespace["__slots__"] = ()
    namespace["__module__"] = cls.__module__
    namespace["__qualname__"] = f"{cls.__qualname__}[{labels}]"
    namespace["__parameters__"] = ()
    return type(f"{cls.__name__}[{labels}]", (cls,), namespace)


def _label(item: object) -> str:
    """How ``item`` is named in the subclass's name: its ``__name__``, else its repr."""
    name = getattr(item, "__name__", None)
    return repr(item) if name is None else name
