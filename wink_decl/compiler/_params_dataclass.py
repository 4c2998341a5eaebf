"""Declared params become dataclasses, so the runtime binds, defaults and checks them."""

from __future__ import annotations

import dataclasses
import keyword
import threading
from typing import TYPE_CHECKING, Any, Literal, cast

from wink_decl.compiler._declared_params import PROTOTYPE_PARAMS, DeclaredParams, mark_as_field

if TYPE_CHECKING:
    from wink_decl.schema.model import ParamSpec

__all__ = [
    "FieldSpec",
    "exact_key",
    "make_dataclass_for",
    "python_type",
    "spec_from_model",
]

_SCALARS: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool}

_MADE_LIMIT = 4096
"""Generated classes kept for sharing; past this, the oldest is forgotten (its prompts keep it)."""
_made: dict[tuple[object, ...], type] = {}
"""Generated classes by the exact key of their declarations; read without a lock."""
_made_lock = threading.Lock()
"""Taken only to add a class, so two threads never evict at once (see ``_keep``)."""


@dataclasses.dataclass(slots=True, frozen=True)
class FieldSpec:
    """One declared field, as the file wrote it.

    ``==`` is Python's: ``default=1`` equals ``default=1.0``. Classes are shared by
    ``exact_key``, which tells them apart.
    """

    name: str
    type: str
    description: str = ""
    has_default: bool = False
    default: object = None
    enum: tuple[object, ...] = ()
    items: str = ""

    @property
    def required(self) -> bool:
        """Required unless a default is given."""
        return not self.has_default


def spec_from_model(name: str, spec: ParamSpec) -> FieldSpec:
    """A ``FieldSpec`` from a param of the typed document.

    A default or an enum the file left out is None in the model (it refuses ``null``).
    """
    return FieldSpec(
        name=name,
        type=spec.type,
        description=spec.description or "",
        has_default=spec.default is not None,
        default=spec.default,
        enum=spec.enum or (),
        items="" if spec.items is None else spec.items.type,
    )


def python_type(spec: FieldSpec) -> object:
    """The annotation for a field: scalars, ``Literal`` for enums, ``tuple[X, ...]`` for arrays."""
    if spec.enum:
        return Literal[spec.enum]  # pyright: ignore[reportInvalidTypeForm]  # built at run time
    if spec.type == "array":
        item = _SCALARS[spec.items or "string"]
        return tuple[item, ...]  # pyright: ignore[reportInvalidTypeForm]  # built at run time
    return _SCALARS[spec.type]


def make_dataclass_for(class_name: str, specs: tuple[FieldSpec, ...]) -> type:
    """A frozen dataclass for ``specs``; identical declarations share one (classes are costly).

    Identical means equal values of equal types (``exact_key``): a prompt declaring
    ``default: 1.0`` never gets the class made for ``default: 1``, which would render ``1``.
    Safe from many threads: two that make the same class at once both get the one kept.
    """
    key = (class_name, *(exact_key(spec) for spec in specs))
    made = _made.get(key)
    if made is None:
        made = _keep(key, _make(class_name, specs))
    return made


def exact_key(spec: FieldSpec) -> tuple[object, ...]:
    """What makes two declarations identical: every field, values with their types."""
    return (
        spec.name,
        spec.type,
        spec.description,
        spec.has_default,
        _exact(spec.default),
        _exact(spec.enum),
        spec.items,
    )


def _exact(value: object) -> object:
    """``value`` as a key that only an identical value matches.

    ``1``, ``1.0`` and ``True`` are equal in Python and must not be here; floats go by their
    exact bits, so ``-0.0`` is not ``0.0`` (and every NaN is the same key, though not equal).
    """
    if isinstance(value, tuple):
        return (tuple, *(_exact(item) for item in cast("tuple[object, ...]", value)))
    if isinstance(value, float):
        return (float, value.hex())
    return (type(value), value)


def _keep(key: tuple[object, ...], made: type) -> type:
    """Keep ``made`` under ``key`` unless a class is there already; return the one kept.

    Making a class needs no lock; keeping it does, so two threads never evict the same entry
    or iterate the dict while another changes it. ``setdefault`` makes whoever stores first
    win: every compile of identical declarations gets one class.
    """
    with _made_lock:
        if len(_made) >= _MADE_LIMIT and key not in _made:
            del _made[next(iter(_made))]
        return _made.setdefault(key, made)


def _make(class_name: str, specs: tuple[FieldSpec, ...]) -> type:
    """A ``DeclaredParams`` subclass, made with ``type()`` (``make_dataclass`` costs ~0.3 ms)."""
    fields = {spec.name: _field(spec) for spec in specs}
    namespace: dict[str, object] = {
        "__slots__": tuple(fields),
        "__qualname__": class_name,
        "__module__": __name__,
        "__annotations__": {name: field.type for name, field in fields.items()},
        "__dataclass_fields__": fields,
        "__dataclass_params__": PROTOTYPE_PARAMS,
        "_wink_defaults": {name: field.default for name, field in fields.items()},
    }
    return type(class_name, (DeclaredParams,), namespace)


def _field(spec: FieldSpec) -> dataclasses.Field[Any]:
    """The field ``dataclass()`` would make for ``spec``: kw-only, its default and description."""
    metadata = {"description": spec.description} if spec.description else None
    if spec.has_default:
        # Typed by its default, as field() claims to return it: it returns the Field.
        made = cast(
            "dataclasses.Field[Any]",
            dataclasses.field(default=spec.default, metadata=metadata, kw_only=True),
        )
    else:
        made = dataclasses.field(metadata=metadata, kw_only=True)
    made.name = _field_name(spec.name)
    made.type = python_type(spec)
    mark_as_field(made)
    return made


def _field_name(name: str) -> str:
    if keyword.iskeyword(name):  # the schema refuses keywords; this keeps the generator total
        raise ValueError(f"'{name}' cannot be a field name: it is a Python keyword.")
    return name
